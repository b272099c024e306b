// The workload of the TCDS evaluation (TCDS §3.1, Table 1): map-only jobs of
// three task classes, very short (2-5 s), short (about 20 s) and long (about 60 s), in the
// counts of one of Table 1's five groups. Seeded and deterministic: the same options give the
// same jobs on every platform.
//
// The paper gives only the classes' run times and the task counts; the rest is ours
// (docs/readings.md):
//  - Each job holds tasks of one class (a job reads one file, whose blocks are alike), cut into
//    jobs of `tasks_per_job` tasks (the last job of a class takes the remainder; TCDS Fig. 1
//    shows a job of 5 tasks). The jobs of all classes are shuffled and arrive as a Poisson
//    process, the first at 0.
//  - A task's input is β × block size, with β uniform in the class's range: very short
//    [0.001, 0.01), short [0.01, 0.5), long [0.5, 1) (so the classes of eq. (1) with k1 = 0.01
//    and k2 = 0.5 are the generated ones). Its compute time is given explicitly, uniform in
//    [2, 5] s, [15, 25] s and [50, 70] s: the paper's run times do not scale with β.
#pragma once

#include <cstdint>

#include "api/job.h"
#include "api/units.h"

namespace slotflow {

struct TcdsWorkloadOptions {
  int group = 1;  // Table 1's row, 1..5
  uint64_t seed = 1;
  int tasks_per_job = 5;
  double mean_interarrival_s = 1.0;
  Bytes block_size = 64 * kMiB;
};

// Table 1: the very short, short and long task counts of group g (1..5).
struct TaskCounts {
  int very_short, short_tasks, long_tasks;
};
TaskCounts Table1Group(int group);

// Jobs named "<class>-<n>" (class very-short, short or long; n from 1 per class), each one map
// stage. Throws InputError naming the option on a group outside 1..5, a non-positive
// tasks_per_job or a non-finite or negative interarrival.
Workload GenerateTcdsWorkload(const TcdsWorkloadOptions& options);

}  // namespace slotflow
