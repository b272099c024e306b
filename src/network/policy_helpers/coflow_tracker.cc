#include "network/policy_helpers/coflow_tracker.h"

#include <algorithm>

namespace slotflow {

void CoflowTracker::Started(const FlowView& net, std::span<const FlowId> flows) {
  for (FlowId f : flows) {
    Entry& e = entries_[KeyOf(net, f)];
    position_[f] = static_cast<uint32_t>(e.active.size());
    e.active.push_back(f);
    const FlowRecord& r = net.flow(f);
    e.first_start = std::min(e.first_start, r.start);
    e.started_bytes += r.spec.size;
    ++e.started_flows;
    e.largest_flow = std::max(e.largest_flow, r.spec.size);
  }
}

void CoflowTracker::Finished(const FlowView& net, std::span<const FlowId> flows,
                             std::vector<Key>& emptied) {
  for (FlowId f : flows) {
    const Key k = KeyOf(net, f);
    Entry& e = entries_.at(k);
    const uint32_t pos = position_.at(f);
    e.active[pos] = e.active.back();
    position_[e.active[pos]] = pos;
    e.active.pop_back();
    position_.erase(f);
    e.finished_bytes += net.flow(f).spec.size;
    if (e.active.empty()) {
      emptied.push_back(k);
      if (k < 0) entries_.erase(k);
    }
  }
}

Bytes CoflowTracker::Sent(const FlowView& net, Key k) const {
  const Entry& e = entries_.at(k);
  Bytes sent = e.finished_bytes;
  for (FlowId f : e.active) sent += net.Sent(f);
  return sent;
}

BytesPerSecond CoflowTracker::Rate(const FlowView& net, Key k) const {
  BytesPerSecond rate = 0;
  for (FlowId f : entries_.at(k).active) rate += net.Rate(f);
  return rate;
}

}  // namespace slotflow
