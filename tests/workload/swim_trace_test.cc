// The SWIM trace reader (workload/swim_trace.h) on hand-written lines: map tasks per block,
// reduce tasks per reduce_bytes, the shuffle spread by map input, map-only jobs, output, the
// format's detection and its errors.
#include "workload/swim_trace.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "api/error.h"

namespace slotflow {
namespace {

Workload Read(const std::string& text, const SwimOptions& o = {}) {
  std::istringstream in(text);
  return ReadSwimTrace(in, "t.tsv", o);
}

// Blocks of 100 bytes, 250 bytes of shuffle per reducer.
constexpr SwimOptions kSmall{.block_size = 100, .reduce_bytes = 250};

TEST(SwimTrace, MapsPerBlockAndReducesPerShuffleShare) {
  // 250 bytes of input: blocks of 100, 100, 50. 600 bytes of shuffle: 3 reducers of 200.
  const Workload w = Read("job7\t12\t12\t250\t600\t90\n", kSmall);
  ASSERT_EQ(w.jobs.size(), 1u);
  const JobSpec& j = w.jobs[0];
  EXPECT_EQ(j.name, "job7");
  EXPECT_EQ(j.submit, 12);
  ASSERT_EQ(j.stages.size(), 2u);
  const StageSpec& map = j.stages[0];
  ASSERT_EQ(map.tasks.size(), 3u);
  EXPECT_EQ(map.tasks[0].input, 100);
  EXPECT_EQ(map.tasks[1].input, 100);
  EXPECT_EQ(map.tasks[2].input, 50);
  EXPECT_EQ(map.tasks[2].output, -1);  // what its reducers read
  const StageSpec& reduce = j.stages[1];
  EXPECT_EQ(reduce.parents, std::vector<int>{0});
  ASSERT_EQ(reduce.tasks.size(), 3u);
  for (const TaskSpec& t : reduce.tasks) {
    EXPECT_DOUBLE_EQ(t.input, 200);
    EXPECT_DOUBLE_EQ(t.output, 30);
    // Each map sends in proportion to its input: 100, 100 and 50 of 250.
    ASSERT_EQ(t.from.size(), 3u);
    EXPECT_DOUBLE_EQ(t.from[0], 80);
    EXPECT_DOUBLE_EQ(t.from[1], 80);
    EXPECT_DOUBLE_EQ(t.from[2], 40);
  }
  EXPECT_NO_THROW(w.Validate(4));
}

TEST(SwimTrace, AJobWithoutShuffleIsMapOnlyAndWritesItsOutputFromTheMaps) {
  const Workload w = Read("a\t0\t0\t150\t0\t300\n", kSmall);
  ASSERT_EQ(w.jobs[0].stages.size(), 1u);
  const StageSpec& map = w.jobs[0].stages[0];
  ASSERT_EQ(map.tasks.size(), 2u);
  EXPECT_DOUBLE_EQ(map.tasks[0].output, 200);  // 100 of the 150 bytes of input
  EXPECT_DOUBLE_EQ(map.tasks[1].output, 100);
}

TEST(SwimTrace, AJobWithoutInputHasOneMapReadingNothing) {
  const Workload w = Read("a\t0\t0\t0\t10\t0\n", kSmall);
  ASSERT_EQ(w.jobs[0].stages.size(), 2u);
  ASSERT_EQ(w.jobs[0].stages[0].tasks.size(), 1u);
  EXPECT_EQ(w.jobs[0].stages[0].tasks[0].input, 0);
  ASSERT_EQ(w.jobs[0].stages[1].tasks.size(), 1u);
  EXPECT_EQ(w.jobs[0].stages[1].tasks[0].input, 10);
  EXPECT_TRUE(w.jobs[0].stages[1].tasks[0].from.empty());  // one map: all from it
}

TEST(SwimTrace, DefaultsAreHadoopsBlockAndHivesBytesPerReducer) {
  // 1 GiB of input: 16 blocks of 64 MiB; 1.5 GiB of shuffle: 2 reducers.
  const Workload w = Read("a\t0\t0\t1073741824\t1610612736\t0\n");
  EXPECT_EQ(w.jobs[0].stages[0].tasks.size(), 16u);
  EXPECT_EQ(w.jobs[0].stages[1].tasks.size(), 2u);
}

TEST(SwimTrace, SortsBySubmitTimeAndScalesBytes) {
  SwimOptions o = kSmall;
  o.traffic_scale = 0.5;
  const Workload w = Read("late\t30\t30\t400\t0\t0\r\n\nearly\t5\t0\t100\t0\t0\n", o);
  ASSERT_EQ(w.jobs.size(), 2u);
  EXPECT_EQ(w.jobs[0].name, "early");
  EXPECT_EQ(w.jobs[1].name, "late");
  EXPECT_EQ(w.jobs[1].stages[0].tasks.size(), 2u);  // 200 bytes after scaling
}

// With a window only the jobs submitted in it are built: a job too large to simulate outside it
// is no error, a malformed line anywhere still is.
TEST(SwimTrace, AWindowBuildsOnlyItsJobsAndStillChecksEveryLine) {
  SwimOptions o = kSmall;
  o.window_start = 10;
  o.window_end = 20;
  const Workload w =
      Read("huge\t0\t0\t1e17\t0\t0\nin\t10\t10\t100\t0\t0\nout\t20\t10\t1\t0\t0\n", o);
  ASSERT_EQ(w.jobs.size(), 1u);
  EXPECT_EQ(w.jobs[0].name, "in");
  EXPECT_EQ(w.jobs[0].submit, 10);  // shifting is the caller's (prepare's TraceWindow)
  EXPECT_THROW(Read("in\t10\t10\t100\t0\t0\nbad\t30\t20\tx\t0\t0\n", o), InputError);
}

TEST(SwimTrace, TellsItselfFromTheCoflowTrace) {
  EXPECT_TRUE(LooksLikeSwim("\njob0\t49\t49\t740773\t2339561\t627471\n"));
  EXPECT_FALSE(LooksLikeSwim("150 526\n1 0 1 22 1 65:1.0\n"));
  EXPECT_FALSE(LooksLikeSwim(""));
}

// Each error names the file, the line and the field.
TEST(SwimTrace, ErrorsNameTheLineAndField) {
  auto error = [](const std::string& text) {
    try {
      Read(text, kSmall);
    } catch (const InputError& e) {
      return fmt::format("{}:{} {}", e.file(), e.line(), e.field());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error("a\t0\t0\t1\t1\t1\nb\t1\t1\t1\t1\n"), "t.tsv:2 output");
  EXPECT_EQ(error("a\t0\t0\t1\t1\t1\t9\n"), "t.tsv:1 line");
  EXPECT_EQ(error("a\t0\t0\t1x\t1\t1\n"), "t.tsv:1 input");
  EXPECT_EQ(error("a\t-1\t0\t1\t1\t1\n"), "t.tsv:1 submit");
  EXPECT_EQ(error("a\t0\t0\t1\tnan\t1\n"), "t.tsv:1 shuffle");
  EXPECT_EQ(error("\t0\t0\t1\t1\t1\n"), "t.tsv:1 job");
  EXPECT_EQ(error("a\t0\t0\t1\t1\t1\na\t1\t0\t1\t1\t1\n"), "t.tsv:2 job");
  EXPECT_EQ(error("a\t0\t0\t1e300\t0\t0\n"), "t.tsv:1 input");  // past 1 EB
  EXPECT_EQ(error("a\t0\t0\t1\t2e18\t0\n"), "t.tsv:1 shuffle");
  EXPECT_EQ(error("a\t0\t0\t1\t1\t0\nb\t1e15\t0\t1\t1\t1\n"), "t.tsv:2 submit");  // past 2^39 s
  EXPECT_EQ(error("a\t0\t1e15\t1\t1\t1\n"), "t.tsv:1 gap");
  // A trace without a job is refused as the coflow trace's readers refuse one.
  EXPECT_EQ(error(""), "t.tsv:1 job");
  EXPECT_EQ(error("\n \n"), "t.tsv:2 job");
}

}  // namespace
}  // namespace slotflow
