// NeatDaemons: NEAT+'s per-node network daemons (NEAT+ §III, Fig. 4; §V-B). Each keeps the
// compressed state of its node's edge links (CompressedLinkState: its flows or coflows binned by
// size) and the node state (the smallest remaining size of a flow arriving there), and updates them
// as flows start and end at the node ("the number and sizes of the flows that start or end at the
// node", §III, step 2 of Fig. 4), rather than the placement rebuilding them from every active flow
// at every decision. The placement daemon asks them for predictions of a new transfer.
//
// Sync() applies the flows started and finished since the last call (new flow ids and
// FlowView::finished_flows, each looked at once) to the links' flow lists. When the placement
// daemon contacts a node (a query below), its daemon answers from its state as of now: a link whose
// bins are older than the current time is rebuilt from its own flows' remaining bytes (an end host
// knows its flows' progress). The node state the placement daemon picks preferred hosts by is its
// cache (NEAT+ §V-B2: "it caches the node state previously reported by the network daemons and uses
// the cached value as an estimate"), refreshed whenever a flow starts or ends there or its downlink
// is rebuilt. Under a coflow policy a coflow's flows on one link are binned as one transfer (NEAT+
// §V-B1's d and e).
//
// A decision costs the queried links' own flows (the candidates' downlinks and the sources'
// uplinks), not a pass over every active flow, and O(bins) per prediction.
// Policy API (src/api/): stable, see docs/plugins.md#the-policy-api.
#pragma once

#include <cstdint>
#include <limits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "api/cluster.h"
#include "api/flow_view.h"
#include "api/neat_policy.h"
#include "api/neat_predictor.h"
#include "api/units.h"

namespace slotflow {

class NeatDaemons {
 public:
  NeatDaemons(const Cluster& cluster, NeatPolicy policy);

  // Applies the flow starts and ends since the last call.
  void Sync(const FlowView& net);

  // The bins of s's uplink / downlink as of now (rebuilt if older).
  const CompressedLinkState& Up(const FlowView& net, ServerId s) { return Fresh(net, UpLink(s)); }
  const CompressedLinkState& Down(const FlowView& net, ServerId s) {
    return Fresh(net, DownLink(s));
  }
  // The cached node state: the smallest remaining bytes of a flow into s at the last start or
  // end there or the last rebuild of its downlink; +infinity when none arrived then.
  Bytes cached_min_remaining(ServerId s) const { return links_[DownLink(s)].min_remaining; }
  // Links rebuilt so far (for tests and statistics).
  int64_t rebuilds() const { return rebuilds_; }

 private:
  struct Link {
    std::vector<FlowId> flows;  // active flows crossing it, in no order
    CompressedLinkState bins;
    Bytes min_remaining = std::numeric_limits<Bytes>::infinity();
    Seconds built_at = -1;  // when the bins were last rebuilt
    bool dirty = false;     // listed in dirty_
  };
  static size_t UpLink(ServerId s) { return 2 * static_cast<size_t>(s); }
  static size_t DownLink(ServerId s) { return 2 * static_cast<size_t>(s) + 1; }
  void Touch(size_t link);
  const CompressedLinkState& Fresh(const FlowView& net, size_t link);
  void Rebuild(const FlowView& net, Link& link);

  NeatPolicy policy_;
  std::vector<Link> links_;
  // The flows on the links' lists: their index in each list, and their ends.
  struct Tracked {
    int32_t up_pos = -1, down_pos = -1;
    ServerId src = kNoServer, dst = kNoServer;
  };
  std::unordered_map<int32_t, Tracked> tracked_;  // by flow id; only looked up, never walked
  std::vector<size_t> dirty_;
  FlowId next_flow_{0};       // flows with lower ids have been seen
  size_t finished_seen_ = 0;  // entries of finished_flows() applied
  int64_t rebuilds_ = 0;
  std::vector<std::pair<int64_t, LinkTransfer>> scratch_;  // (coflow key, transfer)
};

}  // namespace slotflow
