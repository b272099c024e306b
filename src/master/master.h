// Master: live mode's decision maker on the wire. Its LiveRun (master/live_run.h) runs the
// workload with the simulator's own pieces and driver; the Master gives it the wall clock since
// the run started (asio timers) and the agents' connections: jobs arrive at their submit times,
// and flows progress and end, and tasks finish computing, when the agents running them say so
// (live/agent.h). Placements become launch messages to the host's agent; classes the network
// policy sets become set_class messages to both ends of the flow, whose agents re-mark the
// live sockets.
//
// A lost agent (its connection drops, or it is silent for agent_timeout) does not end the run:
// its server is lost to the life cycle (TaskLifecycle::LoseServer), the tasks that loss undid
// are cancelled on the agents still running them and placed again, and the run ends with an
// error only when no agent is left or a task can run nowhere.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "api/cluster.h"
#include "api/job.h"
#include "api/network_policy.h"
#include "api/task_scheduler.h"
#include "common/event_log.h"
#include "master/live_run.h"
#include "sim/simulator.h"

namespace slotflow {

// The live run could not finish: an agent failed, every agent went away, a task could run
// nowhere, or the deadline passed.
class LiveRunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct MasterConfig {
  std::string listen_address = "127.0.0.1";
  uint16_t port = 0;          // 0: any free port
  Seconds join_timeout = 20;  // for one agent per server to say hello
  Seconds deadline = 300;     // for the whole run, from the start of Run()
  // An agent that has sent nothing (agents send a heartbeat every second) for this long is lost,
  // as is one whose connection drops; so is the source of a failed fetch that is still
  // connected this long after (else the run ends with the fetch's error).
  Seconds agent_timeout = 5;
  // An SQLite file where each job's completion is recorded (master/journal.h); the jobs it
  // already records are not run again. Empty: none.
  std::string journal;
  uint64_t seed = 1;          // block replicas, as in the simulator
  double estimate_error = 0;  // SimulationConfig::estimate_error, drawn as the simulator does
  EventLog* log = nullptr;    // the decision log (docs/decision-log.md), or none
  bool read_blocks = false;   // LiveRunConfig::read_blocks
};

class Master {
 public:
  // Listens at once (InputError if it cannot).
  Master(const Cluster& cluster, const Workload& workload, std::unique_ptr<TaskScheduler> scheduler,
         std::unique_ptr<NetworkPolicy> network_policy, const MasterConfig& config);
  ~Master();

  uint16_t port() const;
  // Waits for the agents, runs every job, tells the agents to stop and returns the measured
  // results. LiveRunError when an agent fails, the deadline passes or SIGINT or SIGTERM arrives
  // (the agents are told to stop first).
  RunResult Run();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace slotflow
