// neat — NEAT+ task placement (NEAT+ §IV–V, Algorithm 1; and Duopoly §6.1, which compares
// against NEAT's "CCT-TCF version with the serial heuristic": coflow placement by predicted CCT
// under TCF, + TCF network + SJF).
//
// Next() walks jobs in the configured order (SJF in Duopoly's comparison) and places one task of
// the first job that has a ready task:
//  - A task reading an input block whose replica holder has a free slot goes there (NEAT+
//    §V-A3: the holder's transfer time is zero). Among several free holders: fewest running
//    tasks, then lower id.
//  - Otherwise the job's largest ready task (by input bytes; lower id on ties) is placed: NEAT+'s
//    sequential coflow heuristic (§V-A2) places the largest flow first and the next one on the
//    updated state. The simulator applies each placement at once, so the next call already sees
//    the new task's flows. (This choice of task is NeatTaskChoice, api/first_fit.h; loadAware
//    and minDist take it with task_order = local-first.)
//  - For each candidate server, the task's input transfer is predicted under the network policy
//    in force (setting predictor; flow or coflow predictor as the policy schedules flows or
//    coflows) on each non-local source's uplink and on the candidate's downlink, whose new bytes
//    are all the task's non-local input; the core is assumed uncongested (§III). The score is
//    objective (2) (setting objective = full, the default): on each of those links the new
//    transfer's predicted time plus the delay it causes to the transfers already there, the
//    maximum over the links; objective = own scores by the predicted time alone. A block read
//    comes from the replica holder the simulator will use (fewest outgoing flows; see
//    docs/readings.md) and is, like under the coflow network policies, a coflow of its own.
//  - Candidates (§V-A1, §V-B2): servers that can host the task now (a free slot and, where
//    memory is modelled, enough of it); with near_input = rack on a two-tier cluster, only those
//    in a rack holding some of its input. A candidate is preferred if its downlink is idle or
//    every flow on it has at least the task's size (its input bytes) left, or (ours, see
//    docs/readings.md) if the task would receive nothing over it, all its input being local
//    there. When no candidate is preferred, those with the most free slots are the candidates.
//  - The candidate with the smallest score wins; ties (within kRelTolerance, relative): fewer
//    running tasks, then setting ties (api/tie_break.h). The decision log gives the
//    counts each filter leaves (free servers, eligible, candidates), the filter that chose the
//    candidates, and the winner's and the runner-up's scores.
// NEAT never leaves a slot empty while a task is ready. With the exact state (state = exact) one
// decision costs one pass over the active flows (EdgeLoads::ComputeFor, which sums only the
// flows on the free servers' downlinks and the sources' uplinks) plus O(servers + input sources);
// with state = compressed, predictions come from NEAT+'s network daemons (neat_daemons.h),
// which keep per-link bins up to date as flows start and end, and a decision costs
// O(candidates × bins) plus the links touched since the last one.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "api/first_fit.h"
#include "api/job_order.h"
#include "api/neat_daemons.h"
#include "api/neat_score.h"
#include "api/task_scheduler.h"
#include "api/tie_break.h"
#include "api/tolerance.h"

namespace slotflow {
namespace {

constexpr uint64_t kSeedSalt = 0x6e6561742b000000ULL;  // "neat+"

// a is clearly smaller than b (not a floating-point tie).
bool ClearlyLess(Seconds a, Seconds b) {
  return a < b - kRelTolerance * std::max(1.0, std::abs(b));
}

std::vector<SettingSpec> NeatSettings() {
  SettingSpec predictor{.name = "predictor",
                        .kind = SettingKind::kChoice,
                        .default_value = "auto",
                        .meaning =
                            "the network policy whose completion times are predicted (NEAT+ "
                            "§IV); auto: the one the policy in force (--network) declares",
                        .choices = {"auto"}};
  for (NeatPolicy p : kAllNeatPolicies) predictor.choices.emplace_back(NeatPolicyName(p));
  SettingSpec state{.name = "state",
                    .kind = SettingKind::kChoice,
                    .default_value = "exact",
                    .meaning =
                        "the per-link flow state predictions come from: exact, or NEAT+'s "
                        "compressed bins (§V-B1), kept by per-node daemons as flows start and "
                        "end (§III); with compressed, summary.json reports how often the exact "
                        "state would have chosen the same server",
                    .choices = {"exact", "compressed"}};
  SettingSpec agreement{.name = "agreement",
                        .kind = SettingKind::kChoice,
                        .default_value = "on",
                        .meaning =
                            "with state = compressed, also work out the exact state's "
                            "choice for summary.json's compressed_agreement (a second "
                            "choice per decision)",
                        .choices = {"on", "off"}};
  SettingSpec near_input{.name = "near_input",
                         .kind = SettingKind::kChoice,
                         .default_value = "any",
                         .meaning =
                             "NEAT+ §V-B2 (i), two-tier only: rack keeps the candidates "
                             "to racks holding some of the task's input (all servers when "
                             "none of those can host it); any: every server. Every other "
                             "rack is one core hop away, so the paper's one-hop reading "
                             "is any",
                         .choices = {"any", "rack"}};
  SettingSpec objective{.name = "objective",
                        .kind = SettingKind::kChoice,
                        .default_value = "full",
                        .meaning =
                            "own: the new transfer's predicted completion; full: NEAT+'s "
                            "objective (2), plus the delay it causes to the transfers "
                            "already on each edge link",
                        .choices = {"own", "full"}};
  return {JobOrderSetting(), predictor, objective, state, agreement, near_input, TieSetting()};
}

// Setting `predictor`: a modelled policy, or auto for the one the network policy in force
// declares.
NeatPolicy PredictorOf(const PolicyArgs& args) {
  std::vector<std::pair<std::string_view, std::optional<NeatPolicy>>> table = {
      {"auto", std::nullopt}};
  for (NeatPolicy p : kAllNeatPolicies) table.emplace_back(NeatPolicyName(p), p);
  const std::optional<NeatPolicy> chosen = args.settings.Choice("predictor", table);
  return chosen ? *chosen : NeatPolicyForNetwork(args.network_policy);
}

class NeatScheduler : public TaskScheduler {
 public:
  explicit NeatScheduler(const PolicyArgs& args)
      : order_(JobOrderOf(args.settings)),
        compressed_(args.settings.Choice<bool>("state", {{"exact", false}, {"compressed", true}})),
        agreement_(args.settings.Choice<bool>("agreement", {{"on", true}, {"off", false}}) &&
                   compressed_),
        near_rack_(args.settings.Choice<bool>("near_input", {{"any", false}, {"rack", true}})),
        tie_(args.settings, args.seed, kSeedSalt),
        score_(PredictorOf(args),
               args.settings.Choice<bool>("objective", {{"own", false}, {"full", true}})) {}

  // The daemons read the ids of the flows that finished since they last looked.
  FinishedFlows ReadsFinishedFlows() const override { return FinishedFlows::kIds; }

  void AddStats(std::vector<std::pair<std::string, double>>& out) const override {
    if (!agreement_) return;
    out.emplace_back("compressed_decisions", static_cast<double>(decisions_));
    out.emplace_back("compressed_agreement",
                     decisions_ > 0 ? static_cast<double>(agreements_) / decisions_ : 1.0);
  }

  Decision Next(const SimState& state) override {
    if (state.servers_with_free_slots().empty()) return {};
    OrderJobs(state, order_, jobs_);
    for (JobIndex j : jobs_) {
      const ReadyTasks& ready = state.job(j).ready;
      if (ready.empty()) continue;
      const TaskChoice choice = NeatTaskChoice(state, ready);
      if (choice.holder != kNoServer) {
        return {choice.task, choice.holder, Why().Add("rule", "local-read")};
      }
      const TaskId largest = choice.task;
      Why why;
      const ServerId s = BestServer(state, largest, why);
      if (s != kNoServer) return {largest, s, why};
    }
    return {};
  }

 private:
  // The candidate with the smallest prediction; `why` gets it and the candidates' counts. With
  // the compressed state the exact state's choice is worked out too, for the agreement share.
  ServerId BestServer(const SimState& state, TaskId t, Why& why) {
    score_.Begin(state, t);
    MarkInputRacks(state, t);
    ServerId best;
    if (!compressed_) {
      score_.UseExactFor(state, state.servers_with_free_slots());
      best = ChooseServer(state, t, tie_, why);
    } else {
      if (!daemons_) daemons_ = std::make_unique<NeatDaemons>(state.cluster(), score_.policy());
      daemons_->Sync(state.flows());
      TieBreak same = tie_;  // the exact state's choice draws the same ties
      score_.UseDaemons(state, *daemons_);
      best = ChooseServer(state, t, tie_, why);
      if (agreement_) {
        score_.UseExactFor(state, state.servers_with_free_slots());
        Why ignored;
        agreements_ += ChooseServer(state, t, same, ignored) == best;
        ++decisions_;
      }
    }
    score_.End(state, t);
    return best;
  }

  // Among the candidates, the server with the smallest predicted time of the task's input, as
  // score_ predicts it.
  ServerId ChooseServer(const SimState& state, TaskId t, TieBreak& tie, Why& why) const {
    // Candidates: preferred hosts if any, else the servers with the most free slots.
    const std::vector<ServerId>& free = state.servers_with_free_slots();
    bool any_preferred = false;
    int most_free = 0, eligible = 0;
    for (ServerId d : free) {
      if (!Eligible(state, t, d)) continue;
      ++eligible;
      any_preferred = any_preferred || score_.Preferred(d);
      most_free = std::max(most_free, state.server(d).free_slots);
    }
    ServerId best = kNoServer;
    Seconds best_time = std::numeric_limits<Seconds>::infinity();
    Seconds runner_up = std::numeric_limits<Seconds>::infinity();  // the best other candidate's
    int candidates = 0;
    tie.Start();
    for (ServerId d : free) {
      if (!Eligible(state, t, d)) continue;
      if (any_preferred ? !score_.Preferred(d) : state.server(d).free_slots != most_free) continue;
      ++candidates;
      const Seconds time = score_.Time(d);
      if (best == kNoServer || ClearlyLess(time, best_time) ||
          (!ClearlyLess(best_time, time) && state.server(d).running < state.server(best).running)) {
        tie.Better();
      } else if (ClearlyLess(best_time, time) ||
                 state.server(d).running > state.server(best).running || !tie.Equal()) {
        runner_up = std::min(runner_up, time);
        continue;
      }
      if (best != kNoServer) runner_up = std::min(runner_up, best_time);
      best = d;
      best_time = time;
    }
    // The filters between the free servers and the candidates (NEAT+ §V-A1, §V-B2):
    // eligible = enough free compute and memory (and in the input's racks, with near_input =
    // rack); then the preferred hosts, or, with none, those with the most free slots.
    why.Add("rule", "predicted")
        .Add("free_servers", static_cast<int>(free.size()))
        .Add("eligible", eligible)
        .Add("filter", any_preferred ? "preferred" : "most-free-slots")
        .Add("candidates", candidates)
        .Add("predicted_s", best_time);
    if (candidates > 1) why.Add("runner_up_s", runner_up);
    return best;
  }

  // With near_input = rack on a two-tier cluster: marks the racks that hold some of t's input
  // (its sources, and every replica of a block read), and keeps the filter on only if some server
  // there can host t (NEAT+ §V-B2 (i)).
  void MarkInputRacks(const SimState& state, TaskId t) {
    const Cluster& cluster = state.cluster();
    rack_filter_ = false;
    if (!near_rack_ || cluster.spec().topology != TopologyKind::kTwoTier) return;
    input_rack_.assign(static_cast<size_t>(cluster.racks()), 0);
    for (const auto& [src, bytes] : score_.sources()) input_rack_[cluster.server(src).rack] = 1;
    for (ServerId r : state.task(t).replicas) input_rack_[cluster.server(r).rack] = 1;
    for (ServerId d : state.servers_with_free_slots()) {
      if (input_rack_[cluster.server(d).rack] && state.CanHost(t, d)) rack_filter_ = true;
    }
  }

  // A candidate at all: enough free compute and memory (CanHost), and near the input when the
  // rack filter is on.
  bool Eligible(const SimState& state, TaskId t, ServerId d) const {
    return state.CanHost(t, d) && (!rack_filter_ || input_rack_[state.cluster().server(d).rack]);
  }

  JobOrder order_;
  bool compressed_;
  bool agreement_;
  bool near_rack_;
  TieBreak tie_;
  bool rack_filter_ = false;      // this decision keeps to input_rack_
  std::vector<char> input_rack_;  // per rack: holds some of the task's input
  int64_t decisions_ = 0,
          agreements_ = 0;  // with compressed: decisions, and those exact agrees with
  NeatScore score_;
  std::unique_ptr<NeatDaemons> daemons_;  // with state = compressed: NEAT+'s network daemons
  std::vector<JobIndex> jobs_;
};

}  // namespace

SLOTFLOW_REGISTER_TASK_SCHEDULER(
    "neat",
    "NEAT+: each task on the free server minimising objective (2), the predicted input-transfer "
    "time under the network policy in force plus the delay it causes (preferred hosts, largest "
    "reduce task first, local map reads first; never reserves)",
    NeatSettings(), NeatScheduler);

}  // namespace slotflow
