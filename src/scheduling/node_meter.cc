#include "scheduling/node_meter.h"

#include <algorithm>

#include "api/cluster.h"
#include "api/flow_view.h"

namespace slotflow {

const std::vector<NodeMeter::Use>& NodeMeter::Read(const SimState& state) {
  const Cluster& cluster = state.cluster();
  const FlowView& flows = state.flows();
  const Seconds now = state.now();
  const size_t servers = static_cast<size_t>(cluster.size());
  if (!read_) {
    totals_.assign(servers, {});
    use_.assign(servers, {});
    read_ = true;
  }
  const Seconds dt = now - last_at_;
  if (dt <= 0) return use_;

  // Bytes each link carried since the last reading: what the flows open then have sent since,
  // and all that the flows started since have sent.
  carried_.assign(static_cast<size_t>(flows.LinkCount()), 0);
  auto add = [&](FlowId f, Bytes bytes) {
    if (bytes <= 0) return;
    for (LinkId l : flows.Links(f)) carried_[l] += bytes;
  };
  for (const auto& [f, sent] : open_) add(f, flows.Sent(f) - sent);
  const FlowId count{flows.FlowCount()};
  for (FlowId f = seen_; f < count; ++f) add(f, flows.Sent(f));
  open_.clear();
  for (FlowId f : flows.active_flows()) open_.emplace_back(f, flows.Sent(f));
  seen_ = count;

  auto share = [&](LinkId l) {
    if (l < 0) return 0.0;
    const BytesPerSecond cap = flows.LinkCapacity(l);
    return cap > 0 ? std::min(1.0, carried_[l] / (cap * dt)) : 0.0;
  };
  for (ServerId s{0}; s < cluster.size(); ++s) {
    const Server& sv = cluster.server(s);
    const SimState::BusyTotals now_totals = state.ServerBusyTotals(s);
    const SimState::BusyTotals& was = totals_[s];
    Use& u = use_[s];
    u.cpu = sv.slots > 0
                ? (now_totals.compute_slot_seconds - was.compute_slot_seconds) / (sv.slots * dt)
                : 0;
    u.memory = sv.memory > 0
                   ? (now_totals.memory_byte_seconds - was.memory_byte_seconds) / (sv.memory * dt)
                   : 0;
    u.disk = share(cluster.Disk(s));
    u.net = std::max(share(cluster.Uplink(s)), share(cluster.Downlink(s)));
    totals_[s] = now_totals;
  }
  last_at_ = now;
  return use_;
}

}  // namespace slotflow
