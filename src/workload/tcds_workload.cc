#include "workload/tcds_workload.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "api/error.h"
#include "api/random.h"

namespace slotflow {
namespace {

// Mixed into the seed so the jobs do not repeat the draws the simulator makes from the same
// seed (block replicas): "tcdswork" in ASCII.
constexpr uint64_t kSeedSalt = 0x7463647377726b00ULL;

struct ClassShape {
  const char* name;
  double min_beta, max_beta;        // input / block size, uniform
  double min_compute, max_compute;  // seconds, uniform
};

// §3.1: very short 2-5 s, short about 20 s, long about 60 s; β ranges ours (see the header).
constexpr ClassShape kShapes[] = {
    {"very-short", 0.001, 0.01, 2, 5},
    {"short", 0.01, 0.5, 15, 25},
    {"long", 0.5, 1.0, 50, 70},
};

void CheckOptions(const TcdsWorkloadOptions& o) {
  if (o.group < 1 || o.group > 5) {
    throw InputError("", 0, "tcds_group",
                     fmt::format("must be a group of Table 1, 1..5, got {}", o.group));
  }
  if (o.tasks_per_job < 1) {
    throw InputError("", 0, "tcds_tasks_per_job",
                     fmt::format("must be at least 1, got {}", o.tasks_per_job));
  }
  if (!std::isfinite(o.mean_interarrival_s) || o.mean_interarrival_s < 0) {
    throw InputError("", 0, "tcds_interarrival",
                     fmt::format("must be finite and non-negative, got {}", o.mean_interarrival_s));
  }
  if (!(o.block_size > 0) || !std::isfinite(o.block_size)) {
    throw InputError("", 0, "block_size", "must be finite and positive");
  }
}

// One job of `tasks` tasks of class `shape`; draws per task: β, then compute time.
JobSpec ClassJob(const ClassShape& shape, int n, int tasks, const TcdsWorkloadOptions& o,
                 Rng& rng) {
  JobSpec job;
  job.name = fmt::format("{}-{}", shape.name, n);
  StageSpec& map = job.stages.emplace_back();
  map.name = "map";
  for (int k = 0; k < tasks; ++k) {
    TaskSpec t;
    t.input = rng.Uniform(shape.min_beta, shape.max_beta) * o.block_size;
    t.compute = rng.Uniform(shape.min_compute, shape.max_compute);
    map.tasks.push_back(t);
  }
  return job;
}

}  // namespace

TaskCounts Table1Group(int group) {
  static constexpr TaskCounts kTable1[] = {
      {50, 50, 10}, {10, 50, 50}, {30, 30, 30}, {50, 10, 10}, {10, 10, 50}};
  if (group < 1 || group > 5) {
    throw InputError("", 0, "tcds_group", fmt::format("no group {} in Table 1 (1..5)", group));
  }
  return kTable1[group - 1];
}

Workload GenerateTcdsWorkload(const TcdsWorkloadOptions& options) {
  CheckOptions(options);
  const TaskCounts counts = Table1Group(options.group);
  Rng rng(options.seed ^ kSeedSalt);
  std::vector<JobSpec> jobs;
  const int per_class[] = {counts.very_short, counts.short_tasks, counts.long_tasks};
  for (int c = 0; c < 3; ++c) {
    int n = 0;
    for (int left = per_class[c]; left > 0; left -= options.tasks_per_job) {
      jobs.push_back(
          ClassJob(kShapes[c], ++n, std::min(left, options.tasks_per_job), options, rng));
    }
  }
  // Fisher-Yates with our own integer draws (std::shuffle is implementation-defined).
  for (size_t i = jobs.size(); i > 1; --i) {
    std::swap(jobs[i - 1], jobs[static_cast<size_t>(rng.UniformInt(static_cast<int64_t>(i)))]);
  }
  Seconds submit = 0;
  for (JobSpec& job : jobs) {
    job.submit = submit;
    submit += rng.Exponential(options.mean_interarrival_s);
  }
  Workload w;
  w.source = fmt::format("tcds (group={}, seed={})", options.group, options.seed);
  w.jobs = std::move(jobs);
  return w;
}

}  // namespace slotflow
