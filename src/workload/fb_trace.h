// Reader of the Facebook coflow benchmark trace (FB2010-1Hr-150-0.txt, Duopoly §6.1), in its two
// uses: as MapReduce jobs for task-scheduling runs, or as coflows pinned at the trace's ports
// for network-only runs.
//
// Format: line 1 `<ports> <coflows>`; then one line per coflow:
//   <id> <arrival ms> <M> <M mapper locations> <R> <R entries location:shuffle MB>
// Megabytes are MiB (2^20 bytes; docs/readings.md). Locations are ports 0..ports-1.
#pragma once

#include <istream>
#include <optional>
#include <string>

#include "api/job.h"

namespace slotflow {

struct FbTraceOptions {
  double traffic_scale = 1.0;  // multiplies every byte count (Duopoly Fig. 9)
  // As jobs: map input per task = ratio * job shuffle / M; none: balanced (MapInputPerTask).
  std::optional<double> map_input_ratio = std::nullopt;
};

struct FbTrace {
  int ports = 0;  // from the header; pinned coflows need a cluster of this many servers
  Workload workload;
};

// As jobs (Duopoly §6.1): one job per coflow, named by its id, submitted at the
// arrival time; M unpinned map tasks each reading MapInputPerTask bytes (balanced with the
// reduce stage, or map_input_ratio * (job shuffle) / M);
// one unpinned reduce task per reducer receiving its shuffle bytes split evenly over the maps.
// Trace locations are ignored.
FbTrace ReadFbTraceAsJobs(const std::string& path, const FbTraceOptions& options);
FbTrace ReadFbTraceAsJobs(std::istream& in, const std::string& name_for_messages,
                          const FbTraceOptions& options);

// As pinned coflows, as coflow simulators use the trace: map tasks pinned at their mapper port
// with no input and no compute; reduce tasks pinned at their reducer port receiving their
// shuffle bytes (split evenly over the maps), with no compute. Server i is port i.
FbTrace ReadFbTraceAsCoflows(const std::string& path, const FbTraceOptions& options);
FbTrace ReadFbTraceAsCoflows(std::istream& in, const std::string& name_for_messages,
                             const FbTraceOptions& options);

// Both readers sort jobs by submit time (stable) and throw InputError(file, line, field, ...)
// on a missing file, malformed or out-of-range values, missing or extra tokens, and a coflow
// count that differs from the header's.

}  // namespace slotflow
