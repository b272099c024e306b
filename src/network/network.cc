#include "network/network.h"

#include <algorithm>
#include <array>

namespace slotflow {

Network::Network(const Cluster& cluster, std::unique_ptr<NetworkPolicy> policy, const Clock& clock)
    : FlowNetwork(flows_, coflows_, active_, finished_),
      cluster_(cluster),
      policy_(std::move(policy)),
      solver_(cluster.link_capacities()),
      in_flows_(cluster.size(), 0),
      out_flows_(cluster.size(), 0),
      clock_(clock) {}

Network::~Network() = default;

CoflowId Network::AddCoflow(const Coflow& c) {
  coflows_.push_back(c);
  return static_cast<CoflowId>(coflows_.size() - 1);
}

FlowId Network::StartFlow(const FlowSpec& spec) {
  const FlowId f = static_cast<FlowId>(flows_.size());
  flows_.push_back(FlowRecord{spec, now(), -1});
  if (spec.src != spec.dst) network_bytes_ += spec.size;
  std::array<LinkId, 5> links{};
  size_t n = 0;
  if (spec.crosses_source_disk && cluster_.Disk(spec.src) >= 0)
    links[n++] = cluster_.Disk(spec.src);
  for (LinkId l : cluster_.Path(spec.src, spec.dst)) links[n++] = l;
  const PathId path = solver_.InternPath(std::span<const LinkId>(links.data(), n));
  // Stepped, a flow started between boundaries waits for the next one: given to the solver
  // then (its path kept here), or held in the solver further if its hold ends later.
  const bool waits = !AtBoundary();
  if (spec.hold > 0) {
    solver_.Add(f, path, spec.size, FluidSolver::kHeldClass);
    held_.emplace(f, Held{});
    hold_ends_.emplace(step_.AtOrAfter(now() + spec.hold), f);
  } else if (!waits) {
    solver_.Add(f, path, spec.size, FlowClass{0});
  }
  if (waits) {
    waiting_paths_.resize(static_cast<size_t>(f - waiting_from_) + 1, PathId{-1});
    if (spec.hold <= 0) waiting_paths_[f - waiting_from_] = path;
  } else {
    waiting_from_ = FlowId{f + 1};
  }
  active_pos_.push_back(static_cast<int32_t>(active_.size()));
  active_.push_back(f);
  policy_.Started(f);
  ++in_flows_[spec.dst];
  ++out_flows_[spec.src];
  return f;
}

Bytes Network::Remaining(FlowId f) const {
  if (Waiting(f)) return flows_[f].spec.size;
  if (!solver_.Active(f)) return 0;
  const Bytes at_boundary = solver_.Remaining(f);
  if (!step_.stepped()) return at_boundary;
  // Stepped, the fluid moves only at boundaries: what the flow has sent since, at its rate.
  return std::max(0.0, at_boundary - solver_.Rate(f) * (now() - fluid_at_));
}

const Why ClassSink::kNoReason;

void Network::SetClass(FlowId f, FlowClass cls, const Why& why) {
  // A new flow's first class is logged with its start, not as a change.
  policy_.LogClassChange(*this, f, Class(f), cls, why);
  if (auto it = held_.find(f); it != held_.end()) {
    it->second.cls = cls;
    return;
  }
  if (!AtBoundary()) {
    deferred_[f].cls = cls;
    return;
  }
  solver_.SetClass(f, cls);
}

void Network::SetExplicitRate(FlowId f, BytesPerSecond rate) {
  if (auto it = held_.find(f); it != held_.end()) {
    it->second.explicit_rate = rate;
    return;
  }
  if (!AtBoundary()) {
    deferred_[f].explicit_rate = rate;
    return;
  }
  solver_.SetExplicitRate(f, rate);
}

Network::Held Network::HeldOr(FlowId f) const {
  if (const auto it = held_.find(f); it != held_.end()) return it->second;
  if (const auto it = deferred_.find(f); it != deferred_.end() && it->second.cls) {
    return Held{*it->second.cls, -1};
  }
  return Held{Waiting(f) ? FlowClass{0} : solver_.Class(f), -1};
}

void Network::ReleaseWaiting() {
  for (size_t i = 0; i < waiting_paths_.size(); ++i) {
    if (waiting_paths_[i] < 0) continue;  // a held flow
    const FlowId f{waiting_from_ + static_cast<int32_t>(i)};
    solver_.Add(f, waiting_paths_[i], flows_[f].spec.size, FlowClass{0});
  }
  waiting_paths_.clear();
  waiting_from_ = FlowId{static_cast<int32_t>(flows_.size())};
}

void Network::ApplyDeferred() {
  for (const auto& [f, d] : deferred_) {
    if (!solver_.Active(f)) continue;  // ended at this boundary
    if (d.cls) solver_.SetClass(f, *d.cls);
    if (d.explicit_rate) solver_.SetExplicitRate(f, *d.explicit_rate);
  }
  deferred_.clear();
}

void Network::ReleaseHolds(Seconds t) {
  while (!hold_ends_.empty() && hold_ends_.top().first <= t) {
    const FlowId f = hold_ends_.top().second;
    hold_ends_.pop();
    const Held h = held_.at(f);
    held_.erase(f);
    if (!solver_.Active(f)) continue;  // a flow of no bytes ends at once
    solver_.SetClass(f, h.cls);
    if (h.explicit_rate >= 0) solver_.SetExplicitRate(f, h.explicit_rate);
  }
}

void Network::SetSlotMode(SlotMode mode) { policy_.SetSlotMode(*this, *this, mode); }

Seconds Network::NextEventTime() const {
  const Seconds hold_end = hold_ends_.empty() ? kForever : hold_ends_.top().first;
  const Seconds next =
      std::min({fluid_at_ + solver_.NextCompletionIn(), policy_.reclassify_at(), hold_end});
  if (!step_.stepped()) return next;
  // Stepped: whatever is due waits for the boundary at or after it.
  const bool waiting = !deferred_.empty() || policy_.wants_pass() || solver_.dirty() ||
                       !waiting_paths_.empty();
  return step_.AtOrAfter(waiting ? std::min(next, now()) : next);
}

void Network::AdvanceTo(Seconds t, std::vector<FlowId>& completed) {
  if (step_.stepped()) {
    if (!step_.IsBoundary(t)) return;  // between boundaries nothing moves
    // Past every completion and mark since the last boundary (FluidSolver::AdvancePast).
    if (t > fluid_at_) {
      solver_.AdvancePast(t - fluid_at_);
    } else {
      solver_.Advance(0);
    }
    // The flows that waited join now, before any retired flow lets a path they share go.
    ReleaseWaiting();
  } else {
    // When t is the next completion, advance by exactly that interval so the finishing flow
    // reaches zero even where fluid_at_ + dt rounds back to fluid_at_.
    const Seconds to_completion = solver_.NextCompletionIn();
    solver_.Advance(fluid_at_ + to_completion <= t ? to_completion : t - fluid_at_);
  }
  fluid_at_ = std::max(fluid_at_, t);
  // The flows that finished at the last step have been seen by everyone that reads them then.
  for (FlowId f : to_retire_) {
    flows_.Retire(f);
    active_pos_.Retire(f);
    solver_.Retire(f);
  }
  to_retire_.clear();
  finished_scratch_.clear();
  solver_.PopCompleted(finished_scratch_);
  if (!deferred_.empty()) ApplyDeferred();  // before the policy hears of the ends
  for (FlowId f : finished_scratch_) {
    flows_[f].finish = fluid_at_;
    const int32_t pos = active_pos_[f];
    active_[pos] = active_.back();
    active_pos_[active_[pos]] = pos;
    active_.pop_back();
    active_pos_[f] = -1;
    if (keep_finished_ != FinishedFlows::kNone) finished_.push_back(f);
    if (keep_finished_ != FinishedFlows::kRecords) to_retire_.push_back(f);
    --in_flows_[flows_[f].spec.dst];
    --out_flows_[flows_[f].spec.src];
    policy_.LogEnded(*this, f, fluid_at_);
  }
  policy_.Ended(*this, *this, finished_scratch_);
  ReleaseHolds(fluid_at_);
  policy_.At(fluid_at_);
  completed.insert(completed.end(), finished_scratch_.begin(), finished_scratch_.end());
}

void Network::Resolve() {
  if (!AtBoundary()) return;  // stepped: at the next boundary
  const bool passed = policy_.Pass(*this, *this);
  if (!passed && !solver_.dirty()) return;
  solver_.Solve();
  policy_.Rearm(*this);
  policy_.AnnounceNewFlows(*this);
}

}  // namespace slotflow
