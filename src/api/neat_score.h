// NeatScore: what NEAT+ predicts for one task on each server (NEAT+ §IV–V): the predicted
// time of the task's input transfer under the network policy in force, on each non-local
// source's uplink and on the candidate's downlink (the core assumed uncongested, §III), as
// objective (2) (the prediction plus the delay it causes to the transfers already there) or
// the prediction alone; and whether a server is a preferred host (§V-A1). The neat scheduler
// places by it, and a Python scheduler's view answers `predict(t, s)` with it.
// Policy API (src/api/): stable, see docs/plugins.md#the-policy-api.
#pragma once

#include <span>
#include <utility>
#include <vector>

#include "api/neat_policy.h"
#include "api/neat_predictor.h"
#include "api/state.h"

namespace slotflow {

class NeatScore {
 public:
  NeatScore(NeatPolicy policy, bool full_objective)
      : policy_(policy), full_objective_(full_objective) {}

  // Starts the prediction of task t: where its input is (sources()), the bytes of it already on
  // each server, and the new transfer's size as the policy ranks it. A block read comes from the
  // replica holder the simulator will use (fewest outgoing flows, first on ties) and is, like
  // under the coflow network policies, a coflow of its own. End() must follow.
  void Begin(const SimState& state, TaskId t);
  // The edge loads the prediction reads: the exact state (one pass over the active flows), or
  // NEAT+'s daemons' compressed bins (synced, outliving the queries).
  void UseExact(const SimState& state);
  // UseExact for the downlinks of `hosts` only (and the sources' uplinks): Time and Preferred
  // may then be asked only of a server in `hosts`. Cheaper when they are few.
  void UseExactFor(const SimState& state, std::span<const ServerId> hosts);
  void UseDaemons(const SimState& state, NeatDaemons& daemons);
  // The task's predicted input time if it ran on d (0 when all its input is there).
  Seconds Time(ServerId d) const;
  // NEAT+ §V-A1, plus (ours, docs/readings.md) a server that would receive nothing over its
  // downlink: its downlink is idle or every flow on it has at least the task's bytes left.
  bool Preferred(ServerId d) const {
    return total_ - local_[d] <= 0 || loads_.Preferred(d, total_);
  }
  // Clears what Begin() kept per server.
  void End(const SimState& state, TaskId t);

  // The task's input, bytes per source server (by increasing id; one replica for a block read).
  const std::vector<std::pair<ServerId, Bytes>>& sources() const { return sources_; }
  NeatPolicy policy() const { return policy_; }

 private:
  Bytes FillSources(const SimState& state, TaskId t);
  void Uplinks();

  NeatPolicy policy_;
  bool full_objective_;
  Bytes new_size_ = 0;  // the new transfer as the policy ranks it
  Bytes total_ = 0;     // the task's input bytes
  // Uplink predictions per source; the two largest give "max over sources other than d".
  Seconds up1_ = 0, up2_ = 0;
  ServerId up1_src_ = kNoServer;
  EdgeLoads loads_;
  std::vector<std::pair<ServerId, Bytes>> sources_;
  std::vector<Bytes> local_;          // per server: the task's input bytes already there (scratch)
  std::vector<ServerId> source_ids_;  // the sources' servers (scratch)
};

}  // namespace slotflow
