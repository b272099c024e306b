#include "rates/fill_links.h"

#include <algorithm>

namespace slotflow::rates {

void OpenLinks::OpenTouched(const std::vector<double>& residual) {
  open.assign(touched.begin(), touched.end());
  share.resize(open.size());
  for (size_t k = 0; k < open.size(); ++k) {
    const LinkId l = open[k];
    pos[l] = static_cast<int32_t>(k);
    share[k] = std::max(0.0, residual[l]) / static_cast<double>(weight[l]);
  }
}

}  // namespace slotflow::rates
