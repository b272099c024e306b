#include "workload/swim_trace.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "api/error.h"
#include "workload/delimited.h"

namespace slotflow {
namespace {

constexpr const char* kFields[] = {"job", "submit", "gap", "input", "shuffle", "output"};
constexpr int kFieldCount = 6;

double Number(std::string_view token, const std::string& file, int line, int field) {
  double value = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (token.empty() || ec != std::errc() || end != token.data() + token.size()) {
    throw InputError(file, line, kFields[field], fmt::format("expected a number, got '{}'", token));
  }
  if (!std::isfinite(value) || value < 0) {
    throw InputError(file, line, kFields[field],
                     fmt::format("must be a finite non-negative number, got '{}'", token));
  }
  return value;
}

// Tasks of a stage: ceil(bytes / per_task), at least 1; fails past the workload's bound.
int64_t TaskCount(Bytes bytes, Bytes per_task, int64_t max_tasks, const std::string& file, int line,
                  int field) {
  const double n = std::max(1.0, std::ceil(bytes / per_task));
  if (n > static_cast<double>(max_tasks)) {
    throw InputError(file, line, kFields[field],
                     fmt::format("{} bytes make {:.0f} tasks, more than the {} a stage may have",
                                 bytes, n, max_tasks));
  }
  return static_cast<int64_t>(n);
}

JobSpec MakeJob(std::string name, Seconds submit, Bytes input, Bytes shuffle, Bytes output,
                const SwimOptions& o, const std::string& file, int line, WorkloadBudget& budget) {
  const int64_t maps = TaskCount(input, o.block_size, o.max_tasks, file, line, 3);
  const int64_t reduces =
      shuffle > 0 ? TaskCount(shuffle, o.reduce_bytes, o.max_tasks, file, line, 4) : 0;
  budget.AddStage(maps, 0, file, line, kFields[3]);
  if (reduces > 0) budget.AddStage(reduces, maps, file, line, kFields[4]);
  JobSpec job;
  job.name = std::move(name);
  job.submit = submit;
  // A map's share of the job's input (evenly when there is none).
  std::vector<double> share(static_cast<size_t>(maps), 1.0 / static_cast<double>(maps));
  StageSpec map{"map", {}, std::vector<TaskSpec>(static_cast<size_t>(maps))};
  for (int64_t k = 0; k < maps; ++k) {
    TaskSpec& t = map.tasks[static_cast<size_t>(k)];
    t.input = std::min(o.block_size, input - static_cast<double>(k) * o.block_size);
    if (input > 0) share[static_cast<size_t>(k)] = t.input / input;
    // A map-only job's output is its maps'; otherwise a map's output is what its reducers read.
    t.output = reduces > 0 ? -1 : output * share[static_cast<size_t>(k)];
  }
  job.stages.push_back(std::move(map));
  if (reduces == 0) return job;
  StageSpec reduce{"reduce", {0}, std::vector<TaskSpec>(static_cast<size_t>(reduces))};
  const Bytes per_reduce = shuffle / static_cast<double>(reduces);
  // Every reducer receives the same from each map: one list for all of them.
  ParentBytes from;
  if (maps > 1) {
    std::vector<Bytes> bytes(static_cast<size_t>(maps));
    for (int64_t k = 0; k < maps; ++k) {
      bytes[static_cast<size_t>(k)] = per_reduce * share[static_cast<size_t>(k)];
    }
    from = ParentBytes(std::move(bytes));
  }
  for (TaskSpec& t : reduce.tasks) {
    t.input = per_reduce;
    t.output = output / static_cast<double>(reduces);
    t.from = from;
  }
  job.stages.push_back(std::move(reduce));
  return job;
}

}  // namespace

bool LooksLikeSwim(std::string_view text) {
  const std::string_view line = FirstNonBlankLine(text);
  return !line.empty() && SplitFields(line, '\t').size() == kFieldCount;
}

Workload ReadSwimTrace(std::istream& in, const std::string& name, const SwimOptions& o) {
  Workload w;
  w.source = name;
  WorkloadBudget budget;
  std::unordered_set<std::string> ids;
  std::string text;
  int line = 0;
  while (std::getline(in, text)) {
    ++line;
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::vector<std::string_view> f = SplitFields(text, '\t');
    if (f.size() != kFieldCount) {
      throw InputError(name, line, f.size() < kFieldCount ? kFields[f.size()] : "line",
                       fmt::format("expected 6 tab-separated fields (job, submit, gap, input, "
                                   "shuffle, output), got {}",
                                   f.size()));
    }
    if (f[0].empty()) throw InputError(name, line, "job", "the job id is empty");
    if (!ids.emplace(f[0]).second) {
      throw InputError(name, line, "job", fmt::format("job id '{}' appears twice", f[0]));
    }
    double v[kFieldCount] = {};
    for (int k = 1; k < kFieldCount; ++k) v[k] = Number(f[static_cast<size_t>(k)], name, line, k);
    // The bounds every format's times and sizes have (sizes as scaled: as they will run).
    for (int k = 1; k <= 2; ++k) CheckSeconds(v[k], name, line, kFields[k]);
    for (int k = 3; k < kFieldCount; ++k)
      CheckBytes(v[k] * o.traffic_scale, name, line, kFields[k]);
    if (v[1] < o.window_start || v[1] >= o.window_end) continue;
    w.jobs.push_back(MakeJob(std::string(f[0]), v[1], v[3] * o.traffic_scale,
                             v[4] * o.traffic_scale, v[5] * o.traffic_scale, o, name, line,
                             budget));
  }
  if (in.bad()) throw InputError(name, 0, "trace", "cannot be read");
  if (ids.empty()) {
    throw InputError(name, std::max(line, 1), "job",
                     "the trace has no job (one line per job: job id, submit, gap, input, "
                     "shuffle, output, tab-separated)");
  }
  std::stable_sort(w.jobs.begin(), w.jobs.end(),
                   [](const JobSpec& a, const JobSpec& b) { return a.submit < b.submit; });
  return w;
}

}  // namespace slotflow
