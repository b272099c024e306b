// What the root-only tests that make a real testbed share: whether one of their own can be made
// here, whether any of its namespaces is left, and reading a run's output files.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "live/testbed.h"
#include "live/testbed_status.h"

namespace slotflow::testing {

// Why a testbed named `names` cannot be made here (not root, or `ip netns` does not work), or
// "" when it can. Removes first what a killed run of the same test left.
inline std::string TestbedUnavailable(const TestbedNames& names) {
  if (geteuid() != 0) return "needs root (network namespaces, veth, tc)";
  try {
    TestbedDown(names);
    const CommandResult probe = RunProgram({"ip", "netns", "add", names.Switch()});
    if (probe.exit_code != 0) return "ip netns does not work here: " + probe.err;
    RunOrThrow(RunProgram, {"ip", "netns", "del", names.Switch()});
  } catch (const CommandError& e) {
    return e.what();
  }
  return "";
}

// Whether any namespace of the testbed named `names` exists.
inline bool AnyNamespaceOf(const TestbedNames& names) {
  for (const std::string& ns : ListNamespaces(RunProgram)) {
    if (names.Owns(ns)) return true;
  }
  return false;
}

// The whole file at `p` ("" if it cannot be read).
inline std::string Slurp(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace slotflow::testing
