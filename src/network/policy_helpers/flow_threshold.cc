#include "network/policy_helpers/flow_threshold.h"

#include <algorithm>
#include <cmath>

#include "api/tolerance.h"

namespace slotflow {

FlowThresholdPolicy::FlowThresholdPolicy(const PolicyArgs& args, Rank rank)
    : rank_(rank), queues_(args.settings.Queues("queues")) {
  // The same thresholds ThresholdClass uses (same products, so the same rounding).
  double threshold = args.settings.Number("first_threshold");
  const double multiplier = args.settings.Number("multiplier");
  for (int k = 0; k + 1 < queues_; ++k) {
    thresholds_.push_back(threshold);
    threshold *= multiplier;
  }
}

Bytes FlowThresholdPolicy::Quantity(const FlowView& net, FlowId f) const {
  return rank_ == Rank::kSent ? net.Sent(f) : net.Remaining(f);
}

FlowClass FlowThresholdPolicy::ClassOf(Bytes quantity) const {
  if (Unlimited()) return static_cast<FlowClass>(std::floor(std::max(0.0, quantity)));
  // Within the tolerance of a threshold counts as past it: sent bytes reach it from below,
  // remaining bytes from above.
  const double shade = rank_ == Rank::kSent ? 1 - kRelTolerance : 1 + kRelTolerance;
  for (size_t k = 0; k < thresholds_.size(); ++k) {
    if (quantity < thresholds_[k] * shade) return static_cast<FlowClass>(k);
  }
  return static_cast<FlowClass>(thresholds_.size());
}

void FlowThresholdPolicy::Watch(const FlowView& net, ClassSink& out, FlowId f, FlowClass cls) {
  const Bytes size = net.flow(f).spec.size;
  const auto k = static_cast<size_t>(cls);
  if (rank_ == Rank::kSent && k < thresholds_.size() && size > thresholds_[k]) {
    out.SetMark(f, thresholds_[k] * (1 - kRelTolerance));
  } else if (rank_ == Rank::kRemaining && k >= 1 && k <= thresholds_.size()) {
    // At the crossing itself; the solver finds a mark reached within its rounding tolerance.
    out.SetMark(f, size - thresholds_[k - 1]);
  } else {
    out.ClearMark(f);
  }
}

void FlowThresholdPolicy::OnFlowsStarted(const FlowView& net, ClassSink& out,
                                         std::span<const FlowId> flows) {
  for (FlowId f : flows) {
    if (!net.Active(f)) continue;  // already over (an empty flow)
    const FlowClass cls = ClassOf(Quantity(net, f));
    out.SetClass(f, cls);
    if (!Unlimited()) Watch(net, out, f, cls);
  }
}

void FlowThresholdPolicy::BeforeSolve(const FlowView& net, ClassSink& out) {
  if (Unlimited()) {
    for (FlowId f : net.active_flows()) out.SetClass(f, ClassOf(Quantity(net, f)));
    return;
  }
  reached_.clear();
  out.TakeMarked(reached_);
  for (FlowId f : reached_) {
    // At least one class on: the mark is reached (within rounding).
    const FlowClass now_in = ClassOf(Quantity(net, f));
    const FlowClass cls = rank_ == Rank::kSent ? std::max(now_in, FlowClass{net.Class(f) + 1})
                                               : std::min(now_in, FlowClass{net.Class(f) - 1});
    out.SetClass(f, cls);
    Watch(net, out, f, cls);
  }
}

Seconds FlowThresholdPolicy::NextReclassifyTime(const FlowView& net) {
  // Both crossings are exact events: LAS demotes the moment a flow's bytes sent reach a
  // threshold, SRPT promotes the moment its bytes left drop below one.
  if (Unlimited()) return kForever;
  const Seconds in = net.NextMarkIn();
  if (in == kForever) return kForever;
  // Always move forward, even if the gap is below what now + in can resolve: one tick of the
  // clock then carries the flow past its mark.
  return std::max(net.now() + in, std::nextafter(net.now(), kForever));
}

}  // namespace slotflow
