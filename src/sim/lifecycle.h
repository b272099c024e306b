// TaskLifecycle: the one place where tasks move through their life (Duopoly §1):
// waiting → ready → placed, reading input (network and/or disk) → computing → writing output
// (local disk, when modelled) → done. A phase with no modelled resource takes no time. The
// simulator's events call these steps, and tests build their states by calling the same ones.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "api/chunked_records.h"
#include "api/cluster.h"
#include "api/flow_view.h"
#include "api/job.h"
#include "api/random.h"
#include "api/state.h"
#include "api/why.h"
#include "common/event_log.h"
#include "engine/engine.h"

namespace slotflow {

class TaskLifecycle {
 public:
  // Every server's slots start free. Compute completions are events on `engine`.
  TaskLifecycle(const Cluster& cluster, FlowNetwork& network, Engine& engine, SimState& state);
  // Without an engine, a compute ends when the caller calls OnComputeDone (live mode: when the
  // agent running the task says so).
  TaskLifecycle(const Cluster& cluster, FlowNetwork& network, SimState& state);

  // Adds a job that has not arrived yet: its stages, tasks and the coflow of every non-root
  // stage. `spec` must outlive the state (tasks point into it). Root tasks that read input get
  // the replicas their stage names for them, else (with `replica_rng`) `replicas` distinct random
  // servers, else none. Its size estimate (for SJF) is multiplied by
  // `estimate_factor` (Duopoly §3.1's estimation error).
  JobIndex AddJob(const JobSpec& spec, Rng* replica_rng, double estimate_factor = 1);
  // The job arrives: it is active and the tasks of its root stages are ready.
  void Arrive(JobIndex j);
  // The job completed in an earlier run (live mode's journal): it never arrives, and counts as
  // done in unfinished_jobs(); its state keeps its tasks waiting.
  void Skip(JobIndex /*j*/) { --unfinished_jobs_; }
  // Task t, of a job that has not arrived, completed in an earlier run (live mode's journal) on
  // done.server, which holds its output: it is done, and is not run again. When the job arrives,
  // only its other tasks run, each as its stage's parents allow (a stage whose every task was
  // restored is done, and its child stages do not wait for it); a job whose every task was
  // restored completes at its arrival. Throws std::logic_error if the job has arrived or t is
  // not waiting.
  void RestoreTask(TaskId t, const FinishedTask& done);
  // A ready task takes server s (and a slot there, unless pinned) and starts reading its input;
  // `why` is the scheduler's reason, for the log. Throws std::logic_error if the placement is
  // not allowed (a scheduler bug).
  void Place(TaskId t, ServerId s, const Why& why = Why());
  // A flow finished: its task may move on to computing (input read) or be done (output written).
  void OnFlowDone(FlowId f);
  // The task's compute is over: it writes its output, or is done at once.
  void OnComputeDone(TaskId t);
  // How long task t computes on its server.
  Seconds ComputeSeconds(TaskId t) const;

  // What losing a server undid (sim/server_loss.cc).
  struct ServerLoss {
    // Tasks sent back to waiting or ready, each with the server it had been placed on.
    std::vector<std::pair<TaskId, ServerId>> reset;
    std::vector<FlowId> cancelled;  // open flows dropped; their reports no longer count
    std::string unrecoverable;      // non-empty: a task can now run nowhere (why)
  };
  // Server s is gone for good (live mode: its agent was lost). It offers no slot any more and
  // takes no placement. Every task placed on it and not done, every task elsewhere that was
  // reading from it, and every finished task of it whose output an unfinished task still needs
  // go back to waiting (ready once their parents are done, as at first); their open flows are
  // cancelled; a stage that had finished is unfinished again, so its child stages wait for it.
  // s is dropped from the block replicas of root tasks.
  ServerLoss LoseServer(ServerId s);
  // Server s, lost, is back (live mode: a new agent for its host said hello). It comes back
  // empty: its slots (and memory) free and no input block on it (its blocks were dropped from
  // the replica lists when it was lost); schedulers may place tasks on it again.
  void RejoinServer(ServerId s);
  bool server_lost(ServerId s) const { return s_.servers_[s].lost; }
  int64_t tasks_rerun() const { return tasks_rerun_; }

  // Verify at each placement that the task's parent stages are done (sim/invariants.h).
  bool check_inputs = false;
  // Where arrivals, ready tasks, placements and completions are logged (none if null).
  EventLog* log = nullptr;
  // Set by every step that may give a scheduler something new to decide; cleared by the caller.
  bool schedule_needed = false;
  int unfinished_jobs() const { return unfinished_jobs_; }
  double busy_slot_seconds() const { return busy_slot_seconds_; }

 private:
  void AddFreeSlots(ServerId s, int delta);
  // Changes the count of tasks receiving on s.
  void AddReceiving(ServerId s, int delta);
  // Lists s in SimState's idle servers (a free slot, none receiving, not lost) or takes it off.
  void RefreshIdle(ServerId s);
  // Brings server s's busy totals (ServerRuntime::compute_slot_seconds, memory_byte_seconds)
  // up to now; called before its computing count or free memory changes.
  void Accrue(ServerId s);
  void MakeReady(TaskId t);
  void Occupy(TaskId t, ServerId s);
  void LogPlace(TaskId t, const Why& why);
  // A task with nothing to read has launched (an event, after the cluster's task launch
  // latency): it computes, unless it was reset meanwhile. (A task that reads launches while its
  // flows are held: FlowSpec::hold.)
  void OnLaunched(TaskId t);
  void StartRead(TaskId t);
  // The replica holder a block read on server dst comes from (see StartRead).
  ServerId ReadSource(const std::vector<ServerId>& replicas, ServerId dst) const;
  void StartCompute(TaskId t);
  void Complete(TaskId t);
  // Every task of the job is done: it is finished now.
  void FinishJob(JobRuntime& job);
  void SetOutputs(JobIndex j);
  std::vector<char> TasksToReset(ServerId s) const;
  void ResetTask(TaskId t, ServerLoss& loss);
  void ReopenStage(JobIndex j, int stage);
  // A flow from src to t's server; `crosses_disk`: it also crosses src's disk when modelled.
  FlowId StartFlow(TaskId t, ServerId src, Bytes bytes, bool crosses_disk, CoflowId coflow);

  const Cluster& cluster_;
  FlowNetwork& network_;
  Engine* engine_;  // null: compute completions come from the caller
  SimState& s_;
  int32_t compute_done_kind_;
  int32_t launched_kind_;
  // Per flow: the task it belongs to; open while started and neither done nor cancelled;
  // retired once its end has been handled (its chunk is freed when all of it is).
  struct FlowOwner {
    TaskId task{-1};
    bool open = false;
    bool retired = false;
  };
  ChunkedRecords<FlowOwner> flow_owner_;
  // Whether flow f is open (false once its record is gone).
  bool FlowOpen(FlowId f) const { return flow_owner_.Readable(f) && flow_owner_[f].open; }
  std::vector<Bytes> output_;  // per task, the bytes it writes (only when disks are modelled)
  int unfinished_jobs_ = 0;
  double busy_slot_seconds_ = 0;
  int64_t tasks_rerun_ = 0;
};

}  // namespace slotflow
