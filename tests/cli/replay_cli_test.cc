// `slotflow run --scheduler replay --set scheduler.from=DIR`: a run replayed with the same
// network policy, cluster and seed writes the same jobs.csv, tasks.csv and modes.csv, and its
// network policy decides the same (the decision log's flow and class lines); bad input exits 2.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli_helpers.h"

namespace slotflow_test {
namespace {

// The decision log's lines of the network policy and the slot mode it reads.
std::string NetworkLines(const std::string& log) {
  std::string out;
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);) {
    for (const char* event : {"\"flow_start\"", "\"class\"", "\"flow_end\"", "\"mode\""}) {
      if (line.find(std::string("\"event\":") + event) != std::string::npos) {
        out += line + "\n";
        break;
      }
    }
  }
  return out;
}

// Runs `setup` with `scheduler` into one directory, replays it into another with the same
// set-up, and compares their files.
void ExpectReplayIdentical(const std::string& name, const std::string& setup,
                           const std::string& scheduler = "") {
  const fs::path dir = TempDir("replay_" + name);
  const fs::path a = dir / "recorded", b = dir / "replayed";
  const Result recorded = Slotflow("run " + setup + " " + scheduler + " --quiet --out " +
                                   a.string() + " --log " + (a / "log.jsonl").string());
  ASSERT_EQ(recorded.exit_code, 0) << recorded.err;
  const Result replayed =
      Slotflow("run " + setup + " --scheduler replay --set scheduler.from=" + a.string() +
               " --quiet --out " + b.string() + " --log " + (b / "log.jsonl").string());
  ASSERT_EQ(replayed.exit_code, 0) << replayed.err;
  for (const char* file : {"jobs.csv", "tasks.csv", "modes.csv", "placements.csv"}) {
    const std::string want = Slurp(a / file);
    EXPECT_GT(want.size(), 20u) << file;
    EXPECT_TRUE(want == Slurp(b / file)) << name << ": " << file << " differs";
  }
  const std::string want = NetworkLines(Slurp(a / "log.jsonl"));
  EXPECT_GT(want.size(), 100u);
  EXPECT_TRUE(want == NetworkLines(Slurp(b / "log.jsonl"))) << name << ": network lines differ";
  EXPECT_NE(Slurp(b / "summary.json").find("\"placed_later_than_recorded\": 0"), std::string::npos);
}

// Duopoly (nats + cans: reservations, a congestion tick, slot-mode switches) on the embedded
// workload: 200 FB-like jobs on 50 servers × 4 slots.
TEST(ReplayCli, DuopolyReplaysByteForByte) {
  ExpectReplayIdentical("duopoly", "--system duopoly --seed 3");
}

// Greedy placement under fair sharing (no reservations, the SJF job's slot mode).
TEST(ReplayCli, GreedyFairReplaysByteForByte) {
  ExpectReplayIdentical("greedy", "--network fair --seed 2", "--scheduler greedy");
}

// The FB trace's first 20 coflows as jobs, under Duopoly and Aalo (as docs/results-live.md's
// slices), when the trace is there.
TEST(ReplayCli, FbTraceSliceReplaysByteForByte) {
  const fs::path trace =
      fs::path(SLOTFLOW_SOURCE_DIR) / ".." / "shared" / "traces" / "FB2010-1Hr-150-0.txt";
  std::ifstream in(trace);
  if (!in) GTEST_SKIP() << trace << " not found";
  std::string line;
  std::getline(in, line);
  std::string slice = line.substr(0, line.find(' ')) + " 20\n";
  for (int i = 0; i < 20 && std::getline(in, line); ++i) slice += line + "\n";
  const fs::path fb20 = WriteFile("fb20.txt", slice);
  const std::string setup = "--trace " + fb20.string() + " --servers 20 --slots 2 --nic 1Gbps";
  ExpectReplayIdentical("fb_duopoly", setup + " --system duopoly");
  ExpectReplayIdentical("fb_aalo", setup + " --system aalo");
}

TEST(ReplayCli, BadRecordingsExitTwoNamingTheField) {
  const Result none = Slotflow("run --scheduler replay --quiet");
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("scheduler.from"), std::string::npos) << none.err;
  const Result missing =
      Slotflow("run --scheduler replay --set scheduler.from=/nonexistent --quiet");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("/nonexistent/tasks.csv"), std::string::npos) << missing.err;
  // A recording of another workload: the embedded one's first task is not job A's.
  const fs::path dir = TempDir("replay_other");
  ASSERT_EQ(Slotflow("run --jobs " + std::string(SLOTFLOW_SOURCE_DIR) +
                     "/examples/duopoly-fig2.toml --quiet --out " + dir.string())
                .exit_code,
            0);
  const Result other =
      Slotflow("run --scheduler replay --set scheduler.from=" + dir.string() + " --quiet");
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_NE(other.err.find("tasks.csv:2"), std::string::npos) << other.err;
  EXPECT_NE(other.err.find("job"), std::string::npos) << other.err;
  // The same recording on a cluster of one server: a server beyond it.
  const Result small = Slotflow("run --jobs " + std::string(SLOTFLOW_SOURCE_DIR) +
                                "/examples/duopoly-fig2.toml --servers 1 --scheduler replay --set "
                                "scheduler.from=" +
                                dir.string() + " --quiet");
  EXPECT_EQ(small.exit_code, 2);
  EXPECT_NE(small.err.find("server"), std::string::npos) << small.err;
}

}  // namespace
}  // namespace slotflow_test
