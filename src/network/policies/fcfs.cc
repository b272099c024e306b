// fcfs — first come, first served per flow (NEAT+ §IV-A1; the FCFS baseline of NEAT, Munir et al.,
// "Network scheduling aware task placement in datacenters", CoNEXT 2016, Fig. 1).
//
// Flows are ranked by start time, earlier first, ties by flow id. Network assigns flow ids in
// start order (StartFlow stamps the current time, which never goes back), so the rank order is
// simply the id order.
//  - Unlimited queues: every flow is its own class, class = its FlowId (a start-order rank that
//    never changes, so nothing is re-ranked when flows end).
//  - Q limited queues: the Q−1 oldest active flows get classes 0..Q−2 and all the others share
//    class Q−1 (max-min among themselves); when a flow ends the next oldest move up. Default Q =
//    8, as in Duopoly's set-up. Each start or finish costs O(log active + Q).
#include <set>
#include <span>

#include "api/network_policy.h"

namespace slotflow {
namespace {

class FcfsPolicy : public NetworkPolicy {
 public:
  explicit FcfsPolicy(const PolicyArgs& args) : queues_(args.settings.Queues("queues")) {}

  void OnFlowsStarted(const FlowView& net, ClassSink& out, std::span<const FlowId> flows) override {
    for (FlowId f : flows) {
      if (!net.Active(f)) continue;  // already over (an empty flow)
      if (queues_ == kUnlimitedQueues) {
        out.SetClass(f, FlowClass{static_cast<int32_t>(f)});  // arrival order: flow ids grow
      } else {
        active_.insert(f);
        out.SetClass(f, FlowClass{queues_ - 1});
      }
    }
    Rerank(out);
  }

  void OnFlowsFinished(const FlowView& /*net*/, ClassSink& out,
                       std::span<const FlowId> flows) override {
    if (queues_ == kUnlimitedQueues) return;
    for (FlowId f : flows) active_.erase(f);
    Rerank(out);
  }

 private:
  // The Q−1 oldest active flows get classes 0..Q−2; the rest keep Q−1 (they only ever move up).
  void Rerank(ClassSink& out) {
    if (queues_ == kUnlimitedQueues) return;
    FlowClass rank{0};
    for (auto it = active_.begin(); it != active_.end() && rank < queues_ - 1; ++it, ++rank) {
      out.SetClass(*it, rank);
    }
  }

  const int queues_;
  std::set<FlowId> active_;  // limited queues only: active flows in start (= id) order
};

}  // namespace

SLOTFLOW_REGISTER_NETWORK_POLICY("fcfs", "per-flow first come first served (by flow start)", "fcfs",
                                 {QueuesSetting("8")}, FcfsPolicy);

}  // namespace slotflow
