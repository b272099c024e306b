#include "api/network_policy.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "api/class_key.h"

namespace slotflow {

SLOTFLOW_DEFINE_REGISTRY(NetworkPolicyRegistry);

NetworkPolicyTraits DeclareNetworkPolicy(std::string_view policy, std::string_view neat_predictor) {
  std::string known;
  for (NeatPolicy p : kAllNeatPolicies) {
    if (NeatPolicyName(p) == neat_predictor) return NetworkPolicyTraits{.neat_predictor = p};
    known += (known.empty() ? "" : ", ") + std::string(NeatPolicyName(p));
  }
  const std::string given =
      neat_predictor.empty() ? "no" : fmt::format("the unknown '{}'", neat_predictor);
  throw std::logic_error(fmt::format(
      "network policy '{}' is registered with {} NEAT+ predictor: name the one its rule is "
      "closest to (one of: {})",
      policy, given, known));
}

SettingSpec QueuesSetting(std::string_view default_queues) {
  return {.name = "queues",
          .kind = SettingKind::kQueues,
          .default_value = std::string(default_queues),
          .meaning =
              "priority classes (strict priority between them), or unlimited: every "
              "distinct key its own class"};
}

std::vector<SettingSpec> ClassSettings(std::string_view default_queues) {
  return {QueuesSetting(default_queues),
          {.name = "first_threshold",
           .kind = SettingKind::kBytes,
           .default_value = "10MiB",
           .meaning = "upper bound of the first class's keys (limited queues)",
           .min = 0,
           .min_exclusive = true},
          {.name = "multiplier",
           .kind = SettingKind::kNumber,
           .default_value = "10",
           .meaning = "factor between consecutive class thresholds (limited queues)",
           .min = 1,
           .min_exclusive = true}};
}

FlowClass ThresholdClass(double key, int queues, Bytes first_threshold, double multiplier) {
  static const ClassKeys sizes(1, ClassKeys::Key::kSize);
  if (queues == kUnlimitedQueues) return sizes.Size(0, std::max(0.0, key));
  double threshold = first_threshold;
  for (int k = 0; k < queues - 1; ++k) {
    if (key < threshold) return FlowClass{k};
    threshold *= multiplier;
  }
  return FlowClass{queues - 1};
}

double NextThreshold(double key, int queues, Bytes first_threshold, double multiplier) {
  if (queues == kUnlimitedQueues) return kForever;
  double threshold = first_threshold;
  for (int k = 0; k < queues - 1; ++k) {
    if (key < threshold) return threshold;
    threshold *= multiplier;
  }
  return kForever;
}

}  // namespace slotflow
