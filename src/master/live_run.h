// LiveRun: live mode's decision maker without its transport. It runs a workload with the
// simulator's own pieces — the task life cycle and SimState, the scheduler driver
// (sim/scheduler_driver.h) and the network policy's driver through LiveFlows — on a
// DriverClock, reading the agents' reports and sending them launches, class changes and
// cancels through an AgentLink. The Master (master.h) is its transport: sockets, timers on the
// wall clock, agent loss; tests drive it with a hand-stepped clock and simulated agents.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "api/cluster.h"
#include "api/job.h"
#include "api/network_policy.h"
#include "api/state.h"
#include "api/task_scheduler.h"
#include "common/event_log.h"
#include "live/control_message.h"
#include "master/journal.h"
#include "master/live_flows.h"
#include "sim/driver_clock.h"
#include "sim/lifecycle.h"
#include "sim/scheduler_driver.h"
#include "sim/simulator.h"

namespace slotflow {

// Where the live run's messages go.
class AgentLink {
 public:
  virtual ~AgentLink() = default;
  // Sends m to the agent of `host` if it is connected (a lost host's messages are dropped).
  virtual void Send(ServerId host, const ControlMessage& m) = 0;
  // The address and port of the data server of `host`'s agent.
  virtual std::pair<std::string, uint16_t> DataEndpoint(ServerId host) const = 0;
};

struct LiveRunConfig {
  uint64_t seed = 1;          // block replicas, as in the simulator
  double estimate_error = 0;  // SimulationConfig::estimate_error
  // An SQLite file of completed jobs and tasks (master/journal.h); what it records is not run
  // again.
  std::string journal;
  EventLog* log = nullptr;  // the decision log, or none; must outlive the run
  // Whether agents read a local block from a scratch file of its size; false: the block is in
  // memory, and a local read costs nothing, as in the simulator without disks.
  bool read_blocks = false;
};

class LiveRun {
 public:
  LiveRun(const Cluster& cluster, const Workload& workload,
          std::unique_ptr<TaskScheduler> scheduler, std::unique_ptr<NetworkPolicy> network_policy,
          const LiveRunConfig& config, DriverClock& clock, AgentLink& agents);
  ~LiveRun();

  // The run begins now: arrivals and the scheduler's triggers are set on the clock.
  void Begin();
  // An agent's report (progress, a flow or a task done). Returns what is wrong with it, empty
  // when nothing is; reports about work a lost host undid are late news, not errors.
  std::string OnReport(ServerId host, const ControlMessage& m);
  // The host's server is lost: what it undid is cancelled on the agents still running it and
  // placed again at the next step. Returns an error when some task can now run nowhere.
  std::string LoseHost(ServerId host);
  // The host's server, lost, is back (a new agent for it said hello): it takes tasks again.
  void RejoinHost(ServerId host);
  // The step after every event, as in the simulator: decisions, the network policy, then the
  // messages they call for (launches, class changes), and the journal's new records.
  void Settle();

  // When the network policy wants its next pass (absolute; kForever if never).
  Seconds reclassify_at() const { return flows_.reclassify_at(); }
  int unfinished_jobs() const { return lifecycle_.unfinished_jobs(); }
  int job_count() const { return static_cast<int>(state_.jobs().size()); }
  const LiveFlows& flows() const { return flows_; }
  // The results so far; `events` counts the reports handled.
  RunResult Collect(int64_t events) const;

 private:
  void OpenJournal(const std::string& path, uint64_t seed);
  void RestoreTasks(const std::vector<JournaledTask>& tasks);
  void RecordCompleted();
  void RankClasses();
  void LaunchPlaced();
  void SendClassChanges();

  const Cluster& cluster_;
  const Workload& workload_;
  DriverClock& clock_;
  AgentLink& agents_;
  LiveFlows flows_;
  SimState state_;
  TaskLifecycle lifecycle_;
  SchedulerDriver driver_;
  std::vector<JobIndex> jobs_;
  std::unique_ptr<Journal> journal_;
  std::vector<char> journaled_;  // per job: recorded in the journal (this run or an earlier one)
  int jobs_from_journal_ = 0;
  int tasks_from_journal_ = 0;        // tasks of unfinished jobs restored from the journal
  std::vector<char> journaled_task_;  // per task: recorded in the journal as completed
  std::vector<TaskId> done_tasks_;    // tasks completed since the journal's last record
  std::vector<char> rerun_;           // per task: a lost host undid some run of it
  std::vector<char> launched_;        // per task
  std::vector<int> attempts_;         // per task: its launches so far
  FlowId launched_flows_{0};          // flows below this one have been sent to their agents
  std::vector<int> rank_;             // per flow: its class's rank among the flows in flight
  std::vector<int> marked_;           // per flow: the rank its sockets were last told
  std::vector<ServerId> lost_hosts_;
  std::vector<ServerId> rejoined_hosts_;
  bool read_blocks_;  // LiveRunConfig::read_blocks
};

}  // namespace slotflow
