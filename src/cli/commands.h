// The commands of `slotflow`, one file each: what a command adds to the command line (its
// subcommand, flags and help) and what it does when it is the one given. main.cc routes to
// them; the work itself is done by the run layer (run/) and live mode (master/, live/).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>

namespace slotflow {

struct Subcommand {
  CLI::App* app = nullptr;   // the subcommand
  std::function<int()> run;  // runs it and returns the exit code (cli/exit_code.h)
};

// `run`, `compare` and `live` record `command_line`, how slotflow was invoked, in summary.json.
Subcommand AddRunCommand(CLI::App& app, const std::string& command_line);
Subcommand AddCompareCommand(CLI::App& app, const std::string& command_line);
Subcommand AddSweepCommand(CLI::App& app);
Subcommand AddMergeCommand(CLI::App& app);
Subcommand AddPoliciesCommand(CLI::App& app);
Subcommand AddTestbedCommand(CLI::App& app);
Subcommand AddLiveCommand(CLI::App& app, const std::string& command_line);
Subcommand AddAgentCommand(CLI::App& app);

}  // namespace slotflow
