#include "workload/alibaba_trace.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "api/cluster.h"
#include "api/error.h"
#include "workload/delimited.h"

namespace slotflow {
namespace {

constexpr const char* kFields[] = {"task_name",  "instance_num", "job_name", "task_type", "status",
                                   "start_time", "end_time",     "plan_cpu", "plan_mem"};
constexpr int kFieldCount = 9;

// A non-negative finite number; `whole` = an integer. Empty gives `empty` when it has a value.
double Number(std::string_view token, const std::string& file, int line, int field, bool whole,
              std::optional<double> empty = std::nullopt) {
  if (token.empty() && empty) return *empty;
  double value = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (token.empty() || ec != std::errc() || end != token.data() + token.size()) {
    throw InputError(file, line, kFields[field], fmt::format("expected a number, got '{}'", token));
  }
  if (!std::isfinite(value) || value < 0 || (whole && value != std::floor(value))) {
    throw InputError(file, line, kFields[field],
                     fmt::format("must be a {} non-negative number, got '{}'",
                                 whole ? "whole" : "finite", token));
  }
  return value;
}

// A DAG task name: letters, its number, then `_<parent number>` for each parent.
struct DagName {
  int64_t id = -1;  // -1: not a DAG name (an independent task)
  std::vector<int64_t> parents;
};

DagName ParseDagName(std::string_view name) {
  DagName out;
  size_t i = 0;
  while (i < name.size() && std::isalpha(static_cast<unsigned char>(name[i]))) ++i;
  if (i == 0) return out;
  std::vector<int64_t> numbers;
  while (true) {
    int64_t n = 0;
    const auto [end, ec] = std::from_chars(name.data() + i, name.data() + name.size(), n);
    if (ec != std::errc() || end == name.data() + i || n < 0) return {};
    numbers.push_back(n);
    i = static_cast<size_t>(end - name.data());
    if (i == name.size()) break;
    if (name[i] != '_') return {};
    ++i;
  }
  out.id = numbers[0];
  out.parents.assign(numbers.begin() + 1, numbers.end());
  return out;
}

struct Row {
  std::string task;
  int line = 0;
  int64_t instances = 0;
  bool finished = false;  // Terminated, with times that make a span
  Seconds start = 0, end = 0;
  double cpu = 0, mem = 0;
};

struct JobRows {
  std::string name;
  std::vector<Row> rows;
  bool usable = true;
  Seconds submit = std::numeric_limits<Seconds>::infinity();
};

// The task of one line of kFieldCount fields, each checked.
Row ParseRow(const std::vector<std::string_view>& f, const std::string& name, int line) {
  if (f[0].empty()) throw InputError(name, line, kFields[0], "the task name is empty");
  if (f[2].empty()) throw InputError(name, line, kFields[2], "the job name is empty");
  Row r;
  r.task = std::string(f[0]);
  r.line = line;
  const double instances = Number(f[1], name, line, 1, true);
  if (instances > static_cast<double>(kMaxWorkloadTasks)) {
    throw InputError(name, line, kFields[1],
                     fmt::format("{} instances is more than the {} tasks a workload may have", f[1],
                                 kMaxWorkloadTasks));
  }
  r.instances = static_cast<int64_t>(instances);
  r.start = CheckSeconds(Number(f[5], name, line, 5, true), name, line, kFields[5]);
  r.end = CheckSeconds(Number(f[6], name, line, 6, true), name, line, kFields[6]);
  r.cpu = Number(f[7], name, line, 7, false, 100.0);
  if (r.cpu > 100.0 * kMaxSlotsPerServer) {
    throw InputError(name, line, kFields[7],
                     fmt::format("asks for more than the {} cores a server may have (100 is "
                                 "one core); got '{}'",
                                 kMaxSlotsPerServer, f[7]));
  }
  r.mem = Number(f[8], name, line, 8, false, 0.0);
  if (r.mem > 100) {
    // The trace marks invalid normalised values as 101.
    throw InputError(name, line, kFields[8],
                     fmt::format("is a share of the largest machine's memory, 0 to 100; got "
                                 "'{}'",
                                 f[8]));
  }
  r.finished = f[4] == "Terminated" && r.start > 0 && r.end >= r.start && r.instances > 0;
  return r;
}

// The job's stages in an order where every parent comes first (ties by line order).
JobSpec MakeJob(const JobRows& j, const AlibabaOptions& o, const std::string& file,
                WorkloadBudget& budget, int64_t& parents_dropped) {
  const size_t n = j.rows.size();
  std::vector<DagName> dag(n);
  std::unordered_map<int64_t, size_t> by_id;
  for (size_t k = 0; k < n; ++k) {
    dag[k] = ParseDagName(j.rows[k].task);
    if (dag[k].id < 0) continue;
    const auto [it, fresh] = by_id.emplace(dag[k].id, k);
    if (!fresh) {
      throw InputError(file, j.rows[k].line, "task_name",
                       fmt::format("job '{}' has two tasks numbered {} ('{}' and '{}')", j.name,
                                   dag[k].id, j.rows[it->second].task, j.rows[k].task));
    }
  }
  std::vector<std::vector<size_t>> parents(n), children(n);
  for (size_t k = 0; k < n; ++k) {
    for (int64_t p : dag[k].parents) {
      const auto it = by_id.find(p);
      if (it == by_id.end()) {
        ++parents_dropped;
        continue;
      }
      if (std::find(parents[k].begin(), parents[k].end(), it->second) != parents[k].end()) continue;
      parents[k].push_back(it->second);
      children[it->second].push_back(k);
    }
  }
  // Kahn's order, taking the earliest line among the tasks whose parents are placed.
  std::vector<size_t> waiting(n);
  std::vector<size_t> ready, order;
  for (size_t k = 0; k < n; ++k) {
    waiting[k] = parents[k].size();
    if (waiting[k] == 0) ready.push_back(k);
  }
  while (!ready.empty()) {
    const auto first = std::min_element(ready.begin(), ready.end());
    const size_t k = *first;
    ready.erase(first);
    order.push_back(k);
    for (size_t c : children[k]) {
      if (--waiting[c] == 0) ready.push_back(c);
    }
  }
  if (order.size() < n) {
    size_t k = 0;
    while (waiting[k] == 0) ++k;
    throw InputError(file, j.rows[k].line, "task_name",
                     fmt::format("the tasks of job '{}' read from each other in a cycle ('{}' "
                                 "is in it or waits on it)",
                                 j.name, j.rows[k].task));
  }
  std::vector<int> stage_of(n);
  for (size_t s = 0; s < n; ++s) stage_of[order[s]] = static_cast<int>(s);
  JobSpec job;
  job.name = j.name;
  job.submit = j.submit;
  const Bytes bytes = o.dag_bytes * o.traffic_scale;
  for (size_t k : order) {
    const Row& r = j.rows[k];
    StageSpec st;
    st.name = r.task;
    int64_t parent_tasks = 0;
    for (size_t p : parents[k]) {
      st.parents.push_back(stage_of[p]);
      parent_tasks += j.rows[p].instances;
    }
    std::sort(st.parents.begin(), st.parents.end());
    budget.AddStage(r.instances, parent_tasks, file, r.line, kFields[1]);
    TaskSpec t;
    t.compute = r.end - r.start;
    t.cpus = std::max(1, static_cast<int>(std::ceil(r.cpu / 100)));
    t.memory = r.mem / 100 * o.machine_memory;
    // A root reads a block; any other instance receives dag_bytes from each parent instance,
    // spread over this task's instances.
    t.input = parents[k].empty()
                  ? bytes
                  : bytes * static_cast<double>(parent_tasks) / static_cast<double>(r.instances);
    st.tasks.assign(static_cast<size_t>(r.instances), t);
    job.stages.push_back(std::move(st));
  }
  return job;
}

}  // namespace

bool LooksLikeAlibaba(std::string_view text) {
  const std::string_view line = FirstNonBlankLine(text);
  return !line.empty() && SplitFields(line, ',').size() == kFieldCount;
}

AlibabaTrace ReadAlibabaTrace(std::istream& in, const std::string& name, const AlibabaOptions& o) {
  std::vector<JobRows> jobs;
  std::unordered_map<std::string, size_t> job_index;
  std::string text;
  int line = 0;
  while (std::getline(in, text)) {
    ++line;
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::vector<std::string_view> f = SplitFields(text, ',');
    if (f.size() != kFieldCount) {
      throw InputError(name, line, f.size() < kFieldCount ? kFields[f.size()] : "line",
                       fmt::format("expected 9 comma-separated fields (task_name, instance_num, "
                                   "job_name, task_type, status, start_time, end_time, plan_cpu, "
                                   "plan_mem), got {}",
                                   f.size()));
    }
    Row r = ParseRow(f, name, line);
    const auto [it, fresh] = job_index.emplace(std::string(f[2]), jobs.size());
    if (fresh) jobs.push_back(JobRows{std::string(f[2]), {}});
    JobRows& j = jobs[it->second];
    for (const Row& other : j.rows) {
      if (other.task == r.task) {
        throw InputError(name, line, kFields[0],
                         fmt::format("job '{}' lists task '{}' twice (first at line {})", j.name,
                                     r.task, other.line));
      }
    }
    j.usable = j.usable && r.finished;
    if (r.finished) j.submit = std::min(j.submit, r.start);
    j.rows.push_back(std::move(r));
  }
  if (in.bad()) throw InputError(name, 0, "trace", "cannot be read");
  if (jobs.empty()) {
    throw InputError(name, std::max(line, 1), kFields[0],
                     "the trace has no task (one line per task of batch_task.csv)");
  }
  AlibabaTrace out;
  out.workload.source = name;
  WorkloadBudget budget;
  for (const JobRows& j : jobs) {
    if (!j.usable) {
      // Left out; counted when its known start falls in the window (or it has none).
      if (!std::isfinite(j.submit) || (j.submit >= o.window_start && j.submit < o.window_end)) {
        ++out.jobs_left_out;
      }
      continue;
    }
    if (j.submit < o.window_start || j.submit >= o.window_end) continue;
    out.workload.jobs.push_back(MakeJob(j, o, name, budget, out.parents_dropped));
  }
  const bool windowed = o.window_start > 0 || std::isfinite(o.window_end);
  if (out.workload.jobs.empty() && !windowed) {
    // (A window without jobs is refused by the caller, at the window's setting.)
    throw InputError(name, 1, kFields[4],
                     fmt::format("none of the trace's {} job{} can run: each has a task not "
                                 "Terminated, without start and end times, or without instances",
                                 jobs.size(), jobs.size() == 1 ? "" : "s"));
  }
  std::stable_sort(out.workload.jobs.begin(), out.workload.jobs.end(),
                   [](const JobSpec& a, const JobSpec& b) { return a.submit < b.submit; });
  return out;
}

}  // namespace slotflow
