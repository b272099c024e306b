// The JTPW evaluation's set-up (experiments/jtpw, JTPW §3) as a user runs it: its cluster
// file, its profile jobs and the jtpw scheduler, checked against §2.1's test by hand.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "run/config_file.h"
#include "run/execute.h"
#include "run/run_spec.h"
#include "scenario.h"

namespace slotflow {
namespace {

RunResult RunExperiment(const std::string& jobs) {
  RunSpec spec;
  const std::string dir = std::string(SLOTFLOW_SOURCE_DIR) + "/experiments/jtpw/";
  ApplyConfigFile(dir + "cluster.toml", spec);
  spec.jobs_file = dir + jobs;
  SetPolicySetting(spec, "scheduler.policy", "jtpw", "", 0, "--scheduler");
  return Execute(spec, Prepare(spec));
}

// Predicted at submission on the three workers (mean cpu_speed 3.55/3, mean slots 14/3, so
// N = 4 maps of 128 MiB; 100 MB/s disks): a Terasort-like map computes 1.342 s / 1.183 =
// 1.134 s and moves 2 × 134.2 MB, V = 4 × 268.4 MB / 1.134 s = 947 MB/s: IO-bound. A Grep-like
// map computes 11.34 s and moves 1.001 × 134.2 MB: V = 47 MB/s, CPU-bound. Measured, the most
// a worker runs of one job is 6 maps on w3 (speed 1.35): Grep V = 6 × 134.3 MB / 9.94 s =
// 81 MB/s, still CPU-bound; Terasort stays far above. So Table 2's flow has six IO-bound and
// four CPU-bound jobs, and no job changes class (the paper's Table 3 queues them so too).
TEST(JtpwExperiment, TerasortLikeJobsAreIoBoundAndGrepLikeJobsCpuBound) {
  using Stats = std::vector<std::pair<std::string, double>>;
  EXPECT_EQ(testing::OwnStats(RunExperiment("flow.toml").summary),
            (Stats{{"jobs_io", 6}, {"jobs_cpu", 4}, {"class_changes", 0}}));
  EXPECT_EQ(testing::OwnStats(RunExperiment("grep-5GB.toml").summary),
            (Stats{{"jobs_io", 0}, {"jobs_cpu", 1}, {"class_changes", 0}}));
  EXPECT_EQ(testing::OwnStats(RunExperiment("terasort-5GB.toml").summary),
            (Stats{{"jobs_io", 1}, {"jobs_cpu", 0}, {"class_changes", 0}}));
  // Experiment 1's single job type: five jobs of one type, classed alike.
  EXPECT_EQ(testing::OwnStats(RunExperiment("terasort-5x1GB.toml").summary),
            (Stats{{"jobs_io", 5}, {"jobs_cpu", 0}, {"class_changes", 0}}));
  EXPECT_EQ(testing::OwnStats(RunExperiment("grep-5x1GB.toml").summary),
            (Stats{{"jobs_io", 0}, {"jobs_cpu", 5}, {"class_changes", 0}}));
}

}  // namespace
}  // namespace slotflow
