// Job files: user-defined workloads (DAGs of stages, task sizes, pinning, arrival times) and
// optionally the cluster they run on, written in TOML. The format is
// documented completely in docs/job-file.md; examples/ holds working files.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "cluster/cluster.h"
#include "workload/job.h"

namespace slotflow {

struct JobFile {
  Workload workload;                   // jobs sorted by submit time (stable)
  std::optional<ClusterSpec> cluster;  // the [cluster] table applied to ClusterSpec defaults;
                                       // not validated (the caller calls Validate())
};

// Reads and checks a job file. Every problem (missing file, TOML syntax, unknown key, wrong
// type, negative size, unknown parent stage, list lengths that do not match the task count,
// pinned server outside the [cluster]) throws InputError with the file, the line and the
// dotted field ("job[0].stage[1].input"; indices count from 0 in file order). Pinned servers
// are range-checked only when the file has a [cluster] table; otherwise the caller checks
// them against its cluster with Workload::Validate.
JobFile ReadJobFile(const std::string& path);

// The same on text in memory; `name_for_messages` stands for the file name in errors.
JobFile ParseJobFile(std::string_view text, const std::string& name_for_messages);

}  // namespace slotflow
