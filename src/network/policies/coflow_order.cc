// Coflow-order policies (the heuristics of Varys, SIGCOMM'14 §5; TCF also NEAT+ §IV-B3): every flow
// of a coflow gets the coflow's class; coflows are ranked by one static key, smaller first:
//   coflow-fifo  arrival time (job submission)
//   scf          shortest coflow first: its length, the largest flow (Varys "shortest-first")
//   ncf          narrowest coflow first: its width, the number of flows
//   tcf          smallest total coflow first: its total bytes
//   lcf          lightest-bottleneck coflow first: the most bytes it puts on any one link
//                (ours: a static form of Varys' smallest-bottleneck, computed from the flows
//                started so far; none of the papers defines LCF: docs/readings.md)
// A flow without a coflow (a map input read) is its own coflow of one flow.
// Classes: with unlimited queues every distinct key is its own class (arrival to the µs for
// coflow-fifo, api/class_key.h); with Q queues, size keys are bucketed by exponential
// thresholds (first threshold and multiplier from the config; for ncf the first threshold is 10
// flows), and coflow-fifo gives the Q−1 earliest active coflows classes 0..Q−2 and the rest class
// Q−1.
#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

#include "api/class_key.h"
#include "api/network_policy.h"
#include "network/policy_helpers/coflow_tracker.h"

namespace slotflow {
namespace {

enum class CoflowKey { kArrival, kLength, kWidth, kTotal, kBottleneck };

// ncf's keys are flow counts, not bytes: its first class holds coflows of fewer than 10 flows.
constexpr double kFirstWidthThreshold = 10;

class CoflowOrderPolicy : public NetworkPolicy {
 public:
  CoflowOrderPolicy(const PolicyArgs& args, CoflowKey key)
      : key_(key),
        queues_(args.settings.Queues("queues")),
        first_threshold_(args.settings.Number("first_threshold")),
        multiplier_(args.settings.Number("multiplier")) {}

  void OnFlowsStarted(const FlowView& net, ClassSink& out, std::span<const FlowId> flows) override {
    tracker_.Started(net, flows);
    for (FlowId f : flows) {
      const CoflowTracker::Key k = CoflowTracker::KeyOf(net, f);
      if (key_ == CoflowKey::kBottleneck) {
        auto& per_link = link_bytes_[k];
        double& bottleneck = bottleneck_[k];
        for (LinkId l : net.Links(f)) {
          bottleneck = std::max(bottleneck, per_link[l] += net.flow(f).spec.size);
        }
      }
      if (RankedFifo()) {
        ranks_dirty_ = true;
        continue;  // classes come from the ranking in BeforeSolve
      }
      if (key_ != CoflowKey::kBottleneck) out.SetClass(f, ClassOf(net, k));
    }
    if (key_ != CoflowKey::kBottleneck) return;
    // A coflow whose bottleneck grew may need a new class for its earlier flows too: once per
    // coflow of the batch, and only when its class changed (at most once per queue).
    for (FlowId f : flows) {
      const auto k = CoflowTracker::KeyOf(net, f);
      const FlowClass cls = ClassOf(net, k);
      auto [it, added] = class_of_.try_emplace(k, cls);
      if (!added && it->second != cls) {
        it->second = cls;
        for (FlowId g : tracker_.at(k).active) out.SetClass(g, cls);
      }
      out.SetClass(f, cls);
    }
  }

  void OnFlowsFinished(const FlowView& net, ClassSink& /*out*/,
                       std::span<const FlowId> flows) override {
    emptied_.clear();
    tracker_.Finished(net, flows, emptied_);
    for (auto k : emptied_) {
      link_bytes_.erase(k);
      bottleneck_.erase(k);
      class_of_.erase(k);
    }
    if (!emptied_.empty() && RankedFifo()) ranks_dirty_ = true;
  }

  void BeforeSolve(const FlowView& net, ClassSink& out) override {
    if (!ranks_dirty_) return;
    ranks_dirty_ = false;
    // coflow-fifo with Q queues: rank the active coflows by arrival.
    order_.clear();
    for (const auto& [k, e] : tracker_.entries()) {
      if (!e.active.empty()) order_.emplace_back(std::make_pair(Arrival(net, k), k), 0);
    }
    std::sort(order_.begin(), order_.end());
    for (size_t i = 0; i < order_.size(); ++i) {
      const FlowClass cls = FlowClass{std::min<int64_t>(static_cast<int64_t>(i), queues_ - 1)};
      for (FlowId f : tracker_.at(order_[i].first.second).active) out.SetClass(f, cls);
    }
  }

 private:
  // coflow-fifo with a limited number of queues ranks the active coflows instead of keying them.
  bool RankedFifo() const { return key_ == CoflowKey::kArrival && queues_ != kUnlimitedQueues; }

  Seconds Arrival(const FlowView& net, CoflowTracker::Key k) {
    return k >= 0 ? net.coflow(CoflowTracker::CoflowOfKey(k)).arrival : tracker_.at(k).first_start;
  }

  double KeyValue(const FlowView& net, CoflowTracker::Key k) {
    const bool real = k >= 0;
    const CoflowId coflow = real ? CoflowTracker::CoflowOfKey(k) : kNoCoflow;
    const FlowId single = real ? kNoFlow : CoflowTracker::FlowOfKey(k);
    switch (key_) {
      case CoflowKey::kArrival:
        return Arrival(net, k);
      case CoflowKey::kLength:
        return real ? net.coflow(coflow).length : net.flow(single).spec.size;
      case CoflowKey::kWidth:
        return real ? net.coflow(coflow).width : 1;
      case CoflowKey::kTotal:
        return real ? net.coflow(coflow).total_bytes : net.flow(single).spec.size;
      case CoflowKey::kBottleneck:
        return bottleneck_[k];
    }
    return 0;
  }

  // coflow-fifo with limited queues ranks in BeforeSolve instead.
  FlowClass ClassOf(const FlowView& net, CoflowTracker::Key k) {
    const double key = KeyValue(net, k);
    if (key_ == CoflowKey::kArrival) return kArrivals.Time(0, key);
    if (queues_ == kUnlimitedQueues) return ThresholdClass(key, queues_, 0, 0);
    const double first = key_ == CoflowKey::kWidth ? kFirstWidthThreshold : first_threshold_;
    return ThresholdClass(key, queues_, first, multiplier_);
  }

  static inline const ClassKeys kArrivals{1, ClassKeys::Key::kTime};  // coflow-fifo, unlimited
  CoflowKey key_;
  int queues_;
  Bytes first_threshold_;
  double multiplier_;
  CoflowTracker tracker_;
  std::unordered_map<CoflowTracker::Key, std::unordered_map<LinkId, Bytes>> link_bytes_;
  std::unordered_map<CoflowTracker::Key, double> bottleneck_;
  std::unordered_map<CoflowTracker::Key, FlowClass> class_of_;  // lcf: each coflow's class
  std::vector<CoflowTracker::Key> emptied_;
  std::vector<std::pair<std::pair<Seconds, CoflowTracker::Key>, int>> order_;
  bool ranks_dirty_ = false;
};

std::unique_ptr<NetworkPolicy> Make(const PolicyArgs& args, CoflowKey key) {
  return std::make_unique<CoflowOrderPolicy>(args, key);
}

}  // namespace

// NEAT+'s predictor: coflow FCFS for coflow-fifo, TCF for tcf, and TCF for scf, ncf and lcf too
// (ours: each serves some smallest coflow first).
SLOTFLOW_REGISTER_NETWORK_POLICY_WITH("coflow-fifo", "coflows in arrival order (FIFO)",
                                      "coflow-fcfs", ClassSettings("8"), [](const PolicyArgs& a) {
                                        return Make(a, CoflowKey::kArrival);
                                      });
SLOTFLOW_REGISTER_NETWORK_POLICY_WITH("scf", "shortest coflow first (largest flow)", "tcf",
                                      ClassSettings("8"), [](const PolicyArgs& a) {
                                        return Make(a, CoflowKey::kLength);
                                      });
SLOTFLOW_REGISTER_NETWORK_POLICY_WITH("ncf", "narrowest coflow first (fewest flows)", "tcf",
                                      ClassSettings("8"), [](const PolicyArgs& a) {
                                        return Make(a, CoflowKey::kWidth);
                                      });
SLOTFLOW_REGISTER_NETWORK_POLICY_WITH("tcf", "smallest total coflow first (total bytes)", "tcf",
                                      ClassSettings("8"), [](const PolicyArgs& a) {
                                        return Make(a, CoflowKey::kTotal);
                                      });
SLOTFLOW_REGISTER_NETWORK_POLICY_WITH("lcf",
                                      "lightest-bottleneck coflow first (most bytes on one link)",
                                      "tcf", ClassSettings("8"), [](const PolicyArgs& a) {
                                        return Make(a, CoflowKey::kBottleneck);
                                      });

}  // namespace slotflow
