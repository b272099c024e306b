// TCDS's task classes and locality waits (TCDS §2.1, Definitions 2-4, eqs. (1)-(3)): a task's
// length coefficient β = its input / the block size; very short if β < k1, short if
// k1 ≤ β < k2, long otherwise; its node-level and rack-level waits shrink as β grows.
#pragma once

#include "api/units.h"

namespace slotflow {

enum class TaskClass { kVeryShort, kShort, kLong };
const char* TaskClassName(TaskClass c);

struct TcdsParams {
  Bytes block_size = 64 * 1024 * 1024;  // F_b
  double k1 = 0.01, k2 = 0.5;
  Seconds tw1 = 5, tw2 = 5;  // TW_1 (node level), TW_2 (rack level)
  int l = 5;                 // eq. (2)'s divisor for very short tasks
};

// β = input / block size, clamped to [0, 1] (Definition 2 has 0 < β < 1; a task larger than a
// block is as long as the longest).
double LengthCoefficient(Bytes input, const TcdsParams& p);
// Eq. (1).
TaskClass ClassOf(double beta, const TcdsParams& p);

struct LevelWaits {
  Seconds node = 0, rack = 0;  // T_i1, T_i2
};
// Eq. (2) for very short tasks (node level 0, rack level TW_2·(1−β)/l); eq. (3) for the others
// (T_ij = TW_j·(1−β)).
LevelWaits WaitsOf(TaskClass c, double beta, const TcdsParams& p);

}  // namespace slotflow
