// RunSpec: everything that defines one simulation run, assembled from defaults, a TOML config
// file, a job file's [cluster] table and command-line flags (in that order of precedence),
// and the function that executes it.
#pragma once

#include <toml++/toml.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cluster/cluster.h"
#include "common/settings.h"
#include "network/network_policy.h"
#include "sim/simulator.h"
#include "sim/task_scheduler.h"
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
  // Where the trace or job file was named (file:line and key, or the flag), for the error a
  // missing or unreadable file raises.
  SettingAssignment input_from;
  // Where [workload] values and the [cluster]'s servers and classes were last given (file:line
  // or the flag), by dotted key ("workload.generator", "cluster.servers"), for the errors of
  // values that contradict each other.
  std::map<std::string, SettingAssignment> given_at;
  RunMode mode = RunMode::kJobs;
  double traffic_scale = 1.0;
  std::optional<double> map_input_ratio =
      std::nullopt;  // none: map inputs balanced with the reduce stage
  int synthetic_jobs = 200;
  Seconds synthetic_interarrival = 0.5;  // loads both the slots and the network (README)
  // The embedded generator used when no trace or job file is given: synthetic, tcds or flows
  // (workload/tcds_workload.h, with its Table 1 group, tasks per job and mean interarrival).
  std::string generator = "synthetic";
  int tcds_group = 1;
  int tcds_tasks_per_job = 5;
  Seconds tcds_interarrival = 1.0;
  // The flows generator (workload/flow_workload.h): size distribution, edge load, flow count.
  std::string flow_sizes = "datamining";
  double flow_load = 0.5;
  int flows = 2000;

  ClusterSpec cluster;
  ClusterOverrides overrides;
  std::string system;  // the preset these settings came from, if any (src/systems)
  std::string scheduler = "greedy";
  std::string network = "fair";
  // One precedence rule: system preset < config file < flags, for every key. A preset's
  // policies apply only where no config file or flag named one (`*_explicit`), and its
  // settings only while its own policy is the one in force.
  bool scheduler_explicit = false, network_explicit = false;
  std::string preset_scheduler, preset_network;
  std::vector<SettingAssignment> preset_scheduler_settings, preset_network_settings;
  // Where each name came from (file:line or the flag), for the error an unknown name raises.
  SettingAssignment scheduler_from{"policy", "greedy", "", 0, "scheduler"};
  SettingAssignment network_from{"policy", "fair", "", 0, "network"};
  // Policy settings in the order given (later wins): the system's preset, the config file's
  // [scheduler] / [network] tables, then --order / --queues / --set flags. Checked against
  // the chosen policy's declarations when it is built.
  std::vector<SettingAssignment> scheduler_settings, network_settings;
  SimulationConfig simulation;
  // The [cluster] tables of config files (and sweep points) in order, with their file: applied
  // again over a job file's own [cluster], so that a config file overrides it as flags do.
  std::vector<std::pair<std::string, toml::table>> cluster_layers;
  // [workload] sha256: the trace or job file must have this SHA-256 (a set-up written by
  // --out names the exact input it ran on).
  std::string input_sha256, input_sha256_from;  // the digest, and the file that gave it
  int input_sha256_line = 0;
  // How the process was invoked, for provenance (summary.json).
  std::string command_line;
};

// Reads a TOML config file into `spec` (top-level seed / system, tables [cluster], [workload],
// [scheduler], [network]), or the "setup" of a summary.json (a file starting with '{');
// InputError names the file, line and key on any problem, including unknown keys.
void ApplyConfigFile(const std::string& path, RunSpec& spec);
// The same from the text of a config file; `name` is used in messages. Top-level tables named
// in `skip` are left to the caller (a sweep file's [sweep]).
void ApplyConfigText(std::string_view text, const std::string& name, RunSpec& spec,
                     const std::vector<std::string_view>& skip = {});
// The same from a parsed table (a config file's, a summary.json's "setup", or one built in
// code: its nodes' lines are used in messages, 0 for nodes built in code).
void ApplyConfigTable(const toml::table& root, const std::string& name, RunSpec& spec,
                      const std::vector<std::string_view>& skip = {});
// A TOML file's text parsed; InputError at `name`:line on a syntax error.
toml::table ParseToml(std::string_view text, const std::string& name);

// A TOML scalar as the text a user would write after --set: settings parse text, so config
// files, sweep files and flags follow one rule. InputError at the node's line otherwise.
std::string SettingText(const toml::node& n, const std::string& file, const std::string& field);

// Sets "scheduler.KEY" or "network.KEY" (KEY = policy names the policy); `file`, `line` and
// `field` say where the value came from. InputError for any other prefix.
void SetPolicySetting(RunSpec& spec, std::string_view dotted_key, std::string value,
                      const std::string& file, int line, const std::string& field);
// A [workload] value (traffic_scale, map_input_ratio, synthetic_jobs, synthetic_interarrival,
// estimate_error, generator, tcds_group, tcds_tasks_per_job, tcds_interarrival, flow_sizes,
// flow_load, flows) from the config file or a flag, checked against its domain; InputError
// naming `file`:`line` or the flag in `field` when it is unknown or out of range.
void SetWorkloadValue(RunSpec& spec, const std::string& key, std::string text,
                      const std::string& file, int line, const std::string& field);
// A seed: a non-negative integer below 2^64; InputError naming `field` otherwise.
uint64_t ParseSeed(std::string_view text, std::string_view field);
// `--set KEY=VALUE`.
void ApplySetFlag(RunSpec& spec, std::string_view assignment);
// A system's scheduler, network and settings: the lowest layer, so a policy or setting given
// in a config file or a flag wins over the preset's whatever the order they were given in.
// With `replace_policies` (an entry of `compare --system` or a sweep variant, which is what is
// compared), the system's policies replace any the base set-up names.
void ApplySystem(RunSpec& spec, const std::string& name, const std::string& field,
                 bool replace_policies = false);
// Whether the prepared workload depends on the seed (generated jobs, or jobs pinned at random
// for network mode), so that runs at several seeds cannot share one.
bool WorkloadDependsOnSeed(const RunSpec& spec);

RunMode ParseRunMode(std::string_view text, std::string_view field);
std::string_view RunModeName(RunMode mode);

struct PreparedRun {
  Cluster cluster;
  Workload workload;
  std::string workload_name;  // for summaries: "synthetic(...)", "trace:FILE", "jobs:FILE"
  std::string input_sha256;   // of the trace or job file; empty for generated workloads
};
// Loads the workload, settles the cluster (job file's [cluster] table, then the overrides;
// one server per trace port in network mode) and validates both. Throws InputError.
PreparedRun Prepare(const RunSpec& spec);
// The settings the spec's policies run with (InputError on unknown names, keys or values):
// the preset's (while its policy is in force), then those of the config file and flags.
struct ResolvedPolicies {
  Settings scheduler, network;
};
ResolvedPolicies ResolvePolicies(const RunSpec& spec);
// The spec's scheduler and network policy, built by name (InputError on unknown names, keys or
// values), and every setting in force ("scheduler.order" → "sjf", ...).
struct BuiltPolicies {
  std::unique_ptr<TaskScheduler> scheduler;
  std::unique_ptr<NetworkPolicy> network;
  std::vector<std::pair<std::string, std::string>> in_force;
};
BuiltPolicies BuildPolicies(const RunSpec& spec);
// Fills what summary.json says of the run's set-up: policies, system, workload, settings, seed.
void Describe(const RunSpec& spec, const PreparedRun& run,
              std::vector<std::pair<std::string, std::string>> in_force, RunSummary& summary);
// Builds the policies by name (InputError on unknown names) and runs the simulation.
RunResult Execute(const RunSpec& spec, const PreparedRun& run);

}  // namespace slotflow
