// `slotflow testbed up|down|status`: the emulated cluster of live mode (live/testbed.h) from the
// command line.
#include <fmt/chrono.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/error.h"
#include "api/units.h"
#include "cli/commands.h"
#include "cli/flags.h"
#include "common/output_file.h"
#include "live/testbed.h"
#include "live/testbed_status.h"
#include "run/calibrate.h"

namespace slotflow {
namespace {

constexpr size_t kProblemsShown = 3;

struct TestbedCommand {
  CLI::App* testbed = nullptr;
  CLI::App* up = nullptr;
  CLI::App* down = nullptr;
  CLI::App* status = nullptr;
  CLI::App* calibrate = nullptr;
  int hosts = 0;
  std::string rate = "100mbit";
  std::string prefix = "sf";  // up, down and status (calibrate has its own in `calibration`)
  CalibrateSettings calibration;
  bool no_capacity = false;
  std::string deadline = "120s";
  std::string out;
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
    fmt::print("testbed: half made ({}); `{}` removes it\n", Summarise(st.problems),
               names.DownCommand());
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
  TestbedConfig config = MakeTestbedConfig(c.hosts, c.rate);
  config.names = MakeTestbedNames(c.prefix, "--testbed-prefix");
  RequireRoot();
  TestbedUp(config);
  const int last = config.hosts - 1;
  fmt::print("testbed up: {} hosts {}..{} at {}..{}/{}, every link {} Mbit/s each way\n",
             config.hosts, config.names.Host(0), config.names.Host(last), HostAddress(0),
             HostAddress(last), kHostPrefixLength, static_cast<double>(config.rate) / 1e6);
  fmt::print("run a program on host 0 with: ip netns exec {} PROGRAM\n", config.names.Host(0));
  return 0;
}

int Down(const TestbedCommand& c) {
  const TestbedNames names = MakeTestbedNames(c.prefix, "--testbed-prefix");
  RequireRoot();
  const TestbedDownReport report = TestbedDown(names);
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

std::string Mbits(BytesPerSecond bytes_per_s) {
  return fmt::format("{:.1f}", bytes_per_s * 8 / 1e6);
}

std::string Ms(const std::vector<double>& seconds) {
  const auto [lo, hi] = std::minmax_element(seconds.begin(), seconds.end());
  return fmt::format("{:.2f}-{:.2f} ms", *lo * 1e3, *hi * 1e3);
}

int Calibrate(TestbedCommand c) {
  CalibrateSettings& s = c.calibration;
  s.named = {FlagName};
  s.hosts = c.hosts;
  s.rate = c.rate;
  s.capacity = !c.no_capacity;
  s.deadline = ParseWaitSeconds(c.deadline, "--deadline");
  if (!(s.deadline > 0)) throw InputError("", 0, "--deadline", "must be positive");
  std::optional<OutputFile> out;
  if (!c.out.empty()) out.emplace(c.out, "--out");  // an unwritable path fails before the runs
  const CalibrateReport r = CalibrateTestbed(s);
  const ProbePlan& p = r.plan;
  const Calibration& k = r.calibration;
  const BytesPerSecond payload = p.rate * std::min(1.0, k.payload_efficiency);
  std::string text = fmt::format(
      "calibration of {} hosts at {} Mbit/s (testbed {}), load average {:.2f} -> {:.2f}\n"
      "  task launch latency  {:8.3f} ms   median of {} empty tasks, placement to done ({})\n"
      "  flow start latency   {:8.3f} ms   {} fetches of {}, less the launch and the bytes ({})\n"
      "  payload efficiency   {:8.4f}      {} fetches of {} alone ({:.3f}-{:.3f} s)\n"
      "  all hosts at once    {:8.1f} %    of {} x {} Mbit/s of payload (one flow into and out of "
      "each host)\n",
      p.hosts, Mbits(p.rate), s.prefix, r.load_start, r.load_end, k.task_launch_latency * 1e3,
      k.launch_s.size(), Ms(k.launch_s), k.flow_start_latency * 1e3, k.small_s.size(),
      FormatBytes(p.small_bytes), Ms(k.small_s), k.payload_efficiency, k.bulk_s.size(),
      FormatBytes(p.BulkBytes()), *std::min_element(k.bulk_s.begin(), k.bulk_s.end()),
      *std::max_element(k.bulk_s.begin(), k.bulk_s.end()), k.ring_share * 100, p.hosts,
      Mbits(payload));
  if (k.forwarding > 0) {
    text += fmt::format(
        "  forwarding capacity  {:8.1f} Mbit/s of payload in all, every host busy (links at "
        "10 Gbit/s, testbed {}x)\n",
        k.forwarding * 8 / 1e6, s.prefix);
  }
  fmt::print("{}", text);
  if (k.forwarding > 0 && p.hosts * payload > k.forwarding) {
    fmt::print(stderr,
               "warning: {} hosts x {} Mbit/s of payload = {} Mbit/s is more than this machine "
               "forwards with every host busy ({} Mbit/s): live runs will be slower than their "
               "links; use at most {} Mbit/s per link or fewer hosts\n",
               p.hosts, Mbits(payload), Mbits(p.hosts * payload), Mbits(k.forwarding),
               Mbits(k.forwarding / p.hosts / std::min(1.0, k.payload_efficiency)));
  } else if (k.ring_share < 0.95) {
    fmt::print(stderr,
               "warning: with every host busy the testbed carried {:.1f} % of its links' payload "
               "rate: live runs with all hosts busy will be slower than their links\n",
               k.ring_share * 100);
  }
  if (out) {
    const auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::string comment = fmt::format(
        "Measured by `slotflow testbed calibrate --hosts {} --rate {}` at {:%Y-%m-%d %H:%M} UTC; "
        "`slotflow run --config FILE` simulates this testbed.\n",
        p.hosts, c.rate, fmt::gmtime(now));
    comment += text;
    out->stream() << CalibrationToml(p, k, comment);
    out->Commit();
    fmt::print("written {}: `slotflow run --config {} ...` simulates this testbed\n", c.out, c.out);
  }
  return 0;
}

// Runs whichever subcommand was parsed. Bad flags and a missing root are InputErrors; a failing
// `ip` or `tc` is a CommandError.
int RunTestbedCommand(const TestbedCommand& c) {
  if (c.up->parsed()) return Up(c);
  if (c.down->parsed()) return Down(c);
  if (c.calibrate->parsed()) return Calibrate(c);
  const TestbedNames names = MakeTestbedNames(c.prefix, "--testbed-prefix");
  RequireRoot();
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
  for (CLI::App* sub : {c.up, c.down, c.status}) {
    sub->add_option("--testbed-prefix", c.prefix,
                    "namespace names of the testbed (default sf: sfsw, sfh0, ...)");
  }
  c.calibrate = c.testbed->add_subcommand(
      "calibrate",
      "measure what the testbed costs beyond the fluid model (task launch and flow start "
      "latencies, TCP's payload efficiency) and what this machine forwards with every host busy; "
      "--out writes them as a config for `slotflow run`");
  c.calibrate->add_option("--hosts", c.hosts, "number of hosts, 2..254")->required();
  c.calibrate->add_option("--rate", c.rate, "rate of every link, each direction (default 100mbit)");
  c.calibrate->add_option("--samples", c.calibration.samples,
                          "launch and small-fetch probes each (default 10)");
  c.calibrate->add_option("--testbed-prefix", c.calibration.prefix,
                          "namespace names of the testbed (default sf; the capacity probe's "
                          "testbed adds x)");
  c.calibrate->add_flag("--no-capacity", c.no_capacity,
                        "skip the capacity probe (a second testbed at 10 Gbit/s)");
  c.calibrate->add_option("--deadline", c.deadline, "for each probe run (default 120s)");
  c.calibrate->add_option("--out", c.out, "write the measured values as a [cluster] config");
  return {c.testbed, [command] { return RunTestbedCommand(*command); }};
}

}  // namespace slotflow
