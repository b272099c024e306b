// The bottleneck search's arg-min. Kept out of line, as it was when the fills shared one
// translation unit: inlined into the dense fill it costs more instructions, not fewer.
#include "rates/arg_min.h"

#include <algorithm>

#include "api/units.h"

namespace slotflow::rates {

// A branch-free min pass (vectorizes), then a find.
size_t ArgMin(const std::vector<double>& v) {
  // Four independent accumulators hide the latency of each comparison.
  double m0 = kForever, m1 = kForever, m2 = kForever, m3 = kForever;
  const size_t n = v.size();
  size_t k = 0;
  for (; k + 4 <= n; k += 4) {
    m0 = v[k] < m0 ? v[k] : m0;
    m1 = v[k + 1] < m1 ? v[k + 1] : m1;
    m2 = v[k + 2] < m2 ? v[k + 2] : m2;
    m3 = v[k + 3] < m3 ? v[k + 3] : m3;
  }
  for (; k < n; ++k) m0 = v[k] < m0 ? v[k] : m0;
  m0 = m1 < m0 ? m1 : m0;
  m2 = m3 < m2 ? m3 : m2;
  const double m = m2 < m0 ? m2 : m0;
  return static_cast<size_t>(std::find(v.begin(), v.end(), m) - v.begin());
}

}  // namespace slotflow::rates
