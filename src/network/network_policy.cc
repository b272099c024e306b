#include "network/network_policy.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace slotflow {

FlowClass ThresholdClass(double key, int queues, Bytes first_threshold, double multiplier) {
  if (queues == NetworkPolicyConfig::kUnlimited) {
    // The bit pattern of a non-negative double orders like the value itself, so every
    // distinct key, fractional or not, gets its own class in the right order.
    return std::bit_cast<FlowClass>(std::max(0.0, key));
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
