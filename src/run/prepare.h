// A set-up made ready to run: its workload loaded or generated and its cluster settled.
#pragma once

#include <string>

#include "cluster/cluster.h"
#include "run/run_spec.h"
#include "workload/job.h"

namespace slotflow {

struct PreparedRun {
  Cluster cluster;
  Workload workload;
  std::string workload_name;  // for summaries: "synthetic(...)", "trace:FILE", "jobs:FILE"
  std::string input_sha256;   // of the trace or job file; empty for generated workloads
};
// Loads the workload, settles the cluster (job file's [cluster] table, then the overrides;
// one server per trace port in network mode) and validates both. Throws InputError.
PreparedRun Prepare(const RunSpec& spec);

}  // namespace slotflow
