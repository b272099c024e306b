// `slotflow run`: one workload under one task scheduler and one network policy.
#include <unistd.h>

#include <iostream>
#include <memory>
#include <optional>

#include "cli/commands.h"
#include "cli/exit_code.h"
#include "cli/flags.h"
#include "cli/run_flags.h"
#include "common/event_log.h"
#include "common/output_file.h"
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
  if (!f.out.empty()) MakeOutputDirectory(f.out, "--out");  // fail before a long run, not after
  std::optional<OutputFile> log_file;
  std::optional<EventLog> log;
  if (!f.log.empty()) {
    log_file.emplace(f.log, "--log");
    spec.simulation.log = &log.emplace(log_file->stream());
  }
  const RunResult result = Execute(spec, run);
  if (log) {
    log->Flush();
    log_file->Commit();
  }
  if (!f.out.empty()) WriteRunOutputs(f.out, result);
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
