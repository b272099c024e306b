#include "network/policy_driver.h"

#include <algorithm>

namespace slotflow {

PolicyDriver::PolicyDriver(std::unique_ptr<NetworkPolicy> policy) : policy_(std::move(policy)) {}

PolicyDriver::~PolicyDriver() = default;

void PolicyDriver::Ended(const FlowView& net, ClassSink& sink, std::span<const FlowId> flows) {
  if (flows.empty()) return;
  if (!pending_.empty()) {
    // Live mode only: a flow can end before the pass after its start (the fluid model always
    // runs that pass first). The policy never saw it, so it does not hear of its end either.
    std::vector<FlowId> seen;
    for (FlowId f : flows) {
      if (std::find(pending_.begin(), pending_.end(), f) != pending_.end()) {
        std::erase(pending_, f);
      } else {
        seen.push_back(f);
      }
    }
    if (seen.empty()) return;
    policy_->OnFlowsFinished(net, sink, seen);
  } else {
    policy_->OnFlowsFinished(net, sink, flows);
  }
  pass_needed_ = true;
}

void PolicyDriver::SetSlotMode(const FlowView& net, ClassSink& sink, SlotMode mode) {
  if (mode == slot_mode_) return;
  slot_mode_ = mode;
  if (log_ != nullptr) {
    log_->Line(net.now(), "mode").Text("mode", mode == SlotMode::kInsufficient ? "insufficient"
                                                                                : "sufficient");
  }
  policy_->OnSlotMode(net, sink, mode);
  pass_needed_ = true;
}

bool PolicyDriver::Pass(const FlowView& net, ClassSink& sink) {
  if (!pending_.empty()) {
    policy_->OnFlowsStarted(net, sink, pending_);
    pending_.clear();
    pass_needed_ = true;
  }
  if (!pass_needed_) return false;
  // Cleared first: a mark the pass finds already reached asks for another.
  pass_needed_ = false;
  policy_->BeforeSolve(net, sink);
  return true;
}

void PolicyDriver::WriteClass(const FlowView& net, FlowId f, FlowClass from, FlowClass to,
                              const Why& why) {
  log_->Line(net.now(), "class")
      .Int("flow", f)
      .Int("task", net.flow(f).spec.macroflow)
      .Int("from", from)
      .Int("to", to)
      .Reasons(why);
}

void PolicyDriver::LogEnded(const FlowView& net, FlowId f, Seconds at) {
  if (log_ == nullptr) return;
  log_->Line(at, "flow_end")
      .Int("flow", f)
      .Int("task", net.flow(f).spec.macroflow)
      .Num("duration_s", at - net.flow(f).start);
}

void PolicyDriver::AnnounceNewFlows(const FlowView& net) {
  if (log_ == nullptr) return;
  for (; first_unannounced_ < net.FlowCount(); ++first_unannounced_) {
    const FlowId f = first_unannounced_;
    const FlowSpec& fs = net.flow(f).spec;
    log_->Line(net.now(), "flow_start")
        .Int("flow", f)
        .Int("task", fs.macroflow)
        .Int("job", fs.job)
        .Int("coflow", fs.coflow)
        .Int("src", fs.src)
        .Int("dst", fs.dst)
        .Num("bytes", fs.size)
        .Int("class", net.Class(f))
        .Num("rate", net.Rate(f));
  }
}

}  // namespace slotflow
