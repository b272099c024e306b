// Numerical tolerances shared by the fluid model.
// Policy API (src/api/): stable, see docs/plugins.md#the-policy-api.
#pragma once

namespace slotflow {

// Relative rounding slack of fluid byte counts and rates: a flow is done when its remaining
// bytes are within this fraction of its size, and two rates this close count as equal.
inline constexpr double kRelTolerance = 1e-9;

}  // namespace slotflow
