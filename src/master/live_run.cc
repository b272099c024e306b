#include "master/live_run.h"

#include <fmt/format.h>

#include <algorithm>

#include "live/testbed_plan.h"
#include "sim/results.h"

namespace slotflow {

LiveRun::LiveRun(const Cluster& cluster, const Workload& workload,
                 std::unique_ptr<TaskScheduler> scheduler,
                 std::unique_ptr<NetworkPolicy> network_policy, const LiveRunConfig& config,
                 DriverClock& clock, AgentLink& agents)
    : cluster_(cluster),
      workload_(workload),
      clock_(clock),
      agents_(agents),
      flows_(cluster, std::move(network_policy), [&clock] { return clock.now(); }),
      state_(cluster, flows_),
      lifecycle_(cluster, flows_, state_),
      driver_(
          cluster, state_, lifecycle_, std::move(scheduler),
          [this](SlotMode mode) { flows_.SetSlotMode(mode); }, config.log) {
  read_blocks_ = config.read_blocks;
  lifecycle_.log = config.log;
  flows_.SetLog(config.log);
  jobs_ = driver_.AddJobs(workload, config.seed, config.estimate_error);
  size_t tasks = 0;
  for (const JobRuntime& job : state_.jobs()) {
    for (const StageRuntime& sr : job.stages) tasks += static_cast<size_t>(sr.task_count);
  }
  launched_.assign(tasks, 0);
  attempts_.assign(tasks, 0);
  rerun_.assign(tasks, 0);
  OpenJournal(config.journal, config.seed);
}

LiveRun::~LiveRun() = default;

// Jobs the journal records as completed never arrive: they count as done.
void LiveRun::OpenJournal(const std::string& path, uint64_t seed) {
  journaled_.assign(state_.jobs().size(), 0);
  journaled_task_.assign(launched_.size(), 0);
  if (path.empty()) return;
  journal_ = std::make_unique<Journal>(path, workload_, seed);
  for (const auto& [j, result] : journal_->completed()) {
    lifecycle_.Skip(JobIndex{j});
    journaled_[j] = 1;
    ++jobs_from_journal_;
  }
}

// Tasks are restored as the run begins, at its time 0 (the decision log's task_restored).
void LiveRun::Begin() {
  if (journal_) RestoreTasks(journal_->completed_tasks());
  driver_.Start(clock_, workload_, jobs_, [this](JobIndex j) { return journaled_[j] == 0; });
}

// Of the jobs not journaled, a task the journal records as completed is done (its output is
// where it ran) when its server is one of this run's hosts, and is run again otherwise.
void LiveRun::RestoreTasks(const std::vector<JournaledTask>& tasks) {
  for (const JournaledTask& jt : tasks) {
    const TaskId t{state_.job(JobIndex{jt.job}).stages[jt.stage].first_task + jt.index};
    const ServerId pinned = state_.task(t).spec->pinned;
    if (jt.done.server >= cluster_.size() || (pinned != kNoServer && jt.done.server != pinned)) {
      continue;
    }
    lifecycle_.RestoreTask(t, jt.done);
    launched_[t] = 1;  // as far as the agents are concerned: it is not launched again
    journaled_task_[t] = 1;
    ++tasks_from_journal_;
  }
}

// Tasks completed since the last step (of jobs still running) in one transaction, then the jobs
// completed, each in its own.
void LiveRun::RecordCompleted() {
  if (!journal_) return;
  std::vector<JournaledTask> tasks;
  for (TaskId t : done_tasks_) {
    const TaskRuntime& task = state_.task(t);
    if (task.state != TaskState::kDone || journaled_task_[t] || state_.job(task.job).finished) {
      continue;
    }
    journaled_task_[t] = 1;
    tasks.push_back(JournaledTask{.job = task.job,
                                  .stage = task.stage,
                                  .index = task.index,
                                  .done = FinishedTask{.server = task.server,
                                                       .locality = task.locality,
                                                       .network_bytes = task.network_bytes,
                                                       .ready_at = task.ready_at,
                                                       .placed_at = task.placed_at,
                                                       .compute_at = task.compute_at,
                                                       .computed_at = task.computed_at,
                                                       .finish_at = task.finish_at}});
  }
  done_tasks_.clear();
  journal_->RecordTasks(tasks);
  for (const JobRuntime& job : state_.jobs()) {
    if (!job.finished || journaled_[job.index]) continue;
    journal_->Record(job.index, JobResultOf(job));
    journaled_[job.index] = 1;
  }
}

std::string LiveRun::OnReport(ServerId host, const ControlMessage& m) {
  if (const auto* p = std::get_if<FlowProgress>(&m)) {
    if (p->flow < 0 || p->flow >= flows_.FlowCount()) {
      return fmt::format("agent {}: unknown flow", host);
    }
    flows_.OnProgress(p->flow, static_cast<Bytes>(p->bytes));
  } else if (const auto* d = std::get_if<FlowDone>(&m)) {
    if (d->flow >= 0 && d->flow < flows_.FlowCount() && flows_.Cancelled(d->flow)) return {};
    if (d->flow < 0 || d->flow >= flows_.FlowCount() || !flows_.Active(d->flow)) {
      return fmt::format("agent {}: flow {} is not running", host, d->flow);
    }
    flows_.OnFinished(d->flow);
    lifecycle_.OnFlowDone(d->flow);
    done_tasks_.push_back(flows_.flow(d->flow).spec.macroflow);
  } else if (const auto* t = std::get_if<TaskDone>(&m)) {
    const bool known = t->task >= 0 && t->task < static_cast<TaskId>(launched_.size());
    // The end of an attempt cancelled since (its task was launched again): late news.
    if (known && t->attempt < attempts_[t->task] - 1) return {};
    if (known && t->attempt >= attempts_[t->task]) {
      return fmt::format("agent {}: task {} has no attempt {}", host, t->task, t->attempt);
    }
    if (!known || state_.task(t->task).server != host ||
        state_.task(t->task).state != TaskState::kComputing) {
      if (known && rerun_[t->task]) return {};  // the end of a run that a lost host undid
      return fmt::format("agent {}: task {} is not computing", host, t->task);
    }
    lifecycle_.OnComputeDone(t->task);
    done_tasks_.push_back(t->task);
  } else {
    return fmt::format("agent {} sent {}, which the run does not take", host, MessageType(m));
  }
  return {};
}

std::string LiveRun::LoseHost(ServerId host) {
  lost_hosts_.push_back(host);
  const auto loss = lifecycle_.LoseServer(host);
  if (!loss.unrecoverable.empty()) return loss.unrecoverable;
  for (FlowId f : loss.cancelled) flows_.Cancel(f);
  for (const auto& [t, at] : loss.reset) {
    rerun_[t] = 1;
    if (journaled_task_[t]) {  // its output was on the lost host
      journaled_task_[t] = 0;
      const TaskRuntime& task = state_.task(t);
      journal_->ForgetTask(task.job, task.stage, task.index);
    }
    if (!launched_[t]) continue;
    launched_[t] = 0;
    if (at != kNoServer) agents_.Send(at, Cancel{t});
  }
  return {};
}

void LiveRun::RejoinHost(ServerId host) {
  rejoined_hosts_.push_back(host);
  lifecycle_.RejoinServer(host);
}

void LiveRun::Settle() {
  driver_.SettleScheduler();
  flows_.Resolve();
  RankClasses();
  LaunchPlaced();
  SendClassChanges();
  RecordCompleted();
}

// A policy's classes are any numbers, each its own strict priority (Aalo's encode queue, then
// arrival). The testbed has 7 for data: the distinct classes of the flows in flight, in order,
// take ranks 0..6 (the seventh class and beyond share rank 6), which keeps the order the fluid
// model gives them as far as 7 priorities can. Live class r is priority r + 1 (TosOfClass).
void LiveRun::RankClasses() {
  constexpr int kLastRank = kPriorityClasses - 2;
  std::vector<FlowClass> in_use;
  for (FlowId f : flows_.active_flows()) in_use.push_back(flows_.Class(f));
  std::sort(in_use.begin(), in_use.end());
  in_use.erase(std::unique(in_use.begin(), in_use.end()), in_use.end());
  rank_.resize(flows_.FlowCount(), kLastRank);
  marked_.resize(flows_.FlowCount(), -1);
  for (FlowId f : flows_.active_flows()) {
    const auto at = std::lower_bound(in_use.begin(), in_use.end(), flows_.Class(f));
    rank_[f] = static_cast<int>(std::min<ptrdiff_t>(at - in_use.begin(), kLastRank));
  }
}

// Every task placed since the last step goes to its host: its local block, the flows into it
// (each from its source host's data server, in its class's rank) and its compute.
void LiveRun::LaunchPlaced() {
  std::vector<std::vector<Fetch>> fetches(launched_.size());
  // Flows start only when a task is placed, so the flows since the last step are the new ones.
  for (FlowId f = launched_flows_; f < flows_.FlowCount(); ++f) {
    const FlowSpec& fs = flows_.flow(f).spec;
    const auto [address, port] = agents_.DataEndpoint(fs.src);
    fetches[fs.macroflow].push_back(
        Fetch{f, address, port, static_cast<int64_t>(fs.size), rank_[f]});
    marked_[f] = rank_[f];
  }
  launched_flows_ = FlowId{flows_.FlowCount()};
  for (JobIndex j : state_.active_jobs()) {
    for (const StageRuntime& sr : state_.job(j).stages) {
      for (TaskId t = sr.first_task; t < sr.first_task + sr.task_count; ++t) {
        const TaskRuntime& task = state_.task(t);
        if (launched_[t] || task.server == kNoServer) continue;
        launched_[t] = 1;
        Launch l{t, 0, lifecycle_.ComputeSeconds(t), std::move(fetches[t]), attempts_[t]++};
        if (read_blocks_ && task.root && task.local_read) {
          l.local_bytes = static_cast<int64_t>(task.spec->input);
        }
        agents_.Send(task.server, l);
      }
    }
  }
}

// A flow whose rank moved (its class changed, or classes above it came or went) is re-marked at
// both ends.
void LiveRun::SendClassChanges() {
  for (FlowId f : flows_.active_flows()) {
    if (marked_[f] == rank_[f]) continue;
    marked_[f] = rank_[f];
    const FlowSpec& fs = flows_.flow(f).spec;
    agents_.Send(fs.src, SetClass{f, rank_[f]});
    if (fs.dst != fs.src) agents_.Send(fs.dst, SetClass{f, rank_[f]});
  }
}

// As the simulator's, from measured times; jobs the journal recorded come from it.
RunResult LiveRun::Collect(int64_t events) const {
  RunResult r;
  for (const JobRuntime& job : state_.jobs()) {  // in job order, as FinishedJobResults
    if (job.finished) {
      r.jobs.push_back(JobResultOf(job));
    } else if (journal_ && journaled_[job.index]) {
      r.jobs.push_back(journal_->completed().at(job.index));
    }
  }
  r.tasks = TaskResults(state_);
  r.modes = driver_.mode_switches();
  r.placements = driver_.placements();
  r.summary = SummarizeRun(r.jobs, cluster_, state_, lifecycle_, flows_, driver_);
  RunSummary& s = r.summary;
  s.events = events;
  s.live = true;
  s.lost_hosts.assign(lost_hosts_.begin(), lost_hosts_.end());
  s.rejoined_hosts.assign(rejoined_hosts_.begin(), rejoined_hosts_.end());
  s.tasks_rerun = lifecycle_.tasks_rerun();
  s.jobs_from_journal = jobs_from_journal_;
  s.tasks_from_journal = tasks_from_journal_;
  return r;
}

}  // namespace slotflow
