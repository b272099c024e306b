#include "network/network_policy.h"

#include <algorithm>
#include <cmath>

namespace slotflow {

FlowClass ThresholdClass(double key, int queues, Bytes first_threshold, double multiplier) {
  if (queues == NetworkPolicyConfig::kUnlimited) {
    return static_cast<FlowClass>(std::floor(std::max(0.0, key)));
  }
  double threshold = first_threshold;
  for (int k = 0; k < queues - 1; ++k) {
    if (key < threshold) return k;
    threshold *= multiplier;
  }
  return queues - 1;
}

double NextThreshold(double key, int queues, Bytes first_threshold, double multiplier) {
  if (queues == NetworkPolicyConfig::kUnlimited) return kForever;
  double threshold = first_threshold;
  for (int k = 0; k < queues - 1; ++k) {
    if (key < threshold) return threshold;
    threshold *= multiplier;
  }
  return kForever;
}

}  // namespace slotflow
