#include "run/policies.h"

#include <fmt/format.h>

#include <algorithm>

#include "api/error.h"

namespace slotflow {
namespace {

// The preset's settings, then those given in files and flags. When another policy replaces the
// preset's, it keeps the preset's settings it declares too (a system's job order stays the
// system's under another scheduler) and drops the rest.
std::vector<SettingAssignment> Layered(const std::string& policy, const std::string& preset_policy,
                                       const std::vector<SettingSpec>& declared,
                                       const std::vector<SettingAssignment>& preset,
                                       const std::vector<SettingAssignment>& given) {
  std::vector<SettingAssignment> all;
  for (const SettingAssignment& a : preset) {
    const bool known = std::any_of(declared.begin(), declared.end(),
                                   [&](const SettingSpec& s) { return s.name == a.key; });
    if (policy == preset_policy || known) all.push_back(a);
  }
  all.insert(all.end(), given.begin(), given.end());
  return all;
}

// "scheduler 'greedy' (named by --scheduler)": an unknown setting names both of its sources.
std::string PolicyWhat(std::string_view kind, const std::string& name,
                       const SettingAssignment& from) {
  const std::string where =
      from.file.empty() ? from.field : fmt::format("{}:{} {}", from.file, from.line, from.field);
  return fmt::format("{} '{}' (named by {})", kind, name, where);
}

}  // namespace

ResolvedPolicies ResolvePolicies(const RunSpec& spec) {
  if (!spec.system.empty() && spec.scheduler != spec.preset_scheduler &&
      spec.network != spec.preset_network) {
    // Nothing of the preset would be in force: the system named is not what runs.
    throw InputError(spec.scheduler_from.file, spec.scheduler_from.line, spec.scheduler_from.field,
                     fmt::format("system '{}' (scheduler {}, network {}) is named, but {} sets "
                                 "scheduler {} and {} network {}: drop one of them",
                                 spec.system, spec.preset_scheduler, spec.preset_network,
                                 spec.scheduler_from.field, spec.scheduler, spec.network_from.field,
                                 spec.network));
  }
  const auto& schedulers = TaskSchedulerRegistry::Get();
  const auto& networks = NetworkPolicyRegistry::Get();
  const auto& sf = spec.scheduler_from;
  const auto& nf = spec.network_from;
  const auto& scheduler = schedulers.Find(spec.scheduler, sf.field, sf.file, sf.line).settings;
  const auto& network = networks.Find(spec.network, nf.field, nf.file, nf.line).settings;
  return ResolvedPolicies{Settings(scheduler,
                                   Layered(spec.scheduler, spec.preset_scheduler, scheduler,
                                           spec.preset_scheduler_settings, spec.scheduler_settings),
                                   PolicyWhat("scheduler", spec.scheduler, sf), "scheduler."),
                          Settings(network,
                                   Layered(spec.network, spec.preset_network, network,
                                           spec.preset_network_settings, spec.network_settings),
                                   PolicyWhat("network policy", spec.network, nf), "network.")};
}

BuiltPolicies BuildPolicies(const RunSpec& spec) {
  ResolvedPolicies settings = ResolvePolicies(spec);
  BuiltPolicies out;
  for (const auto& [k, v] : settings.scheduler.InForce())
    out.in_force.emplace_back("scheduler." + k, v);
  for (const auto& [k, v] : settings.network.InForce())
    out.in_force.emplace_back("network." + k, v);
  const uint64_t seed = spec.simulation.seed;
  out.scheduler = TaskSchedulerRegistry::Get().Make(
      spec.scheduler, PolicyArgs{std::move(settings.scheduler), seed, spec.network}, "scheduler");
  out.network = NetworkPolicyRegistry::Get().Make(
      spec.network, PolicyArgs{std::move(settings.network), seed, ""}, "network");
  return out;
}
}  // namespace slotflow
