// Reader of SWIM's Facebook MapReduce traces (github.com/SWIMProjectUCB/SWIM, workloadSuite/;
// Chen et al., MASCOTS 2011): FB-2009 (600 machines) and FB-2010 (3,000 machines), each 24
// one-hour samples back to back. Unlike the coflow trace they give each job's real map input
// and output.
//
// Format: tab-separated, one job per line:
//   <job id> <submit s> <gap to the previous submission s> <map input B> <shuffle B> <output B>
//
// Each line becomes one MapReduce job, named by its id and submitted at its submit time:
//  - map tasks, one per HDFS block of the map input (block_size, 64 MiB as in Hadoop 0.20): the
//    last reads what is left of the input; a job without input has one map task reading nothing;
//  - reduce tasks, one per reduce_bytes of shuffle (at least one; 1 GiB, Hive's default bytes
//    per reducer): each receives an equal share of the shuffle, and each map sends in proportion
//    to its input (evenly when there is no input). A job without shuffle is map-only;
//  - the output written by the last stage's tasks (to disk when the cluster models disks): a
//    reduce task writes an equal share, a map-only job's map tasks in proportion to their input.
// Compute is every task's input at the slot rate, as for the coflow trace's jobs.
#pragma once

#include <cstdint>
#include <istream>
#include <limits>
#include <string>
#include <string_view>

#include "api/job.h"
#include "api/units.h"

namespace slotflow {

struct SwimOptions {
  Bytes block_size = 64.0 * (1 << 20);      // map input per map task (an HDFS block)
  Bytes reduce_bytes = 1024.0 * (1 << 20);  // shuffle per reduce task
  double traffic_scale = 1.0;               // multiplies every byte count
  int64_t max_tasks = kMaxWorkloadTasks;    // per stage; a caller may bound it lower
  // Only jobs submitted in [window_start, window_end) are built (every line is still checked),
  // so that an hour of a day too large for the simulator can be read.
  Seconds window_start = 0;
  Seconds window_end = std::numeric_limits<Seconds>::infinity();
};

// Whether `text` reads as a SWIM trace: its first non-empty line has six tab-separated fields.
// (The coflow trace's first line is two space-separated integers.)
bool LooksLikeSwim(std::string_view text);

// The jobs of a SWIM trace submitted in the options' window, sorted by submit time (stable).
// InputError(file, line, field, ...) on a malformed line: a field missing or extra, a number that
// is not a finite non-negative decimal, an empty or repeated job id, or a workload past
// kMaxWorkloadTasks.
Workload ReadSwimTrace(std::istream& in, const std::string& name_for_messages,
                       const SwimOptions& options);

}  // namespace slotflow
