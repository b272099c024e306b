// A sweep file read into a plan: the base set-up, the parameters (the grid's axes), the
// variants and the seeds; the runs they make, in grid order; and the leading columns of each
// run's row in results.csv.
#pragma once

#include <toml++/toml.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "run/run_spec.h"

namespace slotflow {

struct SweepParameter {
  std::string key;                  // "cluster.servers": a table and a bare key
  toml::array values;               // as written in the sweep file
  std::vector<std::string> labels;  // each as the CSV shows it (30, two-tier, 100ms)
  std::vector<int> lines;           // the line of each value
  // When the values carry units ("100ms", "64MiB", "1Gbps"): "_s", "_bytes" or "_bps" (bits
  // per second), and each value as a plain number in that unit (empty where it is not one).
  std::string si_suffix;
  std::vector<std::string> si_labels;
};

struct SweepVariant {
  struct Setting {
    std::string key, value;  // "scheduler.mode_signal", "first-ready"
    int line = 0;
  };
  std::string name, system;
  std::vector<Setting> settings;
  int line = 0;
};

// One run: a point of the grid (an index into every combination of parameter values, the first
// parameter outermost), a variant and a seed.
// A sweep's bounds: a grid of at most a million points, at most a thousand seeds, and at most
// ten million runs in all (a run takes a millisecond at the very least).
inline constexpr int64_t kMaxSweepPoints = 1'000'000;
inline constexpr int64_t kMaxSweepSeeds = 1000;
inline constexpr int64_t kMaxSweepRuns = 10'000'000;

struct SweepRun {
  size_t point = 0, variant = 0;
  uint64_t seed = 0;
};

struct SweepPlan {
  std::string file;         // the sweep file, for messages
  std::string file_sha256;  // of its text
  RunSpec base;
  std::vector<SweepParameter> parameters;
  std::vector<SweepVariant> variants;
  std::vector<uint64_t> seeds;
  // Scheduler statistics (RunSummary::scheduler_stats) given a column each, after wall_s.
  std::vector<std::string> stats;
  size_t points = 1;

  size_t Runs() const { return points * variants.size() * seeds.size(); }
  // The index-th run in grid order: point outermost, then variant, then seed (in list order).
  SweepRun RunAt(size_t index) const;
};

// Reads and checks a sweep file; `trace`, when not empty, replaces the base's workload.
// InputError naming the file, line and key on any problem.
SweepPlan ReadSweepPlan(const std::string& file, const std::string& trace,
                        const std::string& trace_field = "trace");

// The run's complete set-up: the base, the point's values, the variant's system and settings,
// the seed. InputError citing the sweep file's line of a value that does not apply.
RunSpec SweepSpecFor(const SweepPlan& plan, const SweepRun& run);

// The column names up to the seed: point, each parameter (then its SI column, if any),
// variant_index, variant, seed.
std::vector<std::string> SweepKeyColumns(const SweepPlan& plan);
// The run's values of those columns, comma-separated.
std::string SweepKeyText(const SweepPlan& plan, const SweepRun& run);
// The header of results.csv: the key columns, setup_sha256, the results (up to wall_s), then
// `stat.NAME` for each of the plan's stats.
std::string SweepHeaderLine(const SweepPlan& plan);

}  // namespace slotflow
