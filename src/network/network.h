// Network: the flows in flight on the cluster's links, their metadata (job, coflow, macroflow)
// and the network policy that ranks them. Rates come from the FluidSolver and change only at
// events: a flow starts or ends, a class changes, the policy's re-rank time arrives, or a flow's
// hold (the modelled launch and connection latencies) ends.
//
// Stepped (SetTimeStep, rates.time_step > 0): rates change only at boundaries k x step, and
// everything the network does happens there. A flow started between boundaries waits (in flight
// for every view, no rate, outside the solver) until the next one; a class or explicit rate set between boundaries takes effect at the
// next one (Class() says the new class at once); the policy's passes, re-rank times and hold
// ends wait for a boundary too. A flow that reaches its size within a step has sent exactly its
// size and ends at the boundary after (its share of the rest of the step idles); a byte mark is
// found reached at the boundary after it is passed. So bytes are conserved, no link carries more
// than its capacity, and rates are solved at most once per step.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <queue>
#include <utility>
#include <vector>

#include "api/cluster.h"
#include "api/flow.h"
#include "api/flow_view.h"
#include "api/network_policy.h"
#include "common/event_log.h"
#include "engine/engine.h"
#include "network/policy_driver.h"
#include "network/time_step.h"
#include "rates/fluid_solver.h"

namespace slotflow {

// Network is the FlowView and ClassSink its policy is handed; the simulator drives it.
class Network final : public FlowNetwork, public ClassSink {
 public:
  // Reads the time from `clock` (the engine's); AdvanceTo moves the fluid to it.
  Network(const Cluster& cluster, std::unique_ptr<NetworkPolicy> policy, const Clock& clock);
  ~Network();

  // Starts a flow now; it gets a class and a rate at the next Resolve(). A flow with a hold
  // (FlowSpec::hold) is in flight at once but moves no bytes until the hold is over: the class
  // its policy gives it meanwhile is kept aside (and is what Class() says) and given to the
  // solver then.
  FlowId StartFlow(const FlowSpec& spec) override;
  CoflowId AddCoflow(const Coflow& c) override;

  // Time of the next network event: a flow completion, a policy re-rank or a hold's end.
  Seconds NextEventTime() const;
  // Moves the fluid to time t (the clock's time, t <= NextEventTime()); appends the flows
  // that completed.
  void AdvanceTo(Seconds t, std::vector<FlowId>& completed);
  // Lets the policy classify new flows / re-rank, then recomputes rates if anything changed.
  void Resolve();
  void SetSlotMode(SlotMode mode);
  // Rates change only at multiples of `step` (0: exact, the default); set before any flow.
  void SetTimeStep(Seconds step) { step_ = TimeStep(step); }
  // Logs flow starts (with their first class and rate) and ends, class changes with the
  // policy's reason, and slot-mode switches to `log` (none if null).
  void SetLog(EventLog* log) { policy_.SetLog(log); }
  // What is kept of finished flows (default: everything). Unless kRecords, a finished flow's
  // records are let go at the next AdvanceTo. Set before the first flow starts.
  void KeepFinished(FinishedFlows keep) { keep_finished_ = keep; }
  // How the rate allocator filled the classes so far (summary.json's rate_solver).
  FluidSolver::FillStats fill_stats() const { return solver_.fill_stats(); }

  // --- FlowView ---
  Seconds now() const override { return clock_.now(); }
  bool Active(FlowId f) const override { return solver_.Active(f) || f >= waiting_from_; }
  Bytes Remaining(FlowId f) const override;
  BytesPerSecond Rate(FlowId f) const override { return solver_.Rate(f); }
  FlowClass Class(FlowId f) const override {
    return held_.empty() && deferred_.empty() && f < waiting_from_ ? solver_.Class(f)
                                                                   : HeldOr(f).cls;
  }
  std::span<const LinkId> Links(FlowId f) const override {
    return solver_.PathLinks(Waiting(f) ? waiting_paths_[f - waiting_from_] : solver_.FlowPath(f));
  }
  int IncomingFlows(ServerId s) const override { return in_flows_[s]; }
  int OutgoingFlows(ServerId s) const override { return out_flows_[s]; }
  SlotMode slot_mode() const override { return policy_.slot_mode(); }
  std::optional<FlowClass> ExpectedClass(const FlowSpec& spec) const override {
    return policy_.ExpectedClass(*this, spec);
  }
  int LinkCount() const override { return solver_.LinkCount(); }
  BytesPerSecond LinkCapacity(LinkId l) const override { return solver_.LinkCapacity(l); }
  BytesPerSecond LinkLoad(LinkId l) const override { return solver_.LinkLoad(l); }
  Seconds NextCompletionIn() const override { return solver_.NextCompletionIn(); }
  Seconds NextMarkIn() const override { return solver_.NextMarkIn(); }
  Bytes StartedNetworkBytes() const override { return network_bytes_; }

  // --- ClassSink ---
  using ClassSink::SetClass;
  void SetClass(FlowId f, FlowClass cls, const Why& why) override;
  void SetExplicitRate(FlowId f, BytesPerSecond rate) override;
  void SetMark(FlowId f, Bytes sent) override { solver_.SetMark(f, sent); }
  void ClearMark(FlowId f) override { solver_.ClearMark(f); }
  void TakeMarked(std::vector<FlowId>& out) override { solver_.TakeMarked(out); }

  const Cluster& cluster() const { return cluster_; }
  // For tests and benchmarks of the network itself; policies never see it.
  const FluidSolver& solver() const { return solver_; }

 private:
  // What the policy asked for a held flow, given to the solver when its hold ends.
  struct Held {
    FlowClass cls{0};
    BytesPerSecond explicit_rate = -1;
  };
  // f's held or deferred state, or (for a flow neither) its class in the solver.
  Held HeldOr(FlowId f) const;
  // Ends the holds due by `t`.
  void ReleaseHolds(Seconds t);
  // Stepped: gives the solver the classes and rates set since the last boundary.
  void ApplyDeferred();
  // Stepped: whether f started since the last boundary and waits for the next (not in the
  // solver; a held flow is); and giving the waiting flows to the solver.
  bool Waiting(FlowId f) const { return f >= waiting_from_ && !solver_.Active(f); }
  void ReleaseWaiting();
  // Whether the network may change rates now: always when exact, at boundaries when stepped.
  bool AtBoundary() const { return step_.IsBoundary(clock_.now()); }

  const Cluster& cluster_;
  PolicyDriver policy_;
  FluidSolver solver_;
  ChunkedRecords<FlowRecord> flows_;
  std::vector<Coflow> coflows_;
  std::vector<FlowId> active_;
  std::vector<FlowId> finished_;  // in the order they finished (unless keep_finished_ is kNone)
  ChunkedRecords<int32_t> active_pos_;  // position in active_, -1 when not active
  std::vector<int> in_flows_, out_flows_;
  std::vector<FlowId> finished_scratch_;
  std::vector<FlowId> to_retire_;  // finished at the last AdvanceTo, let go at the next
  FinishedFlows keep_finished_ = FinishedFlows::kRecords;
  Bytes network_bytes_ = 0;
  const Clock& clock_;
  Seconds fluid_at_ = 0;  // the time up to which the fluid has been advanced
  std::map<FlowId, Held> held_;
  TimeStep step_;
  // Stepped: a class or explicit rate of a running flow set between boundaries, for the next.
  struct Deferred {
    std::optional<FlowClass> cls;
    std::optional<BytesPerSecond> explicit_rate;
  };
  std::map<FlowId, Deferred> deferred_;
  // Stepped: the flows from waiting_from_ on started after the last boundary (the held ones
  // among them are in the solver, the others wait with their paths here, by id - waiting_from_).
  // Exact, waiting_from_ is always FlowCount().
  FlowId waiting_from_{0};
  std::vector<PathId> waiting_paths_;
  // When each held flow's hold ends, earliest first (then by id).
  std::priority_queue<std::pair<Seconds, FlowId>, std::vector<std::pair<Seconds, FlowId>>,
                      std::greater<>>
      hold_ends_;
};

}  // namespace slotflow
