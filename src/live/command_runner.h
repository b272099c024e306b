// Running a program with an argument vector (no shell) and collecting what it printed: how live
// mode drives `ip` and `tc`.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace slotflow {

struct CommandResult {
  int exit_code = 0;  // -1 when a signal ended it
  std::string out, err;
};

// A program that could not be run, or that failed where it had to succeed. The message names
// the command line and what the program said.
class CommandError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Runs argv[0] with arguments argv, standard input from /dev/null, and waits for it. A name
// without '/' is looked up in PATH and then in /usr/sbin and /sbin, where Debian keeps `ip` and
// `tc` (PATH often lacks them outside a root login shell). Throws CommandError when the program
// is not found or cannot start.
CommandResult RunProgram(const std::vector<std::string>& argv);

// What runs commands: RunProgram, or in tests a stand-in that records them.
using CommandRunner = std::function<CommandResult(const std::vector<std::string>&)>;

// Runs argv with `run` and throws CommandError naming the command and its error output unless
// it exits 0.
CommandResult RunOrThrow(const CommandRunner& run, const std::vector<std::string>& argv);

// argv as one line for messages, each argument quoted if it holds a space or quote.
std::string CommandLine(const std::vector<std::string>& argv);

}  // namespace slotflow
