// Every registered task scheduler and network policy builds from its declared settings: with
// their defaults, and with each word of each of its choice settings (so every table a policy
// reads a choice through is checked against the words the setting declares).
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "api/network_policy.h"
#include "api/task_scheduler.h"

namespace slotflow {
namespace {

template <class R>
void BuildEach(const R& registry) {
  for (const auto& [name, entry] : registry.entries()) {
    EXPECT_NE(registry.Make(name), nullptr) << name;
    for (const SettingSpec& s : entry.settings) {
      if (s.kind != SettingKind::kChoice) continue;
      for (const std::string& word : s.choices) {
        EXPECT_NE(registry.Make(name, {{s.name, word}}), nullptr)
            << name << " " << s.name << "=" << word;
      }
    }
  }
}

TEST(RegisteredPolicies, EveryTaskSchedulerBuildsWithEachChoice) {
  BuildEach(TaskSchedulerRegistry::Get());
}

TEST(RegisteredPolicies, EveryNetworkPolicyBuildsWithEachChoice) {
  BuildEach(NetworkPolicyRegistry::Get());
}

}  // namespace
}  // namespace slotflow
