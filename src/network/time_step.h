// TimeStep: the boundaries of a stepped network (rates.time_step): times k x step, k = 0, 1, ...
// computed by multiplication (not by repeated addition, so they do not drift) and compared
// exactly, so the times the network asks for are the times it recognises as boundaries.
#pragma once

#include <cmath>
#include <cstdint>

#include "api/units.h"

namespace slotflow {

class TimeStep {
 public:
  explicit TimeStep(Seconds step = 0) : step_(step) {}

  Seconds step() const { return step_; }
  bool stepped() const { return step_ > 0; }
  // The first boundary at or after t (t itself when exact).
  Seconds AtOrAfter(Seconds t) const {
    if (!stepped() || t >= kForever) return t;
    auto k = static_cast<int64_t>(std::floor(t / step_));
    while (Boundary(k) < t) ++k;
    while (k > 0 && Boundary(k - 1) >= t) --k;
    return Boundary(k);
  }
  // Whether t is a boundary (always when exact).
  bool IsBoundary(Seconds t) const { return !stepped() || AtOrAfter(t) == t; }

 private:
  Seconds Boundary(int64_t k) const { return static_cast<double>(k) * step_; }

  Seconds step_;
};

}  // namespace slotflow
