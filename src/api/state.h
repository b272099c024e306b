// SimState: the run-time state of a simulation (jobs, tasks, slots, flows) that task schedulers
// read. Only the TaskLifecycle changes it; policies return decisions.
// Policy API (src/api/): stable, see docs/plugins.md#the-policy-api.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "api/cluster.h"
#include "api/flow_view.h"
#include "api/job.h"
#include "api/random.h"

namespace slotflow {

// A task's life (Duopoly §1; sim/lifecycle.h): waiting (job not arrived or parents not done) →
// ready → placed, reading its input → computing → writing its output → done. A task is placed
// once and never moved, unless its server is lost (TaskLifecycle::LoseServer): then it starts
// over from waiting.
// kLaunching: placed with nothing to read, waiting out the cluster's task launch latency before
// it computes (only when that is set; a task that reads is kReading meanwhile, its flows held).
enum class TaskState : uint8_t {
  kWaiting,
  kReady,
  kLaunching,
  kReading,
  kComputing,
  kWriting,
  kDone
};
const char* TaskStateName(TaskState s);  // "waiting", "ready", ... "done"

// Where a task that reads an input block read it from, relative to where it ran: its own server
// (node), another server of its rack (rack), another rack (off-rack); none for a task that reads
// no block (a reduce task, or no input).
enum class Locality : uint8_t { kNone, kNode, kRack, kOffRack };
const char* LocalityName(Locality l);

// (Fields are ordered so that the record packs tightly: there is one per task.)
struct TaskRuntime {
  JobIndex job{-1};
  int stage = -1;
  int index = -1;  // within its stage
  ServerId server = kNoServer;
  int pending_flows = 0;
  TaskState state = TaskState::kWaiting;
  bool root = false;        // in a stage without parents: reads an input block
  bool local_read = false;  // root task placed on a replica holder
  Locality locality = Locality::kNone;
  const TaskSpec* spec = nullptr;
  std::vector<ServerId> replicas;  // root tasks with input: servers holding its block
  Bytes network_bytes = 0;         // bytes it receives over the network
  // When it became ready, was placed, started computing (its input read), finished computing
  // and was done (its output written); -1 until then.
  Seconds ready_at = -1, placed_at = -1, compute_at = -1, computed_at = -1, finish_at = -1;

  bool HoldsSlot() const { return spec->pinned == kNoServer; }
};

// A task an earlier run completed, as live mode's journal records it (TaskLifecycle::RestoreTask):
// the server it ran on, which holds its output, how it read its input, and its times on that
// run's clock.
struct FinishedTask {
  ServerId server = kNoServer;
  Locality locality = Locality::kNone;
  Bytes network_bytes = 0;
  Seconds ready_at = -1, placed_at = -1, compute_at = -1, computed_at = -1, finish_at = -1;
};

struct StageRuntime {
  TaskId first_task{0};
  int task_count = 0;
  int unfinished_tasks = 0;
  int unfinished_parents = 0;
  std::vector<int> children;
  CoflowId coflow{-1};    // non-root stages: the coflow of flows into it
  Bytes input_bytes = 0;  // sum of its tasks' inputs
};

using ReadyTasks = std::deque<TaskId>;

struct JobRuntime {
  const JobSpec* spec = nullptr;
  JobIndex index{-1};
  bool arrived = false;
  bool finished = false;
  std::vector<StageRuntime> stages;
  // Ready, unplaced, unpinned tasks in task-id order. A deque: tasks mostly leave from the
  // front and join at the back, each in constant time, where a vector would shift the rest.
  ReadyTasks ready;
  int ready_roots = 0;  // how many of `ready` are root tasks (TaskRuntime::root)
  int running = 0;  // placed and not done
  int unfinished_tasks = 0;
  int local_reads = 0, remote_reads = 0;
  double size_estimate = 0;     // for SJF (may include estimate error)
  double shuffle_estimate = 0;  // for SJF by shuffle bytes (likewise)
  Seconds first_start = -1, finish = -1;
};

struct ServerRuntime {
  int free_slots = 0;
  Bytes free_memory = kForever;  // infinite when the server's memory is not modelled
  int running = 0;               // slot-holding tasks placed here and not done
  int held_slots = 0;            // the slots they hold (a task holds its `cpus`)
  int computing = 0;             // of those slots, the ones held by tasks computing (not
                                 // reading or writing)
  int receiving = 0;             // tasks here fetching input over the network
  bool lost = false;             // gone for good (TaskLifecycle::LoseServer): hosts nothing
  // Running totals up to totals_at (SimState::ServerBusyTotals adds the time since): slot-
  // seconds spent computing, and byte-seconds of memory in use (0 when not modelled).
  double compute_slot_seconds = 0, memory_byte_seconds = 0;
  Seconds totals_at = 0;
};

class SimState {
 public:
  SimState(const Cluster& cluster, const FlowView& flows) : cluster_(cluster), flows_(flows) {}

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
  // Whether task t may start on server s now: as many free slots as the task's cpus and, where
  // memory is modelled, enough of it free, and s is not the server the task avoids (a pinned
  // task runs where it is pinned, outside the slots and memory).
  bool CanHost(TaskId t, ServerId s) const {
    const ServerRuntime& sv = servers_[s];
    if (sv.free_slots > 0 && !memory_limited_ && !avoids_ && !multi_slot_) {
      return true;  // the common case, cheap
    }
    const TaskRuntime& task = tasks_[t];
    if (sv.lost) return false;
    if (!task.HoldsSlot()) return true;  // pinned: runs where it is pinned, outside the slots
    if (task.spec->avoid == s) return false;
    return sv.free_slots >= task.spec->cpus && task.spec->memory <= sv.free_memory;
  }
  // How busy server s is now, each in [0, 1]: slots in use, memory in use (0 when not
  // modelled), its disk's and its NIC's load over capacity (0 when the disk is not modelled).
  struct Utilisation {
    double cpu = 0, memory = 0, disk = 0, uplink = 0, downlink = 0;
  };
  Utilisation ServerUtilisation(ServerId s) const;
  // What server s has used since the run began, summed over time: slot-seconds of computing
  // (its slot-holding tasks in their compute phase, not reading or writing) and byte-seconds
  // of memory in use. Their growth between two readings, over the interval and the server's
  // slots or memory, is its mean CPU or memory utilisation over that interval. (What its disk
  // and NIC carried over an interval follows from the flows' bytes sent, FlowView::Sent.)
  struct BusyTotals {
    double compute_slot_seconds = 0, memory_byte_seconds = 0;
  };
  BusyTotals ServerBusyTotals(ServerId s) const;
  // Servers with at least one free slot, in increasing id order.
  const std::vector<ServerId>& servers_with_free_slots() const { return free_servers_; }
  // Whether server s is one of them: a byte per server, so that a pass over many tasks'
  // replicas reads it instead of each server's record (CanHost holds only where it does, for
  // any task that holds a slot).
  bool HasFreeSlot(ServerId s) const { return has_free_slot_[s] != 0; }
  // Of those, the ones where no task is receiving (ServerRuntime::receiving == 0), in
  // increasing id order: an index, so that a scheduler looking for such a server need not scan.
  const std::vector<ServerId>& idle_servers_with_free_slots() const { return idle_servers_; }
  // True when CanHost(t, s) is just "s has a free slot" for every task: no memory is modelled,
  // no task avoids a server and none needs more than one slot.
  bool HostsOnAnyFreeSlot() const { return !memory_limited_ && !avoids_ && !multi_slot_; }
  int free_slots() const { return free_slot_total_; }

  // For a task of a non-root stage whose parents are done: the bytes it needs from each server
  // holding parent outputs, by increasing server id (one flow per source server).
  std::vector<std::pair<ServerId, Bytes>> InputSources(TaskId t) const;
  // What task t's flows would be as one unit (its macroflow: size, job, coflow; no servers), for
  // asking the network policy where they would rank (FlowView::ExpectedClass).
  FlowSpec UnitSpec(TaskId t) const;
  int ready_tasks() const { return ready_total_; }
  // Ready tasks (of every job) with a replica of their input block on server s.
  int ready_replicas(ServerId s) const { return ready_replicas_[s]; }

 private:
  friend class TaskLifecycle;  // the only writer

  const Cluster& cluster_;
  const FlowView& flows_;
  std::vector<JobRuntime> jobs_;
  std::vector<JobIndex> active_jobs_;
  std::vector<TaskRuntime> tasks_;
  std::vector<ServerRuntime> servers_;
  std::vector<ServerId> free_servers_;
  std::vector<uint8_t> has_free_slot_;  // per server: listed in free_servers_
  std::vector<ServerId> idle_servers_;
  std::vector<uint8_t> in_idle_;  // per server: listed in idle_servers_
  int free_slot_total_ = 0;
  bool memory_limited_ = false;  // some server's memory is modelled
  bool avoids_ = false;          // some task avoids a server
  bool multi_slot_ = false;      // some task holds more than one slot
  int ready_total_ = 0;
  std::vector<int> ready_replicas_;  // per server; see ready_replicas()
  // InputSources' scratch, one entry per server, zero between calls.
  mutable std::vector<Bytes> source_bytes_;
  mutable std::vector<char> source_seen_;
};

}  // namespace slotflow
