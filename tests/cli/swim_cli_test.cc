// SWIM traces end to end (workload/swim_trace.h): told apart from the coflow trace by content,
// a window of the trace and a time scale, bytes scaled to the cluster, the set-up written
// reproducing the run, and values that only the other format reads refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "cli_helpers.h"

namespace slotflow_test {
namespace {

// Three jobs at 0, 50 and 4000 s: 200 MiB of input and 2 GiB of shuffle, a map-only job, and
// one more like the first.
const char* kTrace =
    "job0\t0\t0\t209715200\t2147483648\t1000\n"
    "job1\t50\t50\t67108864\t0\t500\n"
    "job2\t4000\t3950\t209715200\t2147483648\t1000\n";

TEST(SwimCli, ATraceIsReadAsJobsAndItsWindowKept) {
  const fs::path trace = WriteFile("day.tsv", kTrace);
  const fs::path out = TempDir("swim_out");
  Result r = Slotflow("run --trace " + trace.string() + " --out " + out.string() + " --quiet");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // 4 + 1 + 4 map tasks (64 MiB blocks), 2 + 0 + 2 reduce tasks (1 GiB each).
  const std::string tasks = Slurp(out / "tasks.csv");
  EXPECT_EQ(std::count(tasks.begin(), tasks.end(), '\n'), 1 + 9 + 4);
  // The first hour: job0 and job1, at half the pace.
  const fs::path hour = TempDir("swim_hour");
  r = Slotflow("run --trace " + trace.string() +
               " --trace-window 0:1h --set workload.time_scale=0.5 --out " + hour.string() +
               " --quiet");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string jobs = Slurp(hour / "jobs.csv");
  EXPECT_NE(jobs.find("\njob0,0,"), std::string::npos);
  EXPECT_NE(jobs.find("\njob1,25,"), std::string::npos);
  EXPECT_EQ(jobs.find("job2"), std::string::npos);
  // The set-up written reads back to the same run.
  const fs::path again = TempDir("swim_again");
  r = Slotflow("run --config " + (hour / "setup.toml").string() + " --out " + again.string() +
               " --quiet");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Slurp(again / "jobs.csv"), jobs);
}

// trace_machines = 100 on 50 servers halves the bytes: 100 MiB of input are 2 map tasks.
TEST(SwimCli, BytesScaleToTheCluster) {
  const fs::path trace = WriteFile("day.tsv", kTrace);
  const fs::path out = TempDir("swim_scaled");
  const Result r = Slotflow("run --trace " + trace.string() +
                            " --servers 50 --set workload.trace_machines=100 --trace-window 0:10 "
                            "--out " +
                            out.string() + " --quiet");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string tasks = Slurp(out / "tasks.csv");
  EXPECT_EQ(std::count(tasks.begin(), tasks.end(), '\n'), 1 + 2 + 1);  // 2 maps, 1 reduce
}

TEST(SwimCli, ValuesOfTheOtherFormatAndEmptyWindowsAreRefused) {
  const fs::path trace = WriteFile("day.tsv", kTrace);
  Result r = Slotflow("run --trace " + trace.string() + " --map-input-ratio 1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("field '--map-input-ratio': does not apply"), std::string::npos) << r.err;
  r = Slotflow("run --trace " + trace.string() + " --trace-window 2h:3h");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("field '--trace-window': no job"), std::string::npos) << r.err;
  r = Slotflow("run --trace " + trace.string() + " --trace-format coflow");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(":1: field 'ports'"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace slotflow_test
