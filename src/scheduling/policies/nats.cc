// nats — network-aware task scheduling of Duopoly (Duopoly §5; §3.3 for the mode). The readings
// it takes where the paper is silent are in docs/readings.md.
//
// Jobs in the configured order (SJF in Duopoly). Each call is one step of Alg. 1: it returns
// one (task, server) pair or nothing; nothing means "leave the remaining slots empty" (slot
// reservation) until the next trigger (§5.1: a slot frees while tasks are ready, or tasks
// become ready while slots are free).
//  - L0 (Alg. 3/4 line 1) is the highest-priority active job, whether or not it has ready tasks.
//  - Mode (§3.3, the J1/J2/J3 example; §6.2 "(A)"): slot-insufficient iff L0 has ready tasks that
//    the free slots cannot all take. A lower-priority job that does not fit never switches it.
//    Variant "(A)": all ready tasks of all jobs against the free slots.
//  - Mode and congestion flag are both "updated periodically from monitoring data" (§5.1): at
//    every monitoring interval, not at every decision.
//  - Alg. 3 (slot-insufficient): only L0, if it has ready tasks — map stage:
//    SelectTaskServerPair(L0); reduce stage: its smallest ready reduce task with
//    SelectServerForTask.
//  - Alg. 4 (slot-sufficient): L0 as in Alg. 3 but its largest ready reduce task first. If L0
//    yields nothing: when the network is congested, the first job with ready map tasks, placed
//    only where they read locally (§5.4: "when congested nats schedules only tasks whose input
//    is local"); otherwise the first job with a reduce task SelectServerForTask can place; else
//    nothing (l. 30). Setting uncongested_maps any (ours) then places map tasks in job order.
//  - SelectTaskServerPair (Alg. 2 l. 1–12): among the (task, server) pairs where a ready map
//    task reads locally, those of the tasks with fewest candidate servers (l. 4); among them
//    the server with fewest pending local tasks (l. 5), then fewest running tasks (l. 6), then
//    at random (l. 7). Setting pair_ties first-task takes the first such task instead.
//  - SelectServerForTask (Alg. 2 l. 13–24): a free server with no task receiving, chosen at
//    random (l. 22 and the text after it: the paper argues against any further preference);
//    else (l. 16–17) a free server where the task's unit would rank first, fewest receiving
//    first. "Rank first" is by the network policy's class (§5.2's text: the server "that gives
//    the task the highest network priority"): the task's unit takes a class above every unit
//    arriving there; sharing a class (its own coflow's, or a unit of a similar size) is not
//    enough, as an equal unit does not qualify under l. 16 either. Setting unit_compare by-size
//    reads l. 16 literally (the smallest unit there larger than the task's), as does by-class under
//    a policy that states no class for a flow (every policy but cans).
//  - Congestion flag (ours, docs/readings.md): congested iff the mean utilisation of the
//    network links carrying traffic (server and rack links; setting congestion_measure) is at
//    least the setting congestion_threshold (0.8); the paper gives neither number nor rule.
// Settings give the alternative readings for the sensitivity study: mode_signal first-ready (L0 =
// the first job with ready tasks), mode_refresh every-round, idle_server fewest-running,
// congested_maps any, uncongested_maps any, pair_ties first-task; congestion_measure
// busy-downlinks or all-downlinks are other readings of the flag.
#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <string>

#include "api/job_order.h"
#include "api/random.h"
#include "api/task_scheduler.h"
#include "scheduling/local_pairs.h"

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
           .meaning = "how often the congestion flag and the mode are refreshed (Duopoly §5.1: "
                      "periodically; the interval is ours)",
           // Finer ticks only add events: rates, hence utilisation, change only at events.
           .min = 1e-3,
           .max = 3600},
          {.name = "congestion_threshold",
           .kind = SettingKind::kNumber,
           .default_value = "0.8",
           .meaning = "congested iff the mean utilisation of busy network links is at least "
                      "this (ours)",
           .min = 0,
           .max = 1},
          {.name = "congestion_measure",
           .kind = SettingKind::kChoice,
           .default_value = "busy-links",
           .meaning = "the utilisation compared with congestion_threshold (ours): the mean over "
                      "the network links carrying traffic, server and rack links (busy-links), "
                      "over the server downlinks carrying traffic (busy-downlinks) or over all "
                      "server downlinks (all-downlinks)",
           .choices = {"busy-links", "busy-downlinks", "all-downlinks"}},
          {.name = "mode_signal",
           .kind = SettingKind::kChoice,
           .default_value = "l0",
           .meaning = "slot-insufficient iff l0: the highest-priority active job's ready tasks "
                      "exceed the free slots (Duopoly §3.3); first-ready: the same for the first "
                      "job with ready tasks, which is also Alg. 3/4's L0 (another reading); "
                      "all-ready: all ready tasks do (ablation A)",
           .choices = {"l0", "first-ready", "all-ready"}},
          {.name = "mode_refresh",
           .kind = SettingKind::kChoice,
           .default_value = "monitor",
           .meaning = "monitor: the mode is refreshed with the congestion flag every "
                      "monitor_interval (Duopoly §5.1); every-round: before every decision",
           .choices = {"monitor", "every-round"}},
          {.name = "idle_server",
           .kind = SettingKind::kChoice,
           .default_value = "random",
           .meaning = "SelectServerForTask among free servers with no task receiving: random "
                      "(Alg. 2 l. 22) or fewest-running",
           .choices = {"random", "fewest-running"}},
          {.name = "congested_maps",
           .kind = SettingKind::kChoice,
           .default_value = "local-only",
           .meaning = "Alg. 4 when congested and L0 yields nothing: local-only (only map tasks "
                      "that read locally, Duopoly §5.4) or any (Alg. 2's remote fallback too)",
           .choices = {"local-only", "any"}},
          {.name = "uncongested_maps",
           .kind = SettingKind::kChoice,
           .default_value = "none",
           .meaning = "Alg. 4 when not congested and neither L0 nor any job's reduce task can be "
                      "placed: none (l. 30 returns nothing) or any (ours: map tasks of every job "
                      "in order, remote reads included)",
           .choices = {"none", "any"}},
          {.name = "pair_ties",
           .kind = SettingKind::kChoice,
           .default_value = "by-server",
           .meaning = "SelectTaskServerPair among map tasks with equally few candidate servers: "
                      "by-server (Alg. 2 l. 5–7: the server with fewest pending local tasks, then "
                      "fewest running, then at random, over all those tasks) or first-task (the "
                      "first such task, its servers compared so)",
           .choices = {"by-server", "first-task"}},
          {.name = "unit_compare",
           .kind = SettingKind::kChoice,
           .default_value = "by-class",
           .meaning = "SelectServerForTask when every free server has a task receiving (Alg. 2 "
                      "l. 16): by-class (a server where the task's unit would take a class above "
                      "every unit arriving there, Duopoly §5.2: the highest network priority; by "
                      "size where the network policy states no class) or by-size (the smallest "
                      "unit there larger than the task's)",
           .choices = {"by-class", "by-size"}}};
}

// The utilisation the congestion flag reads (setting congestion_measure).
enum class Measure { kBusyLinks, kBusyDownlinks, kAllDownlinks };

// The mode signal (setting mode_signal).
enum class Signal { kL0, kFirstReady, kAllReady };

// The branches of Alg. 3/4 a decision can come from, for the log and summary.json.
enum Branch {
  kAlg3Map,
  kAlg3Reduce,
  kAlg3Reserve,
  kAlg4L0Map,
  kAlg4L0Reduce,
  kAlg4CongestedMap,
  kAlg4CongestedNone,
  kAlg4Reduce,
  kAlg4Map,
  kAlg4None,
  kBranchCount
};
constexpr const char* kBranchNames[kBranchCount] = {
    "alg3-map",           "alg3-reduce",         "alg3-reserve", "alg4-l0-map", "alg4-l0-reduce",
    "alg4-congested-map", "alg4-congested-none", "alg4-reduce",  "alg4-map",    "alg4-none"};

class NatsScheduler : public TaskScheduler {
 public:
  explicit NatsScheduler(const PolicyArgs& args)
      : order_(JobOrderOf(args.settings)),
        signal_(args.settings.Choice<Signal>("mode_signal", {{"l0", Signal::kL0},
                                                             {"first-ready", Signal::kFirstReady},
                                                             {"all-ready", Signal::kAllReady}})),
        refresh_every_round_(args.settings.Choice<bool>(
            "mode_refresh", {{"monitor", false}, {"every-round", true}})),
        random_idle_(args.settings.Choice<bool>("idle_server",
                                                {{"random", true}, {"fewest-running", false}})),
        congested_local_only_(
            args.settings.Choice<bool>("congested_maps", {{"local-only", true}, {"any", false}})),
        uncongested_maps_(
            args.settings.Choice<bool>("uncongested_maps", {{"none", false}, {"any", true}})),
        ties_first_task_(
            args.settings.Choice<bool>("pair_ties", {{"by-server", false}, {"first-task", true}})),
        by_class_(
            args.settings.Choice<bool>("unit_compare", {{"by-class", true}, {"by-size", false}})),
        measure_(args.settings.Choice<Measure>("congestion_measure",
                                               {{"busy-links", Measure::kBusyLinks},
                                                {"busy-downlinks", Measure::kBusyDownlinks},
                                                {"all-downlinks", Measure::kAllDownlinks}})),
        monitor_interval_(args.settings.Number("monitor_interval")),
        congestion_threshold_(args.settings.Number("congestion_threshold")),
        rng_(args.seed ^ kSeedSalt) {}

  Seconds tick_interval() const override { return monitor_interval_; }

  // §5.1: the congestion flag and the mode are refreshed from monitoring data.
  Why OnTick(const SimState& state) override {
    const Cluster& cluster = state.cluster();
    const FlowView& flows = state.flows();
    double sum = 0;
    int busy = 0;
    // Only links carrying traffic count (a local disk read never touches one), unless
    // all-downlinks.
    auto add = [&](LinkId l) {
      const double load = flows.LinkLoad(l);
      if (load <= 0 && measure_ != Measure::kAllDownlinks) return;
      sum += load / cluster.LinkCapacity(l);
      ++busy;
    };
    if (measure_ == Measure::kBusyLinks) {
      for (LinkId l{0}; l < cluster.NetworkLinkCount(); ++l) add(l);
    } else {
      for (ServerId s{0}; s < cluster.size(); ++s) add(cluster.Downlink(s));
    }
    const bool was = congested_;
    congested_ = busy > 0 && sum / busy >= congestion_threshold_;
    ++ticks_;
    congested_ticks_ += congested_;
    if (!refresh_every_round_) insufficient_ = Insufficient(state);
    if (congested_ == was) return {};
    return Why()
        .Add("congested", congested_ ? 1.0 : 0.0)
        .Add(
            measure_ == Measure::kBusyLinks ? "mean_link_utilisation" : "mean_downlink_utilisation",
            busy > 0 ? sum / busy : 0.0);
  }

  std::optional<SlotMode> mode(const SimState& state) const override {
    const bool insufficient = refresh_every_round_ ? Insufficient(state) : insufficient_;
    return insufficient ? SlotMode::kInsufficient : SlotMode::kSufficient;
  }

  void AddStats(std::vector<std::pair<std::string, double>>& out) const override {
    int64_t rounds = 0;
    for (int64_t n : branch_rounds_) rounds += n;
    out.emplace_back("rounds", rounds);
    for (int b = 0; b < kBranchCount; ++b) {
      out.emplace_back(std::string("branch_share.") + kBranchNames[b],
                       rounds > 0 ? static_cast<double>(branch_rounds_[b]) / rounds : 0.0);
    }
    out.emplace_back("congested_share",
                     ticks_ > 0 ? static_cast<double>(congested_ticks_) / ticks_ : 0.0);
  }

  Decision Next(const SimState& state) override {
    local_pairs_.Settle(state);
    OrderJobs(state, order_, jobs_);
    if (jobs_.empty()) return {};
    if (refresh_every_round_) insufficient_ = Insufficient(state);
    const bool insufficient = insufficient_;
    // Alg. 3 / first half of Alg. 4: the highest-priority job only, if it has ready tasks.
    const JobIndex l0 = L0(state, jobs_);
    if (l0 >= 0 && !state.job(l0).ready.empty()) {
      if (Decision d = SelectTaskServerPair(state, l0, /*local_only=*/false)) {
        return Explained(std::move(d), insufficient ? kAlg3Map : kAlg4L0Map, insufficient);
      }
      if (Decision d = ReduceFromJob(state, l0, /*largest_first=*/!insufficient, insufficient)) {
        return Explained(std::move(d), insufficient ? kAlg3Reduce : kAlg4L0Reduce, insufficient);
      }
    }
    // Alg. 3: reserve the remaining slots.
    if (insufficient) return Explained({}, kAlg3Reserve, insufficient);
    // Alg. 4, L0 yielded nothing.
    if (congested_) {
      for (JobIndex j : jobs_) {
        if (Decision d = SelectTaskServerPair(state, j, congested_local_only_)) {
          return Explained(std::move(d), kAlg4CongestedMap, insufficient);
        }
      }
      return Explained({}, kAlg4CongestedNone, insufficient);
    }
    for (JobIndex j : jobs_) {
      if (Decision d = ReduceFromJob(state, j, /*largest_first=*/true, insufficient)) {
        return Explained(std::move(d), kAlg4Reduce, insufficient);
      }
    }
    if (uncongested_maps_) {
      for (JobIndex j : jobs_) {
        if (Decision d = SelectTaskServerPair(state, j, /*local_only=*/false)) {
          return Explained(std::move(d), kAlg4Map, insufficient);
        }
      }
    }
    return Explained({}, kAlg4None, insufficient);
  }

 private:
  // The decision with the mode and the branch of Alg. 3/4 that took it, then its own reasons.
  Decision Explained(Decision d, Branch branch, bool insufficient) {
    ++branch_rounds_[branch];
    if (d) local_pairs_.Placed(d.task);
    Why why;
    why.Add("mode", insufficient ? "insufficient" : "sufficient")
        .Add("branch", kBranchNames[branch]);
    if (!insufficient) why.Add("congested", congested_ ? 1.0 : 0.0);
    d.why = why.Append(d.why);
    return d;
  }

  // L0 among `ordered` (the jobs in the scheduler's order): the highest-priority active job (the
  // paper), or with mode_signal first-ready the first job with ready tasks; -1 if none.
  JobIndex L0(const SimState& state, const std::vector<JobIndex>& ordered) const {
    if (ordered.empty()) return JobIndex{-1};
    if (signal_ != Signal::kFirstReady) return ordered.front();
    for (JobIndex j : ordered) {
      if (!state.job(j).ready.empty()) return j;
    }
    return JobIndex{-1};
  }

  bool Insufficient(const SimState& state) const {
    if (signal_ == Signal::kAllReady) return state.ready_tasks() > state.free_slots();
    OrderJobs(state, order_, order_scratch_);
    const JobIndex l0 = L0(state, order_scratch_);
    return l0 >= 0 && state.job(l0).ready.size() > static_cast<size_t>(state.free_slots());
  }

  // SelectTaskServerPair (Alg. 2 l. 1–12): ready root tasks of job j; with
  // `local_only` nothing when none can read locally.
  Decision SelectTaskServerPair(const SimState& state, JobIndex j, bool local_only) {
    bool any_root = false;
    Decision d = local_pairs_.Covers(state, j) ? IndexedLocalPair(state, any_root)
                                              : ScannedLocalPair(state, j, any_root);
    if (d || !any_root || local_only) return d;
    return RemotePair(state, j);
  }

  // l. 5–7's order of servers: fewest local pending tasks, then fewest running tasks.
  static std::pair<int, int> PairKey(const SimState& state, ServerId s) {
    return {state.ready_replicas(s), state.server(s).running};
  }

  // l. 1–7 by a pass over job j's ready tasks.
  Decision ScannedLocalPair(const SimState& state, JobIndex j, bool& any_root) {
    TaskId best_task{-1};
    int best_candidates = std::numeric_limits<int>::max();
    tied_.clear();
    for (TaskId t : state.job(j).ready) {
      const TaskRuntime& task = state.task(t);
      if (!task.root) continue;
      any_root = true;
      int candidates = 0;
      for (ServerId r : task.replicas) candidates += state.HasFreeSlot(r) && state.CanHost(t, r);
      if (candidates == 0 || candidates > best_candidates) continue;
      if (candidates < best_candidates) {
        best_candidates = candidates;
        best_task = t;
        tied_.clear();
      }
      tied_.push_back(t);  // the tasks with best_candidates candidates, in ready order
    }
    if (best_task < 0) return {};
    if (ties_first_task_) tied_.assign(1, best_task);
    return PairOfTied(state, best_candidates);
  }

  // l. 5–7 over the pairs of the tasks in tied_ (each with `candidates` candidate servers): the
  // servers with the smallest PairKey, at random among their pairs.
  Decision PairOfTied(const SimState& state, int candidates) {
    pairs_.clear();
    for (TaskId t : tied_) {
      for (ServerId r : state.task(t).replicas) {
        if (!state.CanHost(t, r)) continue;
        if (!pairs_.empty()) {
          if (PairKey(state, r) > PairKey(state, pairs_.front().second)) continue;
          if (PairKey(state, r) < PairKey(state, pairs_.front().second)) pairs_.clear();
        }
        pairs_.emplace_back(t, r);
      }
    }
    const auto [task, server] =
        pairs_[static_cast<size_t>(rng_.UniformInt(static_cast<int64_t>(pairs_.size())))];
    return LocalDecision(task, server, candidates, pairs_.size());
  }

  // l. 1–7 from the job's bitsets (local_pairs_.Covers): the same pairs, in the same order.
  Decision IndexedLocalPair(const SimState& state, bool& any_root) {
    const std::optional<LocalPairs::Tied> tied = local_pairs_.FewestCandidates(any_root);
    if (!tied) return {};
    if (ties_first_task_) {
      tied_.assign(1, tied->first);
      return PairOfTied(state, tied->candidates);
    }
    keys_.clear();
    for (ServerId s : local_pairs_.TiedServers()) {
      if (!keys_.empty()) {
        if (PairKey(state, s) > PairKey(state, keys_.front())) continue;
        if (PairKey(state, s) < PairKey(state, keys_.front())) keys_.clear();
      }
      keys_.push_back(s);
    }
    const int64_t pairs = local_pairs_.CountPairs(state, keys_);
    const auto [task, server] = local_pairs_.PairAt(state, rng_.UniformInt(pairs));
    return LocalDecision(task, server, tied->candidates, static_cast<size_t>(pairs));
  }

  static Decision LocalDecision(TaskId task, ServerId server, int candidates, size_t ties) {
    return {task, server,
            Why()
                .Add("server_rule", "local")
                .Add("local_candidates", candidates)
                .Add("ties", static_cast<double>(ties))};
  }

  // No local placement: a random ready root task on the server with the fewest running tasks.
  Decision RemotePair(const SimState& state, JobIndex j) {
    ServerId target = kNoServer;
    for (ServerId s : state.servers_with_free_slots()) {
      if (target == kNoServer || state.server(s).running < state.server(target).running) target = s;
    }
    if (target == kNoServer) return {};
    std::vector<TaskId> roots;
    for (TaskId t : state.job(j).ready) {
      if (state.task(t).root && state.CanHost(t, target)) roots.push_back(t);
    }
    if (roots.empty()) return {};
    return {roots[static_cast<size_t>(rng_.UniformInt(static_cast<int64_t>(roots.size())))], target,
            Why().Add("server_rule", "remote-least-running")};
  }

  // The smallest (Alg. 3) or largest (Alg. 4) ready reduce task of job j that
  // SelectServerForTask can place.
  Decision ReduceFromJob(const SimState& state, JobIndex j, bool largest_first, bool insufficient) {
    // The ready list is in id order and reduce tasks follow their job's map tasks, so it is
    // read from the back until the job's ready non-root tasks are all seen; `>=` / `<=` keep
    // the first in id order among equals, as a forward pass would.
    const JobRuntime& job = state.job(j);
    auto left = static_cast<int64_t>(job.ready.size()) - job.ready_roots;
    TaskId pick{-1};
    for (auto it = job.ready.rbegin(); left > 0; ++it) {
      const TaskRuntime& task = state.task(*it);
      if (task.root) continue;
      --left;
      if (pick < 0 || (largest_first ? task.spec->input >= state.task(pick).spec->input
                                     : task.spec->input <= state.task(pick).spec->input)) {
        pick = *it;
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

  // SelectServerForTask (Alg. 2 l. 13–24): a free slot on a server where no task is receiving;
  // else on a server where this task's unit would rank first (l. 16: by class, or by size), the
  // one with the fewest receiving tasks; else nothing (the slot stays reserved).
  ServerId SelectServerForTask(const SimState& state, TaskId t, bool insufficient, Why& why) {
    // The free servers with no task receiving: the state's index when any free slot can host
    // t, else a scan.
    const std::vector<ServerId>* idle = &state.idle_servers_with_free_slots();
    if (!random_idle_ || !state.HostsOnAnyFreeSlot()) {
      idle_.clear();
      for (ServerId s : state.servers_with_free_slots()) {
        if (!state.CanHost(t, s) || state.server(s).receiving != 0) continue;
        if (!random_idle_ && !idle_.empty()) {
          if (state.server(s).running >= state.server(idle_.front()).running) continue;
          idle_.clear();
        }
        idle_.push_back(s);
      }
      idle = &idle_;
    }
    if (!idle->empty()) {
      why.Add("server_rule", "idle").Add("idle_servers", idle->size());
      // Alg. 2 l. 22: any one of them.
      return idle->size() == 1 ? idle->front()
                               : (*idle)[static_cast<size_t>(
                                     rng_.UniformInt(static_cast<int64_t>(idle->size())))];
    }
    const std::optional<FlowClass> mine_class =
        by_class_ ? state.flows().ExpectedClass(state.UnitSpec(t)) : std::nullopt;
    SummariseReceivers(state, insufficient, mine_class.has_value());
    const Bytes mine = UnitSize(state, t, insufficient);
    ServerId best = kNoServer;
    for (ServerId s : state.servers_with_free_slots()) {
      const bool first = mine_class ? *mine_class < top_class_[s] : smallest_unit_[s] > mine;
      if (!first || !state.CanHost(t, s)) continue;
      if (best == kNoServer || state.server(s).receiving < state.server(best).receiving) best = s;
    }
    if (best == kNoServer) return best;
    if (mine_class) {
      why.Add("server_rule", "higher-class")
          .Add("unit_class", static_cast<double>(*mine_class))
          .Add("top_class_there", static_cast<double>(top_class_[best]));
    } else {
      why.Add("server_rule", "larger-unit")
          .Add("unit_bytes", mine)
          .Add("smallest_unit_there", smallest_unit_[best]);
    }
    return best;
  }

  // Smallest active macroflow or coflow arriving at each server; with `classes`, also the
  // highest class (smallest number) the network policy gives the flows arriving there.
  void SummariseReceivers(const SimState& state, bool insufficient, bool classes) const {
    const FlowView& net = state.flows();
    // The summary holds while no flow starts or ends, time stands still and neither mode moves
    // (the decisions of one instant that start no flows, such as map tasks reading locally).
    const SummaryKey key{net.stamp(), net.slot_mode(), insufficient, classes};
    if (summary_key_ == key) return;
    summary_key_ = key;
    smallest_unit_.assign(state.cluster().size(), std::numeric_limits<double>::infinity());
    if (classes) top_class_.assign(state.cluster().size(), std::numeric_limits<FlowClass>::max());
    // Flows of one coflow and macroflow have one class: it is asked for once per macroflow
    // (the receiving task) in each summary.
    ++summary_;
    for (FlowId f : net.active_flows()) {
      const FlowSpec& fs = net.flow(f).spec;
      if (fs.src == fs.dst) continue;
      const Bytes unit =
          insufficient || fs.coflow < 0 ? fs.macroflow_bytes : net.coflow(fs.coflow).total_bytes;
      smallest_unit_[fs.dst] = std::min(smallest_unit_[fs.dst], unit);
      if (classes) top_class_[fs.dst] = std::min(top_class_[fs.dst], ClassOf(net, fs));
    }
  }

  // The class the network policy gives fs's flows now, asked once per macroflow per summary.
  FlowClass ClassOf(const FlowView& net, const FlowSpec& fs) const {
    auto ask = [&] {
      return net.ExpectedClass(fs).value_or(std::numeric_limits<FlowClass>::max());
    };
    if (fs.coflow < 0 || fs.macroflow < 0) return ask();
    const auto m = static_cast<size_t>(fs.macroflow);
    if (m >= asked_.size()) asked_.resize(m + 1);
    Asked& a = asked_[m];
    if (a.summary != summary_ || a.coflow != fs.coflow) a = {summary_, fs.coflow, ask()};
    return a.cls;
  }

  JobOrder order_;
  Signal signal_;
  bool refresh_every_round_;
  bool random_idle_;
  bool congested_local_only_;
  bool uncongested_maps_;
  bool ties_first_task_;
  bool by_class_;
  Measure measure_;
  Seconds monitor_interval_;
  double congestion_threshold_;
  Rng rng_;
  bool congested_ = false;
  bool insufficient_ = false;
  int64_t ticks_ = 0, congested_ticks_ = 0;
  std::array<int64_t, kBranchCount> branch_rounds_{};
  std::vector<JobIndex> jobs_;
  mutable std::vector<JobIndex> order_scratch_;
  std::vector<ServerId> idle_;
  std::vector<TaskId> tied_;  // map tasks with equally few candidate servers, Alg. 2 l. 4
  std::vector<std::pair<TaskId, ServerId>> pairs_;  // tied (task, server) pairs, Alg. 2 l. 5–7
  std::vector<ServerId> keys_;  // the servers of the tied tasks with the smallest PairKey
  LocalPairs local_pairs_;      // Alg. 2 l. 1–7 for jobs with many ready map tasks
  mutable std::vector<double> smallest_unit_;
  mutable std::vector<FlowClass> top_class_;
  struct SummaryKey {
    FlowView::Stamp flows;
    SlotMode mode;
    bool insufficient, classes;
    bool operator==(const SummaryKey&) const = default;
  };
  mutable std::optional<SummaryKey> summary_key_;
  // ClassOf's answers, per macroflow (task id): the summary that asked, for which coflow.
  struct Asked {
    int64_t summary = -1;
    CoflowId coflow{-1};
    FlowClass cls{0};
  };
  mutable std::vector<Asked> asked_;
  mutable int64_t summary_ = 0;
};

}  // namespace

SLOTFLOW_REGISTER_TASK_SCHEDULER("nats", "Duopoly's network-aware placement with slot reservation",
                                 NatsSettings(), NatsScheduler);

}  // namespace slotflow
