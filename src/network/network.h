// Network: the flows in flight on the cluster's links, their metadata (job, coflow, macroflow)
// and the network policy that ranks them. Rates come from the FluidSolver and change only at
// events: a flow starts or ends, a class changes, or the policy's re-rank time arrives.
#pragma once

#include <memory>
#include <vector>

#include "cluster/cluster.h"
#include "network/fluid_solver.h"
#include "network/network_policy.h"

namespace slotflow {

using CoflowId = int32_t;
using JobIndex = int32_t;

// A coflow = all flows into one stage of one job (SPEC §4). Sizes are from the job's
// description, known when the job arrives.
struct Coflow {
  JobIndex job = -1;
  int stage = -1;
  Seconds arrival = 0;    // job submission
  Bytes total_bytes = 0;  // the stage's total shuffle bytes
  int width = 0;          // number of (sender task, receiver task) pairs
  Bytes length = 0;       // largest single pair
};

struct FlowSpec {
  ServerId src = kNoServer;
  ServerId dst = kNoServer;
  Bytes size = 0;
  JobIndex job = -1;
  CoflowId coflow = -1;
  int32_t macroflow = -1;         // the receiving task (all flows into one reduce task)
  Bytes macroflow_bytes = 0;      // that task's total input (its macroflow size, SPEC §4)
  bool read_source_disk = false;  // a block read also crosses the source's disk when modelled
};

struct FlowRecord {
  FlowSpec spec;
  Seconds start = 0;
  Seconds finish = -1;
};

class Network {
 public:
  Network(const Cluster& cluster, std::unique_ptr<NetworkPolicy> policy);
  ~Network();

  // Starts a flow now; it gets a class and a rate at the next Resolve().
  FlowId StartFlow(const FlowSpec& spec);
  CoflowId AddCoflow(const Coflow& c);

  // Time of the next network event: a flow completion or a policy re-rank.
  Seconds NextEventTime() const;
  // Moves the fluid to time t (t <= NextEventTime()); appends the flows that completed.
  void AdvanceTo(Seconds t, std::vector<FlowId>& completed);
  // Lets the policy classify new flows / re-rank, then recomputes rates if anything changed.
  void Resolve();
  void SetSlotMode(SlotMode mode);

  // --- read access for policies and schedulers ---
  Seconds now() const { return now_; }
  const Cluster& cluster() const { return cluster_; }
  const FlowRecord& flow(FlowId f) const { return flows_[f]; }
  const Coflow& coflow(CoflowId c) const { return coflows_[c]; }
  int FlowCount() const { return static_cast<int>(flows_.size()); }
  const std::vector<FlowId>& active_flows() const { return active_; }
  bool Active(FlowId f) const { return solver_.Active(f); }
  Bytes Remaining(FlowId f) const;
  Bytes Sent(FlowId f) const { return flows_[f].spec.size - Remaining(f); }
  BytesPerSecond Rate(FlowId f) const { return solver_.Rate(f); }
  FlowClass Class(FlowId f) const { return solver_.Class(f); }
  // The links flow f crosses (empty for a transfer within one server).
  std::span<const LinkId> Links(FlowId f) const { return solver_.PathLinks(solver_.FlowPath(f)); }
  int IncomingFlows(ServerId s) const { return in_flows_[s]; }
  int OutgoingFlows(ServerId s) const { return out_flows_[s]; }
  const FluidSolver& solver() const { return solver_; }
  SlotMode slot_mode() const { return slot_mode_; }

  // --- write access for the policy ---
  void SetClass(FlowId f, FlowClass cls);
  void SetExplicitRate(FlowId f, BytesPerSecond rate);  // < 0 clears
  // Byte-count marks (see FluidSolver::SetMark): which flows have sent `sent` bytes.
  void SetMark(FlowId f, Bytes sent) { solver_.SetMark(f, sent); }
  void ClearMark(FlowId f) { solver_.ClearMark(f); }
  void TakeMarked(std::vector<FlowId>& out) { solver_.TakeMarked(out); }

 private:
  const Cluster& cluster_;
  std::unique_ptr<NetworkPolicy> policy_;
  FluidSolver solver_;
  std::vector<FlowRecord> flows_;
  std::vector<Coflow> coflows_;
  std::vector<FlowId> active_;
  std::vector<int32_t> active_pos_;  // position in active_, -1 when not active
  std::vector<FlowId> pending_;      // started since the last Resolve(), not yet seen by the policy
  std::vector<int> in_flows_, out_flows_;
  std::vector<FlowId> finished_scratch_;
  Seconds now_ = 0;
  Seconds reclassify_at_ = kForever;
  bool policy_pass_needed_ = false;
  SlotMode slot_mode_ = SlotMode::kSufficient;
};

}  // namespace slotflow
