#include "cli/run_spec.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <charconv>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/setup.h"
#include "cluster/cluster_config.h"
#include "common/error.h"
#include "common/input_file.h"
#include "common/sha256.h"
#include "scheduling/job_order.h"
#include "systems/systems.h"
#include "workload/fb_trace.h"
#include "workload/flow_workload.h"
#include "workload/job_file.h"
#include "workload/network_mode.h"
#include "workload/synthetic.h"
#include "workload/tcds_workload.h"

namespace slotflow {
namespace {

int Line(const toml::node& n) { return static_cast<int>(n.source().begin.line); }

std::string StringOf(const toml::node& n, const std::string& file, const std::string& field) {
  if (auto v = n.value<std::string>()) return *v;
  throw InputError(file, Line(n), field, "expected a string");
}

// Re-throws a parse error from a value with the config file's position attached.
template <class F>
auto At(const toml::node& n, const std::string& file, const std::string& field, F parse) {
  try {
    return parse();
  } catch (const InputError& e) {
    throw InputError(file, Line(n), field, e.message());
  }
}

void ApplyOverrides(const ClusterOverrides& o, ClusterSpec& c) {
  if (o.servers) {
    if (c.classes.size() != 1) {
      throw InputError("", 0, "--servers",
                       "cannot set the server count of a heterogeneous cluster (edit its classes)");
    }
    c.classes[0].count = *o.servers;
  }
  for (ServerClass& sc : c.classes) {
    if (o.slots) sc.slots = *o.slots;
    if (o.cpu_speed) sc.cpu_speed = *o.cpu_speed;
    if (o.nic) sc.nic = *o.nic;
    if (o.disk) sc.disk = *o.disk;
  }
  if (o.replicas) c.replicas = *o.replicas;
  if (o.servers_per_rack) c.servers_per_rack = *o.servers_per_rack;
  if (o.oversubscription) c.oversubscription = *o.oversubscription;
  if (o.slot_rate) c.slot_rate = *o.slot_rate;
  if (o.topology) c.topology = *o.topology;
}

// A task that fits no server's memory would wait for ever: refuse the workload instead.
void CheckTasksFit(const Cluster& cluster, const Workload& workload) {
  Bytes largest = 0;  // the most memory a task can find on one server; infinite if unmodelled
  for (const Server& s : cluster.servers()) {
    if (s.slots <= 0) continue;
    largest = std::max(largest, s.memory > 0 ? s.memory : kForever);
  }
  for (const JobSpec& job : workload.jobs) {
    for (const StageSpec& st : job.stages) {
      for (const TaskSpec& t : st.tasks) {
        if (t.pinned == kNoServer && t.memory > largest) {
          throw InputError(workload.source, 0,
                           fmt::format("job '{}' stage '{}' memory", job.name, st.name),
                           fmt::format("a task needs {} but no server has that much memory",
                                       FormatBytes(t.memory)));
        }
      }
    }
  }
}

}  // namespace

std::string SettingText(const toml::node& n, const std::string& file, const std::string& field) {
  if (auto v = n.value_exact<std::string>()) return *v;
  if (auto v = n.value_exact<int64_t>()) return std::to_string(*v);
  if (auto v = n.value_exact<double>()) return fmt::format("{}", *v);
  if (auto v = n.value_exact<bool>()) return *v ? "true" : "false";
  throw InputError(file, Line(n), field, "expected a string or a number");
}

RunMode ParseRunMode(std::string_view text, std::string_view field) {
  if (text == "jobs") return RunMode::kJobs;
  if (text == "network") return RunMode::kNetwork;
  throw InputError("", 0, std::string(field),
                   fmt::format("unknown mode '{}' (known: jobs, network)", text));
}

std::string_view RunModeName(RunMode mode) { return mode == RunMode::kJobs ? "jobs" : "network"; }

void ApplyConfigFile(const std::string& path, RunSpec& spec) {
  const std::string text = ReadInputFile(path, "config");
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || text[first] != '{') {
    ApplyConfigText(text, path, spec);
    return;
  }
  // A summary.json: its "setup" is the config that reproduces the run.
  nlohmann::json summary;
  try {
    summary = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    const auto upto = text.substr(0, std::min(e.byte, text.size()));
    throw InputError(path, static_cast<int>(std::count(upto.begin(), upto.end(), '\n')) + 1, "",
                     fmt::format("not valid JSON: {}", e.what()));
  }
  ApplyConfigTable(SetupFromSummaryJson(summary, path), path, spec);
}

toml::table ParseToml(std::string_view text, const std::string& path) {
  try {
    return toml::parse(text, std::string_view(path));
  } catch (const toml::parse_error& e) {
    throw InputError(path, static_cast<int>(e.source().begin.line), "",
                     std::string(e.description()));
  }
}

void ApplyConfigText(std::string_view text, const std::string& path, RunSpec& spec,
                     const std::vector<std::string_view>& skip) {
  ApplyConfigTable(ParseToml(text, path), path, spec, skip);
}

namespace {

void ApplyWorkloadTable(const toml::node& node, const std::string& path, RunSpec& spec) {
  if (!node.is_table()) throw InputError(path, Line(node), "workload", "expected a table");
  for (const auto& [wk, wn] : *node.as_table()) {
    const std::string f = "workload." + std::string(wk.str());
    if (wk == "trace" || wk == "jobs" || wk == "sha256") {
      std::string value = StringOf(wn, path, f);
      if (value.empty()) throw InputError(path, Line(wn), f, "is empty");
      if (wk != "sha256") spec.input_from = {std::string(wk.str()), value, path, Line(wn), f};
      spec.given_at[f] = {std::string(wk.str()), value, path, Line(wn), f};
      (wk == "trace"  ? spec.trace
       : wk == "jobs" ? spec.jobs_file
                      : spec.input_sha256) = std::move(value);
      if (wk == "sha256") {
        spec.input_sha256_from = path;
        spec.input_sha256_line = Line(wn);
      }
    } else if (wk == "mode") {
      spec.mode = At(wn, path, f, [&, &n = wn] { return ParseRunMode(StringOf(n, path, f), f); });
    } else {
      SetWorkloadValue(spec, std::string(wk.str()), SettingText(wn, path, f), path, Line(wn), f);
    }
  }
}

}  // namespace

void ApplyConfigTable(const toml::table& root, const std::string& path, RunSpec& spec,
                      const std::vector<std::string_view>& skip) {
  auto skipped = [&](std::string_view k) {
    return std::find(skip.begin(), skip.end(), k) != skip.end();
  };
  // The preset first: everything else in the file overrides it, whatever the key order.
  if (const toml::node* system = root.get("system"); system && !skipped("system")) {
    const std::string name = StringOf(*system, path, "system");
    At(*system, path, "system", [&] {
      ApplySystem(spec, name, "system");
      return 0;
    });
  }
  for (const auto& [key, node] : root) {
    const std::string k(key.str());
    if (skipped(k) || k == "system") continue;
    if (k == "cluster") {
      if (!node.is_table()) throw InputError(path, Line(node), "cluster", "expected a table");
      ApplyClusterToml(*node.as_table(), path, spec.cluster);
      spec.cluster_layers.emplace_back(path, *node.as_table());
      for (const char* ck : {"servers", "class"}) {
        const std::string f = "cluster." + std::string(ck);
        if (const toml::node* n = node.as_table()->get(ck))
          spec.given_at[f] = {ck, "", path, Line(*n), f};
      }
    } else if (k == "workload") {
      ApplyWorkloadTable(node, path, spec);
    } else if (k == "scheduler" || k == "network") {
      if (!node.is_table()) throw InputError(path, Line(node), k, "expected a table");
      for (const auto& [pk, pn] : *node.as_table()) {
        const std::string f = k + "." + std::string(pk.str());
        SetPolicySetting(spec, f, SettingText(pn, path, f), path, Line(pn), f);
      }
    } else if (k == "seed") {
      spec.simulation.seed =
          At(node, path, k, [&, &n = node] { return ParseSeed(SettingText(n, path, k), k); });
    } else {
      throw InputError(
          path, Line(node), k,
          "unknown key (known: seed, system, [cluster], [workload], [scheduler], [network])");
    }
  }
}

namespace {

// The input file's text, read once for its SHA-256 (checked against the set-up's [workload]
// sha256 when one is given) and for its reader.
std::string ReadInput(const RunSpec& spec, const std::string& path, const std::string& field,
                      std::string& digest_out) {
  std::string text;
  try {
    text = ReadInputFile(path, field);
  } catch (const InputError& e) {
    const SettingAssignment& from = spec.input_from;
    if (from.field.empty()) throw;
    throw InputError(from.file, from.line, from.field, fmt::format("{}: {}", path, e.message()));
  }
  const std::string digest = Sha256Hex(text);
  if (!spec.input_sha256.empty() && spec.input_sha256 != digest) {
    throw InputError(spec.input_sha256_from, spec.input_sha256_line, "workload.sha256",
                     fmt::format("{} has SHA-256 {}, not {}: it is not the input this set-up "
                                 "was made on (remove this line to run it on another input)",
                                 path, digest, spec.input_sha256));
  }
  digest_out = digest;
  return text;
}

// Where a value was given, for a message: "file:line", or its flag.
std::string WhereGiven(const SettingAssignment& a) {
  if (a.file.empty()) return a.field;
  return a.line > 0 ? fmt::format("{}:{}", a.file, a.line) : a.file;
}

// Where `dotted_key` was given; for a value never given, the key itself as its field.
SettingAssignment GivenAt(const RunSpec& spec, const std::string& dotted_key) {
  const auto it = spec.given_at.find(dotted_key);
  return it != spec.given_at.end() ? it->second
                                   : SettingAssignment{dotted_key, "", "", 0, dotted_key};
}

Workload GenerateFlows(const RunSpec& spec, const ClusterSpec& cluster) {
  FlowWorkloadOptions o;
  o.sizes = ParseFlowSizes(spec.flow_sizes, "flow_sizes");
  o.load = spec.flow_load;
  o.flows = spec.flows;
  o.seed = spec.simulation.seed;
  BytesPerSecond total_nic = 0;
  for (const ServerClass& c : cluster.classes) total_nic += c.count * c.nic;
  return GenerateFlowWorkload(o, cluster.ServerCount(), total_nic);
}

}  // namespace

PreparedRun Prepare(const RunSpec& spec) {
  if (!spec.trace.empty() && !spec.jobs_file.empty()) {
    // At the one named last; the other was named in the config file.
    const SettingAssignment& at = spec.input_from;
    const SettingAssignment other =
        GivenAt(spec, at.key == "trace" ? "workload.jobs" : "workload.trace");
    throw InputError(
        at.file, at.line, at.field.empty() ? "--trace/--jobs" : at.field,
        other.value.empty() || WhereGiven(other) == WhereGiven(at)
            ? "give a trace or a job file, not both"
            : fmt::format("give a trace or a job file, not both ({} names the {})",
                          WhereGiven(other), other.key == "trace" ? "trace" : "job file"));
  }
  if (spec.generator != "synthetic" && (!spec.trace.empty() || !spec.jobs_file.empty())) {
    const SettingAssignment at = GivenAt(spec, "workload.generator");
    throw InputError(at.file, at.line, at.field,
                     fmt::format("the {} generator makes its own jobs: drop it or the {} ({})",
                                 spec.generator, spec.trace.empty() ? "job file" : "trace",
                                 spec.input_from.field.empty() ? "--trace/--jobs"
                                                               : WhereGiven(spec.input_from)));
  }
  if (!(spec.traffic_scale > 0)) throw InputError("", 0, "traffic_scale", "must be positive");
  if (spec.map_input_ratio && !(*spec.map_input_ratio >= 0))
    throw InputError("", 0, "map_input_ratio", "must be non-negative");
  ClusterSpec cluster = spec.cluster;
  Workload workload;
  std::string name, input_sha256;
  std::optional<int> trace_ports;
  const FbTraceOptions trace_options{spec.traffic_scale, spec.map_input_ratio};
  if (!spec.trace.empty()) {
    std::istringstream in(ReadInput(spec, spec.trace, "trace", input_sha256));
    FbTrace t = spec.mode == RunMode::kNetwork ? ReadFbTraceAsCoflows(in, spec.trace, trace_options)
                                               : ReadFbTraceAsJobs(in, spec.trace, trace_options);
    workload = std::move(t.workload);
    trace_ports = t.ports;
    name = "trace:" + spec.trace;
  } else if (!spec.jobs_file.empty()) {
    JobFile jf =
        ParseJobFile(ReadInput(spec, spec.jobs_file, "jobs", input_sha256), spec.jobs_file);
    if (jf.cluster) {
      cluster = *jf.cluster;
      for (const auto& [file, table] : spec.cluster_layers) ApplyClusterToml(table, file, cluster);
    }
    workload = std::move(jf.workload);
    name = "jobs:" + spec.jobs_file;
  } else if (spec.generator == "flows") {
    name = "flows";  // generated below, once the cluster's size is known
  } else if (spec.generator == "tcds") {
    TcdsWorkloadOptions to;
    to.group = spec.tcds_group;
    to.seed = spec.simulation.seed;
    to.tasks_per_job = spec.tcds_tasks_per_job;
    to.mean_interarrival_s = spec.tcds_interarrival;
    workload = GenerateTcdsWorkload(to);
    name = fmt::format("tcds(group={}, seed={})", to.group, to.seed);
  } else {
    SyntheticOptions so;
    so.jobs = spec.synthetic_jobs;
    so.mean_interarrival_s = spec.synthetic_interarrival;
    so.seed = spec.simulation.seed;
    so.traffic_scale = spec.traffic_scale;
    so.map_input_ratio = spec.map_input_ratio;
    if (so.jobs <= 0) throw InputError("", 0, "synthetic_jobs", "must be at least 1");
    try {
      workload = GenerateSynthetic(so);
    } catch (const InputError& e) {
      // Sizes past the limit come from traffic_scale and map_input_ratio together: at the
      // second if given, naming where the first was.
      if (!e.file().empty() || e.field() != "traffic_scale/map_input_ratio") throw;
      const SettingAssignment scale = GivenAt(spec, "workload.traffic_scale");
      const SettingAssignment ratio = GivenAt(spec, "workload.map_input_ratio");
      const SettingAssignment& at = ratio.value.empty() ? scale : ratio;
      throw InputError(
          at.file, at.line, at.field,
          &at == &ratio && !scale.value.empty()
              ? fmt::format("{} (with traffic_scale from {})", e.message(), WhereGiven(scale))
              : e.message());
    }
    name = fmt::format("synthetic(jobs={}, seed={})", so.jobs, so.seed);
  }
  ApplyOverrides(spec.overrides, cluster);
  if (trace_ports && spec.mode == RunMode::kNetwork) {
    // Pinned coflows: one server per trace port, unless a flag or config file sets the count.
    SettingAssignment given;  // where: the flag, else the config file's line
    if (spec.overrides.servers) given.field = "--servers";
    for (const char* key : {"cluster.class", "cluster.servers"}) {
      if (given.field.empty() && spec.given_at.contains(key)) given = spec.given_at.at(key);
    }
    if (!given.field.empty() && cluster.ServerCount() < *trace_ports) {
      throw InputError(
          given.file, given.line, given.field,
          fmt::format("the trace uses {} ports; network mode needs at least that many servers",
                      *trace_ports));
    }
    if (given.field.empty() && cluster.classes.size() == 1) cluster.classes[0].count = *trace_ports;
  }
  cluster.Validate();
  if (spec.generator == "flows" && spec.trace.empty() && spec.jobs_file.empty()) {
    workload = GenerateFlows(spec, cluster);
    name = workload.source;
  }
  if (spec.mode == RunMode::kNetwork && !trace_ports) {
    workload = PinForNetworkMode(std::move(workload), cluster.ServerCount(), spec.simulation.seed);
  }
  workload.Validate(cluster.ServerCount());
  if (spec.mode == RunMode::kNetwork) name += " (network mode)";
  if (!spec.input_sha256.empty() && input_sha256.empty()) {
    throw InputError(spec.input_sha256_from, spec.input_sha256_line, "workload.sha256",
                     "is set but the run reads no trace or job file");
  }
  PreparedRun run{Cluster(cluster), std::move(workload), name, std::move(input_sha256)};
  CheckTasksFit(run.cluster, run.workload);
  return run;
}

// The workload's numeric values and their domains; the config file and the flags both go
// through SetWorkloadValue, so one rule checks them.
const std::vector<SettingSpec>& WorkloadValues() {
  static const std::vector<SettingSpec> values = {
      {.name = "traffic_scale",
       .kind = SettingKind::kNumber,
       .default_value = "1",
       .meaning = "multiplies every byte count of the workload",
       .min = 0,
       .max = 1e6,
       .min_exclusive = true,
       .choices = {}},
      {.name = "map_input_ratio",
       .kind = SettingKind::kNumber,
       .default_value = "balanced",
       .meaning = "map input = ratio x job shuffle / maps (default: each job's map stage as "
                  "long as its reduce stage on an idle 1 Gbps, 1 GB/s-per-slot cluster)",
       .min = 0,
       .max = 1e6,
       .choices = {}},
      {.name = "synthetic_jobs",
       .kind = SettingKind::kInteger,
       .default_value = "200",
       .meaning = "jobs in the embedded synthetic workload",
       .min = 1,
       .max = 1e6,
       .choices = {}},
      {.name = "synthetic_interarrival",
       .kind = SettingKind::kSeconds,
       .default_value = "0.5s",
       .meaning = "mean time between synthetic job arrivals",
       .min = 0,
       .max = 1e6,
       .min_exclusive = true,
       .choices = {}},
      // Estimates are multiplied by a factor in [1 - e, 1 + e], which must stay positive.
      {.name = "estimate_error",
       .kind = SettingKind::kNumber,
       .default_value = "0",
       .meaning = "SJF size estimates multiplied by a random factor in [1-e, 1+e]",
       .min = 0,
       .max = 0.999,
       .choices = {}},
      {.name = "generator",
       .kind = SettingKind::kChoice,
       .default_value = "synthetic",
       .meaning = "the embedded workload without a trace or job file: synthetic, tcds "
                  "(seed 001 §3.1), or flows (seed 003 §VII: single transfers)",
       .choices = {"synthetic", "tcds", "flows"}},
      {.name = "flow_sizes",
       .kind = SettingKind::kChoice,
       .default_value = "datamining",
       .meaning = "flows generator: the size distribution, websearch (DCTCP) or datamining (VL2)",
       .choices = {"websearch", "datamining"}},
      {.name = "flow_load",
       .kind = SettingKind::kNumber,
       .default_value = "0.5",
       .meaning = "flows generator: the mean load of the edge links (Poisson arrivals)",
       .min = 0,
       .max = 1,
       .min_exclusive = true,
       .choices = {}},
      {.name = "flows",
       .kind = SettingKind::kInteger,
       .default_value = "2000",
       .meaning = "flows generator: the number of flows",
       .min = 1,
       .max = 1e7,
       .choices = {}},
      {.name = "tcds_group",
       .kind = SettingKind::kInteger,
       .default_value = "1",
       .meaning = "tcds generator: the group of seed 001 Table 1",
       .min = 1,
       .max = 5,
       .choices = {}},
      {.name = "tcds_tasks_per_job",
       .kind = SettingKind::kInteger,
       .default_value = "5",
       .meaning = "tcds generator: tasks per job (one class per job)",
       .min = 1,
       .max = 1e6,
       .choices = {}},
      {.name = "tcds_interarrival",
       .kind = SettingKind::kSeconds,
       .default_value = "1s",
       .meaning = "tcds generator: mean time between job arrivals (Poisson)",
       .min = 0,
       .max = 1e6,
       .choices = {}}};
  return values;
}

void SetWorkloadValue(RunSpec& spec, const std::string& key, std::string text,
                      const std::string& file, int line, const std::string& field) {
  const SettingAssignment given{key, std::move(text), file, line, field};
  for (const SettingSpec& s : WorkloadValues()) {
    if (s.name != key) continue;
    std::string canonical;
    const double v = ParseSetting(s, given, canonical);
    spec.given_at["workload." + key] = given;
    if (key == "traffic_scale") spec.traffic_scale = v;
    if (key == "map_input_ratio") spec.map_input_ratio = v;
    if (key == "synthetic_jobs") spec.synthetic_jobs = static_cast<int>(v);
    if (key == "synthetic_interarrival") spec.synthetic_interarrival = v;
    if (key == "estimate_error") spec.simulation.estimate_error = v;
    if (key == "generator") spec.generator = canonical;
    if (key == "tcds_group") spec.tcds_group = static_cast<int>(v);
    if (key == "tcds_tasks_per_job") spec.tcds_tasks_per_job = static_cast<int>(v);
    if (key == "tcds_interarrival") spec.tcds_interarrival = v;
    if (key == "flow_sizes") spec.flow_sizes = canonical;
    if (key == "flow_load") spec.flow_load = v;
    if (key == "flows") spec.flows = static_cast<int>(v);
    return;
  }
  throw InputError(file, line, field, "unknown key");
}

uint64_t ParseSeed(std::string_view text, std::string_view field) {
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) {
    throw InputError("", 0, std::string(field),
                     fmt::format("expected a non-negative integer below 2^64, got '{}'", text));
  }
  return v;
}

void SetPolicySetting(RunSpec& spec, std::string_view dotted_key, std::string value,
                      const std::string& file, int line, const std::string& field) {
  const size_t dot = dotted_key.find('.');
  const std::string_view table = dotted_key.substr(0, dot);
  const std::string key(dot == std::string_view::npos ? "" : dotted_key.substr(dot + 1));
  if ((table != "scheduler" && table != "network") || key.empty()) {
    throw InputError(file, line, field,
                     fmt::format("unknown setting '{}' (settings are scheduler.KEY or "
                                 "network.KEY; see `slotflow policies NAME`)",
                                 dotted_key));
  }
  const bool scheduler = table == "scheduler";
  if (key == "policy") {
    if (value.empty()) throw InputError(file, line, field, "the policy name is empty");
    (scheduler ? spec.scheduler_from : spec.network_from) = {key, value, file, line, field};
    (scheduler ? spec.scheduler_explicit : spec.network_explicit) = true;
    (scheduler ? spec.scheduler : spec.network) = std::move(value);
    return;
  }
  (scheduler ? spec.scheduler_settings : spec.network_settings)
      .push_back(SettingAssignment{key, std::move(value), file, line, field});
}

void ApplySetFlag(RunSpec& spec, std::string_view assignment) {
  const size_t eq = assignment.find('=');
  if (eq == std::string_view::npos) {
    throw InputError(
        "", 0, "--set",
        fmt::format("expected KEY=VALUE (e.g. network.queues=8), got '{}'", assignment));
  }
  const std::string key(assignment.substr(0, eq));
  SetPolicySetting(spec, key, std::string(assignment.substr(eq + 1)), "", 0, "--set " + key);
}

void ApplySystem(RunSpec& spec, const std::string& name, const std::string& field,
                 bool replace_policies) {
  const SystemSpec& system = FindSystem(name, field);
  if (replace_policies) spec.scheduler_explicit = spec.network_explicit = false;
  spec.system = system.name;
  spec.preset_scheduler = system.scheduler;
  spec.preset_network = system.network;
  if (!spec.scheduler_explicit) {
    spec.scheduler = system.scheduler;
    spec.scheduler_from = {"policy", system.scheduler, "", 0, field};
  }
  if (!spec.network_explicit) {
    spec.network = system.network;
    spec.network_from = {"policy", system.network, "", 0, field};
  }
  RunSpec preset;
  for (const auto& [key, value] : system.settings) {
    SetPolicySetting(preset, key, value, "", 0, fmt::format("system {} ({})", name, key));
  }
  spec.preset_scheduler_settings = std::move(preset.scheduler_settings);
  spec.preset_network_settings = std::move(preset.network_settings);
}

namespace {

// The preset's settings while its policy is in force, then those given in files and flags.
std::vector<SettingAssignment> Layered(const std::string& policy, const std::string& preset_policy,
                                       const std::vector<SettingAssignment>& preset,
                                       const std::vector<SettingAssignment>& given) {
  std::vector<SettingAssignment> all;
  if (policy == preset_policy) all = preset;
  all.insert(all.end(), given.begin(), given.end());
  return all;
}

// "scheduler 'greedy' (named by --scheduler)": an unknown setting names both of its sources.
std::string PolicyWhat(std::string_view kind, const std::string& name,
                       const SettingAssignment& from) {
  const std::string where =
      from.file.empty() ? from.field : fmt::format("{}:{} {}", from.file, from.line, from.field);
  return fmt::format("{} '{}' (named by {})", kind, name, where);
}

}  // namespace

bool WorkloadDependsOnSeed(const RunSpec& spec) {
  return spec.trace.empty() && (spec.jobs_file.empty() || spec.mode == RunMode::kNetwork);
}

ResolvedPolicies ResolvePolicies(const RunSpec& spec) {
  if (!spec.system.empty() && spec.scheduler != spec.preset_scheduler &&
      spec.network != spec.preset_network) {
    // Nothing of the preset would be in force: the system named is not what runs.
    throw InputError(spec.scheduler_from.file, spec.scheduler_from.line, spec.scheduler_from.field,
                     fmt::format("system '{}' (scheduler {}, network {}) is named, but {} sets "
                                 "scheduler {} and {} network {}: drop one of them",
                                 spec.system, spec.preset_scheduler, spec.preset_network,
                                 spec.scheduler_from.field, spec.scheduler, spec.network_from.field,
                                 spec.network));
  }
  const auto& schedulers = TaskSchedulerRegistry::Get();
  const auto& networks = NetworkPolicyRegistry::Get();
  const auto& sf = spec.scheduler_from;
  const auto& nf = spec.network_from;
  return ResolvedPolicies{
      Settings(schedulers.Find(spec.scheduler, sf.field, sf.file, sf.line).settings,
               Layered(spec.scheduler, spec.preset_scheduler, spec.preset_scheduler_settings,
                       spec.scheduler_settings),
               PolicyWhat("scheduler", spec.scheduler, sf), "scheduler."),
      Settings(networks.Find(spec.network, nf.field, nf.file, nf.line).settings,
               Layered(spec.network, spec.preset_network, spec.preset_network_settings,
                       spec.network_settings),
               PolicyWhat("network policy", spec.network, nf), "network.")};
}

BuiltPolicies BuildPolicies(const RunSpec& spec) {
  ResolvedPolicies settings = ResolvePolicies(spec);
  BuiltPolicies out;
  for (const auto& [k, v] : settings.scheduler.InForce())
    out.in_force.emplace_back("scheduler." + k, v);
  for (const auto& [k, v] : settings.network.InForce())
    out.in_force.emplace_back("network." + k, v);
  const uint64_t seed = spec.simulation.seed;
  out.scheduler = TaskSchedulerRegistry::Get().Make(
      spec.scheduler, PolicyArgs{std::move(settings.scheduler), seed, spec.network}, "scheduler");
  out.network = NetworkPolicyRegistry::Get().Make(
      spec.network, PolicyArgs{std::move(settings.network), seed, ""}, "network");
  return out;
}

void Describe(const RunSpec& spec, const PreparedRun& run,
              std::vector<std::pair<std::string, std::string>> in_force, RunSummary& summary) {
  summary.scheduler = spec.scheduler;
  summary.network = spec.network;
  summary.system = spec.system;
  summary.workload = run.workload_name;
  summary.settings = std::move(in_force);
  summary.seed = spec.simulation.seed;
  summary.command_line = spec.command_line;
  summary.network_mode = spec.mode == RunMode::kNetwork;
  summary.setup = SetupJson(spec, run).dump();
}

RunResult Execute(const RunSpec& spec, const PreparedRun& run) {
  BuiltPolicies policies = BuildPolicies(spec);
  Simulator sim(run.cluster, run.workload, std::move(policies.scheduler),
                std::move(policies.network), spec.simulation);
  RunResult result = sim.Run();
  Describe(spec, run, std::move(policies.in_force), result.summary);
  return result;
}

}  // namespace slotflow
