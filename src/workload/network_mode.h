// Turns any workload into a network-only run, like the FB trace's pinned coflows: every task is
// pinned (tasks without a server get a seeded random one), root tasks read nothing and nothing
// computes, so completion times measure the network policy alone.
#pragma once

#include <cstdint>

#include "api/job.h"

namespace slotflow {

Workload PinForNetworkMode(Workload workload, int servers, uint64_t seed);

}  // namespace slotflow
