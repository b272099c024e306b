// Making and removing the emulated cluster of live/testbed_plan.h on this machine. Everything is
// made inside namespaces the testbed owns (nothing in the root namespace), so deleting those
// namespaces by name removes all of it, also after a crash.
#pragma once

#include <string>
#include <vector>

#include "live/command_runner.h"
#include "live/testbed_plan.h"

namespace slotflow {

// Throws InputError unless this process runs as root (namespaces and tc need it).
void RequireRoot();

// Makes the testbed. Throws InputError, and makes nothing, if any namespace of config.names is
// there already (a testbed is up or half made: `down` first). If a command fails, removes what
// it made and throws CommandError naming the command and what it said.
void TestbedUp(const TestbedConfig& config, const CommandRunner& run = RunProgram);

struct TestbedDownReport {
  std::vector<std::string> removed;  // the namespaces deleted
  int processes_ended = 0;           // processes that were still running in them
};

// Ends the processes still running in the namespaces `names` owns (programs started there with
// `ip netns exec`, which would otherwise keep their namespace alive, unnamed), then deletes
// every such namespace. Nothing there is not an error.
TestbedDownReport TestbedDown(const TestbedNames& names, const CommandRunner& run = RunProgram);

// Sends SIGTERM to every process in `namespaces`, and SIGKILL to those still there 2 s later;
// returns how many there were.
int EndProcesses(const std::vector<std::string>& namespaces, const CommandRunner& run);

}  // namespace slotflow
