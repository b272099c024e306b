// PolicyDriver: how a flow network calls its network policy, the one order both the fluid
// Network (simulation) and LiveFlows (live mode) follow. New flows are held until the next
// pass; ended flows are told at once; a pass (OnFlowsStarted for the new flows, then
// BeforeSolve) runs when anything asked for one: new or ended flows, a slot-mode switch, a mark
// reached, or the policy's re-rank time. It also writes the network's lines of the decision
// log: flow starts (with their first class and rate), ends, class changes and mode switches.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "api/flow_view.h"
#include "api/network_policy.h"
#include "common/event_log.h"

namespace slotflow {

class PolicyDriver {
 public:
  explicit PolicyDriver(std::unique_ptr<NetworkPolicy> policy);
  ~PolicyDriver();

  void SetLog(EventLog* log) { log_ = log; }
  EventLog* log() const { return log_; }

  // A flow started; the policy classifies it at the next Pass().
  void Started(FlowId f) { pending_.push_back(f); }
  // Flows that ended now (finished or cancelled): the policy hears at once, and a pass follows.
  // A flow that ended before any pass saw it start is dropped unseen.
  void Ended(const FlowView& net, ClassSink& sink, std::span<const FlowId> flows);
  // Something the policy waits for happened (a mark it set was reached).
  void AskPass() { pass_needed_ = true; }
  // The time is `now`: a pass is due if the policy's re-rank time has come.
  void At(Seconds now) {
    if (now >= reclassify_at_) pass_needed_ = true;
  }
  // The task scheduler's slot mode; the policy hears of a switch at once.
  void SetSlotMode(const FlowView& net, ClassSink& sink, SlotMode mode);
  SlotMode slot_mode() const { return slot_mode_; }
  std::optional<FlowClass> ExpectedClass(const FlowView& net, const FlowSpec& spec) const {
    return policy_->ExpectedClass(net, spec);
  }

  // Tells the policy of the new flows, then lets it re-rank, if anything asked for a pass
  // since the last one. Returns whether it did (classes may have changed).
  bool Pass(const FlowView& net, ClassSink& sink);
  // Whether the next Pass() will call the policy (new flows, or something asked for one).
  bool wants_pass() const { return pass_needed_ || !pending_.empty(); }
  // Asks the policy when it wants its next pass (after rates are known).
  void Rearm(const FlowView& net) { reclassify_at_ = policy_->NextReclassifyTime(net); }
  Seconds reclassify_at() const { return reclassify_at_; }

  // Decision-log lines (each a no-op without a log). A class change of a flow already
  // announced; an ended flow; every flow not yet announced, with its class and rate now.
  void LogClassChange(const FlowView& net, FlowId f, FlowClass from, FlowClass to, const Why& why) {
    if (log_ != nullptr && f < first_unannounced_ && from != to) WriteClass(net, f, from, to, why);
  }
  void LogEnded(const FlowView& net, FlowId f, Seconds at);
  void AnnounceNewFlows(const FlowView& net);

 private:
  void WriteClass(const FlowView& net, FlowId f, FlowClass from, FlowClass to, const Why& why);

  std::unique_ptr<NetworkPolicy> policy_;
  std::vector<FlowId> pending_;  // started since the last pass, not yet seen by the policy
  Seconds reclassify_at_ = kForever;
  bool pass_needed_ = false;
  SlotMode slot_mode_ = SlotMode::kSufficient;
  EventLog* log_ = nullptr;
  FlowId first_unannounced_{0};  // flows from here on have not been logged as started
};

}  // namespace slotflow
