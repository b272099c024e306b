#include "api/neat_daemons.h"

#include <algorithm>
#include <limits>

namespace slotflow {

NeatDaemons::NeatDaemons(const Cluster& cluster, NeatPolicy policy)
    : policy_(policy), links_(2 * static_cast<size_t>(cluster.size())) {}

void NeatDaemons::Touch(size_t link) {
  if (links_[link].dirty) return;
  links_[link].dirty = true;
  dirty_.push_back(link);
}

void NeatDaemons::Sync(const FlowView& net) {
  const FlowId count{net.FlowCount()};
  // Started: ids not seen yet. A flow that started and finished since the last call is skipped
  // here (its record may be gone) and, not being tracked, when its end is read below.
  for (FlowId f = next_flow_; f < count; ++f) {
    if (!net.Active(f)) continue;
    const FlowSpec& spec = net.flow(f).spec;
    if (spec.src == spec.dst) continue;  // a local read crosses no edge link
    Link& up = links_[UpLink(spec.src)];
    Link& down = links_[DownLink(spec.dst)];
    tracked_.emplace(f, Tracked{.up_pos = static_cast<int32_t>(up.flows.size()),
                                .down_pos = static_cast<int32_t>(down.flows.size()),
                                .src = spec.src,
                                .dst = spec.dst});
    up.flows.push_back(f);
    down.flows.push_back(f);
    Touch(UpLink(spec.src));
    Touch(DownLink(spec.dst));
  }
  next_flow_ = count;
  // Finished: removed from both lists (swap with the last), from what was kept of it when it
  // started (the network need not keep a finished flow's record).
  const std::vector<FlowId>& finished = net.finished_flows();
  for (; finished_seen_ < finished.size(); ++finished_seen_) {
    const FlowId f = finished[finished_seen_];
    const auto it = tracked_.find(f);
    if (it == tracked_.end()) continue;
    const Tracked gone = it->second;
    tracked_.erase(it);
    auto remove = [&](size_t link, int32_t pos, int32_t Tracked::*pos_of) {
      std::vector<FlowId>& flows = links_[link].flows;
      const FlowId last = flows.back();
      flows[static_cast<size_t>(pos)] = last;
      if (last != f) tracked_.at(last).*pos_of = pos;
      flows.pop_back();
      Touch(link);
    };
    remove(UpLink(gone.src), gone.up_pos, &Tracked::up_pos);
    remove(DownLink(gone.dst), gone.down_pos, &Tracked::down_pos);
  }
  // The touched links' bins are rebuilt when next queried; a downlink's node state is
  // refreshed now (the placement daemon's cache follows every start and end at the node).
  for (size_t l : dirty_) {
    Link& link = links_[l];
    link.dirty = false;
    link.built_at = -1;
    if (l % 2 == 1) {
      link.min_remaining = std::numeric_limits<Bytes>::infinity();
      for (FlowId f : link.flows)
        link.min_remaining = std::min(link.min_remaining, net.Remaining(f));
    }
  }
  dirty_.clear();
}

const CompressedLinkState& NeatDaemons::Fresh(const FlowView& net, size_t link) {
  Link& l = links_[link];
  if (l.built_at != net.now()) Rebuild(net, l);
  return l.bins;
}

void NeatDaemons::Rebuild(const FlowView& net, Link& link) {
  link.built_at = net.now();
  ++rebuilds_;
  link.bins.Clear();
  link.min_remaining = std::numeric_limits<Bytes>::infinity();
  if (!IsCoflowPolicy(policy_)) {
    for (FlowId f : link.flows) {
      const LinkTransfer t = AsLinkTransfer(net, policy_, f);
      link.bins.Add(t);
      link.min_remaining = std::min(link.min_remaining, t.on_link);
    }
    return;
  }
  // A coflow's flows on the link are one transfer: its size, the sum of their remaining bytes.
  scratch_.clear();
  for (FlowId f : link.flows) {
    const LinkTransfer t = AsLinkTransfer(net, policy_, f);
    const int64_t coflow = net.flow(f).spec.coflow;
    scratch_.emplace_back(coflow >= 0 ? coflow : -1 - static_cast<int64_t>(f), t);
    link.min_remaining = std::min(link.min_remaining, t.on_link);
  }
  std::sort(scratch_.begin(), scratch_.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (size_t i = 0; i < scratch_.size();) {
    LinkTransfer whole = scratch_[i].second;
    size_t j = i + 1;
    for (; j < scratch_.size() && scratch_[j].first == scratch_[i].first; ++j) {
      whole.on_link += scratch_[j].second.on_link;
    }
    link.bins.Add(whole);
    i = j;
  }
}

}  // namespace slotflow
