// RunSpec: everything that defines one simulation run, assembled from defaults, a TOML config
// file (run/config_file.h), a job file's [cluster] table and command-line flags (in that order
// of precedence), and the functions that set its values, each checked where it is given.
#pragma once

#include <toml++/toml.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/cluster.h"
#include "api/settings.h"
#include "cluster/cluster_keys.h"
#include "sim/simulator.h"

namespace slotflow {

enum class RunMode { kJobs, kNetwork };
// A trace's format: the coflow benchmark's (workload/fb_trace.h), SWIM's (workload/swim_trace.h)
// or Alibaba's batch_task.csv (workload/alibaba_trace.h); auto tells them apart by content.
enum class TraceFormat { kAuto, kCoflow, kSwim, kAlibaba };

// The workload of a set-up that names no trace, job file or generator.
inline constexpr const char* kDefaultGenerator = "synthetic";

struct RunSpec {
  // Workload: exactly one of trace / jobs_file, or neither for a generated one.
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
  TraceFormat trace_format = TraceFormat::kAuto;
  // SWIM traces: map input per map task and shuffle per reduce task.
  Bytes block_size = 64.0 * (1 << 20), reduce_bytes = 1024.0 * (1 << 20);
  Bytes dag_bytes = 64.0 * (1 << 20);  // Alibaba traces: the bytes model (workload/alibaba_trace.h)
  // Any trace: the jobs submitted in [trace_start, trace_start + trace_length) (length 0: to
  // the end), their submit times shifted to start at 0 and multiplied by time_scale.
  Seconds trace_start = 0, trace_length = 0;
  double time_scale = 1.0;
  // Any trace: the machines it was taken on; > 0 scales its bytes by servers / trace_machines.
  int trace_machines = 0;
  std::optional<double> map_input_ratio =
      std::nullopt;  // none: map inputs balanced with the reduce stage
  // The generator used when no trace or job file is given (api/generator.h), and the
  // values given for generators' settings in the order given (later wins): each generator
  // takes those it declares (GeneratorSettings).
  std::string generator = kDefaultGenerator;
  std::vector<SettingAssignment> generator_settings;

  ClusterSpec cluster;
  // [cluster] keys given after the config file (flags, `--set cluster.KEY`) in order, each
  // checked where given; applied over a job file's cluster too (cluster/cluster_keys.h).
  std::vector<SettingAssignment> cluster_settings;
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

// Sets "scheduler.KEY" or "network.KEY" (KEY = policy names the policy); `file`, `line` and
// `field` say where the value came from. InputError for any other prefix (workload values go
// through SetWorkloadValue).
void SetPolicySetting(RunSpec& spec, std::string_view dotted_key, std::string value,
                      const std::string& file, int line, const std::string& field);
// The values every workload takes, beside its generator's settings (traffic_scale,
// map_input_ratio, trace_format, ...), declared once: the config file, --set workload.KEY, the
// command line's flags of their own and Python all go through SetWorkloadValue.
struct WorkloadValue {
  SettingSpec setting;
  std::function<void(RunSpec&, const KeyValue&)> set;
  // The value in force for a set-up, or nothing when the run did not read it; `format` is the
  // trace's format as read (auto for a job file or a generator).
  std::function<std::optional<KeyValue>(const RunSpec&, TraceFormat format)> written;
};
const std::vector<WorkloadValue>& WorkloadValues();
// The rate allocator's run-wide values, declared as the workload values are: [rates] in a
// config file, --set rates.KEY, a sweep's rates.KEY, a flag of their own and Python's set all go
// through SetRatesValue. (time_step: network/network.h.)
const std::vector<WorkloadValue>& RatesValues();
void SetRatesValue(RunSpec& spec, const std::string& key, std::string text,
                   const std::string& file, int line, const std::string& field);
// A [workload] value from the config file or a flag: traffic_scale, map_input_ratio,
// estimate_error, mode, generator (a registered generator's name), or a setting some
// generator declares. Checked against its domain at once; InputError naming `file`:`line` or
// the flag in `field` when it is unknown or out of range.
void SetWorkloadValue(RunSpec& spec, const std::string& key, std::string text,
                      const std::string& file, int line, const std::string& field);
// A seed: a non-negative integer below 2^64; InputError naming `field` otherwise.
uint64_t ParseSeed(std::string_view text, std::string_view field);
// "KEY=VALUE", KEY scheduler.NAME, network.NAME, workload.NAME, cluster.NAME or rates.NAME, as a front end
// took it (`given_as`: "--set" on the command line); errors name the field `given_as` KEY.
void ApplyAssignment(RunSpec& spec, std::string_view assignment, std::string_view given_as);
// A [cluster] key given after the config file; checked at once (InputError naming `field`).
void SetClusterValue(RunSpec& spec, const std::string& key, std::string text,
                     const std::string& file, int line, const std::string& field);
// The last assignment of a [cluster] key among spec.cluster_settings, or nullptr.
const SettingAssignment* ClusterSettingGiven(const RunSpec& spec, std::string_view key);
// A system's scheduler, network and settings: the lowest layer, so a policy or setting given
// in a config file or a flag wins over the preset's whatever the order they were given in.
// With `replace_policies` (an entry of `compare --system` or a sweep variant, which is what is
// compared), the system's policies replace any the base set-up names.
void ApplySystem(RunSpec& spec, const std::string& name, const std::string& field,
                 bool replace_policies = false);
// The settings generator `name` runs with: its declared defaults, overridden in order by the
// values given that it declares. InputError when no generator has that name.
Settings GeneratorSettings(const RunSpec& spec, const std::string& name);
// Whether the prepared workload depends on the seed (generated jobs, or jobs pinned at random
// for network mode), so that runs at several seeds cannot share one.
bool WorkloadDependsOnSeed(const RunSpec& spec);

RunMode ParseRunMode(std::string_view text, std::string_view field);
std::string_view RunModeName(RunMode mode);
std::string_view TraceFormatName(TraceFormat format);
// A word of the trace_format choice ("auto", "coflow", "swim", "alibaba").
TraceFormat ParseTraceFormat(std::string_view word);

}  // namespace slotflow
