// Every registered task scheduler and network policy builds from its declared settings: with
// their defaults, and with each word of each of its choice settings (so every table a policy
// reads a choice through is checked against the words the setting declares). A policy with a
// setting that has no default (replay's recording) gets one.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "api/network_policy.h"
#include "api/task_scheduler.h"

namespace slotflow {
namespace {

template <class R>
void BuildEach(const R& registry,
               const std::map<std::string, std::map<std::string, std::string>>& required = {}) {
  for (const auto& [name, entry] : registry.entries()) {
    const auto given =
        required.count(name) ? required.at(name) : std::map<std::string, std::string>{};
    EXPECT_NE(registry.Make(name, given), nullptr) << name;
    for (const SettingSpec& s : entry.settings) {
      if (s.kind != SettingKind::kChoice) continue;
      for (const std::string& word : s.choices) {
        auto with = given;
        with[s.name] = word;
        EXPECT_NE(registry.Make(name, with), nullptr) << name << " " << s.name << "=" << word;
      }
    }
  }
}

TEST(RegisteredPolicies, EveryTaskSchedulerBuildsWithEachChoice) {
  // replay's recording: an empty run of a greedy scheduler.
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "policies_build";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "tasks.csv") << "job,stage,task,server,pinned,placed_s\n";
  std::ofstream(dir / "modes.csv") << "t_s,mode\n";
  std::ofstream(dir / "placements.csv") << "task\n";
  std::ofstream(dir / "setup.toml") << "[scheduler]\npolicy = \"greedy\"\n";
  BuildEach(TaskSchedulerRegistry::Get(), {{"replay", {{"from", dir.string()}}}});
}

TEST(RegisteredPolicies, EveryNetworkPolicyBuildsWithEachChoice) {
  BuildEach(NetworkPolicyRegistry::Get());
}

}  // namespace
}  // namespace slotflow
