// `compare`: one workload under several set-ups (policies or systems), side by side, at one seed
// or at several. Independent runs go to a pool of worker threads (one per core); results come
// back in the order given. The statistics and files of a comparison are in run/compare_stats.h.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "run/prepare.h"
#include "run/run_spec.h"
#include "sim/simulator.h"

namespace slotflow {

struct CompareEntry {
  std::string label;  // e.g. "greedy/fair" — also the sub-directory name under --out
  RunSpec spec;
};

// In a comparison a setting applies to the entries whose policy declares it: --queues 4 with
// --network fair,tcf sets tcf's queues and leaves fair alone. A key no entry's policy declares
// stays, so that resolving it reports the error.
void FitSettings(std::vector<CompareEntry>& entries);

// One simulation of a batch: a spec and the prepared workload it runs on.
struct BatchRun {
  const RunSpec* spec;
  const PreparedRun* run;
};
// Runs every item on a ParallelFor pool (run/parallel.h); results in the order given. Shows
// progress on stderr unless `quiet` (run/progress.h).
std::vector<RunResult> RunBatch(const std::vector<BatchRun>& batch, int threads, bool quiet = true);

struct Comparison {
  std::vector<CompareEntry> entries;
  std::vector<uint64_t> seeds;
  // The workload and cluster of each seed, or one for all when the workload does not depend on
  // the seed (a trace or a job file, read once).
  std::deque<PreparedRun> prepared;
  bool per_seed = false;
  std::vector<std::vector<RunResult>> results;  // [entry][seed], once run
};
// Prepares the base set-up's workload at each seed (InputError when it cannot be), before any
// run starts.
Comparison PrepareComparison(const RunSpec& base, std::vector<CompareEntry> entries,
                             std::vector<uint64_t> seeds);
// Runs every entry at every seed on `threads` threads (<= 0: one per core).
void RunComparison(Comparison& comparison, int threads, bool quiet);
// The workload the comparison ran, as its table's heading says it: "workload NAME", with
// ", seeds 1..N" when there are several.
std::string ComparedWorkload(const Comparison& comparison);

}  // namespace slotflow
