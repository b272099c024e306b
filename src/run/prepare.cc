#include "run/prepare.h"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "cluster/cluster_config.h"
#include "common/error.h"
#include "common/input_file.h"
#include "common/sha256.h"
#include "workload/fb_trace.h"
#include "workload/flow_workload.h"
#include "workload/job_file.h"
#include "workload/network_mode.h"
#include "workload/synthetic.h"
#include "workload/tcds_workload.h"

namespace slotflow {
namespace {

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
    throw InputError("", 0, "--trace/--jobs", "give a trace or a job file, not both");
  }
  if (spec.generator != "synthetic" && (!spec.trace.empty() || !spec.jobs_file.empty())) {
    throw InputError(
        "", 0, "generator",
        fmt::format("the {} generator makes its own jobs: drop --trace/--jobs", spec.generator));
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
    workload = GenerateSynthetic(so);
    name = fmt::format("synthetic(jobs={}, seed={})", so.jobs, so.seed);
  }
  ApplyOverrides(spec.overrides, cluster);
  if (trace_ports && spec.mode == RunMode::kNetwork) {
    // Pinned coflows: one server per trace port, unless a flag or config file sets the count.
    std::string given = spec.overrides.servers ? "--servers" : "";
    for (const auto& [file, table] : spec.cluster_layers) {
      if (table.contains("servers") || table.contains("class")) given = file + ": cluster";
    }
    if (!given.empty() && cluster.ServerCount() < *trace_ports) {
      throw InputError(
          "", 0, given,
          fmt::format("the trace uses {} ports; network mode needs at least that many servers",
                      *trace_ports));
    }
    if (given.empty() && cluster.classes.size() == 1) cluster.classes[0].count = *trace_ports;
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
}  // namespace slotflow
