#include "workload/job_file.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "api/error.h"
#include "cluster/cluster_config.h"
#include "common/input_file.h"
#include "common/json_input.h"
#include "workload/job_table.h"

namespace slotflow {
namespace {

using toml_input::CheckKeys;
using toml_input::Fail;
using toml_input::Field;
using toml_input::GetTable;
using toml_input::GetTableArray;
using toml_input::Line;

// A TOML job file: its [cluster], then every [[job]], counted before any is read.
JobFile ReadTomlJobs(const toml::table& root, const std::string& file) {
  CheckKeys(root, file, "", {"cluster", "job"});
  JobFile result;
  result.workload.source = file;
  int servers = 0;
  if (const auto* node = root.get("cluster")) {
    ClusterSpec spec;
    ApplyClusterToml(GetTable(*node, file, "cluster"), file, spec);
    servers = spec.ServerCount();
    result.cluster = std::move(spec);
  }
  const auto* jobs = root.get("job");
  if (jobs == nullptr) Fail(file, 1, "job", "the file defines no job: add a [[job]] table");
  const toml::array& list = GetTableArray(*jobs, file, "job", "job");
  if (list.empty()) Fail(file, Line(*jobs), "job", "the file defines no job");
  JobTableReader reader(file, servers);
  WorkloadBudget budget;
  for (size_t i = 0; i < list.size(); ++i) {
    const toml::table* job = list[i].as_table();
    if (job != nullptr) reader.Count(*job, i, budget);
  }
  std::unordered_set<std::string> names;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string prefix = fmt::format("job[{}]", i);
    JobSpec job = reader.Read(GetTable(list[i], file, prefix), i);
    if (!names.insert(job.name).second) {
      Fail(file, Line(list[i]), Field(prefix, "name"),
           fmt::format("duplicate job name '{}'", job.name));
    }
    result.workload.jobs.push_back(std::move(job));
  }
  std::stable_sort(result.workload.jobs.begin(), result.workload.jobs.end(),
                   [](const JobSpec& a, const JobSpec& b) { return a.submit < b.submit; });
  // Everything Validate checks is checked above with a line number; this is the final word
  // on the structure. Without a [cluster] the pinned-server range is left to the caller.
  result.workload.Validate(servers > 0 ? servers : std::numeric_limits<int>::max());
  return result;
}

}  // namespace

JobFile ParseJobFile(std::string_view text, const std::string& name_for_messages) {
  toml::table root;
  try {
    root = toml::parse(text, std::string_view(name_for_messages));
  } catch (const toml::parse_error& e) {
    throw InputError(name_for_messages, static_cast<int>(e.source().begin.line), "",
                     fmt::format("TOML syntax error: {}", e.description()));
  }
  return ReadTomlJobs(root, name_for_messages);
}

bool LooksLikeJobLines(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && text[first] == '{';
}

namespace {

// Calls visit(table, index, line) for each job line of `text` (blank lines skipped), the table
// built from the line's JSON object; an InputError from it is reported at the line.
template <class Visit>
size_t ForEachJobLine(std::string_view text, const std::string& name, Visit visit) {
  int line = 0;
  size_t index = 0;
  while (!text.empty()) {
    const size_t eol = text.find('\n');
    const std::string_view row = text.substr(0, eol);
    text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
    ++line;
    if (row.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    const std::string prefix = fmt::format("job[{}]", index);
    const nlohmann::json j = json_input::Parse(row, name, line, prefix);
    if (!j.is_object()) Fail(name, line, prefix, "each line must be one JSON object (a job)");
    try {
      visit(json_input::ToToml(j, name, line, prefix), index, line);
    } catch (const InputError& e) {
      // Built from JSON, the table's nodes have no TOML line: the job's line stands for them.
      throw InputError(name, line, e.field(), e.message());
    }
    ++index;
  }
  return index;
}

}  // namespace

JobFile ParseJobLines(std::string_view text, const std::string& name) {
  JobFile result;
  result.workload.source = name;
  JobTableReader reader(name, 0);
  // Two passes, as a TOML file is read: every job's tasks are counted against the workload's
  // bound before any task is made, so a file past it is refused without its memory.
  WorkloadBudget budget;
  const size_t jobs = ForEachJobLine(
      text, name, [&](const toml::table& t, size_t index, int) { reader.Count(t, index, budget); });
  if (jobs == 0) Fail(name, 1, "job", "the file defines no job (one JSON object per line)");
  result.workload.jobs.reserve(jobs);
  std::unordered_set<std::string> names;
  ForEachJobLine(text, name, [&](const toml::table& t, size_t index, int line) {
    JobSpec job = reader.Read(t, index);
    if (!names.insert(job.name).second) {
      Fail(name, line, Field(fmt::format("job[{}]", index), "name"),
           fmt::format("duplicate job name '{}'", job.name));
    }
    result.workload.jobs.push_back(std::move(job));
  });
  std::stable_sort(result.workload.jobs.begin(), result.workload.jobs.end(),
                   [](const JobSpec& a, const JobSpec& b) { return a.submit < b.submit; });
  result.workload.Validate(std::numeric_limits<int>::max());
  return result;
}

JobFile ReadJobFile(const std::string& path) {
  return ParseJobFile(ReadInputFile(path, "jobs"), path);
}

}  // namespace slotflow
