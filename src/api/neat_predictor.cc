#include "api/neat_predictor.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <string>

#include "api/neat_daemons.h"

namespace slotflow {
namespace {

enum class Family { kAll, kShare, kThreshold };

// FCFS counts every byte ahead; Fair/LAS (flow or coflow) share until the new transfer is done;
// SRPT/TCF serve only what is not larger than the new transfer first, and so does coflow FCFS
// with arrival times for sizes (see LinkTransfer).
Family FamilyOf(NeatPolicy policy) {
  switch (policy) {
    case NeatPolicy::kFcfs:
      return Family::kAll;
    case NeatPolicy::kCoflowFcfs:
      return Family::kThreshold;
    case NeatPolicy::kFair:
    case NeatPolicy::kLas:
    case NeatPolicy::kCoflowFair:
    case NeatPolicy::kCoflowLas:
      return Family::kShare;
    case NeatPolicy::kSrpt:
    case NeatPolicy::kTcf:
      return Family::kThreshold;
  }
  return Family::kAll;
}

// on_link / size, the coflow's share of its bytes that sits on this link (e of NEAT+ §V-B1).
double Norm(const LinkTransfer& t) { return t.size > 0 ? t.on_link / t.size : 0; }

// Flow policies: on_link = size = s_f, so "size ≤ s0 ? on_link : on_link·s0/size" is
// min(s_f, s0) and the threshold rule is 1{s_f ≤ s0}·s_f: one formula serves both kinds.
Bytes Interfering(Family family, const LinkTransfer& t, Bytes new_size) {
  if (family == Family::kAll || t.size <= new_size) return t.on_link;
  if (family == Family::kShare) return t.on_link * (new_size / t.size);
  return 0;
}

}  // namespace

bool IsCoflowPolicy(NeatPolicy policy) {
  switch (policy) {
    case NeatPolicy::kCoflowFcfs:
    case NeatPolicy::kCoflowFair:
    case NeatPolicy::kCoflowLas:
    case NeatPolicy::kTcf:
      return true;
    default:
      return false;
  }
}

Bytes InterferingBytes(NeatPolicy policy, const LinkTransfer& existing, Bytes new_size) {
  return Interfering(FamilyOf(policy), existing, new_size);
}

Seconds PredictOnLink(NeatPolicy policy, BytesPerSecond bandwidth,
                      std::span<const LinkTransfer> existing, const LinkTransfer& added) {
  if (added.on_link <= 0) return 0;
  const Family family = FamilyOf(policy);
  Bytes v = added.on_link;
  for (const LinkTransfer& t : existing) v += Interfering(family, t, added.size);
  return v / bandwidth;
}

Bytes DelayedBytes(NeatPolicy policy, const LinkTransfer& existing, const LinkTransfer& added) {
  switch (FamilyOf(policy)) {
    case Family::kAll:
      return 0;  // eq. (3) and §IV-B1: FCFS never delays what came first
    case Family::kShare:
      // eq. (5); eq. (12) with assumption (ii): c0 sends min(s_c, s_c0) of its s_c0 bytes
      // while c is active, s_{c0,l}/s_c0 of them over this link.
      return added.size > 0 ? std::min(existing.size, added.size) * added.on_link / added.size : 0;
    case Family::kThreshold:
      return existing.size > added.size ? added.on_link : 0;  // eqs. (8), (15), (17)
  }
  return 0;
}

Seconds ObjectiveOnLink(NeatPolicy policy, BytesPerSecond bandwidth,
                        std::span<const LinkTransfer> existing, const LinkTransfer& added) {
  if (added.on_link <= 0) return 0;
  Bytes delayed = 0;
  for (const LinkTransfer& t : existing) delayed += DelayedBytes(policy, t, added);
  return PredictOnLink(policy, bandwidth, existing, added) + delayed / bandwidth;
}

namespace {

// The largest per_link(policy, bandwidth, existing, new transfer) over a path's links.
template <class PerLink>
Seconds WorstLink(NeatPolicy policy, std::span<const LinkView> links, Bytes new_size,
                  PerLink per_link) {
  Seconds worst = 0;
  for (const LinkView& l : links) {
    worst = std::max(
        worst, per_link(policy, l.bandwidth, l.existing, LinkTransfer{new_size, l.added_on_link}));
  }
  return worst;
}

}  // namespace

Seconds ObjectiveOnPath(NeatPolicy policy, std::span<const LinkView> links, Bytes new_size) {
  return WorstLink(policy, links, new_size, ObjectiveOnLink);
}

Seconds PredictOnPath(NeatPolicy policy, std::span<const LinkView> links, Bytes new_size) {
  return WorstLink(policy, links, new_size, PredictOnLink);
}

// ---------------------------------------------------------------------------------------------
// CompressedLinkState

CompressedLinkState::CompressedLinkState(Bytes first_bound, double growth, int bins)
    : bins_(static_cast<size_t>(std::clamp(bins, 1, kMaxBins))) {
  // upper_[n] is the exclusive upper bound of bin n; the last bin is open.
  Bytes bound = first_bound;
  for (size_t n = 0; n + 1 < bins_.size(); ++n, bound *= growth) upper_.push_back(bound);
}

void CompressedLinkState::Clear() {
  for (uint64_t used = used_; used != 0; used &= used - 1) bins_[std::countr_zero(used)] = Bin{};
  used_ = 0;
  count_ = 0;
}

int CompressedLinkState::BinOf(Bytes size) const {
  return static_cast<int>(std::upper_bound(upper_.begin(), upper_.end(), size) - upper_.begin());
}

void CompressedLinkState::Add(const LinkTransfer& t) {
  const int n = BinOf(t.size);
  used_ |= uint64_t{1} << n;
  Bin& b = bins_[n];
  if (b.count == 0 || t.size < b.smallest.size) b.smallest = t;
  if (b.count == 0 || t.size > b.largest.size) b.largest = t;
  ++b.count;
  b.size_sum += t.size;
  b.load += t.on_link;
  b.norm_load += Norm(t);
  ++count_;
}

Bytes CompressedLinkState::InterferingBytes(NeatPolicy policy, Bytes new_size) const {
  const Family family = FamilyOf(policy);
  Bytes v = 0;
  for (uint64_t used = used_; used != 0; used &= used - 1) {
    const Bin& b = bins_[std::countr_zero(used)];
    if (family == Family::kAll || b.largest.size <= new_size) {
      v += b.load;  // every transfer in the bin counts in full
    } else if (b.smallest.size > new_size) {
      // Every transfer in the bin is larger than the new one.
      if (family == Family::kShare) v += new_size * b.norm_load;
    } else {
      // The bin straddles new_size: its extremes exactly, the rest at the bin's mean size.
      v += Interfering(family, b.smallest, new_size) + Interfering(family, b.largest, new_size);
      const int64_t rest = b.count - 2;
      if (rest <= 0) continue;
      const Bytes rest_size = std::max(0.0, b.size_sum - b.smallest.size - b.largest.size);
      const Bytes rest_load = std::max(0.0, b.load - b.smallest.on_link - b.largest.on_link);
      const double rest_norm = std::max(0.0, b.norm_load - Norm(b.smallest) - Norm(b.largest));
      if (rest_size / static_cast<double>(rest) <= new_size) {
        v += rest_load;
      } else if (family == Family::kShare) {
        v += new_size * rest_norm;
      }
    }
  }
  return v;
}

double CompressedLinkState::DelayFactor(NeatPolicy policy, Bytes new_size) const {
  const Family family = FamilyOf(policy);
  if (family == Family::kAll || new_size <= 0) return 0;
  // One transfer's delay per new byte: Share min(size, s0)/s0, Threshold 1{size > s0}.
  auto one = [&](Bytes size) {
    if (family == Family::kShare) return std::min(size, new_size) / new_size;
    return size > new_size ? 1.0 : 0.0;
  };
  double v = 0;
  for (uint64_t used = used_; used != 0; used &= used - 1) {
    const Bin& b = bins_[std::countr_zero(used)];
    const auto count = static_cast<double>(b.count);
    if (b.largest.size <= new_size) {
      if (family == Family::kShare) v += b.size_sum / new_size;  // every size counts in full
    } else if (b.smallest.size > new_size) {
      v += count;  // every transfer is larger: 1 each, in both families
    } else {
      // The bin straddles new_size: its extremes exactly, the rest at the bin's mean size.
      v += one(b.smallest.size) + one(b.largest.size);
      const int64_t rest = b.count - 2;
      if (rest <= 0) continue;
      const Bytes rest_size = std::max(0.0, b.size_sum - b.smallest.size - b.largest.size);
      v += static_cast<double>(rest) * one(rest_size / static_cast<double>(rest));
    }
  }
  return v;
}

Seconds CompressedLinkState::Predict(NeatPolicy policy, BytesPerSecond bandwidth,
                                     const LinkTransfer& added) const {
  if (added.on_link <= 0) return 0;
  return (InterferingBytes(policy, added.size) + added.on_link) / bandwidth;
}

// ---------------------------------------------------------------------------------------------
// Network view

LinkTransfer AsLinkTransfer(const FlowView& net, NeatPolicy policy, FlowId f) {
  const Bytes remaining = net.Remaining(f);
  if (!IsCoflowPolicy(policy)) return LinkTransfer{remaining, remaining};
  const FlowSpec& spec = net.flow(f).spec;
  if (policy == NeatPolicy::kCoflowFcfs) {
    return LinkTransfer{spec.coflow >= 0 ? net.coflow(spec.coflow).arrival : net.flow(f).start,
                        remaining};
  }
  const Bytes size = spec.coflow >= 0 ? net.coflow(spec.coflow).total_bytes : spec.size;
  return LinkTransfer{size, remaining};
}

void EdgeLoads::Reset(const Cluster& cluster, NeatPolicy policy, Bytes new_size, bool delays) {
  cluster_ = &cluster;
  daemons_ = nullptr;
  policy_ = policy;
  new_size_ = new_size;
  const size_t n = static_cast<size_t>(cluster_->size());
  up_.assign(n, 0);
  down_.assign(n, 0);
  down_min_remaining_.assign(n, std::numeric_limits<Bytes>::infinity());
  down_flows_.assign(n, 0);
  up_delay_.assign(delays ? n : 0, 0);
  down_delay_.assign(delays ? n : 0, 0);
  seen_.Clear();
}

void EdgeLoads::AddTransfer(FlowId f, const LinkTransfer& t, ServerId src, ServerId dst,
                            CoflowId coflow, bool up, bool down, bool delays) {
  const Bytes b = Interfering(FamilyOf(policy_), t, new_size_);
  if (up) up_[src] += b;
  if (down) {
    down_[dst] += b;
    ++down_flows_[dst];
    down_min_remaining_[dst] = std::min(down_min_remaining_[dst], t.on_link);
  }
  if (!delays) return;
  // A flow policy delays each flow; a coflow policy each coflow once (a block read without a
  // coflow is one of its own).
  const int64_t key = IsCoflowPolicy(policy_) && coflow >= 0 ? coflow : -1 - f;
  if (up) AddDelay(up_delay_, src, key, t, true);
  if (down) AddDelay(down_delay_, dst, key, t, false);
}

void EdgeLoads::Compute(const Cluster& cluster, const FlowView& net, NeatPolicy policy,
                        Bytes new_size, bool delays) {
  Reset(cluster, policy, new_size, delays);
  for (FlowId f : net.active_flows()) {
    const FlowSpec& spec = net.flow(f).spec;
    if (spec.src == spec.dst) continue;  // a local read crosses no network link
    AddTransfer(f, AsLinkTransfer(net, policy, f), spec.src, spec.dst, spec.coflow, true, true,
                delays);
  }
}

// Each link's terms are summed in the order Compute sums them (that of the active flows), so
// the values are the same to the last bit.
void EdgeLoads::ComputeFor(const Cluster& cluster, const FlowView& net, NeatPolicy policy,
                           Bytes new_size, bool delays, std::span<const ServerId> ups,
                           std::span<const ServerId> downs) {
  Reset(cluster, policy, new_size, delays);
  const size_t n = static_cast<size_t>(cluster.size());
  want_up_.resize(n, 0);
  want_down_.resize(n, 0);
  for (ServerId s : ups) want_up_[s] = 1;
  for (ServerId s : downs) want_down_[s] = 1;
  // The network flows' ends, listed once per instant: a transfer is read when first wanted, and
  // is the same for the rest of the instant (bytes left move only with time). Flows that
  // started since, at the same instant, with none ended, are the tail of the active list
  // (FlowView::active_flows): only they are added.
  const EndsKey key{net.stamp(), policy};
  if (ends_key_ != key) {
    size_t from = 0;
    const FlowView::Stamp* was = ends_key_ ? &ends_key_->flows : nullptr;
    const FlowView::Stamp& now = key.flows;
    // Every flow started since is still active: none ended.
    if (was != nullptr && ends_key_->policy == policy && was->now == now.now &&
        now.flows_active ==
            was->flows_active + static_cast<size_t>(now.flows_started - was->flows_started)) {
      from = was->flows_active;
    } else {
      ends_.clear();
    }
    ends_key_ = key;
    const std::vector<FlowId>& active = net.active_flows();
    for (size_t i = from; i < active.size(); ++i) {
      const FlowSpec& spec = net.flow(active[i]).spec;
      if (spec.src == spec.dst) continue;
      ends_.push_back({spec.src, spec.dst, spec.coflow, active[i], false, LinkTransfer{}});
    }
  }
  for (FlowEnds& e : ends_) {
    const bool up = want_up_[e.src] != 0, down = want_down_[e.dst] != 0;
    if (!up && !down) continue;
    if (!e.read) {
      e.t = AsLinkTransfer(net, policy, e.f);
      e.read = true;
    }
    AddTransfer(e.f, e.t, e.src, e.dst, e.coflow, up, down, delays);
  }
  for (ServerId s : ups) want_up_[s] = 0;
  for (ServerId s : downs) want_down_[s] = 0;
}

void EdgeLoads::FromDaemons(const Cluster& cluster, const FlowView& net, NeatDaemons& daemons,
                            NeatPolicy policy, Bytes new_size) {
  cluster_ = &cluster;
  daemons_ = &daemons;
  net_ = &net;
  policy_ = policy;
  new_size_ = new_size;
}

Bytes EdgeLoads::down_min_remaining(ServerId s) const {
  return daemons_ ? daemons_->cached_min_remaining(s) : down_min_remaining_[s];
}

// DelayedBytes is linear in the new transfer's bytes on the link: one new byte delays `t` by
// DelayedBytes(t, {s0, 1}).
void EdgeLoads::AddDelay(std::vector<double>& factor, ServerId s, int64_t key,
                         const LinkTransfer& t, bool up) {
  // A key below 0 is one flow's own (a flow policy, or a flow outside any coflow): counted once
  // on each link without looking.
  const uint64_t id = (static_cast<uint64_t>(s) << 33) | (static_cast<uint64_t>(up) << 32) |
                      static_cast<uint32_t>(key);
  if (key >= 0 && !seen_.Insert(id)) return;
  factor[s] += DelayedBytes(policy_, t, LinkTransfer{new_size_, 1});
}

Seconds EdgeLoads::ObjectiveUp(ServerId s, Bytes on_link) const {
  if (on_link <= 0) return 0;
  const double factor =
      daemons_ ? daemons_->Up(*net_, s).DelayFactor(policy_, new_size_) : up_delay_[s];
  return PredictUp(s, on_link) + factor * on_link / cluster_->LinkCapacity(cluster_->Uplink(s));
}

Seconds EdgeLoads::ObjectiveDown(ServerId s, Bytes on_link) const {
  if (on_link <= 0) return 0;
  const double factor =
      daemons_ ? daemons_->Down(*net_, s).DelayFactor(policy_, new_size_) : down_delay_[s];
  return PredictDown(s, on_link) + factor * on_link / cluster_->LinkCapacity(cluster_->Downlink(s));
}

Seconds EdgeLoads::PredictUp(ServerId s, Bytes on_link) const {
  if (on_link <= 0) return 0;
  const Bytes existing =
      daemons_ ? daemons_->Up(*net_, s).InterferingBytes(policy_, new_size_) : up_[s];
  return (existing + on_link) / cluster_->LinkCapacity(cluster_->Uplink(s));
}

Seconds EdgeLoads::PredictDown(ServerId s, Bytes on_link) const {
  if (on_link <= 0) return 0;
  const Bytes existing =
      daemons_ ? daemons_->Down(*net_, s).InterferingBytes(policy_, new_size_) : down_[s];
  return (existing + on_link) / cluster_->LinkCapacity(cluster_->Downlink(s));
}

void EdgeLoads::SeenKeys::Clear() {
  size_ = 0;
  if (++now_ != 0) return;
  // The generation wrapped: slots marked with an old generation could read as current.
  std::fill(generation_.begin(), generation_.end(), 0);
  now_ = 1;
}

bool EdgeLoads::SeenKeys::Insert(uint64_t key) {
  if (2 * (size_ + 1) > keys_.size()) Grow();
  const size_t mask = keys_.size() - 1;
  // Fibonacci hashing: the product's top bits depend on every bit of the key.
  for (size_t i = (key * 0x9e3779b97f4a7c15ULL) >> shift_;; i = (i + 1) & mask) {
    if (generation_[i] != now_) {
      generation_[i] = now_;
      keys_[i] = key;
      ++size_;
      return true;
    }
    if (keys_[i] == key) return false;
  }
}

void EdgeLoads::SeenKeys::Grow() {
  std::vector<uint64_t> old_keys = std::move(keys_);
  std::vector<uint32_t> old_generation = std::move(generation_);
  const size_t capacity = std::max<size_t>(64, 2 * old_keys.size());
  keys_.assign(capacity, 0);
  shift_ = 64 - std::countr_zero(capacity);
  generation_.assign(capacity, 0);
  const uint32_t live = now_;
  now_ = 1;
  size_ = 0;
  for (size_t i = 0; i < old_keys.size(); ++i) {
    if (old_generation[i] == live) Insert(old_keys[i]);
  }
}

}  // namespace slotflow
