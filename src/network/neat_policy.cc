#include "network/neat_policy.h"

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

}  // namespace slotflow
