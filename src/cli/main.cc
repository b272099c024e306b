// slotflow command line: `slotflow run` simulates one workload under one task scheduler and one
// network policy; `slotflow policies` lists what can be named; `slotflow testbed` makes the
// emulated cluster of live mode, and `slotflow live` runs a workload on it. Each command is a
// file of its own (cli/commands.h); this file routes to them. Errors in input are reported
// here, in one place, with the file, line and field, and a non-zero exit code.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "api/error.h"
#include "cli/commands.h"
#include "cli/exit_code.h"
#include "cli/flags.h"
#include "live/command_runner.h"
#include "run/plugins.h"

namespace slotflow {
namespace {

// How this process was invoked, shell-quoted, for summary.json.
std::string QuotedCommandLine(int argc, char** argv) {
  std::string out;
  for (int i = 0; i < argc; ++i) {
    const std::string_view a(argv[i]);
    if (!out.empty()) out += ' ';
    const bool plain =
        !a.empty() && a.find_first_not_of(
                          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN"
                          "OPQRSTUVWXYZ0123456789_-./=:,+@%") == std::string_view::npos;
    if (plain) {
      out += a;
      continue;
    }
    out += '\'';
    for (char c : a) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += '\'';
  }
  return out;
}

// The parsed command's exit code, with `plugins` loaded first; input errors are reported here.
int Route(const CLI::App& app, const std::vector<Subcommand>& commands,
          const std::vector<std::string>& plugins) {
  try {
    for (const std::string& plugin : plugins) LoadPlugin(plugin, "--plugin");
    for (const Subcommand& c : commands) {
      if (c.app->parsed()) return c.run();
    }
    fmt::print("{}", app.help());  // bare `slotflow`: what it can do
    return 0;
  } catch (const InputError& e) {
    fmt::print(stderr, "slotflow: error: {}\n", e.what());
    return kExitInputError;
  } catch (const CommandError& e) {
    // A program live mode runs (ip, tc) failed: the machine cannot do what was asked.
    fmt::print(stderr, "slotflow: error: {}\n", e.what());
    return kExitInputError;
  } catch (const std::exception& e) {
    fmt::print(stderr, "slotflow: internal error: {}\n", e.what());
    return kExitInternalError;
  }
}

}  // namespace
}  // namespace slotflow

int main(int argc, char** argv) {
  using namespace slotflow;
  const std::string command_line = QuotedCommandLine(argc, argv);
  CLI::App app{
      "slotflow: a flow-level simulator for task and network scheduling in data-parallel clusters"};
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", "slotflow " + SlotflowBuildId());
  // In the order `slotflow --help` lists them.
  const std::vector<Subcommand> commands = {AddRunCommand(app, command_line),
                                            AddCompareCommand(app, command_line),
                                            AddSweepCommand(app),
                                            AddMergeCommand(app),
                                            AddPoliciesCommand(app),
                                            AddTestbedCommand(app),
                                            AddLiveCommand(app, command_line),
                                            AddAgentCommand(app)};
  // Policies built outside the tree, for the commands that name policies (docs/plugins.md).
  std::vector<std::string> plugins;
  for (const Subcommand& c : commands) {
    const std::string& name = c.app->get_name();
    if (name == "run" || name == "compare" || name == "sweep" || name == "policies" ||
        name == "live") {
      c.app
          ->add_option("--plugin", plugins,
                       "load the policies of a plugin, FILE.so built against this slotflow's "
                       "installed package (repeatable; see docs/plugins.md)")
          ->check(NonEmptyFile())
          ->allow_extra_args(false);  // one file each: `policies --plugin F.so NAME` names NAME
    }
  }
  RefuseEmptyValues(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    fmt::print(stderr, "slotflow: error: {}\n", e.what());
    return kExitInputError;
  }
  return Route(app, commands, plugins);
}
