#include "run/run_outputs.h"

#include <deque>
#include <filesystem>
#include <functional>
#include <optional>

#include "common/event_log.h"
#include "common/output_file.h"
#include "metrics/report.h"
#include "run/setup.h"

namespace slotflow {

void WriteRunOutputs(const std::string& dir, const RunResult& r, const std::string& field) {
  const std::filesystem::path d(dir);
  MakeOutputDirectory(d, field);
  std::deque<OutputFile> files;
  auto write = [&](const char* name, const std::function<void(std::ostream&)>& fill) {
    fill(files.emplace_back(d / name, field).stream());
  };
  write("jobs.csv", [&](std::ostream& o) { WriteJobsCsv(r.jobs, o); });
  write("tasks.csv", [&](std::ostream& o) { WriteTasksCsv(r.tasks, o); });
  write("modes.csv", [&](std::ostream& o) { WriteModesCsv(r.modes, o); });
  write("placements.csv", [&](std::ostream& o) {
    // The scheduler's placements in order (within one instant, tasks.csv cannot tell).
    o << "task\n";
    for (TaskId t : r.placements) o << static_cast<int32_t>(t) << '\n';
  });
  if (!r.utilisation.empty()) {
    write("utilisation.csv", [&](std::ostream& o) { WriteUtilisationCsv(r.utilisation, o); });
  }
  if (!r.summary.setup.empty()) {
    write("setup.toml", [&](std::ostream& o) { o << SetupTomlFromJson(r.summary.setup); });
  }
  write("summary.json", [&](std::ostream& o) { WriteSummaryJson(r.summary, o); });
  for (OutputFile& f : files) f.Sync();
  if (r.utilisation.empty()) {
    std::error_code ec;  // an earlier run's, which this one would seem to have written
    if (std::filesystem::is_regular_file(d / "utilisation.csv", ec)) {
      std::filesystem::remove(d / "utilisation.csv", ec);
    }
  }
  for (OutputFile& f : files) f.Commit();
}

RunResult RunWithSinks(
    RunSpec& spec, const PreparedRun& run, const RunSinks& sinks,
    const std::function<RunResult(const RunSpec&, const PreparedRun&)>& execute) {
  if (!sinks.out.empty()) MakeOutputDirectory(sinks.out, sinks.out_field);
  std::optional<OutputFile> log_file;
  std::optional<EventLog> log;
  if (!sinks.log.empty()) {
    log_file.emplace(sinks.log, sinks.log_field);
    spec.simulation.log = &log.emplace(log_file->stream());
  } else if (sinks.log_stream != nullptr) {
    spec.simulation.log = &log.emplace(*sinks.log_stream);
  }
  const RunResult result = execute(spec, run);
  spec.simulation.log = nullptr;
  if (log) log->Flush();
  if (log_file) log_file->Commit();
  if (!sinks.out.empty()) WriteRunOutputs(sinks.out, result, sinks.out_field);
  return result;
}

}  // namespace slotflow
