#include "scheduling/delay_walk.h"

#include <algorithm>

namespace slotflow {
namespace {

// Waits are sums of settings and heartbeat times: a wait that equals its threshold up to
// rounding has reached it.
constexpr double kWaitSlack = 1e-9;

const char* LevelName(LocalityLevel l) {
  switch (l) {
    case LocalityLevel::kNode:
      return "node";
    case LocalityLevel::kRack:
      return "rack";
    case LocalityLevel::kOffRack:
      break;
  }
  return "off-rack";
}

}  // namespace

SettingSpec HeartbeatSetting() {
  return {.name = "heartbeat",
          .kind = SettingKind::kSeconds,
          .default_value = "3s",
          .meaning =
              "each server's heartbeat interval; free slots are offered only then "
              "(Hadoop's default 3 s)",
          // Below 1 ms an hour of cluster time would take 3.6 million heartbeats per server;
          // a tinier interval never lets the simulated clock advance.
          .min = 1e-3,
          .max = 3600};
}

Seconds DelayWalk::Waited(const SimState& state, JobIndex j) const {
  if (static_cast<size_t>(j) >= jobs_wait_.size() || jobs_wait_[j].since < 0) return 0;
  return state.now() - jobs_wait_[j].since;
}

// The job's best task for server s: node-local (Alg. 1 "task t with data on n"; a task with no
// block is local anywhere), else rack-local, else any, each the first ready one that fits.
DelayWalk::Candidate DelayWalk::BestTask(const SimState& state, JobIndex j, ServerId s) const {
  const int rack = state.cluster().server(s).rack;
  Candidate rack_local, any;
  for (TaskId t : state.job(j).ready) {
    if (!state.CanHost(t, s)) continue;
    const std::vector<ServerId>& replicas = state.task(t).replicas;
    if (replicas.empty() || std::find(replicas.begin(), replicas.end(), s) != replicas.end()) {
      return {t, LocalityLevel::kNode};
    }
    if (rack_local.task < 0 && std::any_of(replicas.begin(), replicas.end(), [&](ServerId r) {
          return state.cluster().server(r).rack == rack;
        })) {
      rack_local = {t, LocalityLevel::kRack};
    }
    if (any.task < 0) any = {t, LocalityLevel::kOffRack};
  }
  return rack_local.task >= 0 ? rack_local : any;
}

// The wait a job at `job_level` needs before launching at `target` (Zaharia et al. Alg. 3, the
// multi-level form of TCDS Alg. 1: a job that last launched rack-locally may launch
// rack-locally again at once, and needs only the rack-level wait before going off-rack).
Seconds DelayWalk::Needed(LocalityLevel job_level, LocalityLevel target, const TaskWaits& w) const {
  if (target <= job_level) return 0;
  if (target == LocalityLevel::kRack) return w.node;
  return job_level == LocalityLevel::kRack ? w.rack : w.node + w.rack;
}

Decision DelayWalk::Offer(const SimState& state, ServerId s) {
  if (jobs_wait_.size() < state.jobs().size()) jobs_wait_.resize(state.jobs().size());
  OrderJobs(state, order_, jobs_);  // Alg. 1 line 2 (fair order): jobs by running tasks
  int skipped = 0;
  for (JobIndex j : jobs_) {
    const Candidate c = BestTask(state, j, s);
    if (c.task < 0) continue;  // no ready task that fits here
    const TaskWaits w = waits_(state.task(c.task));
    // Alg. 1 lines 5-7: a node-local task launches at once and resets the wait.
    if (c.level == LocalityLevel::kNode) return Launch(state, j, c, s, w, 0);
    const Seconds needed = Needed(jobs_wait_[j].level, c.level, w);
    // Alg. 1 lines 9-12: a non-local task launches once the wait reaches its threshold. One
    // launch per offer (Zaharia et al. Alg. 2 returns): the next free slot is the next offer.
    if (Waited(state, j) + kWaitSlack >= needed) return Launch(state, j, c, s, w, needed);
    // Alg. 1 line 14 ("j.wait = j.wait + 1" counts skips; its threshold is in seconds): the
    // job is skipped, and its wait is the time since its first skip (ours, docs/readings.md).
    if (jobs_wait_[j].since < 0) jobs_wait_[j].since = state.now();
    ++skipped;
  }
  Decision nothing;
  nothing.why.Add("rule", "wait").Add("skipped_jobs", skipped);
  return nothing;
}

Decision DelayWalk::Launch(const SimState& state, JobIndex j, const Candidate& c, ServerId s,
                           const TaskWaits& w, Seconds needed) {
  const bool has_block = !state.task(c.task).replicas.empty();
  Decision d{c.task, s, Why()};
  d.why.Add("locality", has_block ? LevelName(c.level) : "none")
      .Add("waited_s", Waited(state, j))
      .Add("needed_s", needed);
  if (w.task_class != nullptr) d.why.Add("class", w.task_class);
  if (w.beta >= 0) d.why.Add("beta", w.beta);
  jobs_wait_[j] = JobWait{c.level, -1};
  return d;
}

}  // namespace slotflow
