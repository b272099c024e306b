// Seconds as a steady_clock duration, for live mode's timers.
#pragma once

#include <algorithm>
#include <chrono>

#include "api/units.h"

namespace slotflow {

// `s` seconds, at most a century: a timer set now plus it stays within the clock's 64-bit
// nanoseconds (about 292 years), where a larger double would overflow the conversion.
inline std::chrono::steady_clock::duration WallDuration(Seconds s) {
  constexpr Seconds kCentury = 100 * 365.25 * 86400;
  return std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(std::clamp(s, 0.0, kCentury)));
}

}  // namespace slotflow
