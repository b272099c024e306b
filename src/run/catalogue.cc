#include "run/catalogue.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <string_view>
#include <vector>

#include "api/error.h"
#include "api/network_policy.h"
#include "api/settings.h"
#include "api/task_scheduler.h"
#include "systems/systems.h"
#include "api/generator.h"

namespace slotflow {
namespace {

void PrintSettings(const std::vector<SettingSpec>& settings, std::string_view prefix,
                   std::ostream& out) {
  if (settings.empty()) {
    fmt::print(out, "  no settings\n");
    return;
  }
  fmt::print(out, "  {:<32} {:<10} {:<8} {:<22} {}\n", "setting", "default", "unit", "valid",
             "meaning");
  for (const SettingSpec& s : settings) {
    fmt::print(out, "  {:<32} {:<10} {:<8} {:<22} {}\n", fmt::format("{}.{}", prefix, s.name),
               s.default_value, SettingUnit(s.kind), SettingRange(s), s.meaning);
  }
}

}  // namespace

void ListPolicies(std::ostream& out) {
  fmt::print(out, "task schedulers (--scheduler):\n");
  for (const auto& [name, e] : TaskSchedulerRegistry::Get().entries())
    fmt::print(out, "  {:<14} {}\n", name, e.description);
  fmt::print(out, "network policies (--network):\n");
  for (const auto& [name, e] : NetworkPolicyRegistry::Get().entries())
    fmt::print(out, "  {:<14} {}\n", name, e.description);
  fmt::print(out, "systems (--system):\n");
  for (const SystemSpec& s : Systems()) fmt::print(out, "  {:<14} {}\n", s.name, s.description);
  fmt::print(out, "workload generators (--generator):\n");
  for (const auto& [name, e] : GeneratorRegistry::Get().entries())
    fmt::print(out, "  {:<14} {}\n", name, e.description);
  fmt::print(out,
             "`slotflow policies NAME` shows a policy's or generator's settings or a system's "
             "preset.\n");
}

void DescribePolicy(const std::string& name, std::ostream& out) {
  bool found = false;
  if (TaskSchedulerRegistry::Get().Has(name)) {
    const auto& e = TaskSchedulerRegistry::Get().Find(name, "NAME");
    fmt::print(out, "task scheduler {}: {}\n", name, e.description);
    PrintSettings(e.settings, "scheduler", out);
    found = true;
  }
  if (NetworkPolicyRegistry::Get().Has(name)) {
    const auto& e = NetworkPolicyRegistry::Get().Find(name, "NAME");
    fmt::print(out, "network policy {}: {}\n", name, e.description);
    PrintSettings(e.settings, "network", out);
    found = true;
  }
  for (const SystemSpec& s : Systems()) {
    if (s.name != name) continue;
    fmt::print(out, "system {}: {}\n  scheduler {}, network {}\n", name, s.description, s.scheduler,
               s.network);
    for (const auto& [key, value] : s.settings) fmt::print(out, "  {} = {}\n", key, value);
    found = true;
  }
  if (GeneratorRegistry::Get().Has(name)) {
    const auto& e = GeneratorRegistry::Get().Find(name, "NAME");
    fmt::print(out, "workload generator {}: {}\n", name, e.description);
    PrintSettings(e.settings, "workload", out);
    found = true;
  }
  if (!found) {
    throw InputError(
        "", 0, "NAME",
        fmt::format("no scheduler, network policy, system or workload generator is called '{}'",
                    name));
  }
}

}  // namespace slotflow
