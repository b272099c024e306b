// Identifiers shared across layers: dense non-negative integers, -1 for "none".
#pragma once

#include <cstdint>

namespace slotflow {

using ServerId = int32_t;
using LinkId = int32_t;
using FlowId = int32_t;
using PathId = int32_t;
using FlowClass = int64_t;  // 0 = highest priority; any value, sparse classes are fine
using JobIndex = int32_t;
using CoflowId = int32_t;
using TaskId = int32_t;

inline constexpr ServerId kNoServer = -1;

}  // namespace slotflow
