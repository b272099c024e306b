// A set-up made ready to run: its workload loaded or generated and its cluster settled.
#pragma once

#include <string>

#include "api/cluster.h"
#include "api/job.h"
#include "run/run_spec.h"

namespace slotflow {

struct PreparedRun {
  Cluster cluster;
  Workload workload;
  std::string workload_name;  // for summaries: "synthetic(...)", "trace:FILE", "jobs:FILE"
  std::string input_sha256;   // of the trace or job file; empty for generated workloads
  // A generated workload's name without its seed ("synthetic(jobs=200)"), when its generator
  // gives one, for a comparison over several seeds.
  std::string workload_name_over_seeds;
  // A trace's format as read (never kAuto for a trace; kAuto without one).
  TraceFormat trace_format = TraceFormat::kAuto;
  // What the reader left out or changed that a user should know (one sentence each); the run
  // command prints them.
  std::vector<std::string> notes;
};
// Settles the cluster (job file's [cluster] table, then the overrides; one server per trace
// port in network mode), loads or generates the workload on it (api/generator.h) and
// validates both. Throws InputError.
PreparedRun Prepare(const RunSpec& spec);

// Whether the workload value `key` ("traffic_scale", "map_input_ratio") shapes the workload of
// `spec`, a trace read as `format` (kAuto without a trace): Prepare refuses one given that
// does not, and a run's set-up lists only those that do.
bool WorkloadValueApplies(const RunSpec& spec, TraceFormat format, const std::string& key);

}  // namespace slotflow
