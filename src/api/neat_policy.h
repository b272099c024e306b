// The network scheduling policies NEAT+'s completion-time predictor models, and their names.
// Every network policy names on its registry entry the one its rule is closest to
// (SLOTFLOW_REGISTER_NETWORK_POLICY in network_policy.h); the predictor itself is
// api/neat_predictor.h.
// Policy API (src/api/): stable, see docs/plugins.md#the-policy-api.
#pragma once

#include <string_view>

namespace slotflow {

// The network scheduling policy the predictor assumes (NEAT+ §IV-A, §IV-B).
enum class NeatPolicy {
  kFcfs,        // per-flow first come first served
  kFair,        // per-flow fair sharing (DCTCP)
  kLas,         // least attained service (L2DCT): predicted as Fair (NEAT+ §IV-A2)
  kSrpt,        // shortest remaining first (pFabric, PASE)
  kCoflowFcfs,  // coflows in arrival order
  kCoflowFair,  // coflows share fairly, each coflow's flows progress in proportion
  kCoflowLas,   // coflow LAS (Aalo-like): predicted as coflow Fair (NEAT+ §IV-B2)
  kTcf,         // smallest total coflow first (the permutation-scheduling case, §IV-B3)
};

inline constexpr NeatPolicy kAllNeatPolicies[] = {
    NeatPolicy::kFcfs,       NeatPolicy::kFair,       NeatPolicy::kLas,       NeatPolicy::kSrpt,
    NeatPolicy::kCoflowFcfs, NeatPolicy::kCoflowFair, NeatPolicy::kCoflowLas, NeatPolicy::kTcf};

// "fcfs", "fair", "las", "srpt", "coflow-fcfs", "coflow-fair", "coflow-las", "tcf".
std::string_view NeatPolicyName(NeatPolicy policy);

// The predictor for a network policy named as slotflow's --network names it (NEAT+ §IV: place by
// the policy in force): the one its registry entry declares (NetworkPolicyTraits; each policy's
// file says why where NEAT+ has no predictor of its own for it). TCF for an empty name (NEAT as
// Duopoly compares it); InputError for an unknown one.
NeatPolicy NeatPolicyForNetwork(std::string_view network_policy);

}  // namespace slotflow
