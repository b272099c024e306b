// `slotflow live` runs a workload end to end on the testbed: the master (master/master.h) in
// this process, listening on host 0, and one `slotflow agent` per host inside its namespace.
// `slotflow agent` is that worker's command line.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "run/prepare.h"
#include "run/run_spec.h"
#include "sim/simulator.h"

namespace slotflow {

struct LiveOptions {
  int hosts = 0;     // 0: the cluster's servers
  std::string rate;  // the testbed's link rate; empty: --nic, else 100mbit
  std::string deadline = "300s";
  std::string agent_timeout = "5s";
  std::string journal;
  bool keep_testbed = false;
  std::string prefix = "sf";  // the testbed's namespace names (docs/testbed.md)
};

// Adds the live-only flags to `cmd` (which also has the run flags).
void AddLiveFlags(CLI::App& cmd, LiveOptions& o);
// Sets the cluster's servers and NIC from --hosts and --rate (one host per server, the NIC
// rate the testbed's link rate). InputError if they contradict --servers or --nic.
void ApplyLiveCluster(const LiveOptions& o, RunSpec& spec);
// Checks the live flags and runs the workload on the testbed (master/live_run.h); returns the
// measured results with the run's set-up described. InputError for bad input or a failed run
// (deadline, agent).
RunResult RunLive(const RunSpec& spec, const PreparedRun& run, const LiveOptions& o);

struct AgentOptions {
  int host = -1;
  std::string master;  // ADDRESS:PORT
  std::string listen = "0.0.0.0";
  int data_port = 0;
  std::string connect_timeout = "10s";
  std::string scratch = "/tmp";
};

CLI::App* AddAgentCommand(CLI::App& app, AgentOptions& o);
// Runs an agent until the master says stop; 0 then, 2 with a message on failure.
int RunAgentCommand(const AgentOptions& o);

}  // namespace slotflow
