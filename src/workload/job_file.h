// Job files: user-defined workloads (DAGs of stages, task sizes, pinning, arrival times) and
// optionally the cluster they run on, written in TOML. The format is
// documented completely in docs/job-file.md; examples/ holds working files. Each job, of a TOML
// file or of JSON Lines, is read by workload/job_table.h.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "api/cluster.h"
#include "api/job.h"

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

// JSON Lines job files: one job per line, a JSON object with the keys of a TOML file's [[job]]
// table (stages as "stage": [...], tasks as "task": [...], sizes as numbers or strings with
// units), for workloads too large for one TOML document. Read line by line; each line is
// checked as a [[job]] table is, and errors name the line and the field ("job[3].stage[0].input",
// jobs counted from 0 in file order). No [cluster]: the run's cluster applies.
JobFile ParseJobLines(std::string_view text, const std::string& name_for_messages);
// Whether `text` is JSON Lines rather than TOML: its first non-blank character is '{'.
bool LooksLikeJobLines(std::string_view text);

}  // namespace slotflow
