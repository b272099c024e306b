// nats — network-aware task scheduling of Duopoly (seed 000 §5; SPEC §8).
//
// Jobs in the configured order (SJF in Duopoly). Each call is one step of Alg. 1: it returns
// one (task, server) pair or nothing; nothing means "leave the remaining slots empty" (slot
// reservation) until the next trigger (SPEC §6).
//  - Mode (§3): slot-insufficient iff the highest-priority job with ready tasks (L0) has more
//    ready tasks than there are free slots; variant "(A)" compares all ready tasks instead.
//  - Alg. 3 (slot-insufficient): only L0 — map stage: SelectTaskServerPair(L0); reduce stage:
//    its smallest ready reduce task with SelectServerForTask.
//  - Alg. 4 (slot-sufficient): L0 as in Alg. 3 but its largest ready reduce task first. If L0
//    yields nothing: when the network is congested, the first job with ready map tasks
//    (local-first placement); otherwise the first job with a reduce task SelectServerForTask
//    can place, then (ours, SPEC §8) map tasks in job order, since reduce tasks are only
//    *preferred* while the network is idle.
//  - Congestion flag (ours, SPEC §8): every monitoring interval (setting monitor_interval,
//    100 ms), congested iff the mean utilisation of server downlinks carrying traffic is at least
//    the setting congestion_threshold (0.8); the paper gives neither number nor rule.
//  - Setting mode_signal: l0 (the paper's signal, default) or all-ready (ablation "(A)").
#include <algorithm>
#include <limits>

#include "common/random.h"
#include "scheduling/job_order.h"
#include "sim/task_scheduler.h"

namespace slotflow {
namespace {

// Mixed into the run's seed so this scheduler's random choices do not repeat the draws the
// simulator makes from the same seed (block replicas): "nats" in ASCII.
constexpr uint64_t kSeedSalt = 0x6e617473ULL;

std::vector<SettingSpec> NatsSettings() {
  return {JobOrderSetting(),
          {.name = "monitor_interval",
           .kind = SettingKind::kSeconds,
           .default_value = "100ms",
           .meaning = "how often the congestion flag is refreshed (ours; Duopoly §5 gives none)",
           // Finer ticks only add events: rates, hence utilisation, change only at events.
           .min = 1e-3,
           .max = 3600},
          {.name = "congestion_threshold",
           .kind = SettingKind::kNumber,
           .default_value = "0.8",
           .meaning = "congested iff the mean utilisation of busy server downlinks is at least "
                      "this (ours)",
           .min = 0,
           .max = 1},
          {.name = "mode_signal",
           .kind = SettingKind::kChoice,
           .default_value = "l0",
           .meaning = "slot-insufficient iff l0: the first job's ready tasks exceed the free "
                      "slots (Duopoly §3); all-ready: all ready tasks do (ablation A)",
           .choices = {"l0", "all-ready"}}};
}

class NatsScheduler : public TaskScheduler {
 public:
  explicit NatsScheduler(const PolicyArgs& args)
      : order_(JobOrderOf(args.settings)),
        all_ready_mode_(args.settings.Choice("mode_signal") == "all-ready"),
        monitor_interval_(args.settings.Number("monitor_interval")),
        congestion_threshold_(args.settings.Number("congestion_threshold")),
        rng_(args.seed ^ kSeedSalt) {}

  Seconds tick_interval() const override { return monitor_interval_; }

  Why OnTick(const SimState& state) override {
    const Cluster& cluster = state.cluster();
    const FlowView& flows = state.flows();
    double sum = 0;
    int busy = 0;
    for (ServerId s = 0; s < cluster.size(); ++s) {
      // Only downlinks carrying traffic count (a local disk read never touches one).
      const LinkId l = cluster.Downlink(s);
      const double load = flows.LinkLoad(l);
      if (load <= 0) continue;
      sum += load / cluster.LinkCapacity(l);
      ++busy;
    }
    const bool was = congested_;
    congested_ = busy > 0 && sum / busy >= congestion_threshold_;
    if (congested_ == was) return {};
    return Why()
        .Add("congested", congested_ ? 1.0 : 0.0)
        .Add("mean_busy_downlink_utilisation", busy > 0 ? sum / busy : 0.0);
  }

  std::optional<SlotMode> mode(const SimState& state) const override {
    return Insufficient(state) ? SlotMode::kInsufficient : SlotMode::kSufficient;
  }

  Decision Next(const SimState& state) override {
    OrderJobs(state, order_, jobs_);
    const JobIndex l0 = FirstJobWithReadyTasks(state);
    if (l0 < 0) return {};
    const bool insufficient = Insufficient(state);
    receivers_summarised_ = false;  // computed on first use in this call
    // Alg. 3 / first half of Alg. 4: the highest-priority job only.
    if (Decision d = SelectTaskServerPair(state, l0)) {
      return Explained(std::move(d), insufficient ? "alg3-map" : "alg4-l0-map", insufficient);
    }
    if (Decision d = ReduceFromJob(state, l0, /*largest_first=*/!insufficient, insufficient)) {
      return Explained(std::move(d), insufficient ? "alg3-reduce" : "alg4-l0-reduce",
                       insufficient);
    }
    // Alg. 3: reserve the remaining slots.
    if (insufficient) return Explained({}, "alg3-reserve", insufficient);
    // Alg. 4, L0 yielded nothing.
    if (congested_) {
      for (JobIndex j : jobs_) {
        if (Decision d = SelectTaskServerPair(state, j)) {
          return Explained(std::move(d), "alg4-congested-map", insufficient);
        }
      }
      return Explained({}, "alg4-congested-none", insufficient);
    }
    for (JobIndex j : jobs_) {
      if (Decision d = ReduceFromJob(state, j, /*largest_first=*/true, insufficient)) {
        return Explained(std::move(d), "alg4-reduce", insufficient);
      }
    }
    for (JobIndex j : jobs_) {
      if (Decision d = SelectTaskServerPair(state, j)) {
        return Explained(std::move(d), "alg4-map", insufficient);
      }
    }
    return Explained({}, "alg4-none", insufficient);
  }

 private:
  // The decision with the mode and the branch of Alg. 3/4 that took it, then its own reasons.
  Decision Explained(Decision d, const char* branch, bool insufficient) const {
    Why why;
    why.Add("mode", insufficient ? "insufficient" : "sufficient").Add("branch", branch);
    if (!insufficient) why.Add("congested", congested_ ? 1.0 : 0.0);
    d.why = why.Append(d.why);
    return d;
  }

  JobIndex FirstJobWithReadyTasks(const SimState& state) const {
    for (JobIndex j : jobs_) {
      if (!state.job(j).ready.empty()) return j;
    }
    return -1;
  }

  bool Insufficient(const SimState& state) const {
    if (all_ready_mode_) return state.ready_tasks() > state.free_slots();
    // L0 is the first job, in the scheduler's order, that has ready tasks.
    std::vector<JobIndex> order;
    OrderJobs(state, order_, order);
    for (JobIndex j : order) {
      const size_t ready = state.job(j).ready.size();
      if (ready > 0) return ready > static_cast<size_t>(state.free_slots());
    }
    return false;
  }

  // SelectTaskServerPair (SPEC §8): ready root tasks of job j.
  Decision SelectTaskServerPair(const SimState& state, JobIndex j) {
    const auto& ready = state.job(j).ready;
    TaskId best_task = -1;
    ServerId best_server = kNoServer;
    int best_candidates = std::numeric_limits<int>::max();
    bool any_root = false;
    for (TaskId t : ready) {
      const TaskRuntime& task = state.task(t);
      if (!task.root) continue;
      any_root = true;
      int candidates = 0;
      for (ServerId r : task.replicas) candidates += state.CanHost(t, r);
      if (candidates == 0 || candidates >= best_candidates) continue;
      best_candidates = candidates;
      best_task = t;
    }
    if (best_task >= 0) {
      // Ties: fewest local pending tasks, then fewest running tasks, then at random.
      CountLocalPending(state);
      std::vector<ServerId> ties;
      for (ServerId r : state.task(best_task).replicas) {
        if (!state.CanHost(best_task, r)) continue;
        if (!ties.empty()) {
          const ServerId b = ties.front();
          const auto key = [&](ServerId s) {
            return std::make_pair(local_pending_[s], state.server(s).running);
          };
          if (key(r) > key(b)) continue;
          if (key(r) < key(b)) ties.clear();
        }
        ties.push_back(r);
      }
      best_server = ties[static_cast<size_t>(rng_.UniformInt(static_cast<int64_t>(ties.size())))];
      return {best_task, best_server,
              Why()
                  .Add("server_rule", "local")
                  .Add("local_candidates", best_candidates)
                  .Add("ties", static_cast<double>(ties.size()))};
    }
    if (!any_root) return {};
    // No local placement: a random ready root task on the server with the fewest running tasks.
    ServerId target = kNoServer;
    for (ServerId s : state.servers_with_free_slots()) {
      if (target == kNoServer || state.server(s).running < state.server(target).running) target = s;
    }
    if (target == kNoServer) return {};
    std::vector<TaskId> roots;
    for (TaskId t : ready) {
      if (state.task(t).root && state.CanHost(t, target)) roots.push_back(t);
    }
    if (roots.empty()) return {};
    return {roots[static_cast<size_t>(rng_.UniformInt(static_cast<int64_t>(roots.size())))],
            target, Why().Add("server_rule", "remote-least-running")};
  }

  // The smallest (Alg. 3) or largest (Alg. 4) ready reduce task of job j that
  // SelectServerForTask can place.
  Decision ReduceFromJob(const SimState& state, JobIndex j, bool largest_first,
                         bool insufficient) {
    TaskId pick = -1;
    for (TaskId t : state.job(j).ready) {
      const TaskRuntime& task = state.task(t);
      if (task.root) continue;
      if (pick < 0 || (largest_first ? task.spec->input > state.task(pick).spec->input
                                     : task.spec->input < state.task(pick).spec->input)) {
        pick = t;
      }
    }
    if (pick < 0) return {};
    Why why;
    const ServerId s = SelectServerForTask(state, pick, insufficient, why);
    if (s == kNoServer) return {};
    return {pick, s, why};
  }

  // The size of a task's network unit: its macroflow (slot-insufficient) or its coflow.
  Bytes UnitSize(const SimState& state, TaskId t, bool insufficient) const {
    const TaskRuntime& task = state.task(t);
    if (insufficient) return task.spec->input;
    const CoflowId c = state.job(task.job).stages[task.stage].coflow;
    return c >= 0 ? state.flows().coflow(c).total_bytes : task.spec->input;
  }

  // SelectServerForTask (SPEC §8): a free slot on a server where no task is receiving; else on
  // a server whose smallest active unit is larger than this task's, the one with the fewest
  // receiving tasks; else nothing (the slot stays reserved).
  ServerId SelectServerForTask(const SimState& state, TaskId t, bool insufficient,
                               Why& why) const {
    ServerId idle = kNoServer;
    for (ServerId s : state.servers_with_free_slots()) {
      if (!state.CanHost(t, s)) continue;
      if (state.server(s).receiving == 0 &&
          (idle == kNoServer || state.server(s).running < state.server(idle).running)) {
        idle = s;
      }
    }
    if (idle != kNoServer) {
      why.Add("server_rule", "idle");
      return idle;
    }
    if (!receivers_summarised_) SummariseReceivers(state, insufficient);
    const Bytes mine = UnitSize(state, t, insufficient);
    ServerId best = kNoServer;
    for (ServerId s : state.servers_with_free_slots()) {
      if (smallest_unit_[s] <= mine || !state.CanHost(t, s)) continue;
      if (best == kNoServer || state.server(s).receiving < state.server(best).receiving) best = s;
    }
    if (best != kNoServer) {
      why.Add("server_rule", "larger-unit").Add("unit_bytes", mine).Add("smallest_unit_there",
                                                                          smallest_unit_[best]);
    }
    return best;
  }

  // Smallest active macroflow or coflow arriving at each server.
  void SummariseReceivers(const SimState& state, bool insufficient) const {
    receivers_summarised_ = true;
    const FlowView& net = state.flows();
    smallest_unit_.assign(state.cluster().size(), std::numeric_limits<double>::infinity());
    for (FlowId f : net.active_flows()) {
      const FlowSpec& fs = net.flow(f).spec;
      if (fs.src == fs.dst) continue;
      const Bytes unit =
          insufficient || fs.coflow < 0 ? fs.macroflow_bytes : net.coflow(fs.coflow).total_bytes;
      smallest_unit_[fs.dst] = std::min(smallest_unit_[fs.dst], unit);
    }
  }

  // Ready root tasks (of any job) that have a replica on each server.
  void CountLocalPending(const SimState& state) {
    local_pending_.assign(state.cluster().size(), 0);
    for (JobIndex j : jobs_) {
      for (TaskId t : state.job(j).ready) {
        for (ServerId r : state.task(t).replicas) ++local_pending_[r];
      }
    }
  }

  JobOrder order_;
  bool all_ready_mode_;
  Seconds monitor_interval_;
  double congestion_threshold_;
  Rng rng_;
  bool congested_ = false;
  std::vector<JobIndex> jobs_;
  mutable std::vector<double> smallest_unit_;
  mutable bool receivers_summarised_ = false;
  std::vector<int> local_pending_;
};

}  // namespace

SLOTFLOW_REGISTER_TASK_SCHEDULER("nats", "Duopoly's network-aware placement with slot reservation",
                                 NatsSettings(), NatsScheduler);

}  // namespace slotflow
