// TaskLifecycle::LoseServer: the tasks a lost server takes with it start over, as Hadoop
// re-executes the running tasks of a lost node and the finished maps whose outputs are still
// needed.
#include <fmt/format.h>

#include <algorithm>

#include "sim/lifecycle.h"

namespace slotflow {

namespace {

bool Placed(const TaskRuntime& t) {
  return t.state != TaskState::kWaiting && t.state != TaskState::kReady;
}

}  // namespace

// Unfinished tasks on s or reading from s, then, until nothing changes, finished tasks on s
// whose output some unfinished task of a child stage has still to read (it is not placed, or is
// itself starting over).
std::vector<char> TaskLifecycle::TasksToReset(ServerId s) const {
  std::vector<char> reset(s_.tasks_.size(), 0);
  for (JobIndex j : s_.active_jobs_) {
    for (const StageRuntime& sr : s_.jobs_[j].stages) {
      for (TaskId t = sr.first_task; t < sr.first_task + sr.task_count; ++t) {
        const TaskRuntime& task = s_.tasks_[t];
        if (task.server == s && Placed(task) && task.state != TaskState::kDone) reset[t] = 1;
      }
    }
  }
  for (FlowId f{0}; f < static_cast<FlowId>(flow_owner_.size()); ++f) {
    if (FlowOpen(f) && network_.flow(f).spec.src == s) reset[flow_owner_[f].task] = 1;
  }
  auto needed = [&](const JobRuntime& job, const StageRuntime& sr) {
    for (int c : sr.children) {
      const StageRuntime& cs = job.stages[c];
      for (TaskId ct = cs.first_task; ct < cs.first_task + cs.task_count; ++ct) {
        if (reset[ct] || !Placed(s_.tasks_[ct])) return true;
      }
    }
    return false;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (JobIndex j : s_.active_jobs_) {
      const JobRuntime& job = s_.jobs_[j];
      for (const StageRuntime& sr : job.stages) {
        for (TaskId t = sr.first_task; t < sr.first_task + sr.task_count; ++t) {
          const TaskRuntime& task = s_.tasks_[t];
          if (reset[t] || task.server != s || task.state != TaskState::kDone) continue;
          if (needed(job, sr)) reset[t] = changed = true;
        }
      }
    }
  }
  return reset;
}

TaskLifecycle::ServerLoss TaskLifecycle::LoseServer(ServerId s) {
  ServerLoss loss;
  if (s_.servers_[s].lost) return loss;
  s_.servers_[s].lost = true;
  AddFreeSlots(s, -s_.servers_[s].free_slots);
  const std::vector<char> reset = TasksToReset(s);
  for (JobIndex j : s_.active_jobs_) {
    for (const StageRuntime& sr : s_.jobs_[j].stages) {
      for (TaskId t = sr.first_task; t < sr.first_task + sr.task_count; ++t) {
        TaskRuntime& task = s_.tasks_[t];
        const bool had_replicas = !task.replicas.empty();
        if (std::erase(task.replicas, s) > 0 && task.state == TaskState::kReady) {
          --s_.ready_replicas_[s];
        }
        const bool to_run = reset[t] || task.state != TaskState::kDone;
        if (to_run && had_replicas && task.replicas.empty() && loss.unrecoverable.empty()) {
          loss.unrecoverable =
              fmt::format("task {} of job {} reads a block whose every replica was on lost servers",
                          t, s_.jobs_[j].spec->name);
        }
        if (to_run && task.spec->pinned == s && loss.unrecoverable.empty()) {
          loss.unrecoverable = fmt::format("task {} of job {} is pinned to lost server {}", t,
                                           s_.jobs_[j].spec->name, s);
        }
      }
    }
  }
  if (!loss.unrecoverable.empty()) return loss;
  std::vector<TaskId> again;
  for (TaskId t{0}; t < static_cast<TaskId>(reset.size()); ++t) {
    if (!reset[t]) continue;
    ResetTask(t, loss);
    again.push_back(t);
  }
  for (TaskId t : again) {
    const TaskRuntime& task = s_.tasks_[t];
    if (s_.jobs_[task.job].stages[task.stage].unfinished_parents == 0) MakeReady(t);
  }
  tasks_rerun_ += static_cast<int64_t>(again.size());
  if (log != nullptr) {
    log->Line(s_.now(), "server_lost").Int("server", s).Int("tasks_reset", again.size());
  }
  schedule_needed = true;
  return loss;
}

// Undoes what placing (and, for a finished task, completing) task t did, and cancels its open
// flows; it is left waiting.
void TaskLifecycle::ResetTask(TaskId t, ServerLoss& loss) {
  TaskRuntime& task = s_.tasks_[t];
  JobRuntime& job = s_.jobs_[task.job];
  const ServerId at = task.server;
  loss.reset.emplace_back(t, at);
  for (FlowId f{0}; f < static_cast<FlowId>(flow_owner_.size()); ++f) {
    if (!FlowOpen(f) || flow_owner_[f].task != t) continue;
    flow_owner_[f].open = false;
    loss.cancelled.push_back(f);
  }
  if (task.root && task.spec->input > 0) --(task.local_read ? job.local_reads : job.remote_reads);
  if (task.state == TaskState::kDone) {
    StageRuntime& sr = job.stages[task.stage];
    if (sr.unfinished_tasks++ == 0) ReopenStage(task.job, task.stage);
    ++job.unfinished_tasks;
  } else {
    if (task.state == TaskState::kReading && task.pending_flows > 0) AddReceiving(at, -1);
    if (task.HoldsSlot()) {
      busy_slot_seconds_ += (s_.now() - task.placed_at) * task.spec->cpus;
      Accrue(at);
      if (task.state == TaskState::kComputing) s_.servers_[at].computing -= task.spec->cpus;
      --s_.servers_[at].running;
      s_.servers_[at].held_slots -= task.spec->cpus;
      if (!s_.servers_[at].lost) {
        if (cluster_.server(at).memory > 0) s_.servers_[at].free_memory += task.spec->memory;
        AddFreeSlots(at, +task.spec->cpus);
      }
    }
    --job.running;
  }
  task.server = kNoServer;
  task.pending_flows = 0;
  task.local_read = false;
  task.locality = Locality::kNone;
  task.network_bytes = 0;
  task.ready_at = task.placed_at = task.compute_at = task.computed_at = task.finish_at = -1;
  task.state = TaskState::kWaiting;
}

// A finished stage has an unfinished task again: its child stages wait for it once more, and
// their ready tasks go back to waiting.
void TaskLifecycle::ReopenStage(JobIndex j, int stage) {
  JobRuntime& job = s_.jobs_[j];
  for (int c : job.stages[stage].children) {
    StageRuntime& cs = job.stages[c];
    if (cs.unfinished_parents++ != 0) continue;
    for (TaskId ct = cs.first_task; ct < cs.first_task + cs.task_count; ++ct) {
      TaskRuntime& task = s_.tasks_[ct];
      if (task.state != TaskState::kReady) continue;
      job.ready.erase(std::lower_bound(job.ready.begin(), job.ready.end(), ct));
      job.ready_roots -= task.root;
      --s_.ready_total_;
      for (ServerId r : task.replicas) --s_.ready_replicas_[r];
      task.state = TaskState::kWaiting;
      task.ready_at = -1;
    }
  }
}

void TaskLifecycle::RejoinServer(ServerId s) {
  ServerRuntime& sv = s_.servers_[s];
  if (!sv.lost) return;
  Accrue(s);
  sv.lost = false;
  const Server& server = cluster_.server(s);
  if (server.memory > 0) sv.free_memory = server.memory;
  AddFreeSlots(s, server.slots - sv.free_slots - sv.held_slots);  // also lists it as idle
  if (log != nullptr) log->Line(s_.now(), "server_rejoined").Int("server", s);
  schedule_needed = true;
}

}  // namespace slotflow
