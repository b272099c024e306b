// Outputs that lose nothing: every file is written whole or not at all (temporary, fsync,
// rename), a failed write is exit 2 naming the path, and an output path that is a directory or
// a device is an error, never written through. Also what bare `slotflow` and --version print.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli/cli_helpers.h"

namespace {

using namespace slotflow_test;

TEST(Outputs, BareSlotflowPrintsUsageAndVersionNamesTheCommit) {
  const Result bare = Slotflow("");
  EXPECT_EQ(bare.exit_code, 0) << bare.err;
  for (const char* command : {"run", "compare", "sweep", "merge", "policies", "live"}) {
    EXPECT_NE(bare.out.find(command), std::string::npos) << command << "\n" << bare.out;
  }
  const Result v = Slotflow("--version");
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_EQ(v.out.rfind("slotflow ", 0), 0u) << v.out;
  EXPECT_NE(v.out.find("(commit "), std::string::npos) << v.out;
}

TEST(Outputs, LogCreatesItsDirectoryLikeOut) {
  const fs::path dir = TempDir("log_dir");
  const fs::path log = dir / "new" / "deeper" / "log.jsonl";
  const Result r = Slotflow("run --quiet --synthetic-jobs 5 --log " + log.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(Slurp(log).find("\"event\""), std::string::npos);
}

// Writes past 20 KiB fail (EFBIG) as on a full disk.
constexpr long kSmallDiskKib = 20;

TEST(Outputs, AFailedWriteIsAnErrorNamingThePathAndKeepsTheOldFile) {
  const fs::path out = TempDir("full");
  ASSERT_EQ(Slotflow("run --quiet --synthetic-jobs 5 --out " + out.string()).exit_code, 0);
  const std::string old_tasks = Slurp(out / "tasks.csv"), old_summary = Slurp(out / "summary.json");
  // 200 jobs' tasks.csv is far beyond 40 blocks; summary.json and jobs.csv fit.
  const Result r = SlotflowWithFileLimit("run --quiet --out " + out.string(), kSmallDiskKib);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find((out / "tasks.csv").string()), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("field '--out'"), std::string::npos) << r.err;
  EXPECT_EQ(Slurp(out / "tasks.csv"), old_tasks);  // the earlier run's files, whole and all
  EXPECT_EQ(Slurp(out / "summary.json"), old_summary);
  for (const auto& entry : fs::directory_iterator(out)) {
    EXPECT_EQ(entry.path().string().find(".tmp"), std::string::npos) << entry.path();
  }
}

TEST(Outputs, AFailedLogWriteIsAnError) {
  const fs::path log = TempDir("full_log") / "log.jsonl";
  const Result r = SlotflowWithFileLimit("run --quiet --log " + log.string(), kSmallDiskKib);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find(log.string()), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(log));
}

TEST(Outputs, CompareOutputsAreCheckedToo) {
  const fs::path out = TempDir("cmp_full");
  const Result r = SlotflowWithFileLimit(
      "compare --synthetic-jobs 40 --system duopoly,aalo --out " + out.string(), kSmallDiskKib);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find(out.string()), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("field '--out'"), std::string::npos) << r.err;
}

TEST(Outputs, OutThatIsAFileOrADeviceIsRefusedBeforeTheRun) {
  const fs::path file = TempDir("out_file") / "plain";
  { std::ofstream(file) << "keep\n"; }
  for (const std::string& out : {file.string(), std::string("/dev/null")}) {
    const Result r = Slotflow("run --quiet --synthetic-jobs 5 --out " + out);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(out + ": field '--out': is not a directory"), std::string::npos) << r.err;
  }
  EXPECT_EQ(Slurp(file), "keep\n");
  const fs::path dir = TempDir("out_with_dir");
  fs::create_directories(dir / "jobs.csv");  // a directory where an output file goes
  const Result r = Slotflow("run --quiet --synthetic-jobs 5 --out " + dir.string());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find((dir / "jobs.csv").string() + ": field '--out': is a directory"),
            std::string::npos)
      << r.err;
}

}  // namespace

namespace {

using namespace slotflow_test;

std::string FirstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

TEST(Labels, CompareNamesItsEntriesVariantAndLeavesAnUndefinedCiEmpty) {
  const fs::path out = TempDir("labels_cmp");
  const Result r =
      Slotflow("compare --synthetic-jobs 10 --system duopoly,aalo --out " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(FirstLine(Slurp(out / "compare.csv")).rfind("variant,seed,", 0), 0u);
  const std::string summary = Slurp(out / "compare_summary.csv");
  EXPECT_EQ(FirstLine(summary).rfind("variant,seeds,mean_jct_s,mean_jct_s_ci95,", 0), 0u);
  // One seed: each mean is there, its CI is empty.
  const std::string row = summary.substr(summary.find("\nduopoly,") + 1);
  EXPECT_EQ(row.rfind("duopoly,1,", 0), 0u) << row;
  EXPECT_NE(FirstLine(row).find(",,"), std::string::npos) << row;
  EXPECT_NE(r.out.find("variant"), std::string::npos) << r.out;
}

TEST(Labels, QuietCompareAndRunPrintNothing) {
  const Result c = Slotflow("compare --quiet --synthetic-jobs 10 --system duopoly,aalo");
  EXPECT_EQ(c.exit_code, 0) << c.err;
  EXPECT_EQ(c.out, "");
  EXPECT_EQ(c.err, "");
  const Result r = Slotflow("run --quiet --synthetic-jobs 10");
  EXPECT_EQ(r.out + r.err, "");
}

TEST(Labels, NetworkModeReportsCoflowCompletionTimesAndOmitsPlacement) {
  const fs::path out = TempDir("labels_net");
  const Result r =
      Slotflow("run --trace " + std::string(SLOTFLOW_SOURCE_DIR) +
               "/examples/tiny.trace --mode network --network aalo --out " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("CCT  mean"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(network mode)"), std::string::npos) << r.out;
  for (const char* absent : {"JCT", "scheduler", "locality", "slot utilisation", "reservations"}) {
    EXPECT_EQ(r.out.find(absent), std::string::npos) << absent << "\n" << r.out;
  }
  const nlohmann::json summary = nlohmann::json::parse(Slurp(out / "summary.json"));
  EXPECT_EQ(summary["mode"], "network");
  for (const char* absent : {"scheduler", "locality", "slot_utilisation", "reservations"}) {
    EXPECT_FALSE(summary.contains(absent)) << absent;
  }
}

TEST(Labels, SubMillisecondFlowTimesKeepTheirDigits) {
  // 50 data-mining flows at 10 Gbps: most finish in well under a millisecond.
  const Result r =
      Slotflow("run --generator flows --flows 50 --servers 20 --slots 10 --nic 10Gbps");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const size_t at = r.out.find("p50 ");
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::string p50 = r.out.substr(at + 4, r.out.find(" s", at + 4) - at - 4);
  EXPECT_GT(std::stod(p50), 0) << r.out;
  EXPECT_NE(p50.find_first_of("123456789"), std::string::npos) << r.out;
}

}  // namespace
