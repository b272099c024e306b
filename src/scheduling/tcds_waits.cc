#include "scheduling/tcds_waits.h"

#include <algorithm>

namespace slotflow {

const char* TaskClassName(TaskClass c) {
  switch (c) {
    case TaskClass::kVeryShort:
      return "very-short";
    case TaskClass::kShort:
      return "short";
    case TaskClass::kLong:
      break;
  }
  return "long";
}

double LengthCoefficient(Bytes input, const TcdsParams& p) {
  return std::clamp(input / p.block_size, 0.0, 1.0);  // Definition 2: β_i = F_i / F_b
}

TaskClass ClassOf(double beta, const TcdsParams& p) {
  if (beta < p.k1) return TaskClass::kVeryShort;  // eq. (1), 0 < β < k1
  if (beta < p.k2) return TaskClass::kShort;      // k1 ≤ β < k2
  return TaskClass::kLong;                        // k2 ≤ β < 1
}

LevelWaits WaitsOf(TaskClass c, double beta, const TcdsParams& p) {
  if (c == TaskClass::kVeryShort) return {0, p.tw2 * (1 - beta) / p.l};  // eq. (2)
  return {p.tw1 * (1 - beta), p.tw2 * (1 - beta)};                       // eq. (3)
}

}  // namespace slotflow
