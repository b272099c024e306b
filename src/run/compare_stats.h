// The statistics of a comparison (run/compare.h): per entry the mean, median and tail job
// completion times and their ratios to the first entry's, printed as a table or written as CSV,
// with each over several seeds as its mean and 95 % confidence interval.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "run/compare.h"
#include "sim/simulator.h"

namespace slotflow {

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

// --out of compare: a sub-directory per entry (and per seed, with several) with the run's files
// (run/run_outputs.h), compare.csv with a row per entry and seed, and compare_summary.csv with
// each statistic's mean and 95 % CI. InputError naming `out_field` (how the front end took the
// directory) when a file cannot be written.
void WriteComparison(const std::string& out, const std::string& out_field,
                     const std::vector<CompareEntry>& entries, const std::vector<uint64_t>& seeds,
                     const std::vector<std::vector<RunResult>>& results);

}  // namespace slotflow
