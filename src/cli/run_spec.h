// RunSpec: everything that defines one simulation run, assembled from defaults, a TOML config
// file, a job file's [cluster] table and command-line flags (in that order of precedence),
// and the function that executes it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "cluster/cluster.h"
#include "network/network_policy.h"
#include "scheduling/task_scheduler.h"
#include "sim/simulator.h"
#include "workload/job.h"

namespace slotflow {

enum class RunMode { kJobs, kNetwork };

// Cluster settings given on the command line; they override the config file and a job file.
struct ClusterOverrides {
  std::optional<int> servers, slots, replicas, servers_per_rack;
  std::optional<double> cpu_speed, oversubscription;
  std::optional<BytesPerSecond> nic, disk, slot_rate;
  std::optional<TopologyKind> topology;
};

struct RunSpec {
  // Workload: exactly one of trace / jobs_file, or neither for the embedded synthetic default.
  std::string trace;
  std::string jobs_file;
  RunMode mode = RunMode::kJobs;
  double traffic_scale = 1.0;
  double map_input_ratio = 1.0;
  int synthetic_jobs = 200;
  Seconds synthetic_interarrival = 2.0;

  ClusterSpec cluster;
  ClusterOverrides overrides;
  std::string system;  // the named pairing these settings came from, if any (src/systems)
  std::string scheduler = "greedy";
  std::string network = "fair";
  JobOrder order = JobOrder::kFifo;
  NetworkPolicyConfig network_config;
  SimulationConfig simulation;
};

// Reads a TOML config file into `spec` (tables [cluster], [workload], [policy]); InputError
// names the file, line and key on any problem, including unknown keys.
void ApplyConfigFile(const std::string& path, RunSpec& spec);

RunMode ParseRunMode(std::string_view text, std::string_view field);
std::string_view RunModeName(RunMode mode);

struct PreparedRun {
  Cluster cluster;
  Workload workload;
  std::string workload_name;  // for summaries: "synthetic(...)", "trace:FILE", "jobs:FILE"
};
// Loads the workload, settles the cluster (job file's [cluster] table, then the overrides;
// one server per trace port in network mode) and validates both. Throws InputError.
PreparedRun Prepare(const RunSpec& spec);
// Builds the policies by name (InputError on unknown names) and runs the simulation.
RunResult Execute(const RunSpec& spec, const PreparedRun& run);

}  // namespace slotflow
