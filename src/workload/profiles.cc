#include "workload/profiles.h"

#include <algorithm>
#include <cmath>

namespace slotflow {

const std::vector<JobProfile>& JobProfiles() {
  constexpr Bytes kGiB = 1024.0 * 1024 * 1024;
  // Terasort: every record leaves the map (ρ = 1) and is written once more by the reduce
  // (TeraSort's output replication is 1); little CPU per byte (100 MB/s per core, ours).
  // Grep: a regular expression over every line, only match counts leave the map (ρ = 0.001,
  // ours); much CPU per byte (10 MB/s per core, ours). Both: 1 GiB containers, Hadoop 2.7's
  // default map and reduce memory. docs/job-file.md says more.
  static const std::vector<JobProfile> profiles = {
      {.name = "terasort",
       .map_seconds_per_gb = 10,
       .map_output_ratio = 1,
       .reduce_seconds_per_gb = 10,
       .reduce_output_ratio = 1,
       .task_memory = kGiB},
      {.name = "grep",
       .map_seconds_per_gb = 100,
       .map_output_ratio = 0.001,
       .reduce_seconds_per_gb = 100,
       .reduce_output_ratio = 1,
       .task_memory = kGiB},
  };
  return profiles;
}

const JobProfile* FindJobProfile(std::string_view name) {
  for (const JobProfile& p : JobProfiles()) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

JobSpec MakeProfileJob(const JobProfile& profile, std::string name, Seconds submit, Bytes input,
                       Bytes block, int reduces) {
  const auto maps = static_cast<int>(std::max(1.0, std::ceil(input / block)));
  std::vector<Bytes> reduce_input(reduces, input * profile.map_output_ratio / reduces);
  JobSpec job = MakeMapReduceJob(std::move(name), submit, maps, block, reduce_input);
  for (int m = 0; m < maps; ++m) {
    TaskSpec& t = job.stages[0].tasks[m];
    t.input = m + 1 < maps ? block : input - block * (maps - 1);
    t.compute = t.input / 1e9 * profile.map_seconds_per_gb;
    t.output = t.input * profile.map_output_ratio;
    t.memory = profile.task_memory;
  }
  if (job.stages.size() < 2) return job;
  for (TaskSpec& t : job.stages[1].tasks) {
    t.compute = t.input / 1e9 * profile.reduce_seconds_per_gb;
    t.output = t.input * profile.reduce_output_ratio;
    t.memory = profile.task_memory;
  }
  return job;
}

}  // namespace slotflow
