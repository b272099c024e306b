// The NEAT+ completion-time predictor (NEAT+ §IV): how long a new transfer placed on
// a link takes under the network's scheduling policy, from the transfers already on that link.
//
// The idea (NEAT+ §IV-A): count the bytes V_l that cross link l until the new transfer is done,
// and predict V_l / B_l. With B the link bandwidth, s0 the new flow's size, s_f the remaining
// bytes of each existing flow on the link (§IV-A1 to §IV-A3):
//   FCFS        (Σ s_f + s0) / B
//   Fair, LAS   (Σ min(s_f, s0) + s0) / B
//   SRPT        (Σ_{s_f ≤ s0} s_f + s0) / B
// and for coflow policies (NEAT+ §IV-B), with s_c a coflow's total size, s_{c,l} its bytes on l,
// s_c0 / s_{c0,l} those of the new coflow:
//   FCFS        (Σ_{a_c ≤ a_c0} s_{c,l} + s_{c0,l}) / B, a_c the coflow's arrival (ours: NEAT+
//               writes Σ s_{c,l}, the case where c0 arrives last; a reduce task placed after
//               later coflows started belongs to an earlier coflow, which those wait behind)
//   Fair, LAS   (Σ min(s_c, s_c0) · s_{c,l} / s_c + s_{c0,l}) / B
//   TCF         (Σ_{s_c ≤ s_c0} s_{c,l} + s_{c0,l}) / B
// A path's prediction is the maximum over its links; NEAT+ only looks at the edge links (sender
// uplink, receiver downlink) and assumes an uncongested core (NEAT+ §III).
//
// Every term above is a sum over existing transfers of a quantity that is linear in s_{c,l},
// so one coflow may be given as several parts (say one per flow) with the same s_c: the result
// is the same as for the aggregated coflow. EdgeLoads below relies on that to build the
// per-link terms in one pass over the active flows.
//
// CompressedLinkState is NEAT+'s compressed flow state (§V-B1): per link, transfers binned by
// size into exponentially growing bins, each keeping (min, max, count, bytes) and the coflow
// loads d = Σ s_{c,l}, e = Σ s_{c,l}/s_c; predictions come from the bins alone.
// Policy API (src/api/): stable, see docs/plugins.md#the-policy-api.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "api/cluster.h"
#include "api/flow_view.h"
#include "api/neat_policy.h"
#include "api/units.h"

namespace slotflow {

bool IsCoflowPolicy(NeatPolicy policy);

// A transfer on one link. For flow policies a flow: size = its remaining bytes s_f, and
// on_link = size. For coflow policies (part of) a coflow: size = its total size s_c and
// on_link = the bytes s_{c,l} it still has on this link; under coflow FCFS size is the
// coflow's arrival time instead (a coflow-less flow's start), the order it is served in. The
// new transfer is given the same way (s0, or s_c0 and s_{c0,l}).
struct LinkTransfer {
  Bytes size = 0;
  Bytes on_link = 0;
};

// The bytes `existing` sends over the link before a new transfer of size `new_size` is done,
// under `policy`: the summand of the formulas above.
Bytes InterferingBytes(NeatPolicy policy, const LinkTransfer& existing, Bytes new_size);

// Predicted completion time of `added` on a link of `bandwidth` (bytes/s) already carrying
// `existing`: (Σ InterferingBytes + added.on_link) / bandwidth. 0 when added.on_link is 0.
Seconds PredictOnLink(NeatPolicy policy, BytesPerSecond bandwidth,
                      std::span<const LinkTransfer> existing, const LinkTransfer& added);

// The objective NEAT+ minimises (§IV, objective (2)): on each link, the new transfer's predicted
// completion plus the increase it causes to every transfer already there, maximised over the
// path's links. The increase, as bytes (Δ·B), of one existing transfer (eqs. (5), (8), (12),
// (15), (17)):
//   FCFS        0                                   (flows: the new one waits behind everyone)
//               1{a_c > a_c0} · s_{c0,l}            (coflows: those that arrived after c0)
//   Fair, LAS   min(s_f, s0)                        (flows: each side's share of the other)
//               min(s_c, s_c0) · s_{c0,l} / s_c0    (coflows: c0 progresses in proportion)
//   SRPT, TCF   1{s > s0} · s_{c0,l}                (only larger transfers wait for the new one)
// Unlike InterferingBytes this is not linear in an existing coflow's bytes on the link: a
// coflow must be given whole (one LinkTransfer per coflow), not in parts.
Bytes DelayedBytes(NeatPolicy policy, const LinkTransfer& existing, const LinkTransfer& added);
// (own + Σ Δ) on one link, in seconds: the summand of objective (2). 0 when added.on_link is 0.
Seconds ObjectiveOnLink(NeatPolicy policy, BytesPerSecond bandwidth,
                        std::span<const LinkTransfer> existing, const LinkTransfer& added);
// One link of a path, for PredictOnPath.
struct LinkView {
  BytesPerSecond bandwidth = 0;
  std::span<const LinkTransfer> existing;
  Bytes added_on_link = 0;  // s_{c0,l}: the new transfer's bytes on this link
};

// Path prediction = max over the links of PredictOnLink with the new transfer of total size
// `new_size` (NEAT+ §IV-A: the maximum of V_l / B_l). 0 for an empty path (a local transfer).
Seconds PredictOnPath(NeatPolicy policy, std::span<const LinkView> links, Bytes new_size);
// Objective (2) for a path: the maximum of ObjectiveOnLink over its links, the new transfer
// having total size `new_size`.
Seconds ObjectiveOnPath(NeatPolicy policy, std::span<const LinkView> links, Bytes new_size);

// NEAT+'s compressed per-link state (§V-B1). Bin 0 holds sizes below `first_bound`, bin n
// (1 ≤ n < bins−1) sizes in [first_bound·growth^(n−1), first_bound·growth^n), the last bin the
// rest. Each bin keeps the smallest and largest transfer (size and bytes on the link), the
// count, Σ size, Σ on_link (d) and Σ on_link/size (e). A prediction treats a bin whose sizes all
// lie on one side of the new size exactly; in a bin that straddles it, the smallest and largest
// transfers are exact and the others are taken as transfers of the bin's mean size (ours: the
// paper's bin formulas did not survive in the seed text). So a bin holding at most two
// transfers is always exact, and so is every prediction under flow FCFS. Under coflow FCFS the
// bins hold arrival times, all in bin 0 with the default bounds: the extremes and the mean.
class CompressedLinkState {
 public:
  struct Bin {
    int64_t count = 0;
    Bytes size_sum = 0;
    Bytes load = 0;         // d: Σ on_link
    double norm_load = 0;   // e: Σ on_link / size (a transfer of size 0 adds nothing)
    LinkTransfer smallest;  // the transfer with the smallest size (first seen on ties)
    LinkTransfer largest;   // the transfer with the largest size (first seen on ties)
  };

  static constexpr int kMaxBins = 64;
  // `bins` is clamped to 1..kMaxBins.
  explicit CompressedLinkState(Bytes first_bound = 1e4, double growth = 2, int bins = 40);

  void Clear();
  void Add(const LinkTransfer& t);
  int BinOf(Bytes size) const;
  const std::vector<Bin>& bins() const { return bins_; }
  int64_t count() const { return count_; }

  // The same quantities as the exact functions, computed from the bins.
  Bytes InterferingBytes(NeatPolicy policy, Bytes new_size) const;
  // Σ DelayedBytes(t, {new_size, 1}) over the binned transfers: the delay one new byte on the
  // link causes them (objective (2)). Each binned transfer counts once, so under a coflow policy
  // a coflow must be added whole.
  double DelayFactor(NeatPolicy policy, Bytes new_size) const;
  Seconds Predict(NeatPolicy policy, BytesPerSecond bandwidth, const LinkTransfer& added) const;

 private:
  std::vector<Bytes> upper_;  // exclusive upper bound of every bin but the last
  std::vector<Bin> bins_;
  uint64_t used_ = 0;  // bit n: bin n holds a transfer (only those are read and cleared)
  int64_t count_ = 0;
};

// How a network flow appears to the predictor: coflow policies see its coflow (size = the
// coflow's total bytes, as the coflow network policies rank it; a flow without a coflow, a block
// read, is a coflow of its own of its original size, as cans treats it), flow policies its
// remaining bytes. on_link = its remaining bytes.
LinkTransfer AsLinkTransfer(const FlowView& net, NeatPolicy policy, FlowId f);

class NeatDaemons;

// Per-server edge-link summaries for one query (a new transfer of size `new_size` under
// `policy`), either exact, built in one pass over the network's active flows (Compute), or from
// NEAT+'s daemons' compressed state (FromDaemons). For every server: its uplink's and
// downlink's Σ InterferingBytes, plus NEAT+'s node state (§V-A1): the smallest remaining size
// of the flows on its downlink. Only the sender's uplink and the receiver's downlink of each flow
// are looked at (NEAT+'s edge-only model). Compute is O(active flows + servers); FromDaemons
// O(1), each query then O(bins).
class EdgeLoads {
 public:
  // With `delays`, also what objective (2) needs: per edge link, the factor by which each new
  // byte on it delays the transfers already there (Σ DelayedBytes / s_{c0,l}), each coflow
  // counted once however many of its flows cross the link.
  void Compute(const Cluster& cluster, const FlowView& net, NeatPolicy policy, Bytes new_size,
               bool delays = false);
  // Compute for the uplinks of `ups` and the downlinks of `downs` only, each with the same
  // value Compute gives it; every other link reads as idle. The pass over the active flows
  // then reads only their ends, except for the flows crossing one of those links; the ends
  // (and each transfer read) are kept for the next call at the same instant while no flow
  // starts or ends.
  void ComputeFor(const Cluster& cluster, const FlowView& net, NeatPolicy policy, Bytes new_size,
                  bool delays, std::span<const ServerId> ups, std::span<const ServerId> downs);
  // The queries below answer from `daemons` (synced), which bring the links they read up to
  // date; the node state is the daemons' cache. Both must outlive the queries.
  void FromDaemons(const Cluster& cluster, const FlowView& net, NeatDaemons& daemons,
                   NeatPolicy policy, Bytes new_size);

  // Exact only (Compute):
  Bytes up(ServerId s) const { return up_[s]; }
  Bytes down(ServerId s) const { return down_[s]; }
  int down_flows(ServerId s) const { return down_flows_[s]; }

  // The node state: smallest remaining bytes of a flow into s; +infinity when there is none.
  Bytes down_min_remaining(ServerId s) const;
  // NEAT+ §V-A1: s is a preferred host for a task of `task_size` bytes if its downlink is idle
  // or every flow on it has at least that much left.
  bool Preferred(ServerId s, Bytes task_size) const { return down_min_remaining(s) >= task_size; }

  // Completion of `on_link` new bytes through s's uplink / downlink (0 when on_link is 0).
  Seconds PredictUp(ServerId s, Bytes on_link) const;
  Seconds PredictDown(ServerId s, Bytes on_link) const;
  // Objective (2) on s's uplink / downlink: the prediction plus the delay the new bytes cause
  // (needs Compute with delays, or FromDaemons).
  Seconds ObjectiveUp(ServerId s, Bytes on_link) const;
  Seconds ObjectiveDown(ServerId s, Bytes on_link) const;

 private:
  // Keys (server, direction, coflow) counted in this pass: open addressing, emptied in O(1)
  // by starting a new generation.
  class SeenKeys {
   public:
    void Clear();
    bool Insert(uint64_t key);  // false if already there

   private:
    void Grow();
    std::vector<uint64_t> keys_;
    std::vector<uint32_t> generation_;  // a slot holds a key of this pass if equal to now_
    uint32_t now_ = 0;
    size_t size_ = 0;
    int shift_ = 64;  // 64 - log2(capacity)
  };

  // A network flow as ComputeFor reads it: its ends, coflow and id, and its transfer once read.
  struct FlowEnds {
    ServerId src, dst;
    CoflowId coflow;
    FlowId f;
    bool read = false;
    LinkTransfer t;
  };
  // What ComputeFor's list of ends holds for.
  struct EndsKey {
    FlowView::Stamp flows;
    NeatPolicy policy;
    bool operator==(const EndsKey&) const = default;
  };

  void Reset(const Cluster& cluster, NeatPolicy policy, Bytes new_size, bool delays);
  // Adds the terms of flow f (transfer t, ends src and dst, coflow) to the uplink of its source
  // if `up` and the downlink of its destination if `down`.
  void AddTransfer(FlowId f, const LinkTransfer& t, ServerId src, ServerId dst, CoflowId coflow,
                   bool up, bool down, bool delays);
  void AddDelay(std::vector<double>& factor, ServerId s, int64_t key, const LinkTransfer& t,
                bool up);

  const Cluster* cluster_ = nullptr;
  NeatDaemons* daemons_ = nullptr;  // set: answer from the daemons
  const FlowView* net_ = nullptr;   // with daemons_
  NeatPolicy policy_ = NeatPolicy::kFair;
  Bytes new_size_ = 0;
  std::vector<Bytes> up_, down_, down_min_remaining_;
  std::vector<double> up_delay_, down_delay_;  // per new byte on the link
  std::vector<int> down_flows_;
  std::vector<char> want_up_, want_down_;  // ComputeFor's links (all 0 between passes)
  std::vector<FlowEnds> ends_;             // ComputeFor's network flows, in active order
  std::optional<EndsKey> ends_key_;
  SeenKeys seen_;
};

}  // namespace slotflow
