// SchedulerDriver: the scheduler protocol of api/task_scheduler.h, run the same way in
// simulation and live mode. It adds a workload's jobs with random numbers drawn in one fixed
// order, makes them arrive at their submit times, offers a server's free slots at its
// heartbeats, runs the cluster-wide tick, asks Next() after every step that may need it, counts
// reservations, follows the scheduler's slot mode (telling the network policy of each switch)
// and fills the parts of the run's summary that come from these. Time and timers come from a
// DriverClock; the caller settles (SettleScheduler, then the network) after every event.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "api/cluster.h"
#include "api/flow_view.h"
#include "api/job.h"
#include "api/state.h"
#include "api/task_scheduler.h"
#include "common/event_log.h"
#include "metrics/report.h"
#include "sim/driver_clock.h"
#include "sim/lifecycle.h"

namespace slotflow {

class SchedulerDriver {
 public:
  // `set_slot_mode` passes the scheduler's mode signal on to the network policy. `log` is the
  // decision log, or null.
  SchedulerDriver(const Cluster& cluster, SimState& state, TaskLifecycle& lifecycle,
                  std::unique_ptr<TaskScheduler> scheduler,
                  std::function<void(SlotMode)> set_slot_mode, EventLog* log);
  ~SchedulerDriver();

  // Adds every job of the workload to the life cycle, in workload order. Random numbers are
  // drawn from one generator seeded with `seed`: each job's estimate error (a factor uniform in
  // [1 − e, 1 + e], Duopoly §3.1, when e > 0), then its block replicas — the order that fixes a
  // seed's outputs. Returns the job indexes, in workload order.
  std::vector<JobIndex> AddJobs(const Workload& workload, uint64_t seed, double estimate_error);
  // Sets the arrivals (each job at its submit time; `arrive` false skips a job, e.g. one a
  // journal records as done) and the scheduler's periodic triggers, which start at the first
  // job's submit time and stop once every job is done: the tick, and each server s's
  // heartbeat at origin + (s / servers + k) · interval.
  void Start(DriverClock& clock, const Workload& workload, const std::vector<JobIndex>& jobs,
             const std::function<bool(JobIndex)>& arrive);

  // The scheduler's part of a step: if anything may need a decision, asks Next() until it says
  // nothing (unless heartbeats place), then follows its slot mode (or, for a scheduler that
  // reports none, the SJF job's, Duopoly §3.3).
  void SettleScheduler();

  // Reservations, the scheduler's own counters, and the time spent in each slot mode up to
  // `makespan`, into `summary`.
  void AddSummary(RunSummary& summary, Seconds makespan) const;

  TaskScheduler& scheduler() { return *scheduler_; }
  // Every switch of the slot mode so far, the first being the mode at the first decision.
  const std::vector<ModeSwitch>& mode_switches() const { return mode_log_; }
  // The tasks the scheduler placed, in the order it placed them (placements.csv).
  const std::vector<TaskId>& placements() const { return placements_; }

 private:
  void OfferServer(ServerId s);
  void LogReserve(const Decision& d, ServerId server);

  const Cluster& cluster_;
  SimState& state_;
  TaskLifecycle& lifecycle_;
  std::unique_ptr<TaskScheduler> scheduler_;
  std::function<void(SlotMode)> set_slot_mode_;
  EventLog* log_;
  DriverClock* clock_ = nullptr;
  int64_t reservations_ = 0;
  // The scheduler's slot mode, since when, the time spent in each and the switches.
  std::optional<SlotMode> mode_;
  Seconds mode_since_ = 0;
  double mode_seconds_[2] = {0, 0};
  std::vector<ModeSwitch> mode_log_;
  std::vector<TaskId> placements_;
  std::string last_reserve_;  // what the last "reserve" line said, and its line number
  int64_t last_reserve_line_ = -1;
};

// What every run reports of its jobs, slots and network, the same way in both modes: the
// summary of `jobs`, makespan, unfinished jobs, read locality, slot utilisation, bytes moved
// between servers, flows, downlink utilisation, and the driver's part.
RunSummary SummarizeRun(const std::vector<JobResult>& jobs, const Cluster& cluster,
                        const SimState& state, const TaskLifecycle& lifecycle,
                        const FlowView& network, const SchedulerDriver& driver);

}  // namespace slotflow
