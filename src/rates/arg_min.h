// The arg-min that finds each round's bottleneck in the water fill and the dense fill.
#pragma once

#include <cstddef>
#include <vector>

namespace slotflow::rates {

// Index of the first smallest element (v must not be empty).
size_t ArgMin(const std::vector<double>& v);

}  // namespace slotflow::rates
