// `slotflow testbed up|down|status`: the emulated cluster of live mode (live/testbed.h) from the
// command line.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace slotflow {

struct TestbedCommand {
  CLI::App* testbed = nullptr;
  CLI::App* up = nullptr;
  CLI::App* down = nullptr;
  CLI::App* status = nullptr;
  int hosts = 0;
  std::string rate = "100mbit";
};

// Adds `testbed` and its three subcommands to `app`; their flags land in `command`.
void AddTestbedCommand(CLI::App& app, TestbedCommand& command);

// Runs whichever subcommand was parsed and returns the exit code. Bad flags and a missing root
// are InputErrors; a failing `ip` or `tc` is a CommandError.
int RunTestbedCommand(const TestbedCommand& command);

}  // namespace slotflow
