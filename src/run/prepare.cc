#include "run/prepare.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

#include "api/error.h"
#include "api/generator.h"
#include "cluster/cluster_config.h"
#include "cluster/cluster_keys.h"
#include "common/input_file.h"
#include "common/sha256.h"
#include "workload/alibaba_trace.h"
#include "workload/fb_trace.h"
#include "workload/job_file.h"
#include "workload/network_mode.h"
#include "workload/swim_trace.h"

namespace slotflow {
namespace {

// The [cluster] keys given after the config file, in order.
void ApplyOverrides(const RunSpec& spec, ClusterSpec& c) {
  for (const SettingAssignment& given : spec.cluster_settings) ApplyClusterSetting(given, c);
}

// A task that fits no server (its cpus and its memory on one server) would wait for ever:
// refuse the workload instead.
void CheckTasksFit(const Cluster& cluster, const Workload& workload) {
  // Per server shape: the most memory a server with at least that many slots has (infinite
  // where memory is not modelled), for the distinct slot counts, largest first.
  std::map<int, Bytes, std::greater<>> memory_with_slots;
  Bytes largest = 0;  // the most memory of any server with a slot
  for (const Server& s : cluster.servers()) {
    if (s.slots <= 0) continue;
    const Bytes memory = s.memory > 0 ? s.memory : kForever;
    Bytes& m = memory_with_slots[s.slots];
    m = std::max(m, memory);
    largest = std::max(largest, memory);
  }
  Bytes running = 0;
  for (auto& [slots, memory] : memory_with_slots) memory = running = std::max(running, memory);
  const int most_slots = memory_with_slots.empty() ? 0 : memory_with_slots.begin()->first;
  for (const JobSpec& job : workload.jobs) {
    for (const StageSpec& st : job.stages) {
      for (const TaskSpec& t : st.tasks) {
        if (t.pinned != kNoServer) continue;
        const auto field = [&](const char* what) {
          return fmt::format("job '{}' stage '{}' {}", job.name, st.name, what);
        };
        if (t.memory > largest) {
          throw InputError(workload.source, 0, field("memory"),
                           fmt::format("a task needs {} but no server has that much memory",
                                       FormatBytes(t.memory)));
        }
        if (t.cpus > most_slots) {
          throw InputError(workload.source, 0, field("cpus"),
                           fmt::format("a task needs {} slots but no server has more than {}",
                                       t.cpus, most_slots));
        }
        // (upper_bound: the first slot count below the task's; the entry before it holds the
        // most memory of the servers with enough slots.)
        if (t.memory > std::prev(memory_with_slots.upper_bound(t.cpus))->second) {
          throw InputError(workload.source, 0, field("cpus"),
                           fmt::format("a task needs {} slots and {} of memory, but no server "
                                       "has both",
                                       t.cpus, FormatBytes(t.memory)));
        }
      }
    }
  }
}

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

// Where `dotted_key` was given; for a value never given, the key itself as its field.
SettingAssignment GivenAt(const RunSpec& spec, const std::string& dotted_key) {
  const auto it = spec.given_at.find(dotted_key);
  return it != spec.given_at.end() ? it->second
                                   : SettingAssignment{dotted_key, "", "", 0, dotted_key};
}

// A trace or job file read; a job file's [cluster] becomes `cluster`, with the config files'
// [cluster] tables over it.
struct Input {
  Workload workload;
  std::string name, sha256;
  std::optional<int> trace_ports;  // a trace's port count
  TraceFormat format = TraceFormat::kAuto;
  std::vector<std::string> notes;
};
// A trace's jobs kept by trace_start and trace_length, their submit times shifted to start at 0
// and multiplied by time_scale.
void TraceWindow(const RunSpec& spec, Workload& w) {
  if (spec.trace_start == 0 && spec.trace_length == 0 && spec.time_scale == 1) return;
  const Seconds end = spec.trace_length > 0 ? spec.trace_start + spec.trace_length
                                            : std::numeric_limits<Seconds>::infinity();
  std::erase_if(w.jobs,
                [&](const JobSpec& j) { return j.submit < spec.trace_start || j.submit >= end; });
  if (w.jobs.empty()) {
    const SettingAssignment at =
        GivenAt(spec, spec.given_at.contains("workload.trace_length") ? "workload.trace_length"
                                                                      : "workload.trace_start");
    throw InputError(at.file, at.line, at.field,
                     fmt::format("no job of {} is submitted in [{} s, {} s)", spec.trace,
                                 spec.trace_start, end));
  }
  for (JobSpec& j : w.jobs) j.submit = (j.submit - spec.trace_start) * spec.time_scale;
}

// The cluster as the run will have it: `cluster` with the [cluster] keys given after the config
// file.
ClusterSpec Settled(const RunSpec& spec, const ClusterSpec& cluster) {
  ClusterSpec settled = cluster;
  ApplyOverrides(spec, settled);
  return settled;
}

// The trace's format: the one given, else the one its text looks like.
TraceFormat FormatOf(const RunSpec& spec, std::string_view text) {
  if (spec.trace_format != TraceFormat::kAuto) return spec.trace_format;
  return LooksLikeSwim(text)      ? TraceFormat::kSwim
         : LooksLikeAlibaba(text) ? TraceFormat::kAlibaba
                                  : TraceFormat::kCoflow;
}

// Values that only another format reads are refused rather than ignored, and so are the modes
// and settings the format cannot run under.
void CheckTraceSettings(const RunSpec& spec, TraceFormat format) {
  const std::map<std::string, std::vector<TraceFormat>> readers = {
      {"workload.block_size", {TraceFormat::kSwim}},
      {"workload.reduce_bytes", {TraceFormat::kSwim}},
      {"workload.dag_bytes", {TraceFormat::kAlibaba}}};
  for (const auto& [key, formats] : readers) {
    if (!spec.given_at.contains(key) ||
        std::find(formats.begin(), formats.end(), format) != formats.end()) {
      continue;
    }
    const SettingAssignment& at = spec.given_at.at(key);
    throw InputError(
        at.file, at.line, at.field,
        fmt::format("does not apply to {}, a {}", spec.trace,
                    format == TraceFormat::kSwim      ? "SWIM trace (its map inputs are given)"
                    : format == TraceFormat::kAlibaba ? "batch_task.csv of Alibaba's trace"
                                                      : "coflow trace"));
  }
  if (format == TraceFormat::kAlibaba && spec.mode == RunMode::kNetwork) {
    const SettingAssignment at = GivenAt(spec, "workload.mode");
    throw InputError(at.file, at.line, at.field,
                     "network mode pins a coflow trace's flows to its ports; Alibaba's batch "
                     "jobs run as jobs (--mode jobs)");
  }
  if (format == TraceFormat::kCoflow && spec.mode == RunMode::kNetwork && spec.trace_machines > 0) {
    // There every port is a server, so the trace keeps its own bytes per machine.
    const SettingAssignment at = GivenAt(spec, "workload.trace_machines");
    throw InputError(at.file, at.line, at.field,
                     "does not apply to pinned coflows (network mode): each of the trace's "
                     "ports is a server; scale bytes with traffic_scale");
  }
}

// Alibaba's batch_task.csv into in.workload, with a note for what it leaves out.
void ReadAlibabaInput(const RunSpec& spec, const ClusterSpec& cluster, double scale,
                      std::istream& text, Input& in) {
  AlibabaOptions options{spec.dag_bytes, scale};
  // plan_mem is a share of the largest machine's memory: of the settled cluster's.
  const ClusterSpec settled = Settled(spec, cluster);
  for (const ServerClass& sc : settled.classes) {
    options.machine_memory = std::max(options.machine_memory, sc.memory);
  }
  options.window_start = spec.trace_start;
  if (spec.trace_length > 0) options.window_end = spec.trace_start + spec.trace_length;
  AlibabaTrace t = ReadAlibabaTrace(text, spec.trace, options);
  in.workload = std::move(t.workload);
  if (t.jobs_left_out > 0) {
    in.notes.push_back(
        fmt::format("{}: {} job{} left out (a task not Terminated, without start and end times, or "
                    "without instances)",
                    spec.trace, t.jobs_left_out, t.jobs_left_out == 1 ? "" : "s"));
  }
  if (t.parents_dropped > 0) {
    in.notes.push_back(
        fmt::format("{}: {} reference{} to tasks the job does not list "
                    "dropped (the child starts without that parent)",
                    spec.trace, t.parents_dropped, t.parents_dropped == 1 ? "" : "s"));
  }
}

// A trace in any of its formats, its bytes scaled and its jobs windowed.
Input ReadTrace(const RunSpec& spec, const ClusterSpec& cluster) {
  Input in;
  const std::string read = ReadInput(spec, spec.trace, "trace", in.sha256);
  const std::string_view text_read = SkipByteOrderMark(read);
  double scale = spec.traffic_scale;
  if (spec.trace_machines > 0) {
    // Bytes in proportion to the cluster (settled as the run will have it).
    scale *= static_cast<double>(Settled(spec, cluster).ServerCount()) / spec.trace_machines;
  }
  in.format = FormatOf(spec, text_read);
  CheckTraceSettings(spec, in.format);
  std::istringstream text{std::string(text_read)};
  if (in.format == TraceFormat::kAlibaba) {
    ReadAlibabaInput(spec, cluster, scale, text, in);
  } else if (in.format == TraceFormat::kSwim) {
    SwimOptions options{spec.block_size, spec.reduce_bytes, scale};
    options.window_start = spec.trace_start;  // TraceWindow below shifts and scales the times
    if (spec.trace_length > 0) options.window_end = spec.trace_start + spec.trace_length;
    in.workload = ReadSwimTrace(text, spec.trace, options);
  } else {
    const FbTraceOptions options{scale, spec.map_input_ratio};
    FbTrace t = spec.mode == RunMode::kNetwork ? ReadFbTraceAsCoflows(text, spec.trace, options)
                                               : ReadFbTraceAsJobs(text, spec.trace, options);
    in.workload = std::move(t.workload);
    in.trace_ports = t.ports;
  }
  TraceWindow(spec, in.workload);
  in.name = "trace:" + spec.trace;
  return in;
}

// A job file, TOML or JSON Lines.
Input ReadJobs(const RunSpec& spec, ClusterSpec& cluster) {
  Input in;
  const std::string read = ReadInput(spec, spec.jobs_file, "jobs", in.sha256);
  const std::string_view text = SkipByteOrderMark(read);
  JobFile jf = LooksLikeJobLines(text) ? ParseJobLines(text, spec.jobs_file)
                                       : ParseJobFile(text, spec.jobs_file);
  if (jf.cluster) {
    cluster = *jf.cluster;
    for (const auto& [file, table] : spec.cluster_layers) ApplyClusterToml(table, file, cluster);
  }
  in.workload = std::move(jf.workload);
  in.name = "jobs:" + spec.jobs_file;
  return in;
}

Input ReadTraceOrJobs(const RunSpec& spec, ClusterSpec& cluster) {
  return spec.trace.empty() ? ReadJobs(spec, cluster) : ReadTrace(spec, cluster);
}

// Pinned coflows: one server per trace port, unless a flag or config file sets the count.
void FitServersToTrace(const RunSpec& spec, int trace_ports, ClusterSpec& cluster) {
  SettingAssignment given;  // where: the flag, else the config file's line
  if (const SettingAssignment* flag = ClusterSettingGiven(spec, "servers")) given = *flag;
  for (const char* key : {"cluster.class", "cluster.servers"}) {
    if (given.field.empty() && spec.given_at.contains(key)) given = spec.given_at.at(key);
  }
  if (!given.field.empty() && cluster.ServerCount() < trace_ports) {
    throw InputError(
        given.file, given.line, given.field,
        fmt::format("the trace uses {} ports; network mode needs at least that many servers",
                    trace_ports));
  }
  if (given.field.empty() && cluster.classes.size() == 1) cluster.classes[0].count = trace_ports;
}

// The spec's generator, built with its settings and the seed, run on the settled cluster.
GeneratedWorkload Generate(const RunSpec& spec, const ClusterSpec& cluster) {
  const GeneratorRegistry::Entry& entry =
      GeneratorRegistry::Get().Find(spec.generator, "generator");
  const std::unique_ptr<WorkloadGenerator> generator =
      entry.factory(PolicyArgs{GeneratorSettings(spec, spec.generator), spec.simulation.seed, ""});
  try {
    return generator->Generate(GeneratorInput{cluster, spec.traffic_scale, spec.map_input_ratio});
  } catch (const InputError& e) {
    // Sizes past the limit come from traffic_scale and map_input_ratio together: at the second
    // if given, naming where the first was.
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
}

// The generator that declares setting `key`.
std::string GeneratorDeclaring(const std::string& key) {
  for (const auto& [name, entry] : GeneratorRegistry::Get().entries()) {
    for (const SettingSpec& s : entry.settings) {
      if (s.name == key) return name;
    }
  }
  return "";
}

// What the run reads, in words, for a message: "the SWIM trace T", "the job file F".
std::string WorkloadInForce(const RunSpec& spec, TraceFormat format) {
  if (!spec.jobs_file.empty()) return fmt::format("the job file {}", spec.jobs_file);
  if (!spec.trace.empty()) {
    return fmt::format("the {}trace {}{}",
                       format == TraceFormat::kSwim      ? "SWIM "
                       : format == TraceFormat::kAlibaba ? "Alibaba "
                       : format == TraceFormat::kCoflow  ? "coflow "
                                                         : "",
                       spec.trace, spec.mode == RunMode::kNetwork ? " in network mode" : "");
  }
  return fmt::format("the {} generator", spec.generator);
}

// Values given for a workload other than the one in force are refused rather than ignored
// (and then recorded in the set-up as if used): a generator's settings beside a trace, a job
// file or another generator (checked before any input is read) ...
void RefuseOtherGeneratorSettings(const RunSpec& spec) {
  const bool generated = spec.trace.empty() && spec.jobs_file.empty();
  for (const SettingAssignment& a : spec.generator_settings) {
    const std::string owner = GeneratorDeclaring(a.key);
    if (generated && owner == spec.generator) continue;
    throw InputError(a.file, a.line, a.field,
                     fmt::format("is a setting of the {} generator, and this run reads {}", owner,
                                 WorkloadInForce(spec, TraceFormat::kAuto)));
  }
}

// ... and the byte values the workload does not read (once a trace's format is known).
void RefuseUnusedByteValues(const RunSpec& spec, TraceFormat format) {
  for (const char* key : {"traffic_scale", "map_input_ratio"}) {
    const std::string dotted = std::string("workload.") + key;
    if (!spec.given_at.contains(dotted) || WorkloadValueApplies(spec, format, key)) continue;
    const SettingAssignment& at = spec.given_at.at(dotted);
    throw InputError(at.file, at.line, at.field,
                     fmt::format("does not apply to {}{}", WorkloadInForce(spec, format),
                                 !spec.jobs_file.empty() ? " (its sizes are as written)"
                                 : key == std::string_view("map_input_ratio")
                                     ? " (it makes no map stages from shuffle sizes)"
                                     : ""));
  }
}

}  // namespace

bool WorkloadValueApplies(const RunSpec& spec, TraceFormat format, const std::string& key) {
  if (!spec.jobs_file.empty()) return false;
  if (!spec.trace.empty()) {
    // Every trace format scales its bytes; only a coflow trace's jobs get map stages sized by
    // the ratio (other formats give their maps' input, network mode makes no maps).
    return key == "traffic_scale" ||
           (format == TraceFormat::kCoflow && spec.mode == RunMode::kJobs);
  }
  const GeneratorRegistry::Entry& entry =
      GeneratorRegistry::Get().Find(spec.generator, "generator");
  const std::vector<std::string> reads =
      entry.factory(PolicyArgs{GeneratorSettings(spec, spec.generator), spec.simulation.seed, ""})
          ->ReadsInputValues();
  return std::find(reads.begin(), reads.end(), key) != reads.end();
}

PreparedRun Prepare(const RunSpec& spec) {
  const bool generated = spec.trace.empty() && spec.jobs_file.empty();
  if (!spec.trace.empty() && !spec.jobs_file.empty()) {
    // At the one named last; the other was named in the config file.
    const SettingAssignment& at = spec.input_from;
    const SettingAssignment other =
        GivenAt(spec, at.key == "trace" ? "workload.jobs" : "workload.trace");
    throw InputError(
        at.file, at.line, at.field.empty() ? "workload.trace/workload.jobs" : at.field,
        other.value.empty() || WhereGiven(other) == WhereGiven(at)
            ? "give a trace or a job file, not both"
            : fmt::format("give a trace or a job file, not both ({} names the {})",
                          WhereGiven(other), other.key == "trace" ? "trace" : "job file"));
  }
  if (spec.generator != kDefaultGenerator && !generated) {
    const SettingAssignment at = GivenAt(spec, "workload.generator");
    throw InputError(at.file, at.line, at.field,
                     fmt::format("the {} generator makes its own jobs: drop it or the {} ({})",
                                 spec.generator, spec.trace.empty() ? "job file" : "trace",
                                 spec.input_from.field.empty() ? "workload.trace/workload.jobs"
                                                               : WhereGiven(spec.input_from)));
  }
  if (spec.trace.empty()) {
    // The trace values, given without a trace, are refused rather than ignored.
    for (const char* key : {"workload.trace_format", "workload.block_size", "workload.reduce_bytes",
                            "workload.dag_bytes", "workload.trace_start", "workload.trace_length",
                            "workload.time_scale", "workload.trace_machines"}) {
      if (!spec.given_at.contains(key)) continue;
      const SettingAssignment& at = spec.given_at.at(key);
      throw InputError(at.file, at.line, at.field,
                       "applies to a trace (--trace), and none is given");
    }
  }
  if (!(spec.traffic_scale > 0)) throw InputError("", 0, "traffic_scale", "must be positive");
  if (spec.map_input_ratio && !(*spec.map_input_ratio >= 0))
    throw InputError("", 0, "map_input_ratio", "must be non-negative");
  ClusterSpec cluster = spec.cluster;
  Input in;
  RefuseOtherGeneratorSettings(spec);
  if (!generated) in = ReadTraceOrJobs(spec, cluster);
  RefuseUnusedByteValues(spec, in.format);
  ApplyOverrides(spec, cluster);
  if (in.trace_ports && spec.mode == RunMode::kNetwork) {
    FitServersToTrace(spec, *in.trace_ports, cluster);
  }
  cluster.Validate();
  std::string name_over_seeds;
  if (generated) {
    GeneratedWorkload g = Generate(spec, cluster);
    in.workload = std::move(g.workload);
    in.name = std::move(g.name);
    name_over_seeds = std::move(g.name_over_seeds);
  }
  if (in.workload.jobs.empty()) {
    // Every reader refuses an input without jobs at its line; this is the rule for the rest
    // (a plugin's generator): a run of no jobs measures nothing.
    const SettingAssignment at = GivenAt(spec, "workload.generator");
    throw InputError(at.file, at.line, at.field,
                     fmt::format("{} made no job: a run needs at least one", in.name));
  }
  if (spec.mode == RunMode::kNetwork && !in.trace_ports) {
    in.workload =
        PinForNetworkMode(std::move(in.workload), cluster.ServerCount(), spec.simulation.seed);
  }
  in.workload.Validate(cluster.ServerCount());
  if (spec.mode == RunMode::kNetwork) in.name += " (network mode)";
  if (!spec.input_sha256.empty() && in.sha256.empty()) {
    throw InputError(spec.input_sha256_from, spec.input_sha256_line, "workload.sha256",
                     "is set but the run reads no trace or job file");
  }
  PreparedRun run{Cluster(cluster),     std::move(in.workload),     std::move(in.name),
                  std::move(in.sha256), std::move(name_over_seeds), in.format,
                  std::move(in.notes)};
  CheckTasksFit(run.cluster, run.workload);
  return run;
}

}  // namespace slotflow
