// las — least attained service per flow (SPEC §7; L2DCT, Munir et al., "Minimizing flow
// completion times in data centers", INFOCOM 2013): the flow that has sent the fewest bytes so
// far goes first.
//  - Q limited queues (default 8): class = ThresholdClass(bytes sent), i.e. class k holds flows
//    that have sent [T·E^(k−1), T·E^k) with T = first_threshold, E = multiplier. A flow is
//    demoted the moment its sent bytes reach the next threshold (SPEC §3: an exact event, no
//    polling): after each solve NextReclassifyTime returns the earliest crossing,
//    now + (threshold − sent) / rate over the active flows (a flow at rate 0 never crosses), and
//    at that time BeforeSolve re-classes the flows that crossed. Rates are constant between
//    solves, so no flow can cross before that time and the re-class pass runs only when it is
//    due. Both scan only the flows that can still be demoted (size above the end of their
//    class), and skip unread those whose lower bound on the crossing time (gap / fastest link)
//    is already later than the best found: at most O(active flows) per call.
//    Sent bytes come from the fluid up to rounding, so a flow within a relative 1e-9 of a
//    threshold counts as having reached it.
//  - Unlimited queues: class = floor(bytes sent), recomputed at every event. This is only
//    approximate between events: the classes are frozen until the next start or finish, so a
//    flow that was behind keeps its priority even after it has overtaken others, and flows with
//    equal (floored) sent bytes on one path share one class and split the bandwidth max-min.
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

class LasPolicy : public NetworkPolicy {
 public:
  explicit LasPolicy(const NetworkPolicyConfig& config) : queues_(config.Queues()) {
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
      const Bytes sent = net.Sent(f);
      const FlowClass cls = ClassOf(sent);
      net.SetClass(f, cls);
      if (!Unlimited()) Watch(net, f, cls, sent);
    }
  }

  void OnFlowsFinished(Network& /*net*/, std::span<const FlowId> flows) override {
    for (FlowId f : flows) Unwatch(f);
  }

  void BeforeSolve(Network& net) override {
    if (Unlimited()) {
      for (FlowId f : net.active_flows()) net.SetClass(f, ClassOf(net.Sent(f)));
      return;
    }
    if (net.now() < due_) return;  // no flow has reached its next threshold yet
    // Only a watched flow whose bound has passed can have crossed. Backwards, as Watch may
    // remove the entry at i (swapping in one already visited).
    for (size_t i = watched_.size(); i-- > 0;) {
      if (watched_[i].bound > net.now()) continue;
      const FlowId f = watched_[i].flow;
      const Bytes sent = net.Sent(f);
      const FlowClass cls = std::max(net.Class(f), ClassOf(sent));
      net.SetClass(f, cls);
      Watch(net, f, cls, sent);
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
      const Bytes sent = net.Sent(w.flow);
      w.bound = Bound(now, w.threshold, sent);
      const BytesPerSecond rate = net.Rate(w.flow);
      if (rate > 0) soonest = std::min(soonest, now + std::max(0.0, w.threshold - sent) / rate);
    }
    if (soonest == kForever) return kForever;
    // Always move forward, even if the gap is below what now + dt can resolve.
    due_ = std::max(soonest, std::nextafter(now, kForever));
    return due_;
  }

 private:
  // A flow that can still be demoted: the threshold ending its class, and a time before which
  // it cannot reach it (no flow is faster than the fastest link), so most scans skip it unread.
  struct Watched {
    FlowId flow;
    Bytes threshold;
    Seconds bound;
  };

  bool Unlimited() const { return queues_ == NetworkPolicyConfig::kUnlimited; }

  FlowClass ClassOf(Bytes sent) const {
    if (Unlimited()) return static_cast<FlowClass>(std::floor(std::max(0.0, sent)));
    for (size_t k = 0; k < thresholds_.size(); ++k) {
      if (sent < thresholds_[k] * (1 - kRelTol)) return static_cast<FlowClass>(k);
    }
    return static_cast<FlowClass>(thresholds_.size());
  }

  Seconds Bound(Seconds now, Bytes threshold, Bytes sent) const {
    if (max_capacity_ <= 0) return -kForever;  // not known yet: always look
    return now + std::max(0.0, threshold * (1 - kRelTol) - sent) / max_capacity_ * kBoundShade;
  }

  // Watches f while it is in a class it can leave before it ends (size above the class's end).
  void Watch(const Network& net, FlowId f, FlowClass cls, Bytes sent) {
    const bool can_cross =
        static_cast<size_t>(cls) < thresholds_.size() && net.flow(f).spec.size > thresholds_[cls];
    if (!can_cross) {
      Unwatch(f);
      return;
    }
    if (static_cast<size_t>(f) >= position_.size()) position_.resize(f + 1, -1);
    if (position_[f] < 0) {
      position_[f] = static_cast<int32_t>(watched_.size());
      watched_.push_back({f, 0, 0});
    }
    Watched& w = watched_[position_[f]];
    w.threshold = thresholds_[cls];
    w.bound = Bound(net.now(), w.threshold, sent);
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
  std::vector<Watched> watched_;    // limited queues: the flows that can still be demoted
  std::vector<int32_t> position_;   // by flow id: index in watched_, -1 if not watched
  BytesPerSecond max_capacity_ = 0;
  Seconds due_ = kForever;  // the re-class time last handed to Network
};

}  // namespace

SLOTFLOW_REGISTER_NETWORK_POLICY("las",
                                 "per-flow least attained service (L2DCT): fewest bytes sent "
                                 "first, demoted at exponentially spaced thresholds",
                                 LasPolicy);

}  // namespace slotflow
