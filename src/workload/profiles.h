// Job profiles: named kinds of MapReduce job described per byte (the Terasort and Grep jobs of
// JTPW §3.2), so that a job file can say "a Terasort-like job over 1 GB" instead of listing its
// tasks. A profile gives each stage's compute per byte at CPU speed 1, the map output / input
// ratio ρ (JTPW §2.1, eq. (1)), the reduce output / input ratio and each task's memory.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/job.h"

namespace slotflow {

struct JobProfile {
  std::string name;
  Seconds map_seconds_per_gb = 0;     // compute per 10^9 input bytes at cpu_speed 1
  double map_output_ratio = 1;        // ρ: map output / map input
  Seconds reduce_seconds_per_gb = 0;  // per 10^9 bytes received
  double reduce_output_ratio = 1;     // reduce output (written to its disk) / reduce input
  Bytes task_memory = 0;
};

// The shipped profiles: terasort (IO-bound) and grep (CPU-bound); docs/job-file.md says where
// each number comes from.
const std::vector<JobProfile>& JobProfiles();
// nullptr when no profile has that name.
const JobProfile* FindJobProfile(std::string_view name);

// A MapReduce job of `profile` over `input` bytes: ceil(input / block) maps, each reading one
// block (the last one the rest), and `reduces` reducers sharing the maps' output evenly.
JobSpec MakeProfileJob(const JobProfile& profile, std::string name, Seconds submit, Bytes input,
                       Bytes block, int reduces);

}  // namespace slotflow
