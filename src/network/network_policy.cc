#include "network/network_policy.h"

#include <cmath>

namespace slotflow {

FlowClass ThresholdClass(double key, const NetworkPolicyConfig& config) {
  if (config.queues <= 0) return static_cast<FlowClass>(std::floor(std::max(0.0, key)));
  double threshold = config.first_threshold;
  for (int k = 0; k < config.queues - 1; ++k) {
    if (key < threshold) return k;
    threshold *= config.multiplier;
  }
  return config.queues - 1;
}

}  // namespace slotflow
