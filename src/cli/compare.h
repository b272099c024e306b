// `slotflow compare`: one workload under several policies, side by side. Independent runs go
// to a pool of worker threads (one per core); results come back in the order given.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "cli/run_spec.h"

namespace slotflow {

struct CompareEntry {
  std::string label;  // e.g. "greedy/fair" — also the sub-directory name under --out
  RunSpec spec;
};

// Runs every entry on the shared prepared workload; `threads` <= 0 means one per core.
std::vector<RunResult> RunComparison(const std::vector<CompareEntry>& entries,
                                     const PreparedRun& run, int threads);

// Mean / p50 / p95 / p99 / max JCT per entry and the ratio of each to the first entry's.
void PrintComparison(const std::vector<CompareEntry>& entries,
                     const std::vector<RunResult>& results, std::ostream& out);
void WriteComparisonCsv(const std::vector<CompareEntry>& entries,
                        const std::vector<RunResult>& results, std::ostream& out);

}  // namespace slotflow
