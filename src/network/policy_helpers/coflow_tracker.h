// CoflowTracker: the active flows of each coflow and the bytes its finished flows delivered,
// kept incrementally from a policy's OnFlowsStarted/OnFlowsFinished. A flow without a coflow
// (a map input read) is tracked as a coflow of its own.
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "api/network_policy.h"

namespace slotflow {

class CoflowTracker {
 public:
  // A coflow's key: its CoflowId, or -(flow + 1) for a flow without a coflow.
  using Key = int64_t;
  struct Entry {
    std::vector<FlowId> active;
    Bytes finished_bytes = 0;
    Seconds first_start = kForever;
    Bytes started_bytes = 0;
    int started_flows = 0;
    Bytes largest_flow = 0;
  };

  static Key KeyOf(const FlowView& net, FlowId f) {
    const CoflowId c = net.flow(f).spec.coflow;
    return c >= 0 ? c : -(static_cast<Key>(f) + 1);
  }
  // The coflow of a key k >= 0, and the flow of a key without a coflow (k < 0).
  static CoflowId CoflowOfKey(Key k) { return CoflowId{static_cast<int32_t>(k)}; }
  static FlowId FlowOfKey(Key k) { return FlowId{static_cast<int32_t>(-k - 1)}; }

  void Started(const FlowView& net, std::span<const FlowId> flows);
  // Appends to `emptied` the keys of coflows left with no active flow. A real coflow keeps its
  // entry (more of its flows may start later); a single-flow pseudo-coflow is erased.
  void Finished(const FlowView& net, std::span<const FlowId> flows, std::vector<Key>& emptied);

  Entry& at(Key k) { return entries_.at(k); }
  const std::unordered_map<Key, Entry>& entries() const { return entries_; }
  // Bytes delivered so far: finished flows plus the sent part of active ones.
  Bytes Sent(const FlowView& net, Key k) const;
  BytesPerSecond Rate(const FlowView& net, Key k) const;

 private:
  std::unordered_map<Key, Entry> entries_;
  std::unordered_map<FlowId, uint32_t> position_;  // index of an active flow in its entry
};

}  // namespace slotflow
