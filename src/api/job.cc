#include "api/job.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "api/error.h"

namespace slotflow {

Bytes JobSpec::InputBytes() const {
  Bytes b = 0;
  for (const auto& st : stages)
    if (st.parents.empty())
      for (const auto& t : st.tasks) b += t.input;
  return b;
}

Bytes JobSpec::ShuffleBytes() const {
  Bytes b = 0;
  for (const auto& st : stages)
    if (!st.parents.empty())
      for (const auto& t : st.tasks) b += t.input;
  return b;
}

int JobSpec::ParentTasks(size_t s) const {
  int n = 0;
  for (int p : stages[s].parents) n += static_cast<int>(stages[p].tasks.size());
  return n;
}

int JobSpec::TaskCount() const {
  int n = 0;
  for (const auto& st : stages) n += static_cast<int>(st.tasks.size());
  return n;
}

JobSpec MakeMapReduceJob(std::string name, Seconds submit, int maps, Bytes map_input,
                         const std::vector<Bytes>& reduce_input) {
  JobSpec job;
  job.name = std::move(name);
  job.submit = submit;
  StageSpec map{"map", {}, std::vector<TaskSpec>(maps)};
  for (auto& t : map.tasks) t.input = map_input;
  StageSpec reduce{"reduce", {0}, {}};
  for (Bytes b : reduce_input) {
    TaskSpec t;
    t.input = b;
    reduce.tasks.push_back(std::move(t));
  }
  job.stages.push_back(std::move(map));
  if (!reduce.tasks.empty()) job.stages.push_back(std::move(reduce));
  return job;
}

Bytes MapInputPerTask(const std::optional<double>& ratio, const std::vector<Bytes>& reduce_input,
                      int maps) {
  Bytes shuffle = 0, largest = 0;
  for (Bytes b : reduce_input) {
    shuffle += b;
    largest = std::max(largest, b);
  }
  if (maps <= 0) return 0;
  if (ratio) return *ratio * shuffle / maps;
  constexpr BytesPerSecond kBaseNic = 1e9 / 8, kBaseSlotRate = 1e9;
  const Seconds reduce_stage =
      std::max(largest, shuffle / maps) / kBaseNic + largest / kBaseSlotRate;
  return kBaseSlotRate * reduce_stage;
}

void WorkloadBudget::AddStage(int64_t tasks, int64_t parent_tasks, const std::string& file,
                              int line, const std::string& field) {
  // Each count is at most a stage's or a line's worth, so the products cannot overflow before
  // the sums cross their bounds.
  if (tasks > kMaxWorkloadTasks - tasks_) {
    throw InputError(file, line, field,
                     fmt::format("{} more tasks make the workload larger than {} tasks, the most "
                                 "slotflow simulates (200-700 bytes of memory each)",
                                 tasks, kMaxWorkloadTasks));
  }
  tasks_ += tasks;
  if (parent_tasks > 0 && tasks > (kMaxShufflePairs - pairs_) / parent_tasks) {
    throw InputError(file, line, field,
                     fmt::format("{} tasks each receiving from {} parent tasks make the "
                                 "workload's shuffle larger than {} task pairs, the most "
                                 "slotflow simulates",
                                 tasks, parent_tasks, kMaxShufflePairs));
  }
  pairs_ += tasks * parent_tasks;
}

void Workload::Validate(int servers) const {
  auto bad = [&](const JobSpec& j, const std::string& field, const std::string& msg) {
    return InputError(source, 0, fmt::format("job '{}'.{}", j.name, field), msg);
  };
  for (const auto& j : jobs) {
    if (!std::isfinite(j.submit) || j.submit < 0)
      throw bad(j, "submit", "must be a non-negative time");
    if (j.stages.empty()) throw bad(j, "stages", "a job needs at least one stage");
    for (size_t s = 0; s < j.stages.size(); ++s) {
      const auto& st = j.stages[s];
      const std::string sp = fmt::format("stage '{}'", st.name);
      if (st.tasks.empty()) throw bad(j, sp + ".tasks", "a stage needs at least one task");
      size_t parent_tasks = 0;
      for (int p : st.parents) {
        if (p < 0 || static_cast<size_t>(p) >= s)
          throw bad(j, sp + ".parents", fmt::format("parent {} is not an earlier stage", p));
        parent_tasks += j.stages[p].tasks.size();
      }
      if (!st.replicas.empty() && st.replicas.size() != st.tasks.size())
        throw bad(j, sp + ".replicas", "needs one entry per task");
      for (size_t k = 0; k < st.tasks.size(); ++k) {
        const auto& t = st.tasks[k];
        const std::string tp = fmt::format("{}.task[{}]", sp, k);
        if (!std::isfinite(t.input) || t.input < 0)
          throw bad(j, tp + ".input", "must be a non-negative size");
        if (!std::isfinite(t.compute)) throw bad(j, tp + ".compute", "must be finite");
        if (!std::isfinite(t.work)) throw bad(j, tp + ".work", "must be finite");
        if (!std::isfinite(t.output)) throw bad(j, tp + ".output", "must be finite");
        if (!std::isfinite(t.memory) || t.memory < 0)
          throw bad(j, tp + ".memory", "must be a non-negative size");
        if (t.cpus < 1) throw bad(j, tp + ".cpus", "must be at least 1");
        if (t.pinned != kNoServer && (t.pinned < 0 || t.pinned >= servers))
          throw bad(j, tp + ".server",
                    fmt::format("server {} is outside the cluster (0..{})", t.pinned, servers - 1));
        if (t.avoid != kNoServer && (t.avoid < 0 || t.avoid >= servers || servers < 2))
          throw bad(
              j, tp + ".avoid",
              fmt::format("server {} cannot be avoided in a cluster of {}", t.avoid, servers));
        for (ServerId r : st.replicas.empty() ? std::vector<ServerId>{} : st.replicas[k]) {
          if (r < 0 || r >= servers)
            throw bad(j, tp + ".replicas",
                      fmt::format("server {} is outside the cluster (0..{})", r, servers - 1));
        }
        if (!t.from.empty()) {
          if (t.from.size() != parent_tasks)
            throw bad(j, tp + ".from",
                      fmt::format("has {} entries but the parent stages have {} tasks",
                                  t.from.size(), parent_tasks));
          for (Bytes b : t.from)
            if (!std::isfinite(b) || b < 0)
              throw bad(j, tp + ".from", "sizes must be non-negative");
        }
      }
    }
  }
}

}  // namespace slotflow
