// `slotflow live`: a workload run end to end on the testbed, with the same scheduler and network
// policy as `run`: the master in this process, listening on host 0, and one `slotflow agent`
// per host inside its namespace (master/live_session.h).
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <string>

#include "api/error.h"
#include "cli/commands.h"
#include "cli/exit_code.h"
#include "cli/flags.h"
#include "cli/run_flags.h"
#include "live/testbed_plan.h"
#include "metrics/report.h"
#include "run/live.h"
#include "run/prepare.h"
#include "run/run_outputs.h"

namespace slotflow {
namespace {

// Adds the live-only flags to `cmd` (which also has the run flags).
void AddLiveFlags(CLI::App& cmd, LiveSettings& o) {
  cmd.add_option("--hosts", o.hosts, "hosts of the testbed, one per server (same as --servers)")
      ->check(CLI::Range(1, kMaxTestbedHosts));
  cmd.add_option("--rate", o.rate,
                 "every link's rate, and so every server's NIC (default 100mbit, or --nic)");
  cmd.add_option("--deadline", o.deadline,
                 "stop with an error if the run is not over by then (default 300s)");
  cmd.add_option("--agent-timeout", o.agent_timeout,
                 "an agent silent this long (it beats every 1s) is lost and its tasks re-run "
                 "elsewhere (default 5s)");
  cmd.add_option("--journal", o.journal,
                 "SQLite file recording each completed job; started again with it, a run skips "
                 "the jobs it records");
  cmd.add_flag("--keep-testbed", o.keep_testbed, "leave a testbed this run brought up");
  cmd.add_option("--block-reads", o.block_reads,
                 "memory (default: an agent holds a local block in memory, so reading it costs "
                 "nothing, as in the simulator without --disk) or file (read from a scratch "
                 "file of its size)");
  cmd.add_option("--testbed-prefix", o.prefix,
                 "namespace names of the testbed (default sf: sfsw, sfh0, ...)");
}

int LiveCommand(const RunFlags& f, const LiveSettings& o) {
  if (f.check) throw InputError("", 0, "--check", "live mode has no simulated invariants to check");
  if (f.utilisation) {
    throw InputError("", 0, "--utilisation", "live mode does not measure utilisation over time");
  }
  RunSpec spec = BuildSpec(f);
  ApplyLiveCluster(o, spec);
  const PreparedRun run = Prepare(spec);
  const RunResult result =
      RunWithSinks(spec, run, {f.out, "--out", f.log, "--log", nullptr},
                   [&o](const RunSpec& s, const PreparedRun& r) { return RunLive(s, r, o); });
  if (!f.quiet) PrintSummaryTable(result.summary, std::cout);
  return CheckFinished(result, "");
}

}  // namespace

Subcommand AddLiveCommand(CLI::App& app, const std::string& command_line) {
  struct Flags {
    RunFlags run;
    LiveSettings live;
  };
  auto f = std::make_shared<Flags>();
  f->run.command_line = command_line;
  CLI::App* live = app.add_subcommand(
      "live",
      "run a workload on the testbed (needs root): the same scheduler and network policy as "
      "`run`, real agents moving real TCP bytes; writes the same outputs with measured times");
  AddRunFlags(*live, f->run);
  live->add_option("--log", f->run.log,
                   "write the decision log to FILE (JSON Lines; see docs/decision-log.md); times "
                   "are seconds since the run began")
      ->check(NonEmptyFile());
  AddLiveFlags(*live, f->live);
  f->live.name_of = [](std::string_view key) { return FlagName(key); };
  return {live, [f] { return LiveCommand(f->run, f->live); }};
}

}  // namespace slotflow
