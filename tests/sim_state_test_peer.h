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

  // Adds a job as Simulator::Build does: its stages, tasks and the coflow of every non-root
  // stage. The job has not arrived yet. `spec` must outlive the state (tasks point into it).
  // With `replica_rng`, root tasks with input get random replicas as in Build; without, none
  // (set them with SetReplicas).
  JobIndex AddJob(const JobSpec& spec, Rng* replica_rng = nullptr) {
    const auto j = static_cast<JobIndex>(s_.jobs_.size());
    s_.jobs_.emplace_back();
    JobRuntime& job = s_.jobs_.back();
    job.spec = &spec;
    job.index = j;
    job.size_estimate = spec.SizeEstimate();
    job.stages.resize(spec.stages.size());
    const int replicas = std::min(s_.cluster_.spec().replicas, s_.cluster_.size());
    for (size_t s = 0; s < spec.stages.size(); ++s) {
      const StageSpec& st = spec.stages[s];
      StageRuntime& sr = job.stages[s];
      sr.first_task = static_cast<TaskId>(s_.tasks_.size());
      sr.task_count = static_cast<int>(st.tasks.size());
      sr.unfinished_tasks = sr.task_count;
      sr.unfinished_parents = static_cast<int>(st.parents.size());
      for (int p : st.parents) job.stages[p].children.push_back(static_cast<int>(s));
      for (size_t k = 0; k < st.tasks.size(); ++k) {
        TaskRuntime t;
        t.job = j;
        t.stage = static_cast<int>(s);
        t.index = static_cast<int>(k);
        t.spec = &st.tasks[k];
        t.root = st.parents.empty();
        if (replica_rng != nullptr && t.root && t.spec->input > 0 && t.spec->pinned == kNoServer) {
          while (static_cast<int>(t.replicas.size()) < replicas) {
            const auto r = static_cast<ServerId>(replica_rng->UniformInt(s_.cluster_.size()));
            if (std::find(t.replicas.begin(), t.replicas.end(), r) == t.replicas.end()) {
              t.replicas.push_back(r);
            }
          }
        }
        sr.input_bytes += t.spec->input;
        s_.tasks_.push_back(std::move(t));
      }
      if (!st.parents.empty()) {
        int parent_tasks = 0;
        for (int p : st.parents) parent_tasks += static_cast<int>(spec.stages[p].tasks.size());
        Coflow c;
        c.job = j;
        c.stage = static_cast<int>(s);
        c.arrival = spec.submit;
        c.total_bytes = sr.input_bytes;
        c.width = parent_tasks * sr.task_count;
        for (const TaskSpec& ts : st.tasks) {
          if (ts.from.empty()) {
            c.length = std::max(c.length, ts.input / parent_tasks);
          } else {
            for (Bytes b : ts.from) c.length = std::max(c.length, b);
          }
        }
        sr.coflow = s_.network_.AddCoflow(c);
      }
    }
    job.unfinished_tasks = spec.TaskCount();
    return j;
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
