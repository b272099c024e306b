#include "sim/simulator.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>

#include "common/random.h"

namespace slotflow {

Simulator::Simulator(const Cluster& cluster, const Workload& workload,
                     std::unique_ptr<TaskScheduler> scheduler,
                     std::unique_ptr<NetworkPolicy> network_policy, const SimulationConfig& config)
    : cluster_(cluster),
      config_(config),
      scheduler_(std::move(scheduler)),
      network_(cluster, std::move(network_policy)),
      state_(cluster, network_) {
  Build(workload);
}

Simulator::~Simulator() = default;

void Simulator::Build(const Workload& workload) {
  Rng rng(config_.seed);
  state_.servers_.resize(cluster_.size());
  for (const Server& s : cluster_.servers()) state_.AddFreeSlots(s.id, s.slots);

  for (const JobSpec& spec : workload.jobs) {
    // The estimate error is drawn before the job's replicas (the order fixes the outputs).
    const double error =
        config_.estimate_error > 0
            ? rng.Uniform(1 - config_.estimate_error, 1 + config_.estimate_error)
            : 1.0;
    const JobIndex j = state_.AddJob(spec, &rng);
    state_.jobs_[j].size_estimate *= error;
    queue_.Schedule(spec.submit, kJobArrival, j);
  }
  unfinished_jobs_ = static_cast<int>(workload.jobs.size());
  if (scheduler_->heartbeat() > 0 && unfinished_jobs_ > 0) {
    heartbeat_origin_ = workload.jobs.front().submit;
    queue_.Schedule(heartbeat_origin_, kHeartbeat, 0);
  }
}

void Simulator::Handle(const Event& e) {
  switch (e.kind) {
    case kJobArrival:
      ArriveJob(static_cast<JobIndex>(e.subject));
      break;
    case kComputeDone:
      FinishTask(static_cast<TaskId>(e.subject));
      break;
    case kHeartbeat:
      scheduler_->OnHeartbeat(state_);
      schedule_needed_ = true;
      // origin + k·interval, not repeated addition, so beat times do not drift.
      if (unfinished_jobs_ > 0) {
        queue_.Schedule(
            heartbeat_origin_ + static_cast<double>(e.subject + 1) * scheduler_->heartbeat(),
            kHeartbeat, e.subject + 1);
      }
      break;
    default:
      throw std::logic_error("unknown event kind");
  }
}

void Simulator::ArriveJob(JobIndex j) {
  JobRuntime& job = state_.jobs_[j];
  job.arrived = true;
  state_.active_jobs_.push_back(j);
  for (size_t s = 0; s < job.stages.size(); ++s) {
    const StageRuntime& sr = job.stages[s];
    if (sr.unfinished_parents != 0) continue;
    for (TaskId t = sr.first_task; t < sr.first_task + sr.task_count; ++t) MakeReady(t);
  }
  schedule_needed_ = true;
}

void Simulator::MakeReady(TaskId t) {
  if (!state_.MakeReady(t)) {
    Place(t, state_.tasks_[t].spec->pinned);
    return;
  }
  schedule_needed_ = true;
}

void Simulator::Place(TaskId t, ServerId s) {
  state_.Occupy(t, s);
  StartFetch(t);
}

void Simulator::StartFetch(TaskId t) {
  started_.clear();
  state_.StartFetch(t, started_);
  for (FlowId f : started_) {
    if (flow_task_.size() <= static_cast<size_t>(f)) flow_task_.resize(f + 1);
    flow_task_[f] = t;
  }
  if (started_.empty()) StartCompute(t);
}

void Simulator::OnFlowDone(FlowId f) {
  const TaskId t = flow_task_[f];
  TaskRuntime& task = state_.tasks_[t];
  if (--task.pending_flows == 0) {
    --state_.servers_[task.server].receiving;
    StartCompute(t);
  }
}

void Simulator::StartCompute(TaskId t) {
  TaskRuntime& task = state_.tasks_[t];
  task.state = TaskState::kComputing;
  task.compute_at = state_.now();
  const double speed = cluster_.server(task.server).cpu_speed;
  Seconds duration;
  if (task.spec->compute >= 0) {
    duration = task.spec->compute / speed;
  } else {
    const Bytes work = task.spec->work >= 0 ? task.spec->work : task.spec->input;
    duration = work / (cluster_.spec().slot_rate * speed);
  }
  queue_.Schedule(state_.now() + duration, kComputeDone, t);
}

void Simulator::FinishTask(TaskId t) {
  const TaskRuntime& task = state_.tasks_[t];
  if (task.HoldsSlot()) busy_slot_seconds_ += state_.now() - task.placed_at;
  std::vector<TaskId> now_ready;  // allocates only when a stage completes
  if (state_.Complete(t, now_ready)) --unfinished_jobs_;
  for (TaskId ct : now_ready) MakeReady(ct);
  schedule_needed_ = true;
}

void Simulator::RunScheduler() {
  if (!schedule_needed_) return;
  schedule_needed_ = false;
  while (state_.free_slot_total_ > 0 && state_.ready_total_ > 0) {
    const std::optional<Placement> p = scheduler_->Next(state_);
    if (!p) {
      ++reservations_;  // free slots left empty on purpose while tasks wait
      break;
    }
    Place(p->task, p->server);
  }
  if (auto mode = scheduler_->mode(state_)) network_.SetSlotMode(*mode);
}

RunResult Simulator::Run() {
  const auto wall_start = std::chrono::steady_clock::now();
  auto last_progress = wall_start;
  std::vector<FlowId> completed;
  const bool progress = config_.progress;
  for (;;) {
    const Seconds t = std::min(queue_.NextTime(), network_.NextEventTime());
    if (t == kForever) break;
    completed.clear();
    network_.AdvanceTo(t, completed);
    ++events_;
    for (FlowId f : completed) OnFlowDone(f);
    while (queue_.NextTime() <= t) Handle(queue_.Pop());
    RunScheduler();
    network_.Resolve();
    if (progress && (events_ & 0x3fff) == 0) {
      const auto now = std::chrono::steady_clock::now();
      if (now - last_progress > std::chrono::seconds(1)) {
        last_progress = now;
        std::fprintf(stderr, "\r  t=%.1fs  jobs done %zu/%zu  active flows %zu  events %lld   ", t,
                     state_.jobs_.size() - unfinished_jobs_, state_.jobs_.size(),
                     network_.active_flows().size(), static_cast<long long>(events_));
      }
    }
  }
  if (progress && std::chrono::steady_clock::now() - wall_start > std::chrono::seconds(1)) {
    std::fprintf(stderr, "\n");
  }
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return Collect(wall);
}

RunResult Simulator::Collect(double wall_s) {
  RunResult r;
  Seconds makespan = 0;
  int local = 0, reads = 0;
  for (const JobRuntime& job : state_.jobs_) {
    local += job.local_reads;
    reads += job.local_reads + job.remote_reads;
    if (!job.finished) continue;
    JobResult jr;
    jr.name = job.spec->name;
    jr.submit = job.spec->submit;
    jr.first_start = job.first_start;
    jr.finish = job.finish;
    jr.jct = job.finish - job.spec->submit;
    jr.bytes = job.spec->InputBytes() + job.spec->ShuffleBytes();
    jr.tasks = job.spec->TaskCount();
    const int jreads = job.local_reads + job.remote_reads;
    jr.local_fraction = jreads == 0 ? 1.0 : static_cast<double>(job.local_reads) / jreads;
    jr.size_group = SizeGroup(jr.bytes);
    makespan = std::max(makespan, job.finish);
    r.jobs.push_back(std::move(jr));
  }
  r.summary = Summarize(r.jobs);
  RunSummary& s = r.summary;
  s.unfinished_jobs = unfinished_jobs_;
  s.makespan = makespan;
  s.locality = reads == 0 ? 1.0 : static_cast<double>(local) / reads;
  const double slot_capacity = static_cast<double>(cluster_.TotalSlots()) * makespan;
  s.slot_utilisation = slot_capacity > 0 ? busy_slot_seconds_ / slot_capacity : 0;
  Bytes net = 0;
  for (FlowId f = 0; f < network_.FlowCount(); ++f) {
    const FlowSpec& fs = network_.flow(f).spec;
    if (fs.src != fs.dst) net += fs.size;
  }
  s.network_bytes = net;
  s.flows = network_.FlowCount();
  BytesPerSecond down = 0;
  for (const Server& sv : cluster_.servers())
    down += cluster_.LinkCapacity(cluster_.Downlink(sv.id));
  s.downlink_utilisation = makespan > 0 ? net / (down * makespan) : 0;
  s.reservations = reservations_;
  s.events = events_;
  s.wall_s = wall_s;
  return r;
}

}  // namespace slotflow
