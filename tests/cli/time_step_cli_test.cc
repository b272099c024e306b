// `rates.time_step` end to end: a stepped run keeps the checking mode's invariants, is
// deterministic, records its step in setup.toml (and a run of that set-up is the same run), and
// differs from the exact run only by what the step moves.
#include <gtest/gtest.h>

#include "cli_helpers.h"

namespace slotflow_test {
namespace {

// Duopoly on the embedded workload: nats' slot-mode switches reach cans between boundaries,
// which is where a class set between boundaries must wait.
constexpr const char* kRun = "run --system duopoly --synthetic-jobs 40 --quiet --seed 3";

TEST(TimeStepCli, AStepKeepsTheInvariantsAndIsDeterministic) {
  const fs::path a = TempDir("step_a"), b = TempDir("step_b");
  const Result r1 = Slotflow(std::string(kRun) + " --check --time-step 8ms --out " + a.string());
  ASSERT_EQ(r1.exit_code, 0) << r1.err;
  const Result r2 = Slotflow(std::string(kRun) + " --set rates.time_step=0.008 --out " + b.string());
  ASSERT_EQ(r2.exit_code, 0) << r2.err;
  for (const char* file : {"jobs.csv", "tasks.csv", "modes.csv", "placements.csv"}) {
    EXPECT_EQ(Slurp(a / file), Slurp(b / file)) << file;
  }
  EXPECT_NE(Slurp(a / "setup.toml").find("[rates]\ntime_step = 0.008"), std::string::npos)
      << Slurp(a / "setup.toml");
}

TEST(TimeStepCli, ASavedSetUpRunsWithItsStepAndAnExactOneHasNone) {
  const fs::path a = TempDir("saved_a"), b = TempDir("saved_b"), exact = TempDir("saved_exact");
  ASSERT_EQ(Slotflow(std::string(kRun) + " --time-step 100ms --out " + a.string()).exit_code, 0);
  const Result again =
      Slotflow("run --quiet --config " + (a / "setup.toml").string() + " --out " + b.string());
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(Slurp(a / "jobs.csv"), Slurp(b / "jobs.csv"));
  ASSERT_EQ(Slotflow(std::string(kRun) + " --out " + exact.string()).exit_code, 0);
  EXPECT_EQ(Slurp(exact / "setup.toml").find("[rates]"), std::string::npos);
  // 100 ms steps move the finish times; the jobs and their count stay.
  EXPECT_NE(Slurp(a / "jobs.csv"), Slurp(exact / "jobs.csv"));
}

}  // namespace
}  // namespace slotflow_test
