#include "workload/job_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "api/error.h"
#include "api/tolerance.h"
#include "cluster/cluster_config.h"
#include "workload/profiles.h"

namespace slotflow {
namespace {

using toml_input::CheckKeys;
using toml_input::Fail;
using toml_input::Field;
using toml_input::GetArray;
using toml_input::GetBytes;
using toml_input::GetInt;
using toml_input::GetSeconds;
using toml_input::GetString;
using toml_input::GetTable;
using toml_input::GetTableArray;
using toml_input::Line;

// Guards against a typo such as `tasks = 40000000` allocating gigabytes.
constexpr int64_t kMaxTasksPerStage = 1'000'000;

// A value together with the line it came from.
template <typename T>
struct Located {
  T value;
  int line;
};

}  // namespace

// How a task's compute is given: `compute` seconds or `work` bytes, at most one of them.
struct JobTableReader::ComputeSpec {
  std::optional<Seconds> compute;
  std::optional<Bytes> work;
};

// What a stage gives its tasks: the defaults they share and the per-task lists.
struct JobTableReader::StageDefaults {
  bool root = true;
  size_t parent_tasks = 0;
  std::optional<Located<Bytes>> input;
  ComputeSpec compute;
  std::optional<Bytes> output, memory;
  std::optional<int> cpus;
  const toml::array* task_list = nullptr;
  const toml::array* servers = nullptr;
  const toml::array* from = nullptr;
};

JobTableReader::JobTableReader(const std::string& file, int servers)
    : file_(file), servers_(servers) {}

void JobTableReader::Count(const toml::table& job, size_t index, WorkloadBudget& budget) const {
  CountJob(job, fmt::format("job[{}]", index), budget);
}

JobSpec JobTableReader::Read(const toml::table& job, size_t index) {
  return ReadJob(job, index, fmt::format("job[{}]", index));
}

// One job's stages, counted towards `budget` (see Count).
void JobTableReader::CountJob(const toml::table& job, const std::string& prefix,
                              WorkloadBudget& budget) const {
  if (job.get("profile") != nullptr) {
    CountProfileTasks(job, prefix, budget);
    return;
  }
  const toml::array* stages = job.get_as<toml::array>("stage");
  for (size_t k = 0; stages != nullptr && k < stages->size(); ++k) {
    const toml::table* stage = (*stages)[k].as_table();
    if (stage == nullptr) continue;
    const std::string field = Field(fmt::format("{}.stage[{}]", prefix, k), "tasks");
    if (const auto* n = stage->get_as<int64_t>("tasks")) {
      budget.AddStage(std::clamp<int64_t>(n->get(), 0, kMaxTasksPerStage), 0, file_, Line(*n),
                      field);
    } else if (const auto* list = stage->get_as<toml::array>("task")) {
      budget.AddStage(static_cast<int64_t>(list->size()), 0, file_, Line(*stage), field);
    }
  }
}

// A profile job's maps and reduces, as ReadProfileJob will make them.
void JobTableReader::CountProfileTasks(const toml::table& job, const std::string& prefix,
                                       WorkloadBudget& budget) const {
  const toml::node* in = job.get("input");
  if (in == nullptr) return;
  Bytes input = 0, block = 128.0 * 1024 * 1024;
  try {
    input = GetBytes(*in, file_, Field(prefix, "input"));
    if (const auto* n = job.get("block_size")) {
      block = GetBytes(*n, file_, Field(prefix, "block_size"));
    }
  } catch (const InputError&) {
    return;
  }
  if (!(block > 0) || !(input / block <= kMaxTasksPerStage)) return;
  budget.AddStage(static_cast<int64_t>(std::max(1.0, std::ceil(input / block))), 0, file_,
                  Line(*in), Field(prefix, "input"));
  const auto* n = job.get_as<int64_t>("reduces");
  budget.AddStage(n != nullptr ? std::clamp<int64_t>(n->get(), 0, kMaxTasksPerStage) : 1, 0, file_,
                  Line(n != nullptr ? *n : *in), Field(prefix, "reduces"));
}

JobSpec JobTableReader::ReadJob(const toml::table& t, size_t index, const std::string& prefix) {
  CheckKeys(t, file_, prefix,
            {"name", "submit", "size_estimate", "priority", "queue", "stage", "profile", "input",
             "block_size", "reduces"});
  JobSpec job;
  job.name = fmt::format("job{}", index);
  if (const auto* n = t.get("name")) {
    job.name = GetString(*n, file_, Field(prefix, "name"));
    if (job.name.empty()) Fail(file_, Line(*n), Field(prefix, "name"), "must not be empty");
  }
  if (const auto* n = t.get("submit")) {
    job.submit = GetSeconds(*n, file_, Field(prefix, "submit"));
  }
  if (const auto* n = t.get("size_estimate")) {
    job.size_estimate = GetBytes(*n, file_, Field(prefix, "size_estimate"));
  }
  if (const auto* n = t.get("priority")) {
    job.priority = ReadPriority(*n, Field(prefix, "priority"));
  }
  if (const auto* n = t.get("queue")) job.queue = GetString(*n, file_, Field(prefix, "queue"));
  if (t.get("profile") != nullptr) return ReadProfileJob(t, prefix, std::move(job));
  for (const char* key : {"input", "block_size", "reduces"}) {
    if (const auto* n = t.get(key)) {
      Fail(file_, Line(*n), Field(prefix, key), "only a job with a `profile` takes this key");
    }
  }

  const auto* stages = t.get("stage");
  if (stages == nullptr) {
    Fail(file_, Line(t), Field(prefix, "stage"), "a job needs at least one [[job.stage]]");
  }
  const toml::array& list = GetTableArray(*stages, file_, Field(prefix, "stage"), "job.stage");
  if (list.empty()) Fail(file_, Line(*stages), Field(prefix, "stage"), "a job needs a stage");
  for (size_t k = 0; k < list.size(); ++k) {
    const std::string sp = fmt::format("{}.stage[{}]", prefix, k);
    job.stages.push_back(ReadStage(GetTable(list[k], file_, sp), k, sp, job));
  }
  return job;
}

// A job of a named profile (workload/profiles.h) over `input` bytes: its stages are made,
// so it may not list any.
JobSpec JobTableReader::ReadProfileJob(const toml::table& t, const std::string& prefix,
                                       JobSpec job) {
  const toml::node& p = *t.get("profile");
  const std::string name = GetString(p, file_, Field(prefix, "profile"));
  const JobProfile* profile = FindJobProfile(name);
  if (profile == nullptr) {
    std::string known;
    for (const JobProfile& jp : JobProfiles()) known += (known.empty() ? "" : ", ") + jp.name;
    Fail(file_, Line(p), Field(prefix, "profile"),
         fmt::format("unknown profile '{}' (known: {})", name, known));
  }
  if (const auto* n = t.get("stage")) {
    Fail(file_, Line(*n), Field(prefix, "stage"),
         "a job with a `profile` gets its stages from it; give one or the other");
  }
  const auto* in = t.get("input");
  if (in == nullptr) Fail(file_, Line(t), Field(prefix, "input"), "a profile job needs `input`");
  const Bytes input = GetBytes(*in, file_, Field(prefix, "input"));
  if (!(input > 0)) Fail(file_, Line(*in), Field(prefix, "input"), "must be positive");
  Bytes block = 128.0 * 1024 * 1024;  // HDFS's default block size (Hadoop 2.x)
  if (const auto* n = t.get("block_size")) {
    block = GetBytes(*n, file_, Field(prefix, "block_size"));
    if (!(block > 0) || input / block > kMaxTasksPerStage) {
      Fail(file_, Line(*n), Field(prefix, "block_size"),
           fmt::format("must be positive and make at most {} maps of the {} input",
                       kMaxTasksPerStage, FormatBytes(input)));
    }
  } else if (input / block > kMaxTasksPerStage) {
    Fail(file_, Line(*in), Field(prefix, "input"),
         fmt::format("makes {:.0f} maps of 128 MiB blocks; a stage has at most {} tasks "
                     "(give a larger block_size)",
                     std::ceil(input / block), kMaxTasksPerStage));
  }
  const auto maps = static_cast<int64_t>(std::max(1.0, std::ceil(input / block)));
  budget_.AddStage(maps, 0, file_, Line(*in), Field(prefix, "input"));
  int64_t reduces = 1;  // Hadoop's default mapreduce.job.reduces
  int reduces_line = Line(*in);
  if (const auto* n = t.get("reduces")) {
    reduces = GetInt(*n, file_, Field(prefix, "reduces"), 0, kMaxTasksPerStage);
    reduces_line = Line(*n);
  }
  budget_.AddStage(reduces, maps, file_, reduces_line, Field(prefix, "reduces"));
  JobSpec made =
      MakeProfileJob(*profile, job.name, job.submit, input, block, static_cast<int>(reduces));
  made.size_estimate = job.size_estimate;
  made.priority = job.priority;
  made.queue = job.queue;
  return made;
}

// 1..5, or the JTPW names VL, L, N, H, VH (JTPW Table 2).
int JobTableReader::ReadPriority(const toml::node& n, const std::string& field) {
  if (const auto* s = n.as_string()) {
    static constexpr std::string_view kNames[] = {"VL", "L", "N", "H", "VH"};
    for (int p = 0; p < 5; ++p) {
      if (s->get() == kNames[p]) return p + 1;
    }
    Fail(file_, Line(n), field,
         fmt::format("expected 1..5 or one of VL, L, N, H, VH, got '{}'", s->get()));
  }
  return static_cast<int>(GetInt(n, file_, field, 1, 5));
}

JobTableReader::ComputeSpec JobTableReader::ReadCompute(const toml::table& t,
                                                        const std::string& prefix) {
  ComputeSpec c;
  if (const auto* n = t.get("compute")) {
    c.compute = GetSeconds(*n, file_, Field(prefix, "compute"));
  }
  if (const auto* n = t.get("work")) {
    c.work = GetBytes(*n, file_, Field(prefix, "work"));
    if (c.compute) {
      Fail(file_, Line(*n), Field(prefix, "work"),
           "give either compute (seconds) or work (bytes), not both");
    }
  }
  return c;
}

ServerId JobTableReader::ReadServer(const toml::node& n, const std::string& field) {
  const int64_t hi = servers_ > 0 ? servers_ - 1 : std::numeric_limits<int32_t>::max();
  return static_cast<ServerId>(GetInt(n, file_, field, 0, hi));
}

std::vector<Bytes> JobTableReader::ReadFrom(const toml::node& n, const std::string& field,
                                            size_t parent_tasks, bool root) {
  if (root) {
    Fail(file_, Line(n), field, "a root stage (no parents) reads input blocks, not `from`");
  }
  const toml::array& list = GetArray(n, file_, field);
  if (list.size() != parent_tasks) {
    Fail(file_, Line(n), field,
         fmt::format("has {} entries but the parent stages have {} tasks", list.size(),
                     parent_tasks));
  }
  std::vector<Bytes> from;
  from.reserve(list.size());
  for (size_t i = 0; i < list.size(); ++i) {
    from.push_back(GetBytes(list[i], file_, fmt::format("{}[{}]", field, i)));
  }
  return from;
}

std::optional<Bytes> JobTableReader::OptionalBytes(const toml::table& table,
                                                   const std::string& prefix, const char* key,
                                                   std::optional<Bytes> fallback) const {
  if (const auto* n = table.get(key)) return GetBytes(*n, file_, Field(prefix, key));
  return fallback;
}

// A task's slots: a whole number from 1 to kMaxSlotsPerServer (no server has more).
std::optional<int> JobTableReader::OptionalCpus(const toml::table& table, const std::string& prefix,
                                                std::optional<int> fallback) const {
  if (const auto* n = table.get("cpus")) {
    return static_cast<int>(GetInt(*n, file_, Field(prefix, "cpus"), 1, kMaxSlotsPerServer));
  }
  return fallback;
}

StageSpec JobTableReader::ReadStage(const toml::table& t, size_t index, const std::string& prefix,
                                    const JobSpec& job) {
  CheckKeys(t, file_, prefix,
            {"name", "parents", "tasks", "input", "compute", "work", "servers", "from", "task",
             "output", "memory", "cpus"});
  StageSpec stage;
  stage.name = ReadStageName(t, index, prefix, job);
  StageDefaults d;
  stage.parents = ReadParents(t, prefix, job, d.parent_tasks);
  d.root = stage.parents.empty();
  // Stage-level values are the defaults of every task.
  if (const auto* n = t.get("input")) {
    d.input = Located<Bytes>{GetBytes(*n, file_, Field(prefix, "input")), Line(*n)};
  }
  d.compute = ReadCompute(t, prefix);
  d.output = OptionalBytes(t, prefix, "output", std::nullopt);
  d.memory = OptionalBytes(t, prefix, "memory", std::nullopt);
  d.cpus = OptionalCpus(t, prefix, std::nullopt);
  const int64_t count = ReadTaskLists(t, prefix, d);
  stage.tasks.resize(count);
  std::vector<std::vector<ServerId>> replicas(count);
  bool any_replicas = false;
  for (int64_t i = 0; i < count; ++i) {
    stage.tasks[i] = ReadTask(d, i, prefix, replicas[i]);
    any_replicas = any_replicas || !replicas[i].empty();
  }
  if (any_replicas) stage.replicas = std::move(replicas);
  return stage;
}

std::string JobTableReader::ReadStageName(const toml::table& t, size_t index,
                                          const std::string& prefix, const JobSpec& job) {
  std::string name = fmt::format("stage{}", index);
  if (const auto* n = t.get("name")) {
    name = GetString(*n, file_, Field(prefix, "name"));
    if (name.empty()) Fail(file_, Line(*n), Field(prefix, "name"), "must not be empty");
    for (const StageSpec& earlier : job.stages) {
      if (earlier.name == name) {
        Fail(file_, Line(*n), Field(prefix, "name"),
             fmt::format("duplicate stage name '{}' in this job", name));
      }
    }
  }
  return name;
}

// The indices of the stage's parents; adds up their tasks in `parent_tasks`.
std::vector<int> JobTableReader::ReadParents(const toml::table& t, const std::string& prefix,
                                             const JobSpec& job, size_t& parent_tasks) {
  StageSpec stage;  // collects the parents
  if (const auto* n = t.get("parents")) {
    const std::string field = Field(prefix, "parents");
    const toml::array& list = GetArray(*n, file_, field);
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string name = GetString(list[i], file_, fmt::format("{}[{}]", field, i));
      int found = -1;
      for (size_t s = 0; s < job.stages.size(); ++s) {
        if (job.stages[s].name == name) found = static_cast<int>(s);
      }
      if (found < 0) {
        std::string known;
        for (const StageSpec& s : job.stages) {
          known += fmt::format("{}'{}'", known.empty() ? "" : ", ", s.name);
        }
        Fail(file_, Line(list[i]), field,
             fmt::format("'{}' is not an earlier stage of this job (earlier stages: {})", name,
                         known.empty() ? "none" : known));
      }
      if (std::find(stage.parents.begin(), stage.parents.end(), found) != stage.parents.end()) {
        Fail(file_, Line(list[i]), field, fmt::format("parent '{}' is listed twice", name));
      }
      stage.parents.push_back(found);
      parent_tasks += job.stages[found].tasks.size();
    }
  }
  return stage.parents;
}

// The task count and the per-task lists (servers, from, [[task]]); returns the count.
int64_t JobTableReader::ReadTaskLists(const toml::table& t, const std::string& prefix,
                                      StageDefaults& d) {
  const bool root = d.root;
  const toml::array*& task_list = d.task_list;
  if (const auto* n = t.get("task")) {
    task_list = &GetTableArray(*n, file_, Field(prefix, "task"), "job.stage.task");
  }
  int64_t count = -1;
  if (const auto* n = t.get("tasks")) {
    count = GetInt(*n, file_, Field(prefix, "tasks"), 1, kMaxTasksPerStage);
    if (task_list != nullptr && static_cast<size_t>(count) != task_list->size()) {
      Fail(file_, Line(*n), Field(prefix, "tasks"),
           fmt::format("says {} tasks but the stage lists {} [[task]] entries", count,
                       task_list->size()));
    }
  } else if (task_list != nullptr) {
    count = static_cast<int64_t>(task_list->size());
  }
  if (count <= 0) {
    Fail(file_, Line(t), Field(prefix, "tasks"),
         "give a task count (tasks = N) or a list of [[job.stage.task]] entries");
  }
  const toml::node* tasks = t.get("tasks");
  budget_.AddStage(count, static_cast<int64_t>(d.parent_tasks), file_,
                   tasks != nullptr ? Line(*tasks) : Line(t), Field(prefix, "tasks"));

  const toml::array*& servers = d.servers;
  if (const auto* n = t.get("servers")) {
    servers = &GetArray(*n, file_, Field(prefix, "servers"));
    if (servers->size() != static_cast<size_t>(count)) {
      Fail(file_, Line(*n), Field(prefix, "servers"),
           fmt::format("has {} entries but the stage has {} tasks", servers->size(), count));
    }
  }
  const toml::array*& from = d.from;
  if (const auto* n = t.get("from")) {
    from = &GetArray(*n, file_, Field(prefix, "from"));
    if (root) {
      Fail(file_, Line(*n), Field(prefix, "from"),
           "a root stage (no parents) reads input blocks, not `from`");
    }
    if (from->size() != static_cast<size_t>(count)) {
      Fail(file_, Line(*n), Field(prefix, "from"),
           fmt::format("has {} entries (one list per task) but the stage has {} tasks",
                       from->size(), count));
    }
  }
  return count;
}

// Task i of a stage; its input block's replica holders, when it names them, in `replicas`.
TaskSpec JobTableReader::ReadTask(const StageDefaults& d, int64_t i, const std::string& prefix,
                                  std::vector<ServerId>& replicas) {
  TaskSpec task;
  const toml::table* own = nullptr;
  const std::string tp = fmt::format("{}.task[{}]", prefix, i);
  if (d.task_list != nullptr) {
    own = &GetTable((*d.task_list)[i], file_, tp);
    CheckKeys(
        *own, file_, tp,
        {"input", "compute", "work", "server", "from", "output", "memory", "cpus", "replicas"});
  }
  const std::optional<Bytes> output = own ? OptionalBytes(*own, tp, "output", d.output) : d.output;
  const std::optional<Bytes> memory = own ? OptionalBytes(*own, tp, "memory", d.memory) : d.memory;
  if (output) task.output = *output;
  if (memory) task.memory = *memory;
  if (const std::optional<int> cpus = own ? OptionalCpus(*own, tp, d.cpus) : d.cpus) {
    task.cpus = *cpus;
  }
  if (const auto* n = own ? own->get("replicas") : nullptr) {
    replicas = ReadReplicas(*n, Field(tp, "replicas"), d.root);
  }
  // Pinning: the stage's servers list, or the task's own server.
  if (d.servers != nullptr) {
    task.pinned = ReadServer((*d.servers)[i], fmt::format("{}.servers[{}]", prefix, i));
  }
  if (const auto* n = own ? own->get("server") : nullptr) {
    if (d.servers != nullptr) {
      Fail(file_, Line(*n), Field(tp, "server"),
           "the stage already pins its tasks with `servers`; give one or the other");
    }
    task.pinned = ReadServer(*n, Field(tp, "server"));
  }
  ReadTaskInput(d, own, i, prefix, task);
  // Compute: the task's own compute/work replaces the stage's.
  ComputeSpec c = d.compute;
  if (own != nullptr && (own->get("compute") != nullptr || own->get("work") != nullptr)) {
    c = ReadCompute(*own, tp);
  }
  if (c.compute) task.compute = *c.compute;
  if (c.work) task.work = *c.work;
  return task;
}

std::vector<ServerId> JobTableReader::ReadReplicas(const toml::node& n, const std::string& field,
                                                   bool root) {
  if (!root) Fail(file_, Line(n), field, "only tasks of a root stage read input blocks");
  std::vector<ServerId> replicas;
  const toml::array& list = GetArray(n, file_, field);
  for (size_t k = 0; k < list.size(); ++k) {
    const ServerId r = ReadServer(list[k], fmt::format("{}[{}]", field, k));
    if (std::find(replicas.begin(), replicas.end(), r) != replicas.end()) {
      Fail(file_, Line(list[k]), field, fmt::format("server {} is listed twice", r));
    }
    replicas.push_back(r);
  }
  return replicas;
}

// Input: the sum of `from` when given (per parent task), else the input value.
void JobTableReader::ReadTaskInput(const StageDefaults& d, const toml::table* own, int64_t i,
                                   const std::string& prefix, TaskSpec& task) {
  const std::string tp = fmt::format("{}.task[{}]", prefix, i);
  std::optional<Located<Bytes>> task_input = d.input;
  if (const auto* n = own ? own->get("input") : nullptr) {
    task_input = Located<Bytes>{GetBytes(*n, file_, Field(tp, "input")), Line(*n)};
  }
  bool has_from = false;
  int from_line = 0;
  std::string from_field;
  if (d.from != nullptr) {
    has_from = true;
    from_field = fmt::format("{}.from[{}]", prefix, i);
    from_line = Line((*d.from)[i]);
    task.from = ReadFrom((*d.from)[i], from_field, d.parent_tasks, d.root);
  }
  if (const auto* n = own ? own->get("from") : nullptr) {
    if (d.from != nullptr) {
      Fail(file_, Line(*n), Field(tp, "from"),
           "the stage already gives `from` for its tasks; give one or the other");
    }
    has_from = true;
    from_field = Field(tp, "from");
    from_line = Line(*n);
    task.from = ReadFrom(*n, from_field, d.parent_tasks, d.root);
    // A stage-level input is a default for tasks without `from`; only the task's own
    // input must agree with its `from`.
    if (own->get("input") == nullptr) task_input.reset();
  }
  if (!has_from) {
    if (task_input) task.input = task_input->value;
    return;
  }
  Bytes sum = 0;
  for (Bytes b : task.from) sum += b;
  if (task_input && std::fabs(task_input->value - sum) > kRelTolerance * std::max(sum, 1.0)) {
    Fail(file_, from_line, from_field,
         fmt::format("sums to {} bytes but the task's input is {} bytes (line {}); the "
                     "input of a task with `from` is the sum, so give one of them",
                     sum, task_input->value, task_input->line));
  }
  task.input = sum;
}

}  // namespace slotflow
