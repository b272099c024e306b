// LiveFlows: the FlowView and ClassSink a network policy is handed in live mode, built from the
// agents' reports instead of the fluid model. Bytes sent are measured (each flow's fetcher
// reports what it has received); a flow's rate is its bytes over the interval between its last
// two reports, and a link's load the sum of the rates of its flows; capacities are the
// cluster's. The classes the policy sets are recorded here; the master ranks them and has the
// flows' sockets marked. Explicit rates are recorded but not enforced.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "api/cluster.h"
#include "api/flow_view.h"
#include "api/network_policy.h"
#include "common/event_log.h"
#include "network/policy_driver.h"

namespace slotflow {

class LiveFlows final : public FlowNetwork, public ClassSink {
 public:
  // `clock` gives the time (seconds since the run started).
  LiveFlows(const Cluster& cluster, std::unique_ptr<NetworkPolicy> policy,
            std::function<Seconds()> clock);

  // --- FlowNetwork: the task life cycle starts flows and adds coflows ---
  FlowId StartFlow(const FlowSpec& spec) override;
  CoflowId AddCoflow(const Coflow& c) override;

  // The fetcher of flow f has received `sent` bytes so far.
  void OnProgress(FlowId f, Bytes sent);
  // Flow f has delivered all its bytes: the policy is told at once, as in the fluid model.
  void OnFinished(FlowId f);
  // Flow f will deliver nothing more (an end of it was lost): the policy is told it ended, and
  // Cancelled(f) says so.
  void Cancel(FlowId f);
  bool Cancelled(FlowId f) const { return state_[f].cancelled; }
  // As Network::Resolve (the same PolicyDriver): lets the policy classify new flows and re-rank
  // when something asked for it.
  void Resolve();
  void SetSlotMode(SlotMode mode) { policy_.SetSlotMode(*this, *this, mode); }
  // When the policy wants to re-rank next (absolute, kForever if never).
  Seconds reclassify_at() const { return policy_.reclassify_at(); }
  // Logs flow starts, ends, class changes and slot-mode switches, as the fluid Network does.
  void SetLog(EventLog* log) { policy_.SetLog(log); }

  // --- FlowView ---
  Seconds now() const override { return clock_(); }
  bool Active(FlowId f) const override { return state_[f].active; }
  Bytes Remaining(FlowId f) const override;
  BytesPerSecond Rate(FlowId f) const override;
  FlowClass Class(FlowId f) const override { return state_[f].cls; }
  std::span<const LinkId> Links(FlowId f) const override { return state_[f].links; }
  int IncomingFlows(ServerId s) const override { return in_flows_[s]; }
  int OutgoingFlows(ServerId s) const override { return out_flows_[s]; }
  SlotMode slot_mode() const override { return policy_.slot_mode(); }
  std::optional<FlowClass> ExpectedClass(const FlowSpec& spec) const override {
    return policy_.ExpectedClass(*this, spec);
  }
  int LinkCount() const override { return static_cast<int>(cluster_.link_capacities().size()); }
  BytesPerSecond LinkCapacity(LinkId l) const override { return cluster_.LinkCapacity(l); }
  BytesPerSecond LinkLoad(LinkId l) const override;
  Seconds NextCompletionIn() const override;
  Seconds NextMarkIn() const override;
  Bytes StartedNetworkBytes() const override { return network_bytes_; }

  // --- ClassSink ---
  using ClassSink::SetClass;
  void SetClass(FlowId f, FlowClass cls, const Why& why) override;
  void SetExplicitRate(FlowId f, BytesPerSecond rate) override;
  void SetMark(FlowId f, Bytes sent) override;
  void ClearMark(FlowId f) override;
  void TakeMarked(std::vector<FlowId>& out) override;

 private:
  struct State {
    bool active = false;
    FlowClass cls{0};
    Bytes sent = 0;
    BytesPerSecond rate = 0;  // over the last interval between reports
    Seconds reported_at = -1;
    Bytes mark = -1;  // none when < 0
    bool cancelled = false;
    std::vector<LinkId> links;
  };

  const Cluster& cluster_;
  PolicyDriver policy_;
  std::function<Seconds()> clock_;
  ChunkedRecords<FlowRecord> flows_;  // all kept: live runs are small
  Bytes network_bytes_ = 0;           // StartedNetworkBytes
  std::vector<Coflow> coflows_;
  std::vector<FlowId> active_;
  std::vector<FlowId> finished_;  // in the order they finished
  std::vector<State> state_;
  std::vector<FlowId> marked_;
  std::vector<int> in_flows_, out_flows_;
};

}  // namespace slotflow
