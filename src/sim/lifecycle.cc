#include "sim/lifecycle.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace slotflow {

TaskLifecycle::TaskLifecycle(const Cluster& cluster, FlowNetwork& network, Engine& engine,
                             SimState& state)
    : TaskLifecycle(cluster, network, state) {
  engine_ = &engine;
  compute_done_kind_ = engine.AddKind([this](int64_t t) { OnComputeDone(static_cast<TaskId>(t)); });
  launched_kind_ = engine.AddKind([this](int64_t t) { OnLaunched(static_cast<TaskId>(t)); });
}

TaskLifecycle::TaskLifecycle(const Cluster& cluster, FlowNetwork& network, SimState& state)
    : cluster_(cluster), network_(network), engine_(nullptr), s_(state) {
  compute_done_kind_ = -1;
  launched_kind_ = -1;
  s_.servers_.resize(cluster_.size());
  s_.in_idle_.assign(cluster_.size(), 0);
  s_.has_free_slot_.assign(cluster_.size(), 0);
  s_.ready_replicas_.assign(cluster_.size(), 0);
  for (const Server& sv : cluster_.servers()) {
    AddFreeSlots(sv.id, sv.slots);
    if (sv.memory > 0) {
      s_.servers_[sv.id].free_memory = sv.memory;
      s_.memory_limited_ = true;
    }
  }
}

void TaskLifecycle::Accrue(ServerId s) {
  ServerRuntime& rt = s_.servers_[s];
  const SimState::BusyTotals b = s_.ServerBusyTotals(s);
  rt.compute_slot_seconds = b.compute_slot_seconds;
  rt.memory_byte_seconds = b.memory_byte_seconds;
  rt.totals_at = s_.now();
}

void TaskLifecycle::AddFreeSlots(ServerId s, int delta) {
  ServerRuntime& sv = s_.servers_[s];
  const bool had = sv.free_slots > 0;
  sv.free_slots += delta;
  s_.free_slot_total_ += delta;
  const bool has = sv.free_slots > 0;
  s_.has_free_slot_[s] = has;
  auto& free = s_.free_servers_;
  if (had && !has) {
    free.erase(std::lower_bound(free.begin(), free.end(), s));
  } else if (!had && has) {
    free.insert(std::lower_bound(free.begin(), free.end(), s), s);
  }
  RefreshIdle(s);
}

void TaskLifecycle::AddReceiving(ServerId s, int delta) {
  s_.servers_[s].receiving += delta;
  RefreshIdle(s);
}

void TaskLifecycle::RefreshIdle(ServerId s) {
  const ServerRuntime& sv = s_.servers_[s];
  const bool idle = sv.free_slots > 0 && sv.receiving == 0 && !sv.lost;
  if (idle == static_cast<bool>(s_.in_idle_[s])) return;
  s_.in_idle_[s] = idle;
  auto& list = s_.idle_servers_;
  if (idle) {
    list.insert(std::lower_bound(list.begin(), list.end(), s), s);
  } else {
    list.erase(std::lower_bound(list.begin(), list.end(), s));
  }
}

namespace {

// The coflow of the flows into a non-root stage (Duopoly §4.1): its sizes from the job's spec.
Coflow StageCoflow(const JobSpec& spec, JobIndex j, int stage, Bytes input_bytes) {
  const StageSpec& st = spec.stages[stage];
  const int parent_tasks = spec.ParentTasks(stage);
  Coflow c;
  c.job = j;
  c.stage = stage;
  c.arrival = spec.submit;
  c.total_bytes = input_bytes;
  c.width = int64_t{parent_tasks} * static_cast<int64_t>(st.tasks.size());
  for (const TaskSpec& ts : st.tasks) {
    if (ts.from.empty()) {
      c.length = std::max(c.length, ts.input / parent_tasks);
    } else {
      for (Bytes b : ts.from) c.length = std::max(c.length, b);
    }
  }
  return c;
}

}  // namespace

JobIndex TaskLifecycle::AddJob(const JobSpec& spec, Rng* replica_rng, double estimate_factor) {
  const auto j = static_cast<JobIndex>(s_.jobs_.size());
  JobRuntime& job = s_.jobs_.emplace_back();
  job.spec = &spec;
  job.index = j;
  job.size_estimate = spec.SizeEstimate() * estimate_factor;
  job.shuffle_estimate = spec.ShuffleEstimate() * estimate_factor;
  job.stages.resize(spec.stages.size());
  job.unfinished_tasks = spec.TaskCount();
  const int replicas = std::min(cluster_.spec().replicas, cluster_.size());
  for (size_t s = 0; s < spec.stages.size(); ++s) {
    const StageSpec& st = spec.stages[s];
    StageRuntime& sr = job.stages[s];
    sr.first_task = static_cast<TaskId>(s_.tasks_.size());
    sr.task_count = static_cast<int>(st.tasks.size());
    sr.unfinished_tasks = sr.task_count;
    sr.unfinished_parents = static_cast<int>(st.parents.size());
    for (int p : st.parents) job.stages[p].children.push_back(static_cast<int>(s));
    for (size_t k = 0; k < st.tasks.size(); ++k) {
      TaskRuntime& t = s_.tasks_.emplace_back();
      t.job = j;
      t.stage = static_cast<int>(s);
      t.index = static_cast<int>(k);
      t.spec = &st.tasks[k];
      t.root = st.parents.empty();
      if (t.spec->avoid != kNoServer) s_.avoids_ = true;
      if (t.spec->cpus > 1) s_.multi_slot_ = true;
      if (t.root && t.spec->input > 0 && t.spec->pinned == kNoServer) {
        if (!st.replicas.empty() && !st.replicas[k].empty()) {
          t.replicas = st.replicas[k];
        } else if (replica_rng != nullptr) {
          // Input blocks live on `replicas` distinct random servers (3 in TCDS §3.1, Duopoly §6.2).
          t.replicas = DistinctServers(replicas, cluster_.size(), *replica_rng);
        }
      }
      sr.input_bytes += t.spec->input;
    }
    if (!st.parents.empty()) {
      sr.coflow = network_.AddCoflow(StageCoflow(spec, j, static_cast<int>(s), sr.input_bytes));
    }
  }
  SetOutputs(j);
  ++unfinished_jobs_;
  return j;
}

// A task's output is what its spec says, else what its child stages' tasks read from it. It
// costs time only on a modelled disk, so it is worked out only then.
void TaskLifecycle::SetOutputs(JobIndex j) {
  if (!cluster_.HasDisks()) return;
  const JobRuntime& job = s_.jobs_[j];
  output_.resize(s_.tasks_.size(), 0);
  for (size_t s = 0; s < job.stages.size(); ++s) {
    const StageRuntime& sr = job.stages[s];
    for (TaskId t = sr.first_task; t < sr.first_task + sr.task_count; ++t) {
      output_[t] = std::max(0.0, s_.tasks_[t].spec->output);
    }
  }
  for (size_t s = 0; s < job.stages.size(); ++s) {
    const StageSpec& st = job.spec->stages[s];
    if (st.parents.empty()) continue;
    std::vector<TaskId> parents;
    for (int p : st.parents) {
      const StageRuntime& ps = job.stages[p];
      for (TaskId pt = ps.first_task; pt < ps.first_task + ps.task_count; ++pt) {
        parents.push_back(pt);
      }
    }
    for (const TaskSpec& child : st.tasks) {
      for (size_t k = 0; k < parents.size(); ++k) {
        if (s_.tasks_[parents[k]].spec->output >= 0) continue;
        output_[parents[k]] += child.FromParent(k, static_cast<int>(parents.size()));
      }
    }
  }
}

void TaskLifecycle::Arrive(JobIndex j) {
  JobRuntime& job = s_.jobs_[j];
  job.arrived = true;
  if (log != nullptr) {
    log->Line(s_.now(), "arrive")
        .Int("job", j)
        .Text("name", job.spec->name)
        .Int("tasks", job.unfinished_tasks);
  }
  s_.active_jobs_.push_back(j);
  for (const StageRuntime& sr : job.stages) {
    if (sr.unfinished_parents != 0) continue;
    for (TaskId t = sr.first_task; t < sr.first_task + sr.task_count; ++t) {
      if (s_.tasks_[t].state == TaskState::kWaiting) MakeReady(t);  // not one restored as done
    }
  }
  if (job.unfinished_tasks == 0) {  // every task restored: it starts and ends now
    job.first_start = s_.now();
    FinishJob(job);
  }
  schedule_needed = true;
}

void TaskLifecycle::RestoreTask(TaskId t, const FinishedTask& done) {
  TaskRuntime& task = s_.tasks_[t];
  JobRuntime& job = s_.jobs_[task.job];
  if (job.arrived || task.state != TaskState::kWaiting) {
    throw std::logic_error(fmt::format("task {} restored after its job arrived", t));
  }
  task.state = TaskState::kDone;
  task.server = done.server;
  task.locality = done.locality;
  task.local_read = done.locality == Locality::kNode;
  task.network_bytes = done.network_bytes;
  task.ready_at = done.ready_at;
  task.placed_at = done.placed_at;
  task.compute_at = done.compute_at;
  task.computed_at = done.computed_at;
  task.finish_at = done.finish_at;
  if (task.root && task.spec->input > 0) ++(task.local_read ? job.local_reads : job.remote_reads);
  --job.unfinished_tasks;
  StageRuntime& sr = job.stages[task.stage];
  if (--sr.unfinished_tasks == 0) {
    for (int c : sr.children) --job.stages[c].unfinished_parents;
  }
  if (log != nullptr) {
    log->Line(s_.now(), "task_restored")
        .Int("task", t)
        .Int("job", task.job)
        .Int("stage", task.stage)
        .Int("index", task.index)
        .Int("server", task.server);
  }
}

void TaskLifecycle::MakeReady(TaskId t) {
  TaskRuntime& task = s_.tasks_[t];
  task.state = TaskState::kReady;
  task.ready_at = s_.now();
  if (log != nullptr) {
    log->Line(s_.now(), "ready")
        .Int("task", t)
        .Int("job", task.job)
        .Int("stage", task.stage)
        .Int("index", task.index);
  }
  if (task.spec->pinned != kNoServer) {  // runs where it is pinned, without a slot
    Place(t, task.spec->pinned, Why().Add("rule", "pinned"));
    return;
  }
  auto& ready = s_.jobs_[task.job].ready;
  ready.insert(std::lower_bound(ready.begin(), ready.end(), t), t);
  s_.jobs_[task.job].ready_roots += task.root;
  ++s_.ready_total_;
  for (ServerId r : task.replicas) ++s_.ready_replicas_[r];
  schedule_needed = true;
}

void TaskLifecycle::Place(TaskId t, ServerId s, const Why& why) {
  Occupy(t, s);
  if (log != nullptr) LogPlace(t, why);
  StartRead(t);
}

// The launch is over for a task with nothing to read (an event): it computes.
void TaskLifecycle::OnLaunched(TaskId t) {
  TaskRuntime& task = s_.tasks_[t];
  if (task.state != TaskState::kLaunching) return;  // reset by a lost server
  StartCompute(t);
}

// Logged before the read starts, so the placement comes before the flows it starts.
void TaskLifecycle::LogPlace(TaskId t, const Why& why) {
  const TaskRuntime& task = s_.tasks_[t];
  const ServerRuntime& sv = s_.servers_[task.server];
  log->Line(s_.now(), "place")
      .Int("task", t)
      .Int("job", task.job)
      .Int("stage", task.stage)
      .Int("index", task.index)
      .Int("server", task.server)
      .Int("free_slots_left", sv.free_slots)
      .Reasons(why);
}

void TaskLifecycle::Occupy(TaskId t, ServerId s) {
  TaskRuntime& task = s_.tasks_[t];
  if (task.state != TaskState::kReady) {
    throw std::logic_error(fmt::format("scheduler placed task {} which is not ready", t));
  }
  if (s < 0 || s >= cluster_.size()) {
    throw std::logic_error(fmt::format("scheduler placed task {} on unknown server {}", t, s));
  }
  JobRuntime& job = s_.jobs_[task.job];
  if (!s_.CanHost(t, s)) {
    throw std::logic_error(fmt::format(
        "scheduler placed task {} on server {}, which has no free slot or memory for it", t, s));
  }
  if (check_inputs) {
    for (int p : job.spec->stages[task.stage].parents) {
      if (job.stages[p].unfinished_tasks != 0) {
        throw std::logic_error(fmt::format(
            "invariant broken at t={:.9g} s: task {} placed before its parent stage {} is done",
            s_.now(), t, p));
      }
    }
  }
  if (task.HoldsSlot()) {
    Accrue(s);
    if (cluster_.server(s).memory > 0) s_.servers_[s].free_memory -= task.spec->memory;
    job.ready.erase(std::lower_bound(job.ready.begin(), job.ready.end(), t));
    job.ready_roots -= task.root;
    --s_.ready_total_;
    for (ServerId r : task.replicas) --s_.ready_replicas_[r];
    AddFreeSlots(s, -task.spec->cpus);
    ++s_.servers_[s].running;
    s_.servers_[s].held_slots += task.spec->cpus;
  } else if (s != task.spec->pinned) {
    throw std::logic_error(fmt::format("pinned task {} placed off its server", t));
  }
  ++job.running;
  if (job.first_start < 0) job.first_start = s_.now();
  task.server = s;
  task.placed_at = s_.now();
  task.state = TaskState::kReading;
}

FlowId TaskLifecycle::StartFlow(TaskId t, ServerId src, Bytes bytes, bool crosses_disk,
                                CoflowId coflow) {
  TaskRuntime& task = s_.tasks_[t];
  FlowSpec fs;
  fs.src = src;
  fs.dst = task.server;
  fs.size = bytes;
  fs.job = task.job;
  fs.coflow = coflow;
  fs.macroflow = t;
  fs.macroflow_bytes = task.spec->input;
  fs.crosses_source_disk = crosses_disk;
  // The simulator's model of a task's launch and a connection's set-up (live mode has the real
  // ones): the flow is in flight from now, and its bytes move once they are over.
  if (engine_ != nullptr && task.state == TaskState::kReading) {  // reads, not output writes
    const ClusterSpec& c = cluster_.spec();
    fs.hold = c.task_launch_latency + (src != fs.dst ? c.flow_start_latency : 0);
  }
  const FlowId f = network_.StartFlow(fs);
  flow_owner_.Grow(static_cast<size_t>(f) + 1);
  flow_owner_[f] = FlowOwner{.task = t, .open = true};
  ++task.pending_flows;
  if (src != task.server) task.network_bytes += bytes;
  return f;
}

// The holder a remote block read on dst comes from (see StartRead).
ServerId TaskLifecycle::ReadSource(const std::vector<ServerId>& replicas, ServerId dst) const {
  const bool nearest_first = cluster_.spec().topology == TopologyKind::kTwoTier;
  const int rack = cluster_.server(dst).rack;
  auto better = [&](ServerId a, ServerId b) {  // whether holder a beats holder b
    if (nearest_first) {
      const bool a_near = cluster_.server(a).rack == rack, b_near = cluster_.server(b).rack == rack;
      if (a_near != b_near) return a_near;
    }
    return network_.OutgoingFlows(a) < network_.OutgoingFlows(b);
  };
  ServerId src = replicas.front();
  for (ServerId r : replicas) {
    if (better(r, src)) src = r;
  }
  return src;
}

// A root task reads its block: locally (a flow over the local disk only when disks are
// modelled), else from the least loaded replica holder (fewest outgoing flows). On a two-tier
// topology the holders in the reader's own rack come first, as HDFS reads the nearest replica:
// such a read stays off the rack links (on a big switch racks shape no path, and the least
// loaded holder of all is taken). Any other task receives one flow per source server of its
// parents' outputs; local bytes are free. (A reading: docs/readings.md.) With the cluster's
// map_reads compute-only (Duopoly §2.1), a read away from the block crosses no network and
// costs what a local read costs.
void TaskLifecycle::StartRead(TaskId t) {
  TaskRuntime& task = s_.tasks_[t];
  JobRuntime& job = s_.jobs_[task.job];
  const ServerId dst = task.server;
  if (task.root) {
    if (task.spec->input > 0) {
      const auto& reps = task.replicas;
      task.local_read = reps.empty() || std::find(reps.begin(), reps.end(), dst) != reps.end();
      if (task.local_read) {
        ++job.local_reads;
        task.locality = Locality::kNode;
        if (cluster_.Disk(dst) >= 0) StartFlow(t, dst, task.spec->input, true, kNoCoflow);
      } else {
        ++job.remote_reads;
        const ServerId src = ReadSource(reps, dst);
        task.locality = cluster_.server(src).rack == cluster_.server(dst).rack ? Locality::kRack
                                                                               : Locality::kOffRack;
        if (cluster_.spec().map_reads == MapReads::kNetwork) {
          StartFlow(t, src, task.spec->input, true, kNoCoflow);
        } else if (cluster_.Disk(dst) >= 0) {
          StartFlow(t, dst, task.spec->input, true, kNoCoflow);  // compute-only: as a local read
        }
      }
    }
  } else {
    const CoflowId coflow = job.stages[task.stage].coflow;
    for (const auto& [src, bytes] : s_.InputSources(t)) {
      if (src != dst) StartFlow(t, src, bytes, false, coflow);
    }
  }
  const Seconds launch = cluster_.spec().task_launch_latency;
  if (task.pending_flows > 0) {
    AddReceiving(dst, +1);
  } else if (engine_ != nullptr && launch > 0) {
    task.state = TaskState::kLaunching;  // nothing to read: it computes once launched
    engine_->Schedule(s_.now() + launch, launched_kind_, t);
  } else {
    StartCompute(t);
  }
}

void TaskLifecycle::OnFlowDone(FlowId f) {
  if (!flow_owner_.Readable(f) || flow_owner_[f].retired) return;  // told twice
  FlowOwner& owner = flow_owner_[f];
  const bool open = owner.open;
  const TaskId t = owner.task;
  owner.open = false;
  owner.retired = true;
  flow_owner_.Retire(f);
  if (!open) return;  // cancelled when its server was lost
  TaskRuntime& task = s_.tasks_[t];
  if (--task.pending_flows > 0) return;
  if (task.state == TaskState::kWriting) {
    Complete(t);
    return;
  }
  AddReceiving(task.server, -1);
  StartCompute(t);
}

// Compute time = work / (slot_rate × cpu_speed), or the spec's seconds / cpu_speed.
Seconds TaskLifecycle::ComputeSeconds(TaskId t) const {
  const TaskRuntime& task = s_.tasks_[t];
  const double speed = cluster_.server(task.server).cpu_speed;
  if (task.spec->compute >= 0) return task.spec->compute / speed;
  const Bytes work = task.spec->work >= 0 ? task.spec->work : task.spec->input;
  return work / (cluster_.spec().slot_rate * speed);
}

void TaskLifecycle::StartCompute(TaskId t) {
  TaskRuntime& task = s_.tasks_[t];
  if (task.HoldsSlot()) {
    Accrue(task.server);
    s_.servers_[task.server].computing += task.spec->cpus;
  }
  task.state = TaskState::kComputing;
  task.compute_at = s_.now();
  if (engine_ != nullptr) engine_->Schedule(s_.now() + ComputeSeconds(t), compute_done_kind_, t);
}

// The output goes to the local disk when it is modelled: a flow over that disk alone.
void TaskLifecycle::OnComputeDone(TaskId t) {
  TaskRuntime& task = s_.tasks_[t];
  if (task.HoldsSlot()) {
    Accrue(task.server);
    s_.servers_[task.server].computing -= task.spec->cpus;
  }
  task.computed_at = s_.now();
  if (cluster_.Disk(task.server) < 0 || output_[t] <= 0) {
    Complete(t);
    return;
  }
  task.state = TaskState::kWriting;
  StartFlow(t, task.server, output_[t], /*crosses_disk=*/true, kNoCoflow);
}

void TaskLifecycle::Complete(TaskId t) {
  TaskRuntime& task = s_.tasks_[t];
  task.state = TaskState::kDone;
  task.finish_at = s_.now();
  JobRuntime& job = s_.jobs_[task.job];
  if (log != nullptr) {
    log->Line(s_.now(), "task_done").Int("task", t).Int("job", task.job).Int("server", task.server);
  }
  if (task.HoldsSlot()) {
    Accrue(task.server);
    if (cluster_.server(task.server).memory > 0) {
      s_.servers_[task.server].free_memory += task.spec->memory;
    }
    busy_slot_seconds_ += (s_.now() - task.placed_at) * task.spec->cpus;
    AddFreeSlots(task.server, +task.spec->cpus);
    --s_.servers_[task.server].running;
    s_.servers_[task.server].held_slots -= task.spec->cpus;
  }
  --job.running;
  schedule_needed = true;
  std::vector<TaskId> now_ready;  // allocates only when a stage completes
  StageRuntime& sr = job.stages[task.stage];
  if (--sr.unfinished_tasks == 0) {
    // Barrier: a child stage's tasks are ready when all its parents are done (Duopoly §2.1).
    for (int c : sr.children) {
      StageRuntime& cs = job.stages[c];
      if (--cs.unfinished_parents != 0) continue;
      for (TaskId ct = cs.first_task; ct < cs.first_task + cs.task_count; ++ct) {
        // A stage finished again after a lost server keeps the children that did not wait.
        if (s_.tasks_[ct].state == TaskState::kWaiting) now_ready.push_back(ct);
      }
    }
  }
  if (--job.unfinished_tasks == 0) FinishJob(job);
  for (TaskId ct : now_ready) MakeReady(ct);
}

void TaskLifecycle::FinishJob(JobRuntime& job) {
  job.finished = true;
  job.finish = s_.now();
  if (log != nullptr) {
    log->Line(s_.now(), "job_done")
        .Int("job", job.index)
        .Num("jct_s", job.finish - job.spec->submit);
  }
  auto& active = s_.active_jobs_;
  active.erase(std::find(active.begin(), active.end(), job.index));
  --unfinished_jobs_;
}

}  // namespace slotflow
