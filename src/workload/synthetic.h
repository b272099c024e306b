// The embedded default workload: a seeded generator of MapReduce jobs shaped like the
// Facebook coflow benchmark (the trace of Duopoly §6.1), needing no file.
#pragma once

#include <cstdint>
#include <optional>

#include "api/job.h"

namespace slotflow {

struct SyntheticOptions {
  int jobs = 200;
  double mean_interarrival_s = 2.0;  // Poisson arrivals; the first job arrives at 0
  uint64_t seed = 1;
  double traffic_scale = 1.0;  // multiplies every byte count, as for the trace
  // Map input per task as the trace's (MapInputPerTask): balanced, or ratio * shuffle / M.
  std::optional<double> map_input_ratio = std::nullopt;
};

// Jobs "job-1", "job-2", ... in four classes (fractions from the coflow literature):
//   narrow & short 41%, narrow & long 29%, wide & short 9%, wide & long 21%,
// where narrow = 1..5 and wide = 6..50 mappers and reducers, short = 1..10 MiB and
// long = 10..1000 MiB of shuffle per reducer (log-uniform). The same options give the same
// workload on every platform. Throws InputError on negative or non-finite options.
Workload GenerateSynthetic(const SyntheticOptions& options);

}  // namespace slotflow
