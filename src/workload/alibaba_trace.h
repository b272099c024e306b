// Reader of Alibaba's cluster-trace-v2018 batch jobs (github.com/alibaba/clusterdata,
// cluster-trace-v2018: batch_task.csv, about 4,000 machines over 8 days).
//
// Format: comma-separated, no header, one task per line, the columns of the trace's schema:
//   task_name, instance_num, job_name, task_type, status, start_time, end_time, plan_cpu, plan_mem
// A task's name gives the job's DAG: `M1` is task 1 with no parent, `R2_1` task 2 reading from
// task 1, `J3_1_2` task 3 reading from tasks 1 and 2 (the letter does not matter). Any other name
// (`task_Nzg3...`, `MergeTask`) is a task without parents that no task reads from.
//
// Each job becomes one DAG job, submitted at its first task's start_time:
//  - one stage per task, of instance_num tasks (the trace's instances), after its parents;
//  - each instance holds ceil(plan_cpu / 100) slots (100 is one core; at least 1) and
//    plan_mem / 100 of machine_memory (plan_mem is normalised to the largest machine's memory;
//    0 when the cluster does not model memory);
//  - each instance computes for the task's end_time - start_time seconds: batch_task.csv gives
//    one span per task, not per instance, so an instance is taken to last the whole span (as if
//    all of a task's instances had run at once);
//  - the trace has no data sizes, so the bytes are a model (dag_bytes, 64 MiB by default): an
//    instance of a task without parents reads an input block of dag_bytes, and every instance
//    sends dag_bytes to each child task, spread evenly over the child's instances.
// Jobs with a task whose status is not Terminated, whose times are missing (0, "before or after
// the span") or run backwards, or with no instances, are left out (counted). A parent the job
// does not list is dropped from its child (counted).
#pragma once

#include <cstdint>
#include <istream>
#include <limits>
#include <string>
#include <string_view>

#include "api/job.h"
#include "api/units.h"

namespace slotflow {

struct AlibabaOptions {
  Bytes dag_bytes = 64.0 * (1 << 20);  // per instance: a root's input, and its output per child
  double traffic_scale = 1.0;          // multiplies every byte count
  Bytes machine_memory = 0;            // what plan_mem 100 is; 0 = memory not modelled
  // Only jobs submitted in [window_start, window_end) are built (every line is still checked).
  Seconds window_start = 0;
  Seconds window_end = std::numeric_limits<Seconds>::infinity();
};

struct AlibabaTrace {
  Workload workload;            // the jobs, sorted by submit time (stable)
  int64_t jobs_left_out = 0;    // in the window, but with a task that did not finish cleanly
  int64_t parents_dropped = 0;  // references to tasks their job does not list
};

// Whether `text` reads as batch_task.csv: its first non-empty line has nine comma-separated
// fields.
bool LooksLikeAlibaba(std::string_view text);

// The trace's jobs submitted in the options' window. InputError(file, line, field, ...) on a
// malformed line: a field missing or extra, an empty task or job name, a number that is not one
// (instance_num, start_time and end_time whole and non-negative; plan_cpu from 0 to 100 per core
// of the most a server may have, plan_mem from 0 to 100; empty meaning 100 and 0), a task named
// twice in its job or two tasks with one number, a cycle of parents, or a workload past the
// simulator's bounds.
AlibabaTrace ReadAlibabaTrace(std::istream& in, const std::string& name_for_messages,
                              const AlibabaOptions& options);

}  // namespace slotflow
