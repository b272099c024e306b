// SimStateTestPeer: builds a SimState by hand for scheduler tests and benchmarks. Every change
// goes through a copy of the step the Simulator takes for it (Build, ArriveJob, MakeReady,
// Place with StartFetch, FinishTask), so the derived fields — ready lists and ready_total_, the
// free-slot list and free_slot_total_, running and receiving counts, the flows and coflows in
// the Network — stay consistent, and a scheduler sees exactly what a run would show it.
// Time never advances: flows start (and get rates at net.Resolve()) but never finish, so a task
// that is fetching stays fetching.
#pragma once

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/random.h"
#include "network/network.h"
#include "sim/state.h"
#include "workload/job.h"

namespace slotflow {

class SimStateTestPeer {
 public:
  // `state` must be fresh (no servers, jobs or tasks yet); every slot starts free.
  explicit SimStateTestPeer(SimState& state) : s_(state) {
    if (!s_.servers_.empty() || !s_.jobs_.empty()) {
      throw std::logic_error("SimStateTestPeer needs a fresh SimState");
    }
    s_.servers_.resize(s_.cluster_.size());
    for (const Server& sv : s_.cluster_.servers()) s_.AddFreeSlots(sv.id, sv.slots);
  }

  // SimState::AddJob, as Simulator::Build uses it; without `replica_rng` root tasks have no
  // replicas (set them with SetReplicas).
  JobIndex AddJob(const JobSpec& spec, Rng* replica_rng = nullptr) {
    return s_.AddJob(spec, replica_rng);
  }

  // The servers holding a root task's input block (before the task is placed).
  void SetReplicas(TaskId t, std::vector<ServerId> replicas) {
    s_.tasks_[t].replicas = std::move(replicas);
  }

  // Simulator::ArriveJob: the job becomes active and its root stages' tasks ready.
  void Arrive(JobIndex j) {
    JobRuntime& job = s_.jobs_[j];
    job.arrived = true;
    s_.active_jobs_.push_back(j);
    for (const StageRuntime& sr : job.stages) {
      if (sr.unfinished_parents != 0) continue;
      for (TaskId t = sr.first_task; t < sr.first_task + sr.task_count; ++t) MakeReady(t);
    }
  }

  // Simulator::Place followed by StartFetch: the task takes a slot on `server` and starts the
  // flows of its input (a remote block read, or one flow per source server for a task of a
  // non-root stage); a task with flows makes the server receiving, one without is computing.
  void Place(TaskId t, ServerId server) {
    s_.Occupy(t, server);
    StartFetch(t);
  }

  // Simulator::FinishTask: releases the slot; when the task's stage is done, the child stages
  // whose parents are all done become ready. Only a computing task can finish here, since
  // flows never complete in a hand-built state.
  void Finish(TaskId t) {
    if (s_.task(t).state != TaskState::kComputing) {
      throw std::logic_error("finishing a task that is not computing");
    }
    std::vector<TaskId> now_ready;
    s_.Complete(t, now_ready);
    for (TaskId ct : now_ready) MakeReady(ct);
  }

 private:
  // Simulator::MakeReady.
  void MakeReady(TaskId t) {
    if (!s_.MakeReady(t)) Place(t, s_.tasks_[t].spec->pinned);
  }

  // Simulator::StartFetch, minus the compute-done event (time does not advance here).
  void StartFetch(TaskId t) {
    std::vector<FlowId> started;
    s_.StartFetch(t, started);
    if (started.empty()) {
      s_.tasks_[t].state = TaskState::kComputing;
      s_.tasks_[t].compute_at = s_.now();
    }
  }

  SimState& s_;
};

}  // namespace slotflow
