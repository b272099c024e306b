#include "workload/synthetic.h"

#include <fmt/format.h>

#include <cmath>
#include <vector>

#include "api/error.h"
#include "api/random.h"
#include "api/units.h"

namespace slotflow {
namespace {

struct JobClass {
  double fraction;
  int min_width, max_width;         // mappers and reducers, each drawn uniformly
  double min_shuffle, max_shuffle;  // per reducer, MiB, log-uniform
};

// The FB trace's class mix (narrow&short 41%, narrow&long 29%, wide&short 9%,
// wide&long 21%). The ranges are ours: narrow 1..5 and wide 6..50 tasks per side (disjoint, so
// a job's class can be read back from its shape; the literature says "wide >= 5"), short
// 1..10 MiB and long 10..1000 MiB per reducer, log-uniform as sizes span decades.
constexpr JobClass kClasses[] = {
    {0.41, 1, 5, 1, 10},
    {0.29, 1, 5, 10, 1000},
    {0.09, 6, 50, 1, 10},
    {0.21, 6, 50, 10, 1000},
};

double LogUniform(Rng& rng, double lo, double hi) {
  return lo * std::exp(rng.Uniform() * std::log(hi / lo));
}

void CheckOptions(const SyntheticOptions& o) {
  auto check = [](double v, const char* field) {
    if (!std::isfinite(v) || v < 0) {
      throw InputError("", 0, field,
                       fmt::format("must be a finite non-negative number, got {}", v));
    }
  };
  if (o.jobs < 0)
    throw InputError("", 0, "jobs", fmt::format("must be non-negative, got {}", o.jobs));
  check(o.mean_interarrival_s, "mean_interarrival");
  check(o.traffic_scale, "traffic_scale");
  if (o.map_input_ratio) check(*o.map_input_ratio, "map_input_ratio");
}

}  // namespace

Workload GenerateSynthetic(const SyntheticOptions& options) {
  CheckOptions(options);
  Workload w;
  w.source = fmt::format("synthetic (jobs={}, seed={})", options.jobs, options.seed);
  w.jobs.reserve(options.jobs);
  Rng rng(options.seed);
  WorkloadBudget budget;
  Seconds submit = 0;
  // Draw order per job (fixed, so a seed always means the same workload): class, mapper
  // count, reducer count, each reducer's shuffle, then the gap to the next arrival.
  for (int n = 1; n <= options.jobs; ++n) {
    const double u = rng.Uniform();
    const JobClass* c = &kClasses[3];
    double cumulative = 0;
    for (const JobClass& k : kClasses) {
      cumulative += k.fraction;
      if (u < cumulative) {
        c = &k;
        break;
      }
    }
    const int width = c->max_width - c->min_width + 1;
    const int maps = c->min_width + static_cast<int>(rng.UniformInt(width));
    const int reduces = c->min_width + static_cast<int>(rng.UniformInt(width));
    std::vector<Bytes> reduce_input(reduces);
    for (Bytes& b : reduce_input) {
      b = LogUniform(rng, c->min_shuffle, c->max_shuffle) * kMiB * options.traffic_scale;
    }
    const Bytes map_input = MapInputPerTask(options.map_input_ratio, reduce_input, maps);
    // traffic_scale and map_input_ratio (each up to 10^6) can multiply sizes past any disk.
    Bytes shuffle = 0;
    for (Bytes b : reduce_input) shuffle += b;
    if (!(map_input <= kMaxBytes && shuffle <= kMaxBytes)) {
      throw InputError("", 0, "traffic_scale/map_input_ratio",
                       fmt::format("job {} of the synthetic workload would move more than 1 EB "
                                   "(1e18 bytes), the most slotflow accepts",
                                   n));
    }
    // 10^6 jobs (the most the flag allows) average 21 million tasks, under the bound, but
    // could in theory reach 10^8.
    budget.AddStage(maps, 0, "", 0, "synthetic_jobs");
    budget.AddStage(reduces, maps, "", 0, "synthetic_jobs");
    w.jobs.push_back(
        MakeMapReduceJob(fmt::format("job-{}", n), submit, maps, map_input, reduce_input));
    submit += rng.Exponential(options.mean_interarrival_s);
  }
  return w;
}

}  // namespace slotflow
