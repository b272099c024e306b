#include "workload/fb_trace.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "api/error.h"
#include "api/units.h"

namespace slotflow {
namespace {

// Two coflows out of arrival order; ports 0..3.
constexpr char kTinyTrace[] =
    "4 2\n"
    "7 1500 2 0 1 2 2:1.5 3:0.5\n"
    "3 500 1 3 1 3:2\n";

FbTrace Jobs(const std::string& text, FbTraceOptions options = {}) {
  std::istringstream in(text);
  return ReadFbTraceAsJobs(in, "tiny.txt", options);
}

FbTrace Coflows(const std::string& text, FbTraceOptions options = {}) {
  std::istringstream in(text);
  return ReadFbTraceAsCoflows(in, "tiny.txt", options);
}

TEST(FbTrace, AsJobsUsesMiBAndScalesEveryByteCount) {
  const FbTrace t = Jobs(kTinyTrace, {.traffic_scale = 2.0, .map_input_ratio = 0.5});
  EXPECT_EQ(t.ports, 4);
  EXPECT_EQ(t.workload.source, "tiny.txt");
  ASSERT_EQ(t.workload.jobs.size(), 2u);

  // Sorted by arrival: coflow 3 (500 ms) before coflow 7 (1500 ms).
  const JobSpec& first = t.workload.jobs[0];
  EXPECT_EQ(first.name, "3");
  EXPECT_DOUBLE_EQ(first.submit, 0.5);
  ASSERT_EQ(first.stages.size(), 2u);
  ASSERT_EQ(first.stages[0].tasks.size(), 1u);
  ASSERT_EQ(first.stages[1].tasks.size(), 1u);
  EXPECT_DOUBLE_EQ(first.stages[1].tasks[0].input, 4 * kMiB);  // 2 MB x scale 2
  EXPECT_DOUBLE_EQ(first.stages[0].tasks[0].input, 2 * kMiB);  // 0.5 x 4 MiB / 1 map

  const JobSpec& second = t.workload.jobs[1];
  EXPECT_EQ(second.name, "7");
  EXPECT_DOUBLE_EQ(second.submit, 1.5);
  ASSERT_EQ(second.stages[0].tasks.size(), 2u);
  ASSERT_EQ(second.stages[1].tasks.size(), 2u);
  EXPECT_EQ(second.stages[1].parents, std::vector<int>{0});
  EXPECT_DOUBLE_EQ(second.stages[1].tasks[0].input, 3 * kMiB);
  EXPECT_DOUBLE_EQ(second.stages[1].tasks[1].input, 1 * kMiB);
  EXPECT_DOUBLE_EQ(second.ShuffleBytes(), 4 * kMiB);
  for (const StageSpec& stage : second.stages) {
    for (const TaskSpec& task : stage.tasks) {
      EXPECT_EQ(task.pinned, kNoServer) << "trace locations are ignored as jobs";
      EXPECT_LT(task.compute, 0) << "compute follows the input size";
      EXPECT_TRUE(task.from.empty()) << "shuffle is split evenly by the simulator";
    }
  }
  EXPECT_DOUBLE_EQ(second.stages[0].tasks[0].input, 1 * kMiB);  // 0.5 x 4 MiB / 2 maps
  EXPECT_DOUBLE_EQ(second.stages[0].tasks[1].input, 1 * kMiB);
  EXPECT_NO_THROW(t.workload.Validate(1));
}

TEST(FbTrace, AsCoflowsPinsTasksAtTheirPortsWithNoCompute) {
  const FbTrace t = Coflows(kTinyTrace, {.traffic_scale = 0.5});
  ASSERT_EQ(t.workload.jobs.size(), 2u);
  const JobSpec& job = t.workload.jobs[1];
  ASSERT_EQ(job.name, "7");
  const auto& maps = job.stages[0].tasks;
  const auto& reduces = job.stages[1].tasks;
  ASSERT_EQ(maps.size(), 2u);
  ASSERT_EQ(reduces.size(), 2u);
  EXPECT_EQ(maps[0].pinned, 0);
  EXPECT_EQ(maps[1].pinned, 1);
  EXPECT_EQ(reduces[0].pinned, 2);
  EXPECT_EQ(reduces[1].pinned, 3);
  for (const TaskSpec& m : maps) {
    EXPECT_DOUBLE_EQ(m.input, 0);
    EXPECT_DOUBLE_EQ(m.compute, 0);
  }
  EXPECT_DOUBLE_EQ(reduces[0].input, 0.75 * kMiB);
  EXPECT_DOUBLE_EQ(reduces[1].input, 0.25 * kMiB);
  for (const TaskSpec& r : reduces) {
    EXPECT_DOUBLE_EQ(r.compute, 0);
    EXPECT_TRUE(r.from.empty());
  }
  EXPECT_NO_THROW(t.workload.Validate(t.ports));
}

// A line longer than 64 MiB is refused before it is split into tokens.
TEST(FbTrace, AnOverlongLineIsAnError) {
  std::string text = "3 1\n1 0 1 0 1 1:5";
  text.append((size_t{64} << 20) + 1 - (text.size() - 4), ' ');
  text += "\n";
  std::istringstream in(text);
  try {
    ReadFbTraceAsJobs(in, "long.trace", FbTraceOptions{});
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.field(), "line");
  }
}

TEST(FbTrace, EqualArrivalsKeepFileOrder) {
  const FbTrace t = Jobs("3 3\n5 100 1 0 1 1:1\n2 100 1 0 1 1:1\n9 0 1 0 1 1:1\n");
  ASSERT_EQ(t.workload.jobs.size(), 3u);
  EXPECT_EQ(t.workload.jobs[0].name, "9");
  EXPECT_EQ(t.workload.jobs[1].name, "5");
  EXPECT_EQ(t.workload.jobs[2].name, "2");
}

TEST(FbTrace, AcceptsBlankLinesTabsAndCrLf) {
  const FbTrace t = Jobs("\r\n4\t1\r\n\r\n1  0 1\t3 1 0:2.5\r\n\n");
  ASSERT_EQ(t.workload.jobs.size(), 1u);
  EXPECT_DOUBLE_EQ(t.workload.jobs[0].ShuffleBytes(), 2.5 * kMiB);
}

struct BadTrace {
  const char* text;
  int line;
  const char* field;
};

// Readable parameter names in test listings.
void PrintTo(const BadTrace& c, std::ostream* os) {
  *os << "line " << c.line << " field " << c.field;
}

class FbTraceErrors : public ::testing::TestWithParam<BadTrace> {};

TEST_P(FbTraceErrors, NameTheLineAndField) {
  const BadTrace& bad = GetParam();
  for (bool as_jobs : {true, false}) {
    try {
      as_jobs ? Jobs(bad.text) : Coflows(bad.text);
      ADD_FAILURE() << "accepted: " << bad.text;
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_EQ(e.line(), bad.line) << what;
      EXPECT_EQ(e.field(), bad.field) << what;
      EXPECT_NE(what.find("tiny.txt:" + std::to_string(bad.line) + ":"), std::string::npos) << what;
      EXPECT_NE(what.find(std::string("field '") + bad.field + "'"), std::string::npos) << what;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Malformed, FbTraceErrors,
    ::testing::Values(BadTrace{"", 1, "ports"},                         // empty file
                      BadTrace{"x 1\n1 0 1 0 1 1:1\n", 1, "ports"},     // non-numeric
                      BadTrace{"0 1\n1 0 1 0 1 1:1\n", 1, "ports"},     // no ports
                      BadTrace{"4\n1 0 1 0 1 1:1\n", 1, "coflows"},     // header too short
                      BadTrace{"4 1 9\n1 0 1 0 1 1:1\n", 1, "header"},  // header too long
                      BadTrace{"4 2\n1 0 1 0 1 1:1\n", 1, "coflows"},   // fewer than announced
                      BadTrace{"4 1\n1 0 1 0 1 1:1\n2 0 1 0 1 1:1\n", 3,
                               "coflows"},  // more than announced
                      BadTrace{"4 2\n1 0 1 0 1 1:1\n1 5 1 0 1 1:1\n", 3, "id"},  // duplicate id
                      BadTrace{"4 1\nabc 0 1 0 1 1:1\n", 2, "id"},               // non-numeric id
                      BadTrace{"4 1\n1\n", 2, "arrival"},                        // line too short
                      BadTrace{"4 1\n1 soon 1 0 1 1:1\n", 2, "arrival"},         // non-numeric
                      BadTrace{"4 1\n1 -5 1 0 1 1:1\n", 2, "arrival"},           // negative time
                      BadTrace{"4 1\n1 nan 1 0 1 1:1\n", 2, "arrival"},          // NaN
                      BadTrace{"4 1\n1 inf 1 0 1 1:1\n", 2, "arrival"},          // infinite
                      BadTrace{"4 1\n1 0 two 0 1 1:1\n", 2, "mapper count"},     // non-numeric
                      BadTrace{"4 1\n1 0 0 1 1:1\n", 2, "mapper count"},         // no mappers
                      BadTrace{"4 1\n1 0 1.5 0 1 1:1\n", 2, "mapper count"},     // not an integer
                      BadTrace{"4 1\n1 0 1 4 1 1:1\n", 2, "mapper location"},    // outside 0..3
                      BadTrace{"4 1\n1 0 1 -1 1 1:1\n", 2, "mapper location"},   // negative
                      BadTrace{"4 1\n1 0 3 0 1 1:1\n", 2, "mapper location"},  // too few locations
                      BadTrace{"4 1\n1 0 1 0\n", 2, "reducer count"},          // line ends
                      BadTrace{"4 1\n1 0 1 0 0\n", 2, "reducer count"},        // no reducers
                      BadTrace{"4 1\n1 0 1 0 1 1:1 2:1\n", 2, "reducer count"},  // too many entries
                      BadTrace{"4 1\n1 0 1 0 2 1:1\n", 2, "reducer"},            // too few entries
                      BadTrace{"4 1\n1 0 1 0 1 12\n", 2, "reducer"},             // no colon
                      BadTrace{"4 1\n1 0 1 0 1 9:1\n", 2, "reducer"},            // outside 0..3
                      BadTrace{"4 1\n1 0 1 0 1 x:1\n", 2, "reducer"},  // non-numeric location
                      BadTrace{"4 1\n1 0 1 0 1 1:big\n", 2, "shuffle size"},  // non-numeric size
                      BadTrace{"4 1\n1 0 1 0 1 1:-3\n", 2, "shuffle size"},   // negative size
                      BadTrace{"4 1\n1 0 1 0 1 1:nan\n", 2, "shuffle size"},  // NaN
                      BadTrace{"4 1\n1 0 1 0 1 1:\n", 2, "shuffle size"},     // empty size
                      BadTrace{"4 1\n1 0 1 0 1 1:1e308\n", 2, "shuffle size"}));  // > 1 EB

// Every mapper of a coflow sends to every reducer: a line whose pairs cross the workload's
// bound is refused before its tasks are made.
TEST(FbTrace, ShufflePairsAreBounded) {
  std::string text = "1 1\n1 0 40000";
  for (int i = 0; i < 40000; ++i) text += " 0";
  text += " 25001";
  for (int i = 0; i < 25001; ++i) text += " 0:1";
  std::istringstream in(text + "\n");
  try {
    ReadFbTraceAsJobs(in, "wide.trace", FbTraceOptions{});
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.field(), "reducer count");
  }
}

TEST(FbTrace, MissingFileSaysCannotOpen) {
  const std::string path = ::testing::TempDir() + "/no-such-trace.txt";
  try {
    ReadFbTraceAsJobs(path, {});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot open"), std::string::npos) << e.what();
    EXPECT_EQ(e.file(), path);
  }
}

TEST(FbTrace, RejectsBadOptions) {
  EXPECT_THROW(Jobs(kTinyTrace, {.traffic_scale = -1}), InputError);
  EXPECT_THROW(Jobs(kTinyTrace, {.map_input_ratio = std::nan("")}), InputError);
}

TEST(FbTrace, ReadsAFileFromDisk) {
  const std::string path = ::testing::TempDir() + "/fb_trace_test_tiny.txt";
  std::ofstream(path) << kTinyTrace;
  const FbTrace t = ReadFbTraceAsCoflows(path, {});
  EXPECT_EQ(t.workload.source, path);
  EXPECT_EQ(t.workload.jobs.size(), 2u);
}

// The real benchmark trace, when it is available: SLOTFLOW_FB_TRACE, or traces/ next to the
// repository (the layout of the design documents).
std::string FindRealTrace() {
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("SLOTFLOW_FB_TRACE")) candidates.push_back(env);
  candidates.push_back(std::string(SLOTFLOW_SOURCE_DIR) + "/traces/FB2010-1Hr-150-0.txt");
  candidates.push_back(std::string(SLOTFLOW_SOURCE_DIR) + "/../shared/traces/FB2010-1Hr-150-0.txt");
  for (const std::string& c : candidates) {
    if (std::filesystem::exists(c)) return c;
  }
  return "";
}

TEST(FbTrace, RealTraceHasTheKnownShape) {
  const std::string path = FindRealTrace();
  if (path.empty()) GTEST_SKIP() << "FB2010-1Hr-150-0.txt not found (set SLOTFLOW_FB_TRACE)";
  const FbTrace t = ReadFbTraceAsCoflows(path, {});
  EXPECT_EQ(t.ports, 150);
  ASSERT_EQ(t.workload.jobs.size(), 526u);
  Bytes shuffle = 0;
  int64_t remote_pairs = 0;
  bool repeated_mapper = false;
  for (const JobSpec& job : t.workload.jobs) {
    shuffle += job.ShuffleBytes();
    std::set<ServerId> mappers;
    for (const TaskSpec& m : job.stages[0].tasks)
      repeated_mapper |= !mappers.insert(m.pinned).second;
    for (const TaskSpec& r : job.stages[1].tasks) {
      for (const TaskSpec& m : job.stages[0].tasks) remote_pairs += m.pinned != r.pinned;
    }
  }
  // The trace's megabytes sum to 35,533,534, read as MiB (docs/readings.md); Duopoly §6.1:
  // "more than 30 TB".
  EXPECT_DOUBLE_EQ(shuffle, 35533534.0 * kMiB);
  EXPECT_EQ(remote_pairs, 701486);  // the trace's non-local flows
  EXPECT_FALSE(repeated_mapper);
  EXPECT_NO_THROW(t.workload.Validate(t.ports));
}

// Duopoly §6.1: map inputs sized so a job's map stage takes as long as its reduce stage on an
// idle base cluster (1 Gbps, 1 GB/s per slot). Reducers of 100 and 300 MB fed by 2 maps: the
// shuffle is bounded by the 300 MB reducer (each map sends only 200 MB): 300 MB / 125 MB/s =
// 2.4 s, then 0.3 s of reduce compute; a map computing 2.7 s at 1 GB/s reads 2.7 GB.
TEST(MapInput, BalancedMakesTheMapStageAsLongAsTheReduceStage) {
  EXPECT_DOUBLE_EQ(MapInputPerTask(std::nullopt, {100e6, 300e6}, 2), 2.7e9);
  // One map sending 400 MB is the bottleneck: 3.2 s + 0.3 s.
  EXPECT_DOUBLE_EQ(MapInputPerTask(std::nullopt, {100e6, 300e6}, 1), 3.5e9);
  // A ratio overrides: 2 x 400 MB / 2 maps.
  EXPECT_DOUBLE_EQ(MapInputPerTask(2.0, {100e6, 300e6}, 2), 400e6);
}

}  // namespace
}  // namespace slotflow
