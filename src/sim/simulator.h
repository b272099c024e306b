// Simulator: runs a workload on a cluster under one task scheduler and one network policy. It
// wires the engine's loop (src/engine), the fluid network and the task life cycle
// (sim/lifecycle.h), asks the scheduler for placements after every step that may need them, and
// collects the results. Time jumps from event to event; rates change only there.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/cluster.h"
#include "api/job.h"
#include "api/state.h"
#include "api/task_scheduler.h"
#include "engine/engine.h"
#include "metrics/report.h"
#include "network/network.h"
#include "sim/engine_clock.h"
#include "sim/lifecycle.h"
#include "sim/scheduler_driver.h"

namespace slotflow {

// How a long run reports its progress on stderr: not at all, one line rewritten about once a
// second (a terminal), or a new line every 5 s (a log file, a batch job).
enum class ProgressStyle { kOff, kLine, kLog };

struct SimulationConfig {
  uint64_t seed = 1;
  // SJF estimates are multiplied by a factor drawn uniformly from [1 − e, 1 + e] (Duopoly §3.1).
  double estimate_error = 0;
  // Progress on stderr once the run has taken a second (kLine) or 5 s (kLog).
  ProgressStyle progress = ProgressStyle::kOff;
  // Verify the invariants of sim/invariants.h after every step (slower; a failure is a bug).
  bool check = false;
  // The decision log (docs/decision-log.md), or none; must outlive the run.
  EventLog* log = nullptr;
  // Fill RunResult::tasks (one record per task, for tasks.csv).
  bool collect_tasks = false;
  // Fill RunResult::utilisation: each server's utilisation whenever it changes.
  bool collect_utilisation = false;
  // Rates re-solved at most once per this step, everything the network does moved to the
  // step's boundaries (network/network.h); 0: exact, every event at its own time.
  Seconds time_step = 0;
};

struct RunResult {
  std::vector<JobResult> jobs;
  std::vector<TaskResult> tasks;               // only with SimulationConfig::collect_tasks
  std::vector<UtilisationSample> utilisation;  // only with collect_utilisation
  std::vector<ModeSwitch> modes;               // the slot mode's switches (modes.csv), and
  std::vector<TaskId> placements;              // the placements in order: with collect_tasks
  RunSummary summary;
};

class Simulator {
 public:
  Simulator(const Cluster& cluster, const Workload& workload,
            std::unique_ptr<TaskScheduler> scheduler, std::unique_ptr<NetworkPolicy> network_policy,
            const SimulationConfig& config);
  ~Simulator();

  RunResult Run();
  const SimState& state() const { return state_; }
  const Network& network() const { return network_; }

 private:
  void Settle();
  RunResult Collect(double wall_s);
  void SampleUtilisation();

  const Cluster& cluster_;
  SimulationConfig config_;
  Engine engine_;
  Network network_;
  SimState state_;
  TaskLifecycle lifecycle_;
  SchedulerDriver driver_;
  EngineClock clock_;
  std::vector<FlowId> completed_;  // the flows that ended at the current step
  bool time_limit_hit_ = false;
  std::vector<UtilisationSample> utilisation_;  // every sample so far
  std::vector<int64_t> last_sample_;            // per server, its latest in utilisation_
};

}  // namespace slotflow
