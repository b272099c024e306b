// What a flow and a coflow are (Duopoly §4.1): the data a network policy ranks by.
// Policy API (src/api/): stable, see docs/plugins.md#the-policy-api.
#pragma once

#include <cstdint>

#include "api/ids.h"
#include "api/units.h"

namespace slotflow {

// A coflow = all flows into one stage of one job (Duopoly §4.1). Sizes are from the job's
// description, known when the job arrives.
struct Coflow {
  JobIndex job{-1};
  int stage = -1;
  Seconds arrival = 0;    // job submission
  Bytes total_bytes = 0;  // the stage's total shuffle bytes
  int64_t width = 0;      // number of (sender task, receiver task) pairs
  Bytes length = 0;       // largest single pair
};

struct FlowSpec {
  ServerId src = kNoServer;
  ServerId dst = kNoServer;
  Bytes size = 0;
  JobIndex job{-1};
  CoflowId coflow{-1};
  TaskId macroflow;           // the receiving task (all flows into one reduce task); none: -1
  Bytes macroflow_bytes = 0;  // that task's total input (its macroflow size, Duopoly §4.1)
  // It also crosses the source server's disk when disks are modelled: a block read, or an
  // output written to the task's own disk (src == dst).
  bool crosses_source_disk = false;
  // Seconds from its start until its bytes begin to move (the simulator's model of a task's
  // launch and a connection's set-up, ClusterSpec::task_launch_latency and flow_start_latency).
  // Until then it is in flight for every view (counted, classified) at rate 0.
  Seconds hold = 0;
};

struct FlowRecord {
  FlowSpec spec;
  Seconds start = 0;
  Seconds finish = -1;
};

// The task scheduler's view of the bottleneck (Duopoly §3): cans switches priorities on it.
enum class SlotMode { kSufficient, kInsufficient };

// What a network keeps of a flow after the step it finished in: nothing (memory follows the
// flows in flight), its id in FlowView::finished_flows(), or that and its records.
enum class FinishedFlows { kNone, kIds, kRecords };

}  // namespace slotflow
