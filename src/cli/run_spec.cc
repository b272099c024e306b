#include "cli/run_spec.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include "cluster/cluster_config.h"
#include "common/error.h"
#include "scheduling/job_order.h"
#include "workload/fb_trace.h"
#include "workload/job_file.h"
#include "workload/network_mode.h"
#include "workload/synthetic.h"

namespace slotflow {
namespace {

int Line(const toml::node& n) { return static_cast<int>(n.source().begin.line); }

std::string StringOf(const toml::node& n, const std::string& file, const std::string& field) {
  if (auto v = n.value<std::string>()) return *v;
  throw InputError(file, Line(n), field, "expected a string");
}

double NumberOf(const toml::node& n, const std::string& file, const std::string& field) {
  if (n.is_integer() || n.is_floating_point()) return *n.value<double>();
  throw InputError(file, Line(n), field, "expected a number");
}

int64_t IntegerOf(const toml::node& n, const std::string& file, const std::string& field) {
  if (auto v = n.value_exact<int64_t>()) return *v;
  throw InputError(file, Line(n), field, "expected an integer");
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

Bytes SizeOf(const toml::node& n, const std::string& file, const std::string& field) {
  if (n.is_string())
    return At(n, file, field, [&] { return ParseBytes(*n.value<std::string>(), field); });
  const double v = NumberOf(n, file, field);
  if (v < 0) throw InputError(file, Line(n), field, "must be non-negative");
  return v;
}

Seconds TimeOf(const toml::node& n, const std::string& file, const std::string& field) {
  if (n.is_string())
    return At(n, file, field, [&] { return ParseSeconds(*n.value<std::string>(), field); });
  const double v = NumberOf(n, file, field);
  if (v < 0) throw InputError(file, Line(n), field, "must be non-negative");
  return v;
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

}  // namespace

RunMode ParseRunMode(std::string_view text, std::string_view field) {
  if (text == "jobs") return RunMode::kJobs;
  if (text == "network") return RunMode::kNetwork;
  throw InputError("", 0, std::string(field),
                   fmt::format("unknown mode '{}' (known: jobs, network)", text));
}

std::string_view RunModeName(RunMode mode) { return mode == RunMode::kJobs ? "jobs" : "network"; }

void ApplyConfigFile(const std::string& path, RunSpec& spec) {
  toml::table root;
  try {
    root = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    const auto& src = e.source();
    const bool missing = src.begin.line == 0;
    throw InputError(path, static_cast<int>(src.begin.line), "",
                     missing ? "cannot open the config file" : std::string(e.description()));
  }
  for (const auto& [key, node] : root) {
    const std::string k(key.str());
    if (k == "cluster") {
      if (!node.is_table()) throw InputError(path, Line(node), "cluster", "expected a table");
      ApplyClusterToml(*node.as_table(), path, spec.cluster);
    } else if (k == "workload") {
      if (!node.is_table()) throw InputError(path, Line(node), "workload", "expected a table");
      for (const auto& [wk, wn] : *node.as_table()) {
        const std::string f = "workload." + std::string(wk.str());
        if (wk == "trace")
          spec.trace = StringOf(wn, path, f);
        else if (wk == "jobs")
          spec.jobs_file = StringOf(wn, path, f);
        else if (wk == "mode")
          spec.mode = At(wn, path, f, [&] { return ParseRunMode(StringOf(wn, path, f), f); });
        else if (wk == "traffic_scale")
          spec.traffic_scale = NumberOf(wn, path, f);
        else if (wk == "map_input_ratio")
          spec.map_input_ratio = NumberOf(wn, path, f);
        else if (wk == "synthetic_jobs")
          spec.synthetic_jobs = static_cast<int>(IntegerOf(wn, path, f));
        else if (wk == "synthetic_interarrival")
          spec.synthetic_interarrival = TimeOf(wn, path, f);
        else if (wk == "estimate_error")
          spec.simulation.estimate_error = NumberOf(wn, path, f);
        else
          throw InputError(path, Line(wn), f, "unknown key");
      }
    } else if (k == "policy") {
      if (!node.is_table()) throw InputError(path, Line(node), "policy", "expected a table");
      for (const auto& [pk, pn] : *node.as_table()) {
        const std::string f = "policy." + std::string(pk.str());
        if (pk == "scheduler")
          spec.scheduler = StringOf(pn, path, f);
        else if (pk == "network")
          spec.network = StringOf(pn, path, f);
        else if (pk == "order")
          spec.order = At(pn, path, f, [&] { return ParseJobOrder(StringOf(pn, path, f), f); });
        else if (pk == "queues") {
          if (pn.is_string() && *pn.value<std::string>() == "unlimited")
            spec.network_config.queues = 0;
          else {
            const int64_t q = IntegerOf(pn, path, f);
            if (q <= 0) throw InputError(path, Line(pn), f, "must be positive or \"unlimited\"");
            spec.network_config.queues = static_cast<int>(q);
          }
        } else if (pk == "first_threshold")
          spec.network_config.first_threshold = SizeOf(pn, path, f);
        else if (pk == "multiplier")
          spec.network_config.multiplier = NumberOf(pn, path, f);
        else if (pk == "seed")
          spec.simulation.seed = static_cast<uint64_t>(IntegerOf(pn, path, f));
        else
          throw InputError(path, Line(pn), f, "unknown key");
      }
    } else {
      throw InputError(path, Line(node), k, "unknown table (known: cluster, workload, policy)");
    }
  }
}

PreparedRun Prepare(const RunSpec& spec) {
  if (!spec.trace.empty() && !spec.jobs_file.empty()) {
    throw InputError("", 0, "--trace/--jobs", "give a trace or a job file, not both");
  }
  if (!(spec.traffic_scale > 0)) throw InputError("", 0, "traffic_scale", "must be positive");
  if (!(spec.map_input_ratio >= 0))
    throw InputError("", 0, "map_input_ratio", "must be non-negative");
  ClusterSpec cluster = spec.cluster;
  Workload workload;
  std::string name;
  std::optional<int> trace_ports;
  const FbTraceOptions trace_options{spec.traffic_scale, spec.map_input_ratio};
  if (!spec.trace.empty()) {
    FbTrace t = spec.mode == RunMode::kNetwork ? ReadFbTraceAsCoflows(spec.trace, trace_options)
                                               : ReadFbTraceAsJobs(spec.trace, trace_options);
    workload = std::move(t.workload);
    trace_ports = t.ports;
    name = "trace:" + spec.trace;
  } else if (!spec.jobs_file.empty()) {
    JobFile jf = ReadJobFile(spec.jobs_file);
    if (jf.cluster) cluster = *jf.cluster;
    workload = std::move(jf.workload);
    name = "jobs:" + spec.jobs_file;
  } else {
    SyntheticOptions so;
    so.jobs = spec.synthetic_jobs;
    so.mean_interarrival_s = spec.synthetic_interarrival;
    so.seed = spec.simulation.seed;
    so.traffic_scale = spec.traffic_scale;
    so.map_input_ratio = spec.map_input_ratio;
    if (so.jobs <= 0) throw InputError("", 0, "synthetic_jobs", "must be at least 1");
    workload = GenerateSynthetic(so);
    name = fmt::format("synthetic(jobs={}, seed={})", so.jobs, so.seed);
  }
  ApplyOverrides(spec.overrides, cluster);
  if (trace_ports && spec.mode == RunMode::kNetwork) {
    // Pinned coflows: one server per trace port (SPEC §5).
    if (spec.overrides.servers && *spec.overrides.servers < *trace_ports) {
      throw InputError(
          "", 0, "--servers",
          fmt::format("the trace uses {} ports; network mode needs at least that many servers",
                      *trace_ports));
    }
    if (!spec.overrides.servers && cluster.classes.size() == 1)
      cluster.classes[0].count = *trace_ports;
  }
  cluster.Validate();
  if (spec.mode == RunMode::kNetwork && !trace_ports) {
    workload = PinForNetworkMode(std::move(workload), cluster.ServerCount(), spec.simulation.seed);
  }
  workload.Validate(cluster.ServerCount());
  if (spec.mode == RunMode::kNetwork) name += " (network mode)";
  return PreparedRun{Cluster(cluster), std::move(workload), name};
}

RunResult Execute(const RunSpec& spec, const PreparedRun& run) {
  TaskSchedulerConfig sc;
  sc.order = spec.order;
  sc.seed = spec.simulation.seed;
  auto scheduler = TaskSchedulerRegistry::Get().Make(spec.scheduler, sc, "scheduler");
  auto network = NetworkPolicyRegistry::Get().Make(spec.network, spec.network_config, "network");
  Simulator sim(run.cluster, run.workload, std::move(scheduler), std::move(network),
                spec.simulation);
  RunResult result = sim.Run();
  result.summary.scheduler = spec.scheduler + "/" + std::string(JobOrderName(spec.order));
  result.summary.network = spec.network;
  result.summary.system = spec.system;
  result.summary.workload = run.workload_name;
  return result;
}

}  // namespace slotflow
