#include "network/neat_policy.h"

#include <fmt/format.h>

#include <string>

#include "common/error.h"

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

NeatPolicy ParseNeatPolicy(std::string_view name, std::string_view field) {
  std::string known;
  for (NeatPolicy p : kAllNeatPolicies) {
    if (NeatPolicyName(p) == name) return p;
    known += (known.empty() ? "" : ", ") + std::string(NeatPolicyName(p));
  }
  throw InputError("", 0, std::string(field),
                   fmt::format("unknown predictor '{}' (known: {})", name, known));
}

}  // namespace slotflow
