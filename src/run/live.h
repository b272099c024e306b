// A run on live mode's testbed (master/live_session.h) from a run's set-up: the settings
// `slotflow live` takes beside it, checked and applied the same way for the command line and
// for Python.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "api/settings.h"
#include "cluster/cluster_keys.h"
#include "run/named_as.h"
#include "run/prepare.h"
#include "run/run_spec.h"
#include "sim/simulator.h"

namespace slotflow {

struct LiveSettings {
  int hosts = 0;     // 0: the cluster's servers
  std::string rate;  // the testbed's link rate; empty: the cluster's NIC, else 100mbit
  std::string deadline = "300s";
  std::string agent_timeout = "5s";
  std::string journal;  // SQLite file of completed jobs; empty: none
  bool keep_testbed = false;
  std::string prefix = "sf";  // the testbed's namespace names (docs/testbed.md)
  std::string agent_program;  // the slotflow executable the agents run; empty: this program
  // "memory" (a local block is in the agent's memory: its read costs nothing, as in the
  // simulator without disks) or "file" (read from a scratch file of its size).
  std::string block_reads = "memory";
  NamedAs named;  // how errors name a setting: as the front end took it (a flag, a keyword)

  std::string Field(std::string_view key) const;
};

// A setting of live runs as declared once (name, kind, default, meaning), and how it is set:
// `slotflow live`'s flags and Python's live() keywords are made from this table.
struct LiveSetting {
  SettingSpec setting;
  std::function<void(LiveSettings&, const SettingAssignment& given, const KeyValue&)> set;
};
const std::vector<LiveSetting>& LiveSettingTable();
// Parses and applies one assignment (key without prefix); InputError naming its source and
// field for an unknown key or a value out of the declared domain.
void SetLiveSetting(LiveSettings& settings, const SettingAssignment& given);

// Sets the cluster's servers and NIC from `hosts` and `rate` (one host per server, the NIC rate
// the testbed's link rate). InputError if they contradict the set-up's servers or NIC.
void ApplyLiveCluster(const LiveSettings& settings, RunSpec& spec);

// Checks the settings and runs the workload on the testbed (brought up if it is down); returns
// the measured results with the run's set-up described. InputError for bad input, without root,
// or for a failed run (deadline, agent); CommandError when `ip` or `tc` fails.
RunResult RunLive(const RunSpec& spec, const PreparedRun& run, const LiveSettings& settings);

}  // namespace slotflow
