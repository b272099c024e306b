// The checking mode (`--check`): after every step of a run, verify what must always hold, and
// stop with a description of the first thing that does not. A failed check is a bug in
// slotflow, not in the input.
//  - No link or disk carries more than its capacity (within the solver's tolerance).
//  - No server has more slots held (a task holds its cpus) or memory promised than it has.
//  - Every flow that finished delivered its bytes no faster than its slowest link allows.
//  - No task starts before its inputs exist (its parent stages are done; checked by the life
//    cycle when the task is placed).
#pragma once

#include <span>

#include "api/cluster.h"
#include "api/flow_view.h"
#include "api/state.h"

namespace slotflow {

// Throws std::logic_error naming the time, the check and the link, server or flow.
void CheckInvariants(const Cluster& cluster, const SimState& state, const FlowView& flows,
                     std::span<const FlowId> finished);

}  // namespace slotflow
