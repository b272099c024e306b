// One job of a job file: a [[job]] table of a TOML file, or the table a line of a JSON Lines
// file becomes (workload/job_file.h reads the files themselves). Every key is checked as
// docs/job-file.md describes it, and every problem throws InputError with the file, the line and
// the dotted field ("job[0].stage[1].input"; indices count from 0 in file order).
#pragma once

#include <toml++/toml.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "api/cluster.h"
#include "api/job.h"

namespace slotflow {

class JobTableReader {
 public:
  // `file` names the file in errors and must outlive the reader. Pinned servers are checked
  // against `servers`, those of the file's [cluster]; with 0 (no [cluster]) the caller checks
  // them against its cluster with Workload::Validate.
  JobTableReader(const std::string& file, int servers);

  // Job `index`'s tasks, counted towards `budget` before any job is read: a file of a thousand
  // stages of a million tasks each is refused at the stage that crosses the bound, not by
  // running out of memory. A value Read refuses later counts as nothing here.
  void Count(const toml::table& job, size_t index, WorkloadBudget& budget) const;

  // Job `index`: its name defaults to "job<index>" and its fields are named "job[index]...".
  // Its tasks count towards the reader's own budget, over all the jobs it reads.
  JobSpec Read(const toml::table& job, size_t index);

 private:
  struct ComputeSpec;
  struct StageDefaults;

  void CountJob(const toml::table& job, const std::string& prefix, WorkloadBudget& budget) const;
  void CountProfileTasks(const toml::table& job, const std::string& prefix,
                         WorkloadBudget& budget) const;

  JobSpec ReadJob(const toml::table& t, size_t index, const std::string& prefix);
  JobSpec ReadProfileJob(const toml::table& t, const std::string& prefix, JobSpec job);
  int ReadPriority(const toml::node& n, const std::string& field);
  ComputeSpec ReadCompute(const toml::table& t, const std::string& prefix);
  ServerId ReadServer(const toml::node& n, const std::string& field);
  std::vector<Bytes> ReadFrom(const toml::node& n, const std::string& field, size_t parent_tasks,
                              bool root);
  std::optional<Bytes> OptionalBytes(const toml::table& table, const std::string& prefix,
                                     const char* key, std::optional<Bytes> fallback) const;
  std::optional<int> OptionalCpus(const toml::table& table, const std::string& prefix,
                                  std::optional<int> fallback) const;

  StageSpec ReadStage(const toml::table& t, size_t index, const std::string& prefix,
                      const JobSpec& job);
  std::string ReadStageName(const toml::table& t, size_t index, const std::string& prefix,
                            const JobSpec& job);
  std::vector<int> ReadParents(const toml::table& t, const std::string& prefix, const JobSpec& job,
                               size_t& parent_tasks);
  int64_t ReadTaskLists(const toml::table& t, const std::string& prefix, StageDefaults& d);

  TaskSpec ReadTask(const StageDefaults& d, int64_t i, const std::string& prefix,
                    std::vector<ServerId>& replicas);
  std::vector<ServerId> ReadReplicas(const toml::node& n, const std::string& field, bool root);
  void ReadTaskInput(const StageDefaults& d, const toml::table* own, int64_t i,
                     const std::string& prefix, TaskSpec& task);

  const std::string& file_;
  int servers_ = 0;  // servers of the file's [cluster]; 0 when it has none
  WorkloadBudget budget_;
};

}  // namespace slotflow
