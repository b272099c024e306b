#include "sim/state.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "network/network.h"

namespace slotflow {

SimState::SimState(const Cluster& cluster, Network& network)
    : cluster_(cluster), network_(network), flows_(network) {}

void SimState::AddFreeSlots(ServerId s, int delta) {
  ServerRuntime& sv = servers_[s];
  const bool had = sv.free_slots > 0;
  sv.free_slots += delta;
  free_slot_total_ += delta;
  const bool has = sv.free_slots > 0;
  if (had && !has) {
    free_servers_.erase(std::lower_bound(free_servers_.begin(), free_servers_.end(), s));
  } else if (!had && has) {
    free_servers_.insert(std::lower_bound(free_servers_.begin(), free_servers_.end(), s), s);
  }
}

void SimState::Occupy(TaskId t, ServerId s) {
  TaskRuntime& task = tasks_[t];
  if (task.state != TaskState::kReady) {
    throw std::logic_error(fmt::format("scheduler placed task {} which is not ready", t));
  }
  if (s < 0 || s >= cluster_.size()) {
    throw std::logic_error(fmt::format("scheduler placed task {} on unknown server {}", t, s));
  }
  JobRuntime& job = jobs_[task.job];
  if (task.HoldsSlot()) {
    if (servers_[s].free_slots <= 0) {
      throw std::logic_error(
          fmt::format("scheduler placed task {} on server {} with no free slot", t, s));
    }
    job.ready.erase(std::lower_bound(job.ready.begin(), job.ready.end(), t));
    --ready_total_;
    AddFreeSlots(s, -1);
    ++servers_[s].running;
  } else if (s != task.spec->pinned) {
    throw std::logic_error(fmt::format("pinned task {} placed off its server", t));
  }
  ++job.running;
  if (job.first_start < 0) job.first_start = now();
  task.server = s;
  task.placed_at = now();
  task.state = TaskState::kFetching;
}

JobIndex SimState::AddJob(const JobSpec& spec, Rng* replica_rng) {
  const auto j = static_cast<JobIndex>(jobs_.size());
  jobs_.emplace_back();
  JobRuntime& job = jobs_.back();
  job.spec = &spec;
  job.index = j;
  job.size_estimate = spec.SizeEstimate();
  job.stages.resize(spec.stages.size());
  const int replicas = std::min(cluster_.spec().replicas, cluster_.size());
  for (size_t s = 0; s < spec.stages.size(); ++s) {
    const StageSpec& st = spec.stages[s];
    StageRuntime& sr = job.stages[s];
    sr.first_task = static_cast<TaskId>(tasks_.size());
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
      // Input blocks live on `replicas` distinct random servers (SPEC §4).
      if (replica_rng != nullptr && t.root && t.spec->input > 0 && t.spec->pinned == kNoServer) {
        while (static_cast<int>(t.replicas.size()) < replicas) {
          const auto r = static_cast<ServerId>(replica_rng->UniformInt(cluster_.size()));
          if (std::find(t.replicas.begin(), t.replicas.end(), r) == t.replicas.end()) {
            t.replicas.push_back(r);
          }
        }
      }
      sr.input_bytes += t.spec->input;
      tasks_.push_back(std::move(t));
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
      sr.coflow = network_.AddCoflow(c);
    }
  }
  job.unfinished_tasks = spec.TaskCount();
  return j;
}

bool SimState::MakeReady(TaskId t) {
  TaskRuntime& task = tasks_[t];
  task.state = TaskState::kReady;
  task.ready_at = now();
  if (task.spec->pinned != kNoServer) return false;
  auto& ready = jobs_[task.job].ready;
  ready.insert(std::lower_bound(ready.begin(), ready.end(), t), t);
  ++ready_total_;
  return true;
}

void SimState::StartFetch(TaskId t, std::vector<FlowId>& started) {
  TaskRuntime& task = tasks_[t];
  JobRuntime& job = jobs_[task.job];
  const ServerId dst = task.server;
  auto start_flow = [&](ServerId src, Bytes bytes, bool block_read, CoflowId coflow) {
    FlowSpec fs;
    fs.src = src;
    fs.dst = dst;
    fs.size = bytes;
    fs.job = task.job;
    fs.coflow = coflow;
    fs.macroflow = t;
    fs.macroflow_bytes = task.spec->input;
    fs.read_source_disk = block_read;
    started.push_back(network_.StartFlow(fs));
    ++task.pending_flows;
    if (src != dst) task.network_bytes += bytes;
  };

  if (task.root) {
    if (task.spec->input > 0) {
      const auto& reps = task.replicas;
      task.local_read = reps.empty() || std::find(reps.begin(), reps.end(), dst) != reps.end();
      if (task.local_read) {
        ++job.local_reads;
        // A local read costs time only when disks are modelled.
        if (cluster_.Disk(dst) >= 0) start_flow(dst, task.spec->input, true, -1);
      } else {
        ++job.remote_reads;
        // Read from the least loaded replica holder (SPEC §4): fewest outgoing flows.
        ServerId src = reps.front();
        for (ServerId r : reps) {
          if (network_.OutgoingFlows(r) < network_.OutgoingFlows(src)) src = r;
        }
        start_flow(src, task.spec->input, true, -1);
      }
    }
  } else {
    // One flow per source server carrying the bytes of all parent tasks there (SPEC §4).
    const CoflowId coflow = job.stages[task.stage].coflow;
    for (const auto& [src, bytes] : InputSources(t)) {
      if (src != dst) start_flow(src, bytes, false, coflow);  // local bytes are free
    }
  }
  if (task.pending_flows > 0) ++servers_[dst].receiving;
}

bool SimState::Complete(TaskId t, std::vector<TaskId>& now_ready) {
  TaskRuntime& task = tasks_[t];
  task.state = TaskState::kDone;
  task.finish_at = now();
  JobRuntime& job = jobs_[task.job];
  if (task.HoldsSlot()) {
    AddFreeSlots(task.server, +1);
    --servers_[task.server].running;
  }
  --job.running;
  StageRuntime& sr = job.stages[task.stage];
  if (--sr.unfinished_tasks == 0) {
    // Barrier: a child stage's tasks are ready when all its parents are done (SPEC §4).
    for (int c : sr.children) {
      StageRuntime& cs = job.stages[c];
      if (--cs.unfinished_parents == 0) {
        for (TaskId ct = cs.first_task; ct < cs.first_task + cs.task_count; ++ct) {
          now_ready.push_back(ct);
        }
      }
    }
  }
  if (--job.unfinished_tasks > 0) return false;
  job.finished = true;
  job.finish = now();
  active_jobs_.erase(std::find(active_jobs_.begin(), active_jobs_.end(), job.index));
  return true;
}

std::vector<std::pair<ServerId, Bytes>> SimState::InputSources(TaskId t) const {
  const TaskRuntime& task = tasks_[t];
  const JobRuntime& job = jobs_[task.job];
  const StageSpec& st = job.spec->stages[task.stage];
  int parent_tasks = 0;
  for (int p : st.parents) parent_tasks += job.stages[p].task_count;
  std::vector<std::pair<ServerId, Bytes>> by_server;
  int k = 0;
  for (int p : st.parents) {
    const StageRuntime& ps = job.stages[p];
    for (TaskId pt = ps.first_task; pt < ps.first_task + ps.task_count; ++pt, ++k) {
      const Bytes b =
          task.spec->from.empty() ? task.spec->input / parent_tasks : task.spec->from[k];
      if (b > 0) by_server.emplace_back(tasks_[pt].server, b);
    }
  }
  std::sort(by_server.begin(), by_server.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  // Merge equal servers.
  size_t out = 0;
  for (size_t i = 0; i < by_server.size(); ++i) {
    if (out > 0 && by_server[out - 1].first == by_server[i].first) {
      by_server[out - 1].second += by_server[i].second;
    } else {
      by_server[out++] = by_server[i];
    }
  }
  by_server.resize(out);
  return by_server;
}

}  // namespace slotflow
