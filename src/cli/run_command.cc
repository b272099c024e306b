// `slotflow run`: one workload under one task scheduler and one network policy.
#include <unistd.h>

#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/exit_code.h"
#include "cli/flags.h"
#include "cli/run_flags.h"
#include "metrics/report.h"
#include "run/execute.h"
#include "run/prepare.h"
#include "run/run_outputs.h"

namespace slotflow {
namespace {

int RunCommand(const RunFlags& f) {
  RunSpec spec = BuildSpec(f);
  spec.simulation.progress = f.quiet                      ? ProgressStyle::kOff
                             : isatty(STDERR_FILENO) != 0 ? ProgressStyle::kLine
                                                          : ProgressStyle::kLog;
  const PreparedRun run = Prepare(spec);
  for (const std::string& note : run.notes) std::cerr << "slotflow: note: " << note << "\n";
  const RunResult result =
      RunWithSinks(spec, run, {f.out, "--out", f.log, "--log", nullptr},
                   [](const RunSpec& s, const PreparedRun& r) { return Execute(s, r); });
  if (!f.quiet) PrintSummaryTable(result.summary, std::cout);
  return CheckFinished(result, "");
}

}  // namespace

Subcommand AddRunCommand(CLI::App& app, const std::string& command_line) {
  auto flags = std::make_shared<RunFlags>();
  flags->command_line = command_line;
  CLI::App* run = app.add_subcommand(
      "run", "simulate a workload (embedded synthetic default, --trace or --jobs)");
  AddRunFlags(*run, *flags);
  run->add_option("--log", flags->log,
                  "write the decision log to FILE (JSON Lines; see docs/decision-log.md)")
      ->check(NonEmptyFile());
  return {run, [flags] { return RunCommand(*flags); }};
}

}  // namespace slotflow
