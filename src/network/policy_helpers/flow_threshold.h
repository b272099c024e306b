// FlowThresholdPolicy: what the per-flow size-based policies las and srpt share (NEAT+ §IV-A).
// Each ranks a flow by one quantity, bytes sent (LAS) or bytes left (SRPT), smaller first.
//  - Q limited queues (default 8): class = ThresholdClass(quantity): class k holds flows whose
//    quantity is in [T·E^(k−1), T·E^k) (T = first_threshold, E = multiplier). A flow changes
//    class when its bytes sent reach the mark where the quantity crosses the threshold at the
//    end of its class: LAS demotes at sent = T·E^k, SRPT promotes at sent = size − T·E^(k−1).
//    The solver's byte marks (FluidSolver::SetMark) find the flows that got there without
//    scanning the others. Both schedule the exact crossing moment as an event,
//    so results do not depend on which unrelated events happen to occur. The fluid's
//    byte counts are exact only up to rounding, so a quantity within kRelTolerance of a
//    threshold counts as past it. A flow's mark goes when it completes.
//  - Unlimited queues: class = floor(quantity), recomputed at every event. Between events the
//    classes are frozen; flows with equal (floored) quantities on one path share one class and
//    split the bandwidth max-min.
#pragma once

#include <span>
#include <vector>

#include "api/network_policy.h"

namespace slotflow {

class FlowThresholdPolicy : public NetworkPolicy {
 public:
  enum class Rank {
    kSent,       // LAS: fewest bytes sent first; classes only go down (demotion)
    kRemaining,  // SRPT: fewest bytes left first; classes only go up (promotion)
  };
  FlowThresholdPolicy(const PolicyArgs& args, Rank rank);

  void OnFlowsStarted(const FlowView& net, ClassSink& out, std::span<const FlowId> flows) override;
  void BeforeSolve(const FlowView& net, ClassSink& out) override;
  Seconds NextReclassifyTime(const FlowView& net) override;

 private:
  bool Unlimited() const { return queues_ == kUnlimitedQueues; }
  Bytes Quantity(const FlowView& net, FlowId f) const;
  FlowClass ClassOf(Bytes quantity) const;
  // Marks the bytes sent at which f leaves class cls, if it can before it ends.
  void Watch(const FlowView& net, ClassSink& out, FlowId f, FlowClass cls);

  const Rank rank_;
  const int queues_;
  std::vector<double> thresholds_;  // class k ends at thresholds_[k] (limited queues)
  std::vector<FlowId> reached_;
};

}  // namespace slotflow
