// OpenLinks: the links of one max-min fill, with the members not yet frozen on each and, for
// those that still have some, their fair share of the capacity left. The water fill and the
// dense fill each keep one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "api/ids.h"

namespace slotflow::rates {

struct OpenLinks {
  explicit OpenLinks(size_t links) : weight(links, 0), pos(links, -1) {}

  // Opens every touched link (each with weight > 0) at its share of residual.
  void OpenTouched(const std::vector<double>& residual);

  std::vector<int64_t> weight;  // per link: members not yet frozen (0 outside a fill)
  std::vector<LinkId> touched;  // the links the fill's groups cross
  std::vector<LinkId> open;     // the touched links that still carry unfrozen members
  std::vector<double> share;    // fair share of open[k], kept current
  std::vector<int32_t> pos;     // per link: its index in open, -1 if absent
};

}  // namespace slotflow::rates
