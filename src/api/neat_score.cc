#include "api/neat_score.h"

#include <algorithm>

namespace slotflow {

void NeatScore::Begin(const SimState& state, TaskId t) {
  const TaskRuntime& task = state.task(t);
  local_.resize(static_cast<size_t>(state.cluster().size()), 0);
  new_size_ = FillSources(state, t);
  total_ = 0;
  for (const auto& [src, bytes] : sources_) {
    total_ += bytes;
    local_[src] += bytes;
  }
  if (task.root) {
    // Placed on any replica holder the read is local.
    for (ServerId r : task.replicas) local_[r] = total_;
  }
}

void NeatScore::UseExact(const SimState& state) {
  loads_.Compute(state.cluster(), state.flows(), policy_, new_size_, full_objective_);
  Uplinks();
}

void NeatScore::UseExactFor(const SimState& state, std::span<const ServerId> hosts) {
  source_ids_.clear();
  for (const auto& [src, bytes] : sources_) source_ids_.push_back(src);
  loads_.ComputeFor(state.cluster(), state.flows(), policy_, new_size_, full_objective_,
                    source_ids_, hosts);
  Uplinks();
}

void NeatScore::UseDaemons(const SimState& state, NeatDaemons& daemons) {
  loads_.FromDaemons(state.cluster(), state.flows(), daemons, policy_, new_size_);
  Uplinks();
}

void NeatScore::Uplinks() {
  up1_ = up2_ = 0;
  up1_src_ = kNoServer;
  for (const auto& [src, bytes] : sources_) {
    const Seconds u =
        full_objective_ ? loads_.ObjectiveUp(src, bytes) : loads_.PredictUp(src, bytes);
    if (up1_src_ == kNoServer || u > up1_) {
      up2_ = up1_;
      up1_ = u;
      up1_src_ = src;
    } else if (u > up2_) {
      up2_ = u;
    }
  }
}

Seconds NeatScore::Time(ServerId d) const {
  const Bytes incoming = std::max(0.0, total_ - local_[d]);
  if (!(incoming > 0)) return 0;
  const Seconds up = d == up1_src_ ? up2_ : up1_;
  return std::max(
      up, full_objective_ ? loads_.ObjectiveDown(d, incoming) : loads_.PredictDown(d, incoming));
}

void NeatScore::End(const SimState& state, TaskId t) {
  for (const auto& [src, bytes] : sources_) local_[src] = 0;
  for (ServerId r : state.task(t).replicas) local_[r] = 0;
}

// Fills sources_ with the task's input, bytes per source server; returns the new transfer's
// size as the policy ranks it (its coflow's under a coflow policy, its coflow's arrival under
// coflow FCFS).
Bytes NeatScore::FillSources(const SimState& state, TaskId t) {
  const FlowView& net = state.flows();
  const TaskRuntime& task = state.task(t);
  sources_.clear();
  if (task.root) {
    if (!task.replicas.empty()) {
      ServerId src = task.replicas.front();
      for (ServerId r : task.replicas) {
        if (net.OutgoingFlows(r) < net.OutgoingFlows(src)) src = r;
      }
      sources_.emplace_back(src, task.spec->input);
    }
    // A block read is a coflow of its own that starts now, after everything there.
    return policy_ == NeatPolicy::kCoflowFcfs ? state.now() : task.spec->input;
  }
  sources_ = state.InputSources(t);
  if (!IsCoflowPolicy(policy_)) return task.spec->input;
  const Coflow& coflow = net.coflow(state.job(task.job).stages[task.stage].coflow);
  return policy_ == NeatPolicy::kCoflowFcfs ? coflow.arrival : coflow.total_bytes;
}

}  // namespace slotflow
