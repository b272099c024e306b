// Simulator: the discrete-event loop that runs a workload on a cluster under one task
// scheduler and one network policy. Time jumps from event to event (job arrival, flow
// completion, compute completion, policy re-rank, heartbeat); rates change only there.
#pragma once

#include <memory>
#include <vector>

#include "cluster/cluster.h"
#include "engine/event_queue.h"
#include "metrics/report.h"
#include "network/network.h"
#include "sim/task_scheduler.h"
#include "sim/state.h"
#include "workload/job.h"

namespace slotflow {

struct SimulationConfig {
  uint64_t seed = 1;
  // SJF estimates are multiplied by a factor drawn uniformly from [1 − e, 1 + e] (Duopoly §3.1).
  double estimate_error = 0;
  // Print progress to stderr about once a second of wall time.
  bool progress = false;
};

struct RunResult {
  std::vector<JobResult> jobs;
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
  enum EventKind : int32_t { kJobArrival, kComputeDone, kHeartbeat };

  void Build(const Workload& workload);
  void Handle(const Event& e);
  void ArriveJob(JobIndex j);
  void MakeReady(TaskId t);
  void Place(TaskId t, ServerId s);
  void StartFetch(TaskId t);
  void StartCompute(TaskId t);
  void FinishTask(TaskId t);
  void OnFlowDone(FlowId f);
  void RunScheduler();
  RunResult Collect(double wall_s);

  const Cluster& cluster_;
  SimulationConfig config_;
  std::unique_ptr<TaskScheduler> scheduler_;
  Network network_;
  SimState state_;
  EventQueue queue_;
  std::vector<TaskId> flow_task_;  // receiving task of each flow
  std::vector<FlowId> started_;    // StartFetch scratch: the flows a placement started
  bool schedule_needed_ = false;
  int64_t events_ = 0;
  int64_t reservations_ = 0;
  int unfinished_jobs_ = 0;
  double busy_slot_seconds_ = 0;
  Seconds heartbeat_origin_ = 0;
};

}  // namespace slotflow
