// How a command's outcome becomes the process's exit code: 0 when every job finished, 2 for
// bad input (including a run that stalled), 3 for an internal error.
#pragma once

#include <string>

#include "sim/simulator.h"

namespace slotflow {

inline constexpr int kExitInputError = 2;
inline constexpr int kExitInternalError = 3;

// 0 when every job of the run finished. A run that stalled is an input error (a cluster or
// workload on which no event can make progress): it is reported on stderr, after the run's
// outputs are written, under `label` (the entry of a comparison; empty for a single run).
int CheckFinished(const RunResult& r, const std::string& label);

}  // namespace slotflow
