// What a run's state says of its jobs and tasks once it is over: the rows of jobs.csv and
// tasks.csv. The simulator and live mode's master report through the same functions.
#pragma once

#include <vector>

#include "api/state.h"
#include "metrics/report.h"

namespace slotflow {

// The finished jobs, in workload order.
std::vector<JobResult> FinishedJobResults(const SimState& state);
// One finished job's line of jobs.csv.
JobResult JobResultOf(const JobRuntime& job);
// Every task, in task-id order (jobs in workload order, stages and tasks in order).
std::vector<TaskResult> TaskResults(const SimState& state);
// The share of block reads that were local (1 when there were none).
double ReadLocality(const SimState& state);

}  // namespace slotflow
