#include "run/live.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <limits>
#include <utility>

#include "api/error.h"
#include "api/units.h"
#include "cluster/cluster_keys.h"
#include "live/machine_load.h"
#include "live/testbed_plan.h"
#include "master/journal.h"
#include "master/live_session.h"
#include "run/execute.h"
#include "run/policies.h"

namespace slotflow {
namespace {

constexpr const char* kDefaultRate = "100mbit";

}  // namespace

const std::vector<LiveSetting>& LiveSettingTable() {
  using K = SettingKind;
  const auto spec = [](std::string name, K kind, std::string default_value, std::string meaning,
                       double min = -std::numeric_limits<double>::infinity(),
                       double max = std::numeric_limits<double>::infinity(),
                       std::vector<std::string> choices = {}) {
    return SettingSpec{.name = std::move(name),
                       .kind = kind,
                       .default_value = std::move(default_value),
                       .meaning = std::move(meaning),
                       .min = min,
                       .max = max,
                       .min_exclusive = kind == K::kSeconds,
                       .choices = std::move(choices)};
  };
  const auto text = [](std::string LiveSettings::*member) {
    return [member](LiveSettings& s, const SettingAssignment& given, const KeyValue&) {
      s.*member = given.value;
    };
  };
  static const std::vector<LiveSetting> table = {
      {spec("hosts", K::kInteger, "the cluster's servers",
            "hosts of the testbed, one per server (the same as the cluster's servers)", 1,
            kMaxTestbedHosts),
       [](LiveSettings& s, const SettingAssignment&, const KeyValue& v) {
         s.hosts = static_cast<int>(v.number);
       }},
      {spec("rate", K::kText, "100mbit, or the cluster's nic",
            "every link's rate in tc's units (100mbit, 1gbit), and so every server's NIC"),
       text(&LiveSettings::rate)},
      {spec("deadline", K::kSeconds, "300s", "stop with an error if the run is not over by then", 0,
            kMaxWaitTime),
       text(&LiveSettings::deadline)},
      {spec("agent_timeout", K::kSeconds, "5s",
            "an agent silent this long (it beats every 1s) is lost and its tasks re-run "
            "elsewhere",
            0, kMaxWaitTime),
       text(&LiveSettings::agent_timeout)},
      {spec("journal", K::kText, "none",
            "SQLite file recording each completed job; started again with it, a run skips the "
            "jobs it records"),
       text(&LiveSettings::journal)},
      {spec("keep_testbed", K::kSwitch, "false", "leave a testbed this run brought up"),
       [](LiveSettings& s, const SettingAssignment&, const KeyValue& v) {
         s.keep_testbed = v.number != 0;
       }},
      {spec("block_reads", K::kChoice, "memory",
            "memory (an agent holds a local block in memory, so reading it costs nothing, as in "
            "the simulator without disks) or file (read from a scratch file of its size)",
            0, 0, {"memory", "file"}),
       text(&LiveSettings::block_reads)},
      {spec("testbed_prefix", K::kText, "sf", "namespace names of the testbed (sfsw, sfh0, ...)"),
       text(&LiveSettings::prefix)},
      {spec("agent", K::kText, "this program",
            "the slotflow executable the agents run (of the same build)"),
       text(&LiveSettings::agent_program)}};
  return table;
}

void SetLiveSetting(LiveSettings& settings, const SettingAssignment& given) {
  for (const LiveSetting& s : LiveSettingTable()) {
    if (s.setting.name != given.key) continue;
    KeyValue v;
    v.number = ParseSetting(s.setting, given, v.word);
    s.set(settings, given, v);
    return;
  }
  throw InputError(given.file, given.line, given.field, "not a setting of live runs");
}

std::string LiveSettings::Field(std::string_view key) const { return named(key); }

void ApplyLiveCluster(const LiveSettings& s, RunSpec& spec) {
  const SettingAssignment* servers = ClusterSettingGiven(spec, "servers");
  if (s.hosts > 0) {
    if (servers != nullptr && ParseClusterValue(*servers).number != s.hosts) {
      throw InputError("", 0, s.Field("hosts"),
                       fmt::format("contradicts {}; give one of them", servers->field));
    }
    SetClusterValue(spec, "servers", std::to_string(s.hosts), "", 0, s.Field("hosts"));
  }
  const SettingAssignment* nic = ClusterSettingGiven(spec, "nic");
  if (!s.rate.empty() && nic != nullptr) {
    throw InputError("", 0, s.Field("rate"),
                     fmt::format("contradicts {}; give one of them", nic->field));
  }
  if (nic == nullptr) {
    const std::string rate = s.rate.empty() ? kDefaultRate : s.rate;
    const double bytes_per_second = static_cast<double>(ParseLinkRate(rate, s.Field("rate"))) / 8;
    SetClusterValue(spec, "nic", fmt::format("{}", bytes_per_second), "", 0, s.Field("rate"));
  }
}

RunResult RunLive(const RunSpec& spec, const PreparedRun& run, const LiveSettings& s) {
  if (spec.simulation.time_step > 0) {
    const SettingAssignment& given = spec.given_at.at("rates.time_step");
    throw InputError(given.file, given.line, given.field,
                     "steps the simulator's rates; live mode's rates are real TCP's (leave it at "
                     "0 here)");
  }
  if (geteuid() != 0) {
    throw InputError(
        "slotflow live needs root: it brings up the testbed (network namespaces, "
        "veth pairs, tc) and runs agents inside it");
  }
  const ClusterSpec& c = run.cluster.spec();
  for (const auto& [key, modelled] : {std::pair{"payload_efficiency", c.payload_efficiency != 1},
                                      std::pair{"task_launch_latency", c.task_launch_latency != 0},
                                      std::pair{"flow_start_latency", c.flow_start_latency != 0}}) {
    if (modelled) {
      const SettingAssignment* given = ClusterSettingGiven(spec, key);
      throw InputError(given ? given->file : "", given ? given->line : 0,
                       given ? given->field : fmt::format("cluster.{}", key),
                       "models what a real transport and task launch cost; live mode has the real "
                       "ones (leave it at its default here, and give `run` the values `slotflow "
                       "testbed calibrate` measures)");
    }
  }
  LiveRunOptions lo;
  lo.master.deadline = ParseWaitSeconds(s.deadline, s.Field("deadline"));
  if (!(lo.master.deadline > 0)) throw InputError("", 0, s.Field("deadline"), "must be positive");
  lo.master.agent_timeout = ParseWaitSeconds(s.agent_timeout, s.Field("agent_timeout"));
  if (!(lo.master.agent_timeout >= 2)) {
    throw InputError("", 0, s.Field("agent_timeout"),
                     "must be at least 2s (agents beat every 1s; a shorter wait loses live ones)");
  }
  if (!s.agent_program.empty() && access(s.agent_program.c_str(), X_OK) != 0) {
    throw InputError("", 0, s.Field("agent"),
                     "'" + s.agent_program + "' is not an executable slotflow program");
  }
  if (!s.journal.empty()) {
    // Checked before the testbed comes up: a journal of another run, or not a journal, is
    // refused without touching the machine.
    const Journal check(s.journal, run.workload, spec.simulation.seed);
  }
  if (s.block_reads != "memory" && s.block_reads != "file") {
    throw InputError("", 0, s.Field("block_reads"),
                     fmt::format("expected memory or file, got '{}'", s.block_reads));
  }
  lo.master.read_blocks = s.block_reads == "file";
  lo.master.journal = s.journal;
  lo.master.seed = spec.simulation.seed;
  lo.master.estimate_error = spec.simulation.estimate_error;
  lo.master.log = spec.simulation.log;
  lo.keep_testbed = s.keep_testbed;
  lo.agent_program = s.agent_program;
  const TestbedConfig config = TestbedFor(run.cluster, s.prefix);
  BuiltPolicies policies = BuildPolicies(spec);
  const double load_start = LoadAverage();
  RunResult result = RunOnTestbed(config, run.cluster, run.workload, std::move(policies.scheduler),
                                  std::move(policies.network), lo);
  result.summary.block_reads = s.block_reads;
  result.summary.load_start = load_start;
  result.summary.load_end = LoadAverage();
  Describe(spec, run, std::move(policies.in_force), result.summary);
  return result;
}

}  // namespace slotflow
