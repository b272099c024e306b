#include "run/calibrate.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>

#include "api/error.h"
#include "api/network_policy.h"
#include "api/task_scheduler.h"
#include "cluster/cluster_keys.h"
#include "live/machine_load.h"
#include "live/testbed.h"
#include "live/testbed_plan.h"
#include "master/live_session.h"

namespace slotflow {
namespace {

constexpr Seconds kProbeGap = 0.25;  // between launch and small probes

TaskSpec Pinned(int host, Bytes input) {
  TaskSpec t;
  t.input = input;
  t.compute = 0;
  t.pinned = ServerId{host};
  return t;
}

JobSpec Job(std::string name, Seconds submit, std::vector<StageSpec> stages) {
  JobSpec j;
  j.name = std::move(name);
  j.submit = submit;
  j.stages = std::move(stages);
  return j;
}

// A map with nothing to read on `src` and a reducer on `dst` fetching `bytes` from it.
JobSpec FetchJob(std::string name, Seconds submit, int src, int dst, Bytes bytes) {
  return Job(
      std::move(name), submit,
      {StageSpec{"map", {}, {Pinned(src, 0)}}, StageSpec{"reduce", {0}, {Pinned(dst, bytes)}}});
}

// Every host's map, and on every host a reducer fetching `bytes` from the previous host's map.
JobSpec Ring(std::string name, Seconds submit, int hosts, Bytes bytes) {
  StageSpec maps{"map", {}, {}};
  StageSpec reduces{"reduce", {0}, {}};
  for (int h = 0; h < hosts; ++h) {
    maps.tasks.push_back(Pinned(h, 0));
    std::vector<Bytes> from(static_cast<size_t>(hosts), 0);
    from[static_cast<size_t>((h + hosts - 1) % hosts)] = bytes;
    TaskSpec r = Pinned(h, bytes);
    r.from = ParentBytes(std::move(from));
    reduces.tasks.push_back(std::move(r));
  }
  return Job(std::move(name), submit, {std::move(maps), std::move(reduces)});
}

void CheckPlan(const ProbePlan& p) {
  if (p.hosts < 2) throw InputError("", 0, "hosts", "calibration needs at least 2 hosts");
  if (p.samples < 1) throw InputError("", 0, "samples", "must be at least 1");
}

double Median(std::vector<double> v) { return Percentile(std::move(v), 50); }

// Placement to done of every task of `stage` in the jobs whose name starts with `prefix`, by job.
std::map<std::string, std::vector<double>> Durations(const std::vector<TaskResult>& tasks,
                                                     const std::string& prefix,
                                                     const std::string& stage) {
  std::map<std::string, std::vector<double>> out;
  for (const TaskResult& t : tasks) {
    if (t.job.rfind(prefix, 0) != 0 || t.stage != stage) continue;
    if (t.placed < 0 || t.finish < 0) {
      throw InputError("", 0, "calibration",
                       fmt::format("probe {} ({}) did not finish", t.job, t.stage));
    }
    out[t.job].push_back(t.finish - t.placed);
  }
  return out;
}

std::vector<double> OnePerJob(const std::vector<TaskResult>& tasks, const std::string& prefix,
                              const std::string& stage) {
  std::vector<double> out;
  for (const auto& [job, d] : Durations(tasks, prefix, stage)) out.push_back(d.front());
  if (out.empty()) {
    throw InputError("", 0, "calibration", fmt::format("no {} probe in the run", prefix));
  }
  return out;
}

Seconds Slowest(const std::vector<TaskResult>& tasks, const std::string& job) {
  const auto d = Durations(tasks, job, "reduce");
  if (d.empty()) throw InputError("", 0, "calibration", "no " + job + " probe in the run");
  return *std::max_element(d.begin()->second.begin(), d.begin()->second.end());
}

}  // namespace

Workload ProbeWorkload(const ProbePlan& p) {
  CheckPlan(p);
  Workload w;
  w.source = "calibration probes";
  Seconds t = 0;
  for (int k = 0; k < p.samples; ++k, t += kProbeGap) {
    w.jobs.push_back(
        Job(fmt::format("launch-{}", k + 1), t, {StageSpec{"task", {}, {Pinned(k % p.hosts, 0)}}}));
  }
  for (int k = 0; k < p.samples; ++k, t += kProbeGap) {
    w.jobs.push_back(
        FetchJob(fmt::format("small-{}", k + 1), t, k % p.hosts, (k + 1) % p.hosts, p.small_bytes));
  }
  for (int k = 0; k < p.bulk_samples; ++k, t += 1.5 * p.bulk_seconds + 0.5) {
    w.jobs.push_back(
        FetchJob(fmt::format("bulk-{}", k + 1), t, k % p.hosts, (k + 1) % p.hosts, p.BulkBytes()));
  }
  w.jobs.push_back(Ring("ring", t, p.hosts, p.BulkBytes()));
  return w;
}

Workload CapacityWorkload(const ProbePlan& p) {
  CheckPlan(p);
  Workload w;
  w.source = "calibration capacity probe";
  w.jobs.push_back(Ring("capacity-ring", 0, p.hosts, p.capacity_bytes));
  return w;
}

// launch = L; small = L + F + b / (R e); bulk = L + F + B / (R e): so e from bulk − small, then
// F from small.
Calibration EstimateCalibration(const ProbePlan& p, const std::vector<TaskResult>& tasks) {
  Calibration c;
  c.launch_s = OnePerJob(tasks, "launch-", "task");
  c.small_s = OnePerJob(tasks, "small-", "reduce");
  c.bulk_s = OnePerJob(tasks, "bulk-", "reduce");
  c.task_launch_latency = Median(c.launch_s);
  const Seconds small = Median(c.small_s), bulk = Median(c.bulk_s);
  if (!(bulk > small)) {
    throw InputError("", 0, "calibration",
                     fmt::format("the bulk fetches ({:.4f} s) took no longer than the small ones "
                                 "({:.4f} s)",
                                 bulk, small));
  }
  c.payload_efficiency = (p.BulkBytes() - p.small_bytes) / (p.rate * (bulk - small));
  c.flow_start_latency = std::max(
      0.0, small - c.task_launch_latency - p.small_bytes / (p.rate * c.payload_efficiency));
  c.ring_s = Slowest(tasks, "ring");
  const Seconds moving = c.ring_s - c.task_launch_latency - c.flow_start_latency;
  c.ring_share = p.BulkBytes() / moving / (p.rate * c.payload_efficiency);
  return c;
}

BytesPerSecond EstimateForwarding(const ProbePlan& p, const Calibration& c,
                                  const std::vector<TaskResult>& tasks) {
  const Seconds moving =
      Slowest(tasks, "capacity-ring") - c.task_launch_latency - c.flow_start_latency;
  return p.hosts * p.capacity_bytes / moving;
}

namespace {

// One probe run on the testbed: greedy placement (every task is pinned anyway), fair sharing.
std::vector<TaskResult> RunProbes(const CalibrateSettings& s, const TestbedConfig& config,
                                  const Workload& workload) {
  ClusterSpec spec;
  spec.classes[0].count = config.hosts;
  spec.classes[0].nic = static_cast<double>(config.rate) / 8;
  spec.replicas = 1;
  const Cluster cluster(spec);
  workload.Validate(cluster.size());
  LiveRunOptions options;
  options.master.deadline = s.deadline;
  options.agent_program = s.agent_program;
  RunResult r = RunOnTestbed(config, cluster, workload, TaskSchedulerRegistry::Get().Make("greedy"),
                             NetworkPolicyRegistry::Get().Make("fair"), options);
  return std::move(r.tasks);
}

}  // namespace

CalibrateReport CalibrateTestbed(const CalibrateSettings& s) {
  if (s.samples < 1 || s.samples > 1000) {
    throw InputError("", 0, s.named("samples"),
                     fmt::format("must be in 1..1000, got {}", s.samples));
  }
  if (s.hosts < 2 || s.hosts > kMaxTestbedHosts) {
    throw InputError(
        "", 0, s.named("hosts"),
        fmt::format("calibration needs 2..{} hosts, got {}", kMaxTestbedHosts, s.hosts));
  }
  TestbedConfig config = MakeTestbedConfig(s.hosts, s.rate);
  config.names = MakeTestbedNames(s.prefix, s.named("testbed_prefix"));
  RequireRoot();
  CalibrateReport report;
  ProbePlan& p = report.plan;
  p.hosts = config.hosts;
  p.rate = static_cast<double>(config.rate) / 8;
  p.samples = s.samples;
  report.load_start = LoadAverage();
  report.calibration = EstimateCalibration(p, RunProbes(s, config, ProbeWorkload(p)));
  if (s.capacity) {
    TestbedConfig fast = MakeTestbedConfig(s.hosts, "10gbit");
    fast.names = TestbedNames{s.prefix + "x"};
    report.calibration.forwarding =
        EstimateForwarding(p, report.calibration, RunProbes(s, fast, CapacityWorkload(p)));
  }
  report.load_end = LoadAverage();
  return report;
}

std::string CalibrationToml(const ProbePlan& p, const Calibration& c, const std::string& comment) {
  std::string out;
  for (size_t at = 0; at < comment.size();) {
    const size_t end = std::min(comment.find('\n', at), comment.size());
    out += "# " + comment.substr(at, end - at) + "\n";
    at = end + 1;
  }
  // The keys written are declared [cluster] keys, each value within its domain.
  for (const auto& [key, value] :
       {std::pair{"nic", p.rate},
        std::pair{"payload_efficiency", std::min(1.0, c.payload_efficiency)},
        std::pair{"task_launch_latency", c.task_launch_latency},
        std::pair{"flow_start_latency", c.flow_start_latency}}) {
    ParseClusterValue(
        SettingAssignment{key, fmt::format("{}", value), "", 0, fmt::format("calibrated {}", key)});
  }
  out += "[cluster]\n";
  out += fmt::format("nic = {:.17g}  # bytes/s: the testbed's link rate\n", p.rate);
  out += fmt::format("payload_efficiency = {:.6f}\n", std::min(1.0, c.payload_efficiency));
  out += fmt::format("task_launch_latency = {:.6f}  # seconds\n", c.task_launch_latency);
  out += fmt::format("flow_start_latency = {:.6f}  # seconds\n", c.flow_start_latency);
  return out;
}

}  // namespace slotflow
