// `slotflow live`: a workload run end to end on the testbed, with the same scheduler and network
// policy as `run`: the master in this process, listening on host 0, and one `slotflow agent`
// per host inside its namespace (master/live_session.h).
#include <fmt/format.h>
#include <unistd.h>

#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "cli/commands.h"
#include "cli/exit_code.h"
#include "cli/flags.h"
#include "cli/run_flags.h"
#include "common/error.h"
#include "common/event_log.h"
#include "common/output_file.h"
#include "common/units.h"
#include "live/testbed_plan.h"
#include "master/live_session.h"
#include "metrics/report.h"
#include "run/execute.h"
#include "run/policies.h"
#include "run/prepare.h"
#include "run/run_outputs.h"

namespace slotflow {
namespace {

constexpr const char* kDefaultRate = "100mbit";

struct LiveOptions {
  int hosts = 0;     // 0: the cluster's servers
  std::string rate;  // the testbed's link rate; empty: --nic, else 100mbit
  std::string deadline = "300s";
  std::string agent_timeout = "5s";
  std::string journal;
  bool keep_testbed = false;
  std::string prefix = "sf";  // the testbed's namespace names (docs/testbed.md)
};

// Adds the live-only flags to `cmd` (which also has the run flags).
void AddLiveFlags(CLI::App& cmd, LiveOptions& o) {
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
  cmd.add_option("--testbed-prefix", o.prefix,
                 "namespace names of the testbed (default sf: sfsw, sfh0, ...)");
}

// Sets the cluster's servers and NIC from --hosts and --rate (one host per server, the NIC
// rate the testbed's link rate). InputError if they contradict --servers or --nic.
void ApplyLiveCluster(const LiveOptions& o, RunSpec& spec) {
  if (o.hosts > 0) {
    if (spec.overrides.servers && *spec.overrides.servers != o.hosts) {
      throw InputError("", 0, "--hosts", "contradicts --servers; give one of them");
    }
    spec.overrides.servers = o.hosts;
  }
  if (!o.rate.empty() && spec.overrides.nic) {
    throw InputError("", 0, "--rate", "contradicts --nic; give one of them");
  }
  if (!spec.overrides.nic) {
    const std::string rate = o.rate.empty() ? kDefaultRate : o.rate;
    spec.overrides.nic = static_cast<double>(ParseLinkRate(rate, "--rate")) / 8;
  }
}

// Checks the live flags and runs the workload on the testbed; returns the measured results with
// the run's set-up described. InputError for bad input or a failed run (deadline, agent).
RunResult RunLive(const RunSpec& spec, const PreparedRun& run, const LiveOptions& o) {
  if (geteuid() != 0) {
    throw InputError(
        "slotflow live needs root: it brings up the testbed (network namespaces, "
        "veth pairs, tc) and runs agents inside it");
  }
  LiveRunOptions lo;
  lo.master.deadline = ParseSeconds(o.deadline, "--deadline");
  if (!(lo.master.deadline > 0)) throw InputError("", 0, "--deadline", "must be positive");
  lo.master.agent_timeout = ParseSeconds(o.agent_timeout, "--agent-timeout");
  if (!(lo.master.agent_timeout >= 2)) {
    throw InputError("", 0, "--agent-timeout",
                     "must be at least 2s (agents beat every 1s; a shorter wait loses live ones)");
  }
  lo.master.journal = o.journal;
  lo.master.seed = spec.simulation.seed;
  lo.master.estimate_error = spec.simulation.estimate_error;
  lo.master.log = spec.simulation.log;
  lo.keep_testbed = o.keep_testbed;
  const TestbedConfig config = TestbedFor(run.cluster, o.prefix);
  BuiltPolicies policies = BuildPolicies(spec);
  RunResult result = RunOnTestbed(config, run.cluster, run.workload, std::move(policies.scheduler),
                                  std::move(policies.network), lo);
  Describe(spec, run, std::move(policies.in_force), result.summary);
  return result;
}

int LiveCommand(const RunFlags& f, const LiveOptions& o) {
  if (f.check) throw InputError("", 0, "--check", "live mode has no simulated invariants to check");
  if (f.utilisation) {
    throw InputError("", 0, "--utilisation", "live mode does not measure utilisation over time");
  }
  RunSpec spec = BuildSpec(f);
  ApplyLiveCluster(o, spec);
  const PreparedRun run = Prepare(spec);
  if (!f.out.empty()) MakeOutputDirectory(f.out, "--out");
  std::optional<OutputFile> log_file;
  std::optional<EventLog> log;
  if (!f.log.empty()) {
    log_file.emplace(f.log, "--log");
    spec.simulation.log = &log.emplace(log_file->stream());
  }
  const RunResult result = RunLive(spec, run, o);
  if (log) {
    log->Flush();
    log_file->Commit();
  }
  if (!f.out.empty()) WriteRunOutputs(f.out, result);
  if (!f.quiet) PrintSummaryTable(result.summary, std::cout);
  return CheckFinished(result, "");
}

}  // namespace

Subcommand AddLiveCommand(CLI::App& app, const std::string& command_line) {
  struct Flags {
    RunFlags run;
    LiveOptions live;
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
  return {live, [f] { return LiveCommand(f->run, f->live); }};
}

}  // namespace slotflow
