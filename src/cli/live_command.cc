// `slotflow live`: a workload run end to end on the testbed, with the same scheduler and network
// policy as `run`: the master in this process, listening on host 0, and one `slotflow agent`
// per host inside its namespace (master/live_session.h).
#include <fmt/format.h>

#include <iostream>
#include <map>
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

// The live-only flags, one per declared setting of live runs (run/live.h), as given.
struct LiveFlags {
  std::map<std::string, std::string> values;
  std::map<std::string, bool> switches;
};

void AddLiveFlags(CLI::App& cmd, LiveFlags& f) {
  for (const LiveSetting& s : LiveSettingTable()) {
    const std::string help =
        fmt::format("{} (default {})", s.setting.meaning, s.setting.default_value);
    if (s.setting.kind == SettingKind::kSwitch) {
      cmd.add_flag(FlagName(s.setting.name), f.switches[s.setting.name], help);
    } else {
      cmd.add_option(FlagName(s.setting.name), f.values[s.setting.name], help);
    }
  }
}

LiveSettings SettingsOf(const LiveFlags& f) {
  LiveSettings o;
  o.named = {FlagName};
  for (const auto& [key, value] : f.values) {
    if (!value.empty()) SetLiveSetting(o, {key, value, "", 0, FlagName(key)});
  }
  for (const auto& [key, on] : f.switches) {
    if (on) SetLiveSetting(o, {key, "true", "", 0, FlagName(key)});
  }
  return o;
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
    LiveFlags live;
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
  return {live, [f] { return LiveCommand(f->run, SettingsOf(f->live)); }};
}

}  // namespace slotflow
