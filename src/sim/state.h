// SimState: the run-time state of a simulation (jobs, tasks, slots, network) that task
// schedulers read. Only the Simulator mutates it; policies return decisions (SPEC §6).
#pragma once

#include <cstdint>
#include <vector>

#include "cluster/cluster.h"
#include "common/random.h"
#include "network/flow_view.h"
#include "workload/job.h"

namespace slotflow {


// A task's life (Duopoly §1): waiting (job not arrived or parents not done) → ready → placed,
// fetching its input → computing → done. A task is placed once and never moved.
enum class TaskState : uint8_t { kWaiting, kReady, kFetching, kComputing, kDone };

struct TaskRuntime {
  JobIndex job = -1;
  int stage = -1;
  int index = -1;  // within its stage
  const TaskSpec* spec = nullptr;
  TaskState state = TaskState::kWaiting;
  ServerId server = kNoServer;
  bool root = false;               // in a stage without parents: reads an input block
  std::vector<ServerId> replicas;  // root tasks with input: servers holding its block
  bool local_read = false;         // root task placed on a replica holder
  int pending_flows = 0;
  Bytes network_bytes = 0;  // bytes it receives over the network
  Seconds ready_at = -1, placed_at = -1, compute_at = -1, finish_at = -1;

  bool HoldsSlot() const { return spec->pinned == kNoServer; }
};

struct StageRuntime {
  TaskId first_task = 0;
  int task_count = 0;
  int unfinished_tasks = 0;
  int unfinished_parents = 0;
  std::vector<int> children;
  CoflowId coflow = -1;   // non-root stages: the coflow of flows into it
  Bytes input_bytes = 0;  // sum of its tasks' inputs
};

struct JobRuntime {
  const JobSpec* spec = nullptr;
  JobIndex index = -1;
  bool arrived = false;
  bool finished = false;
  std::vector<StageRuntime> stages;
  std::vector<TaskId> ready;  // ready, unplaced, unpinned tasks in task-id order
  int running = 0;            // placed and not done
  int unfinished_tasks = 0;
  int local_reads = 0, remote_reads = 0;
  double size_estimate = 0;  // for SJF (may include estimate error)
  Seconds first_start = -1, finish = -1;
};

struct ServerRuntime {
  int free_slots = 0;
  int running = 0;    // slot-holding tasks placed here and not done
  int receiving = 0;  // tasks here fetching input over the network
};

class Network;

class SimState {
 public:
  SimState(const Cluster& cluster, Network& network);

  Seconds now() const { return flows_.now(); }
  const Cluster& cluster() const { return cluster_; }
  // The flows in flight, their progress and the load on every link (read-only).
  const FlowView& flows() const { return flows_; }

  const std::vector<JobRuntime>& jobs() const { return jobs_; }
  const JobRuntime& job(JobIndex j) const { return jobs_[j]; }
  // Arrived, unfinished jobs in submission order.
  const std::vector<JobIndex>& active_jobs() const { return active_jobs_; }
  const TaskRuntime& task(TaskId t) const { return tasks_[t]; }
  const ServerRuntime& server(ServerId s) const { return servers_[s]; }
  // Servers with at least one free slot, in increasing id order.
  const std::vector<ServerId>& servers_with_free_slots() const { return free_servers_; }
  int free_slots() const { return free_slot_total_; }

  // For a task of a non-root stage whose parents are done: the bytes it needs from each server
  // holding parent outputs, by increasing server id (SPEC §4: one flow per source server).
  std::vector<std::pair<ServerId, Bytes>> InputSources(TaskId t) const;
  int ready_tasks() const { return ready_total_; }

 private:
  friend class Simulator;
  friend class SimStateTestPeer;  // tests and benchmarks build states by hand

  // The task life-cycle steps that touch only this state, shared by the Simulator and the
  // hand-built states of tests (the Simulator adds events, flows and its counters).
  // Adds a job: its stages, tasks and the coflow of every non-root stage; it has not arrived
  // yet. `spec` must outlive the state (tasks point into it). With `replica_rng`, root tasks
  // with input get their block's replicas on distinct random servers (SPEC §4); without, none.
  JobIndex AddJob(const JobSpec& spec, Rng* replica_rng);
  // Adds delta free slots to server s, keeping the free-server list.
  void AddFreeSlots(ServerId s, int delta);
  // Task t becomes ready. A pinned task is not queued: the caller places it on its server
  // (returns false); any other joins its job's ready list (returns true).
  bool MakeReady(TaskId t);
  // A ready task takes server s (and a slot there, unless pinned): it is now fetching.
  // Throws std::logic_error if the placement is not allowed.
  void Occupy(TaskId t, ServerId s);
  // A placed task starts the flows of its input (SPEC §4: a block read from the least loaded
  // replica holder, or one flow per source server of its parents' outputs) and appends their
  // ids to `started`. With flows its server is now receiving; without, the caller starts the
  // compute.
  void StartFetch(TaskId t, std::vector<FlowId>& started);
  // A task is done: its slot is freed and, when its stage is done, the tasks of child stages
  // whose parents are all done are appended to `now_ready` (SPEC §4 barrier). True when its
  // job is finished.
  bool Complete(TaskId t, std::vector<TaskId>& now_ready);

  const Cluster& cluster_;
  Network& network_;
  const FlowView& flows_;  // network_, read-only
  std::vector<JobRuntime> jobs_;
  std::vector<JobIndex> active_jobs_;
  std::vector<TaskRuntime> tasks_;
  std::vector<ServerRuntime> servers_;
  std::vector<ServerId> free_servers_;
  int free_slot_total_ = 0;
  int ready_total_ = 0;
};

}  // namespace slotflow
