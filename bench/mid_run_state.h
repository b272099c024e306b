// A prepared mid-run state for benchmarks of one scheduling decision: N servers × 4 slots (1 Gbps
// big switch, fair network), tens of active jobs, half still mapping (some maps running, the
// rest ready) and half shuffling (maps done, some reduce tasks fetching, the rest ready), a few
// thousand active flows, and about a tenth of the slots free. A decision reads the state and
// changes only the scheduler's scratch space, so it can be asked again and again on one state.
#pragma once

#include <deque>
#include <memory>

#include "api/cluster.h"
#include "api/job.h"
#include "api/state.h"
#include "engine/engine.h"
#include "network/network.h"
#include "sim/lifecycle.h"

namespace slotflow {

struct Bench {
  explicit Bench(const ClusterSpec& spec);

  Cluster cluster;
  Engine engine;
  Network net;
  SimState state;
  TaskLifecycle life;
  std::deque<JobSpec> specs;  // stable addresses: tasks point into them
};

// The smallest job (L0 under SJF) is in its reduce stage if `l0_reducing`, else mapping.
std::unique_ptr<Bench> MakeBench(int servers, bool l0_reducing);

}  // namespace slotflow
