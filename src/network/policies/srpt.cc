// srpt — shortest remaining processing time per flow (SPEC §7; pFabric, Alizadeh et al.,
// SIGCOMM 2013, and PASE, Munir et al., SIGCOMM 2014): the flow with the fewest bytes left goes
// first. Classes are re-ranked at events (arrivals and completions), as issue 3 specifies for
// SRPT; unlike LAS and Aalo, a promotion never schedules an event of its own.
//  - Q limited queues (default 8): class = ThresholdClass(remaining bytes), i.e. class k holds
//    flows with [T·E^(k−1), T·E^k) bytes left (T = first_threshold, E = multiplier). At each
//    event BeforeSolve promotes the flows whose remaining bytes have dropped to the threshold
//    below their class since they were last ranked. After each solve the policy notes the
//    earliest moment any flow gets there, now + (remaining − lower threshold) / rate, so the
//    re-rank pass is skipped at events before that moment. Both scan only the flows above class 0,
//    and skip unread those whose lower bound on the crossing time (gap / fastest link) is
//    already later than the best found: at most O(active flows) per call.
//    A flow whose remaining bytes equal a threshold (within a relative 1e-9, as the fluid's
//    remaining bytes are exact only up to rounding) is already in the class below it.
//  - Unlimited queues: class = floor(remaining bytes), re-ranked at every event. Between events
//    the classes are frozen; flows with equal (floored) remaining bytes on one path share one
//    class and split the bandwidth max-min.
#include <algorithm>
#include <cmath>
#include <span>
#include <vector>

#include "network/network.h"
#include "network/network_policy.h"

namespace slotflow {
namespace {

constexpr double kRelTol = 1e-9;
// Lower bounds on crossing times are shaded by this much so that rounding never makes one late.
constexpr double kBoundShade = 1 - 1e-6;

class SrptPolicy : public NetworkPolicy {
 public:
  explicit SrptPolicy(const NetworkPolicyConfig& config) : queues_(config.Queues()) {
    // The same thresholds ThresholdClass uses (same products, so the same rounding).
    double threshold = config.first_threshold;
    for (int k = 0; k + 1 < queues_; ++k) {
      thresholds_.push_back(threshold);
      threshold *= config.multiplier;
    }
  }

  void OnFlowsStarted(Network& net, std::span<const FlowId> flows) override {
    for (FlowId f : flows) {
      if (!net.Active(f)) continue;  // already over (an empty flow)
      const Bytes remaining = net.Remaining(f);
      const FlowClass cls = ClassOf(remaining);
      net.SetClass(f, cls);
      if (!Unlimited()) Watch(net, f, cls, remaining);
    }
  }

  void OnFlowsFinished(Network& /*net*/, std::span<const FlowId> flows) override {
    for (FlowId f : flows) Unwatch(f);
  }

  void BeforeSolve(Network& net) override {
    if (Unlimited()) {
      for (FlowId f : net.active_flows()) net.SetClass(f, ClassOf(net.Remaining(f)));
      return;
    }
    // No flow has reached the threshold below it yet (shaded so rounding never skips one).
    if (net.now() < due_ * (1 - kRelTol)) return;
    // Only a watched flow whose bound has passed can have crossed. Backwards, as Watch may
    // remove the entry at i (swapping in one already visited).
    for (size_t i = watched_.size(); i-- > 0;) {
      if (watched_[i].bound > net.now()) continue;
      const FlowId f = watched_[i].flow;
      const Bytes remaining = net.Remaining(f);
      const FlowClass cls = std::min(net.Class(f), ClassOf(remaining));
      net.SetClass(f, cls);
      Watch(net, f, cls, remaining);
    }
  }

  Seconds NextReclassifyTime(const Network& net) override {
    due_ = kForever;
    if (Unlimited() || watched_.empty()) return kForever;
    if (max_capacity_ == 0) {
      for (LinkId l = 0; l < net.solver().LinkCount(); ++l) {
        max_capacity_ = std::max(max_capacity_, net.solver().LinkCapacity(l));
      }
    }
    const Seconds now = net.now();
    Seconds soonest = kForever;
    for (Watched& w : watched_) {
      if (w.bound >= soonest) continue;  // cannot beat the best found so far
      const Bytes remaining = net.Remaining(w.flow);
      w.bound = Bound(now, w.threshold, remaining);
      const BytesPerSecond rate = net.Rate(w.flow);
      if (rate > 0)
        soonest = std::min(soonest, now + std::max(0.0, remaining - w.threshold) / rate);
    }
    due_ = soonest;
    return kForever;  // promotions wait for the next arrival or completion
  }

 private:
  // A flow that can still be promoted: the threshold below its class, and a time before which
  // it cannot reach it (no flow is faster than the fastest link), so most scans skip it unread.
  struct Watched {
    FlowId flow;
    Bytes threshold;
    Seconds bound;
  };

  bool Unlimited() const { return queues_ == NetworkPolicyConfig::kUnlimited; }

  FlowClass ClassOf(Bytes remaining) const {
    if (Unlimited()) return static_cast<FlowClass>(std::floor(std::max(0.0, remaining)));
    for (size_t k = 0; k < thresholds_.size(); ++k) {
      if (remaining < thresholds_[k] * (1 + kRelTol)) return static_cast<FlowClass>(k);
    }
    return static_cast<FlowClass>(thresholds_.size());
  }

  Seconds Bound(Seconds now, Bytes threshold, Bytes remaining) const {
    if (max_capacity_ <= 0) return -kForever;  // not known yet: always look
    return now + std::max(0.0, remaining - threshold * (1 + kRelTol)) / max_capacity_ * kBoundShade;
  }

  // Watches f while it is above class 0 (it must reach the threshold below before it ends).
  void Watch(const Network& net, FlowId f, FlowClass cls, Bytes remaining) {
    if (cls <= 0) {
      Unwatch(f);
      return;
    }
    if (static_cast<size_t>(f) >= position_.size()) position_.resize(f + 1, -1);
    if (position_[f] < 0) {
      position_[f] = static_cast<int32_t>(watched_.size());
      watched_.push_back({f, 0, 0});
    }
    Watched& w = watched_[position_[f]];
    w.threshold = thresholds_[cls - 1];
    w.bound = Bound(net.now(), w.threshold, remaining);
  }

  void Unwatch(FlowId f) {
    if (static_cast<size_t>(f) >= position_.size() || position_[f] < 0) return;
    const int32_t pos = position_[f];
    watched_[pos] = watched_.back();
    position_[watched_[pos].flow] = pos;
    watched_.pop_back();
    position_[f] = -1;
  }

  const int queues_;
  std::vector<double> thresholds_;  // class k ends at thresholds_[k] (limited queues)
  std::vector<Watched> watched_;    // limited queues: the flows that can still be promoted
  std::vector<int32_t> position_;   // by flow id: index in watched_, -1 if not watched
  BytesPerSecond max_capacity_ = 0;
  Seconds due_ = kForever;  // no flow reaches the threshold below its class before this
};

}  // namespace

SLOTFLOW_REGISTER_NETWORK_POLICY("srpt",
                                 "per-flow shortest remaining first (pFabric/PASE), "
                                 "exponentially spaced classes re-ranked at each event",
                                 SrptPolicy);

}  // namespace slotflow
