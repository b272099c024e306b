#include "api/neat_policy.h"

#include <string>

#include "api/network_policy.h"

namespace slotflow {

std::string_view NeatPolicyName(NeatPolicy policy) {
  switch (policy) {
    case NeatPolicy::kFcfs:
      return "fcfs";
    case NeatPolicy::kFair:
      return "fair";
    case NeatPolicy::kLas:
      return "las";
    case NeatPolicy::kSrpt:
      return "srpt";
    case NeatPolicy::kCoflowFcfs:
      return "coflow-fcfs";
    case NeatPolicy::kCoflowFair:
      return "coflow-fair";
    case NeatPolicy::kCoflowLas:
      return "coflow-las";
    case NeatPolicy::kTcf:
      return "tcf";
  }
  return "?";
}

NeatPolicy NeatPolicyForNetwork(std::string_view network_policy) {
  if (network_policy.empty()) return NeatPolicy::kTcf;
  return NetworkPolicyRegistry::Get()
      .Find(std::string(network_policy), "network")
      .declared.neat_predictor;
}

}  // namespace slotflow
