#include "live/testbed.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <sstream>
#include <thread>

#include "api/error.h"
#include "live/testbed_status.h"

namespace slotflow {
namespace {

constexpr auto kGracePeriod = std::chrono::seconds(2);
constexpr auto kPollInterval = std::chrono::milliseconds(50);

std::vector<std::string> ProcessesIn(const std::vector<std::string>& namespaces,
                                     const CommandRunner& run) {
  std::vector<std::string> pids;
  for (const std::string& netns : namespaces) {
    const CommandResult r = run({"ip", "netns", "pids", netns});
    if (r.exit_code != 0) continue;  // gone already
    std::istringstream words(r.out);
    std::string pid;
    while (words >> pid) pids.push_back(pid);
  }
  return pids;
}

void Signal(const char* signal, const std::vector<std::string>& pids, const CommandRunner& run) {
  std::vector<std::string> argv{"kill", "-s", signal};
  argv.insert(argv.end(), pids.begin(), pids.end());
  run(argv);  // a process that ended meanwhile makes kill fail; that is fine
}

}  // namespace

int EndProcesses(const std::vector<std::string>& namespaces, const CommandRunner& run) {
  const std::vector<std::string> pids = ProcessesIn(namespaces, run);
  if (pids.empty()) return 0;
  Signal("TERM", pids, run);
  const auto deadline = std::chrono::steady_clock::now() + kGracePeriod;
  std::vector<std::string> left = ProcessesIn(namespaces, run);
  while (!left.empty() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(kPollInterval);
    left = ProcessesIn(namespaces, run);
  }
  if (!left.empty()) Signal("KILL", left, run);
  return static_cast<int>(pids.size());
}

void RequireRoot() {
  if (geteuid() != 0) {
    throw InputError(
        "slotflow testbed needs root: it makes network namespaces, veth pairs and tc qdiscs "
        "(run it as root, e.g. with sudo)");
  }
}

void TestbedUp(const TestbedConfig& config, const CommandRunner& run) {
  std::vector<std::string> present;  // hosts in index order, then the switch
  for (const Command& c : TestbedDownPlan(ListNamespaces(run), config.names)) {
    present.push_back(c.argv.back());
  }
  if (!present.empty()) {
    const size_t shown = std::min<size_t>(present.size(), 4);
    std::string names = fmt::format(
        "{}", fmt::join(present.begin(), present.begin() + static_cast<ptrdiff_t>(shown), ", "));
    if (present.size() > shown) names += fmt::format(" and {} more", present.size() - shown);
    throw InputError(fmt::format("a testbed is already there (namespaces {}); `{}` removes it",
                                 names, config.names.DownCommand()));
  }
  try {
    for (const Command& c : TestbedUpPlan(config)) RunOrThrow(run, c.argv);
  } catch (const CommandError& e) {
    TestbedDown(config.names, run);
    throw CommandError(fmt::format("{} (what was made is removed again)", e.what()));
  }
}

TestbedDownReport TestbedDown(const TestbedNames& names, const CommandRunner& run) {
  TestbedDownReport report;
  const std::vector<Command> plan = TestbedDownPlan(ListNamespaces(run), names);
  std::vector<std::string> namespaces;
  for (const Command& c : plan) namespaces.push_back(c.argv.back());
  report.processes_ended = EndProcesses(namespaces, run);
  for (const Command& c : plan) {
    RunOrThrow(run, c.argv);
    report.removed.push_back(c.argv.back());
  }
  return report;
}

}  // namespace slotflow
