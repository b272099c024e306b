#include "network/network.h"

#include <algorithm>
#include <array>

namespace slotflow {

Network::Network(const Cluster& cluster, std::unique_ptr<NetworkPolicy> policy, const Clock& clock)
    : FlowNetwork(flows_, coflows_, active_),
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
  std::array<LinkId, 5> links{};
  size_t n = 0;
  if (spec.crosses_source_disk && cluster_.Disk(spec.src) >= 0)
    links[n++] = cluster_.Disk(spec.src);
  for (LinkId l : cluster_.Path(spec.src, spec.dst)) links[n++] = l;
  const PathId path = solver_.InternPath(std::span<const LinkId>(links.data(), n));
  solver_.Add(f, path, spec.size, 0);
  active_pos_.push_back(static_cast<int32_t>(active_.size()));
  active_.push_back(f);
  pending_.push_back(f);
  ++in_flows_[spec.dst];
  ++out_flows_[spec.src];
  return f;
}

Bytes Network::Remaining(FlowId f) const { return solver_.Active(f) ? solver_.Remaining(f) : 0; }

const Why ClassSink::kNoReason;

void Network::SetClass(FlowId f, FlowClass cls, const Why& why) {
  // A new flow's first class is logged with its start, not as a change.
  if (log_ != nullptr && f < first_unannounced_ && solver_.Class(f) != cls) {
    log_->Line(now(), "class")
        .Int("flow", f)
        .Int("task", flows_[f].spec.macroflow)
        .Int("from", solver_.Class(f))
        .Int("to", cls)
        .Reasons(why);
  }
  solver_.SetClass(f, cls);
}
void Network::SetExplicitRate(FlowId f, BytesPerSecond rate) { solver_.SetExplicitRate(f, rate); }

void Network::SetSlotMode(SlotMode mode) {
  if (mode == slot_mode_) return;
  slot_mode_ = mode;
  if (log_ != nullptr) {
    log_->Line(now(), "mode").Text("mode", mode == SlotMode::kInsufficient ? "insufficient"
                                                                            : "sufficient");
  }
  policy_->OnSlotMode(*this, *this, mode);
  policy_pass_needed_ = true;
}

Seconds Network::NextEventTime() const {
  return std::min(fluid_at_ + solver_.NextCompletionIn(), reclassify_at_);
}

void Network::AdvanceTo(Seconds t, std::vector<FlowId>& completed) {
  // When t is the next completion, advance by exactly that interval so the finishing flow
  // reaches zero even where fluid_at_ + dt rounds back to fluid_at_.
  const Seconds to_completion = solver_.NextCompletionIn();
  solver_.Advance(fluid_at_ + to_completion <= t ? to_completion : t - fluid_at_);
  fluid_at_ = std::max(fluid_at_, t);
  finished_scratch_.clear();
  solver_.PopCompleted(finished_scratch_);
  for (FlowId f : finished_scratch_) {
    flows_[f].finish = fluid_at_;
    const int32_t pos = active_pos_[f];
    active_[pos] = active_.back();
    active_pos_[active_[pos]] = pos;
    active_.pop_back();
    active_pos_[f] = -1;
    --in_flows_[flows_[f].spec.dst];
    --out_flows_[flows_[f].spec.src];
    if (log_ != nullptr) {
      log_->Line(fluid_at_, "flow_end")
          .Int("flow", f)
          .Int("task", flows_[f].spec.macroflow)
          .Num("duration_s", fluid_at_ - flows_[f].start);
    }
  }
  if (!finished_scratch_.empty()) {
    policy_->OnFlowsFinished(*this, *this, finished_scratch_);
    policy_pass_needed_ = true;
  }
  if (fluid_at_ >= reclassify_at_) policy_pass_needed_ = true;
  completed.insert(completed.end(), finished_scratch_.begin(), finished_scratch_.end());
}

void Network::Resolve() {
  if (!pending_.empty()) {
    policy_->OnFlowsStarted(*this, *this, pending_);
    pending_.clear();
    policy_pass_needed_ = true;
  }
  if (!policy_pass_needed_ && !solver_.dirty()) return;
  if (policy_pass_needed_) policy_->BeforeSolve(*this, *this);
  policy_pass_needed_ = false;
  solver_.Solve();
  reclassify_at_ = policy_->NextReclassifyTime(*this);
  if (log_ != nullptr) AnnounceNewFlows();
}

void Network::AnnounceNewFlows() {
  for (; first_unannounced_ < static_cast<FlowId>(flows_.size()); ++first_unannounced_) {
    const FlowId f = first_unannounced_;
    const FlowSpec& fs = flows_[f].spec;
    log_->Line(now(), "flow_start")
        .Int("flow", f)
        .Int("task", fs.macroflow)
        .Int("job", fs.job)
        .Int("coflow", fs.coflow)
        .Int("src", fs.src)
        .Int("dst", fs.dst)
        .Num("bytes", fs.size)
        .Int("class", solver_.Class(f))
        .Num("rate", solver_.Rate(f));
  }
}

}  // namespace slotflow
