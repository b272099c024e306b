// `slotflow live` end to end on a real 3-host testbed: a handful of jobs under Duopoly, with
// remote block reads and shuffles over shaped, DSCP-marked TCP. Runs only as root where `ip
// netns` works (skipped otherwise). It uses a testbed prefix of its own, so it never meets a
// testbed a user or another test has up; its deadline bounds it, and it checks that the run
// removed every namespace it made.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "root_testbed.h"
#include "scenario.h"

namespace slotflow {
namespace {

namespace fs = std::filesystem;

const TestbedNames kNames{"sfl"};

TEST(LiveRun, AHandfulOfJobsOnThreeHostsEndsAndRemovesItsTestbed) {
  if (const std::string why = testing::TestbedUnavailable(kNames); !why.empty()) {
    GTEST_SKIP() << why;
  }
  const fs::path out =
      fs::path(::testing::TempDir()) / ("slotflow_live_" + std::to_string(getpid()));
  fs::remove_all(out);
  // One replica per block: a map placed off its block's host reads it over the network.
  // The run's own deadline bounds it; `timeout` is there in case that ever fails.
  const std::string cmd = "timeout --kill-after=10 180 " + std::string(SLOTFLOW_BINARY) +
                          " live --hosts 3 --rate 100mbit --synthetic-jobs 5 --traffic-scale 0.05"
                          " --slot-rate 20MB/s --replicas 1 --system duopoly --deadline 90s"
                          " --testbed-prefix sfl --quiet --out " +
                          out.string() + " --log " + (out.string() + ".log") + " 2>" +
                          (out.string() + ".err");
  const int status = std::system(cmd.c_str());
  const std::string err = testing::Slurp(out.string() + ".err");
  fs::remove(out.string() + ".err");
  EXPECT_FALSE(testing::AnyNamespaceOf(kNames)) << "the run left its testbed up";
  if (testing::AnyNamespaceOf(kNames)) TestbedDown(kNames);
  ASSERT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0) << err;

  const auto summary = nlohmann::json::parse(testing::Slurp(out / "summary.json"));
  EXPECT_EQ(summary["jobs"], 5);
  EXPECT_EQ(summary["unfinished_jobs"], 0);
  EXPECT_EQ(summary["network"], "cans");
  EXPECT_GT(summary["network_bytes"].get<double>(), 0);
  EXPECT_GT(summary["flows"].get<int>(), 0);
  const auto lines = testing::Lines(testing::Slurp(out / "jobs.csv"));
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_EQ(lines[0],
            "job,submit_s,first_start_s,finish_s,jct_s,bytes,tasks,local_fraction,size_group");
  // The decision log, written by the same driver as the simulator's: every task placed once,
  // with nats' reasons, every job done, and flows with their classes.
  std::map<std::string, int> events;
  int tasks = 0;
  for (const std::string& line : testing::Lines(testing::Slurp(out.string() + ".log"))) {
    const auto l = nlohmann::json::parse(line);
    ++events[l["event"].get<std::string>()];
    if (l["event"] == "place") {
      EXPECT_TRUE(l.contains("why")) << line;
    }
  }
  tasks = static_cast<int>(testing::Lines(testing::Slurp(out / "tasks.csv")).size());
  EXPECT_EQ(events["place"], tasks - 1);
  EXPECT_EQ(events["job_done"], 5);
  EXPECT_GT(events["flow_start"], 0);
  EXPECT_EQ(events["flow_start"], events["flow_end"]);
  fs::remove(out.string() + ".log");
  fs::remove_all(out);
}

}  // namespace
}  // namespace slotflow
