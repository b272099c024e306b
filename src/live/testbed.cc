#include "live/testbed.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>

#include "common/error.h"
#include "live/testbed_status.h"

namespace slotflow {

void RequireRoot() {
  if (geteuid() != 0) {
    throw InputError(
        "slotflow testbed needs root: it makes network namespaces, veth pairs and tc qdiscs "
        "(run it as root, e.g. with sudo)");
  }
}

void TestbedUp(const TestbedConfig& config, const CommandRunner& run) {
  std::vector<std::string> present;
  for (const std::string& netns : ListNamespaces(run)) {
    if (config.names.Owns(netns)) present.push_back(netns);
  }
  if (!present.empty()) {
    std::sort(present.begin(), present.end());
    throw InputError(fmt::format(
        "a testbed is already there (namespaces {}); `slotflow testbed down` removes it",
        fmt::join(present, ", ")));
  }
  try {
    for (const Command& c : TestbedUpPlan(config)) RunOrThrow(run, c.argv);
  } catch (const CommandError& e) {
    TestbedDown(config.names, run);
    throw CommandError(fmt::format("{} (what was made is removed again)", e.what()));
  }
}

std::vector<std::string> TestbedDown(const TestbedNames& names, const CommandRunner& run) {
  std::vector<std::string> removed;
  for (const Command& c : TestbedDownPlan(ListNamespaces(run), names)) {
    RunOrThrow(run, c.argv);
    removed.push_back(c.argv.back());
  }
  return removed;
}

}  // namespace slotflow
