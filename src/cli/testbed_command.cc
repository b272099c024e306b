// `slotflow testbed up|down|status`: the emulated cluster of live mode (live/testbed.h) from the
// command line.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "live/testbed.h"
#include "live/testbed_status.h"

namespace slotflow {
namespace {

constexpr size_t kProblemsShown = 3;

struct TestbedCommand {
  CLI::App* testbed = nullptr;
  CLI::App* up = nullptr;
  CLI::App* down = nullptr;
  CLI::App* status = nullptr;
  int hosts = 0;
  std::string rate = "100mbit";
};

std::string Describe(const ShapingStatus& s) {
  if (s.qdisc.empty()) return "none";
  if (s.Complete()) return fmt::format("{} {}, {} priorities", s.qdisc, s.rate, kPriorityClasses);
  if (s.qdisc != "htb") return fmt::format("{}, not shaped", s.qdisc);
  return fmt::format("incomplete: htb {}, {} classes, {} DSCP filters", s.rate, s.classes,
                     s.filters.size());
}

// The first few problems and how many more there are.
std::string Summarise(const std::vector<std::string>& problems) {
  const size_t shown = std::min(problems.size(), kProblemsShown);
  std::string text = fmt::format(
      "{}", fmt::join(problems.begin(), problems.begin() + static_cast<ptrdiff_t>(shown), "; "));
  if (problems.size() > shown) text += fmt::format("; and {} more", problems.size() - shown);
  return text;
}

void PrintStatus(const TestbedStatus& st, const TestbedNames& names) {
  if (st.Empty()) {
    fmt::print("testbed: down (no namespace {} or {}h*)\n", names.Switch(), names.prefix);
    return;
  }
  if (st.Up()) {
    fmt::print("testbed: up, {} hosts on switch namespace {} (bridge {})\n", st.hosts.size(),
               names.Switch(), kBridge);
  } else {
    fmt::print("testbed: half made ({}); `slotflow testbed down` removes it\n",
               Summarise(st.problems));
  }
  if (st.hosts.empty()) return;
  fmt::print("{:<5} {:<10} {:<16} {:<30} {}\n", "host", "namespace", "address", "uplink (eth0)",
             "switch port toward it");
  for (const HostStatus& h : st.hosts) {
    fmt::print("{:<5} {:<10} {:<16} {:<30} {} {}\n", h.index, h.netns,
               h.address.empty() ? "none" : h.address, Describe(h.uplink),
               TestbedNames::Port(h.index), Describe(h.port));
  }
  fmt::print(
      "priority 0 (first) .. 7 (last) = DSCP 56 (CS7) .. 0 (CS0, unmarked): DSCP d has "
      "priority 7 - d/8\n");
}

int Up(const TestbedCommand& c) {
  const TestbedConfig config = MakeTestbedConfig(c.hosts, c.rate);
  RequireRoot();
  TestbedUp(config);
  const int last = config.hosts - 1;
  fmt::print("testbed up: {} hosts {}..{} at {}..{}/{}, every link {} Mbit/s each way\n",
             config.hosts, config.names.Host(0), config.names.Host(last), HostAddress(0),
             HostAddress(last), kHostPrefixLength, static_cast<double>(config.rate) / 1e6);
  fmt::print("run a program on host 0 with: ip netns exec {} PROGRAM\n", config.names.Host(0));
  return 0;
}

int Down() {
  RequireRoot();
  const TestbedDownReport report = TestbedDown(TestbedNames{});
  if (report.processes_ended > 0) {
    fmt::print("testbed down: ended {} process{} still running in it\n", report.processes_ended,
               report.processes_ended == 1 ? "" : "es");
  }
  if (report.removed.empty()) {
    fmt::print("testbed down: nothing to remove\n");
  } else {
    fmt::print("testbed down: removed {}\n", fmt::join(report.removed, ", "));
  }
  return 0;
}

// Runs whichever subcommand was parsed. Bad flags and a missing root are InputErrors; a failing
// `ip` or `tc` is a CommandError.
int RunTestbedCommand(const TestbedCommand& c) {
  if (c.up->parsed()) return Up(c);
  if (c.down->parsed()) return Down();
  RequireRoot();
  const TestbedNames names;
  PrintStatus(ReadTestbedStatus(names, RunProgram), names);
  return 0;
}

}  // namespace

Subcommand AddTestbedCommand(CLI::App& app) {
  auto command = std::make_shared<TestbedCommand>();
  TestbedCommand& c = *command;
  c.testbed = app.add_subcommand(
      "testbed",
      "an emulated cluster on this machine: hosts as network namespaces on one "
      "switch, links shaped by HTB with 8 strict priorities by DSCP (needs root)");
  c.testbed->require_subcommand(1);
  c.up = c.testbed->add_subcommand("up", "make the testbed");
  c.up->add_option("--hosts", c.hosts, fmt::format("number of hosts, 1..{}", kMaxTestbedHosts))
      ->required();
  c.up->add_option("--rate", c.rate,
                   "rate of every link, each direction, e.g. 100mbit (default), 1gbit, 50Mbps");
  c.down = c.testbed->add_subcommand(
      "down", "remove everything the testbed made (also a half-made one); nothing there is fine");
  c.status = c.testbed->add_subcommand(
      "status", "list the testbed's hosts, addresses and qdiscs, and whether it is up");
  return {c.testbed, [command] { return RunTestbedCommand(*command); }};
}

}  // namespace slotflow
