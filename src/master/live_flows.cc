#include "master/live_flows.h"

#include <algorithm>

namespace slotflow {

// A flow with no report for this long is taken to be moving no bytes (agents report only
// progress, every 0.1 s by default).
constexpr Seconds kStaleReport = 0.5;

LiveFlows::LiveFlows(const Cluster& cluster, std::unique_ptr<NetworkPolicy> policy,
                     std::function<Seconds()> clock)
    : FlowNetwork(flows_, coflows_, active_, finished_),
      cluster_(cluster),
      policy_(std::move(policy)),
      clock_(std::move(clock)),
      in_flows_(cluster.size(), 0),
      out_flows_(cluster.size(), 0) {}

CoflowId LiveFlows::AddCoflow(const Coflow& c) {
  coflows_.push_back(c);
  return static_cast<CoflowId>(coflows_.size() - 1);
}

FlowId LiveFlows::StartFlow(const FlowSpec& spec) {
  const auto f = static_cast<FlowId>(flows_.size());
  flows_.push_back(FlowRecord{spec, now(), -1});
  if (spec.src != spec.dst) network_bytes_ += spec.size;
  State& st = state_.emplace_back();
  st.active = true;
  st.reported_at = now();
  st.links = cluster_.Path(spec.src, spec.dst);
  active_.push_back(f);
  policy_.Started(f);
  ++in_flows_[spec.dst];
  ++out_flows_[spec.src];
  return f;
}

void LiveFlows::OnProgress(FlowId f, Bytes sent) {
  State& st = state_[f];
  if (!st.active) return;
  const Seconds t = now();
  if (t > st.reported_at) st.rate = std::max(0.0, sent - st.sent) / (t - st.reported_at);
  st.sent = std::max(st.sent, sent);
  st.reported_at = t;
  if (st.mark >= 0 && st.sent >= st.mark) {
    st.mark = -1;
    marked_.push_back(f);
    policy_.AskPass();
  }
}

void LiveFlows::OnFinished(FlowId f) {
  State& st = state_[f];
  if (!st.active) return;
  st.active = false;
  st.sent = flows_[f].spec.size;
  st.rate = 0;
  st.mark = -1;
  flows_[f].finish = now();
  active_.erase(std::find(active_.begin(), active_.end(), f));
  finished_.push_back(f);
  --in_flows_[flows_[f].spec.dst];
  --out_flows_[flows_[f].spec.src];
  policy_.LogEnded(*this, f, now());
  const FlowId ended[] = {f};
  policy_.Ended(*this, *this, ended);
}

void LiveFlows::Cancel(FlowId f) {
  if (!state_[f].active) return;
  OnFinished(f);
  state_[f].cancelled = true;
}

void LiveFlows::Resolve() {
  policy_.At(now());
  // No solver: the rates are measured, so a pass is all that follows a change.
  if (policy_.Pass(*this, *this)) policy_.Rearm(*this);
  policy_.AnnounceNewFlows(*this);
}

Bytes LiveFlows::Remaining(FlowId f) const {
  return state_[f].active ? std::max(0.0, flows_[f].spec.size - state_[f].sent) : 0;
}

BytesPerSecond LiveFlows::Rate(FlowId f) const {
  const State& st = state_[f];
  if (!st.active || now() - st.reported_at > kStaleReport) return 0;
  return st.rate;
}

BytesPerSecond LiveFlows::LinkLoad(LinkId l) const {
  BytesPerSecond load = 0;
  for (FlowId f : active_) {
    const auto& links = state_[f].links;
    if (std::find(links.begin(), links.end(), l) != links.end()) load += Rate(f);
  }
  return load;
}

Seconds LiveFlows::NextCompletionIn() const {
  Seconds in = kForever;
  for (FlowId f : active_) {
    const BytesPerSecond r = Rate(f);
    if (r > 0) in = std::min(in, Remaining(f) / r);
  }
  return in;
}

Seconds LiveFlows::NextMarkIn() const {
  Seconds in = kForever;
  for (FlowId f : active_) {
    const State& st = state_[f];
    const BytesPerSecond r = Rate(f);
    if (st.mark >= 0 && r > 0) in = std::min(in, std::max(0.0, st.mark - st.sent) / r);
  }
  return in;
}

void LiveFlows::SetClass(FlowId f, FlowClass cls, const Why& why) {
  policy_.LogClassChange(*this, f, state_[f].cls, cls, why);
  state_[f].cls = cls;
}

void LiveFlows::SetExplicitRate(FlowId /*f*/, BytesPerSecond /*rate*/) {}

void LiveFlows::SetMark(FlowId f, Bytes sent) {
  State& st = state_[f];
  st.mark = sent;
  if (st.active && st.sent >= sent) {
    st.mark = -1;
    marked_.push_back(f);
    policy_.AskPass();
  }
}

void LiveFlows::ClearMark(FlowId f) { state_[f].mark = -1; }

void LiveFlows::TakeMarked(std::vector<FlowId>& out) {
  std::sort(marked_.begin(), marked_.end());
  marked_.erase(std::unique(marked_.begin(), marked_.end()), marked_.end());
  for (FlowId f : marked_) {
    if (state_[f].active) out.push_back(f);
  }
  marked_.clear();
}

}  // namespace slotflow
