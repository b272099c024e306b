// `slotflow compare`: one workload under several policies, side by side, at one seed or at
// seeds 1..N. Independent runs go to a pool of worker threads (one per core); results come back
// in the order given.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "run/prepare.h"
#include "run/run_spec.h"

namespace slotflow {

struct CompareEntry {
  std::string label;  // e.g. "greedy/fair" — also the sub-directory name under --out
  RunSpec spec;
};

// One simulation of a batch: a spec and the prepared workload it runs on.
struct BatchRun {
  const RunSpec* spec;
  const PreparedRun* run;
};
// Runs every item on a ParallelFor pool (run/parallel.h); results in the order given. Shows
// progress on stderr unless `quiet` (run/progress.h).
std::vector<RunResult> RunBatch(const std::vector<BatchRun>& batch, int threads, bool quiet = true);

// A statistic over seeds: the mean and the half-width of its 95 % confidence interval
// (Student's t with n − 1 degrees of freedom; NaN, undefined, for one seed).
struct MeanCi {
  double mean = 0, ci = 0;
};
MeanCi MeanAndCi(const std::vector<double>& values);

// results[e][k]: entry e at its k-th seed (seeds[k]). Mean / p50 / p95 / p99 / max JCT per entry
// and the ratio of each to the first entry's, taken seed by seed; with several seeds each as
// mean ± 95 % CI.
void PrintComparison(const std::vector<CompareEntry>& entries,
                     const std::vector<std::vector<RunResult>>& results, std::ostream& out);
// One row per entry and seed.
void WriteComparisonCsv(const std::vector<CompareEntry>& entries,
                        const std::vector<uint64_t>& seeds,
                        const std::vector<std::vector<RunResult>>& results, std::ostream& out);
// One row per entry: each statistic's mean and 95 % CI half-width over the seeds.
void WriteComparisonSummaryCsv(const std::vector<CompareEntry>& entries,
                               const std::vector<std::vector<RunResult>>& results,
                               std::ostream& out);

}  // namespace slotflow
