// The policies a set-up names, resolved against the settings each declares (api/settings.h)
// and built from their registries.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "api/network_policy.h"
#include "api/settings.h"
#include "api/task_scheduler.h"
#include "run/run_spec.h"

namespace slotflow {

// The settings the spec's policies run with (InputError on unknown names, keys or values):
// the preset's (while its policy is in force), then those of the config file and flags.
struct ResolvedPolicies {
  Settings scheduler, network;
};
ResolvedPolicies ResolvePolicies(const RunSpec& spec);
// The spec's scheduler and network policy, built by name (InputError on unknown names, keys or
// values), and every setting in force ("scheduler.order" → "sjf", ...).
struct BuiltPolicies {
  std::unique_ptr<TaskScheduler> scheduler;
  std::unique_ptr<NetworkPolicy> network;
  std::vector<std::pair<std::string, std::string>> in_force;
};
BuiltPolicies BuildPolicies(const RunSpec& spec);

}  // namespace slotflow
