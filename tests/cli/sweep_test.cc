// End-to-end tests of `slotflow sweep` and `slotflow merge`: grid order, resuming (set-ups
// that changed, rows outside the grid, a journal cut short), the lock on --out, writes that
// fail, shards split by run, merge's checks, and the columns in SI units.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_helpers.h"

namespace {

using namespace slotflow_test;

// A sweep: the grid's rows in grid order whatever the threads or shards; shards merged give the
// whole sweep; a sweep stopped part-way resumes and keeps the rows it had.
constexpr const char* kSweep = R"([workload]
synthetic_jobs = 20
[cluster]
servers = 6
slots = 2
[sweep]
seeds = 2
systems = ["duopoly", "aalo"]
[[sweep.variant]]
name = "duopoly-first-ready"
system = "duopoly"
set = { "scheduler.mode_signal" = "first-ready" }
[[sweep.parameter]]
key = "cluster.slots"
values = [1, 3]
[[sweep.parameter]]
key = "workload.traffic_scale"
values = [0.5, 2.0]
)";

std::string WithoutWallTimes(const std::string& csv) {
  std::string out;
  std::istringstream in(csv);
  for (std::string line; std::getline(in, line);) out += line.substr(0, line.rfind(',')) + "\n";
  return out;
}

TEST(Cli, SweepRunsTheGridInOrderOnAnyThreadCountAndShards) {
  const fs::path file = WriteFile("sweep.toml", kSweep);
  const fs::path all = TempDir("sweep_all"), one = TempDir("sweep_one"), a = TempDir("sweep_a"),
                 b = TempDir("sweep_b");
  ASSERT_EQ(Slotflow("sweep " + file.string() + " --quiet --out " + all.string()).exit_code, 0);
  ASSERT_EQ(
      Slotflow("sweep " + file.string() + " --quiet --threads 1 --out " + one.string()).exit_code,
      0);
  const std::string rows = WithoutWallTimes(Slurp(all / "results.csv"));
  EXPECT_EQ(rows, WithoutWallTimes(Slurp(one / "results.csv")));
  EXPECT_EQ(std::count(rows.begin(), rows.end(), '\n'),
            1 + 4 * 3 * 2);  // points x variants x seeds
  EXPECT_EQ(rows.substr(0, rows.find('\n')).substr(0, 60),
            "point,cluster.slots,workload.traffic_scale,variant_index,var");
  EXPECT_FALSE(fs::exists(all / "journal.csv"));
  ASSERT_EQ(
      Slotflow("sweep " + file.string() + " --quiet --shard 1/2 --out " + a.string()).exit_code, 0);
  ASSERT_EQ(
      Slotflow("sweep " + file.string() + " --quiet --shard 2/2 --out " + b.string()).exit_code, 0);
  const fs::path merged = a / "merged.csv";
  const Result m = Slotflow("merge " + (a / "results.csv").string() + " " +
                            (b / "results.csv").string() + " --out " + merged.string());
  ASSERT_EQ(m.exit_code, 0) << m.err;
  EXPECT_EQ(WithoutWallTimes(Slurp(merged)), rows);
  // Overlapping inputs are refused.
  EXPECT_EQ(Slotflow("merge " + (all / "results.csv").string() + " " +
                     (a / "results.csv").string() + " --out " + merged.string())
                .exit_code,
            2);
}

TEST(Cli, SweepResumesWhereItStopped) {
  const fs::path file = WriteFile("sweep.toml", kSweep);
  const fs::path all = TempDir("resume_all"), part = TempDir("resume_part");
  ASSERT_EQ(Slotflow("sweep " + file.string() + " --quiet --out " + all.string()).exit_code, 0);
  // A sweep stopped after 7 runs: its journal holds the header and their rows.
  std::istringstream full(Slurp(all / "results.csv"));
  std::string kept;
  std::string line;
  for (int n = 0; n < 8 && std::getline(full, line); ++n) kept += line + "\n";
  std::ofstream(part / "journal.csv") << kept;
  const Result r = Slotflow("sweep " + file.string() + " --out " + part.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("resuming, 7 runs already done"), std::string::npos) << r.err;
  const std::string resumed = Slurp(part / "results.csv");
  EXPECT_EQ(resumed.substr(0, kept.size()), kept);  // the 7 rows as they were, wall times too
  EXPECT_EQ(WithoutWallTimes(resumed), WithoutWallTimes(Slurp(all / "results.csv")));
}

TEST(Cli, SweepFileErrorsNameTheLineAndKey) {
  const fs::path unknown = WriteFile("unknown.toml", "[sweep]\nsystems = [\"duopoly\"]\nfoo = 1\n");
  const Result a = Slotflow("sweep " + unknown.string() + " --out " + TempDir("e1").string());
  EXPECT_EQ(a.exit_code, 2);
  EXPECT_NE(a.err.find("unknown.toml:3: field 'sweep.foo'"), std::string::npos) << a.err;
  const fs::path value =
      WriteFile("value.toml",
                "[sweep]\nsystems = [\"duopoly\"]\n[[sweep.parameter]]\nkey = \"cluster.servers\"\n"
                "values = [3,\n 0]\n");
  const Result b = Slotflow("sweep " + value.string() + " --out " + TempDir("e2").string());
  EXPECT_EQ(b.exit_code, 2);
  EXPECT_NE(b.err.find("value.toml:6: field 'sweep.parameter cluster.servers'"), std::string::npos)
      << b.err;
  const Result c = Slotflow("sweep " + value.string() + " --shard 0/2 --out x");
  EXPECT_EQ(c.exit_code, 2);
  EXPECT_NE(c.err.find("--shard"), std::string::npos) << c.err;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::string Replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// Column `name` of every row of a results file.
std::vector<std::string> Column(const std::string& csv, const std::string& name) {
  const std::vector<std::string> lines = Lines(csv);
  std::vector<std::string> header, out;
  std::istringstream h(lines.at(0));
  for (std::string c; std::getline(h, c, ',');) header.push_back(c);
  const size_t i =
      static_cast<size_t>(std::find(header.begin(), header.end(), name) - header.begin());
  for (size_t n = 1; n < lines.size(); ++n) {
    std::istringstream r(lines[n]);
    std::string c;
    for (size_t k = 0; k <= i; ++k) std::getline(r, c, ',');
    out.push_back(i < header.size() ? c : "(no column)");
  }
  return out;
}

Result Sweep(const fs::path& file, const fs::path& out, const std::string& more = "") {
  return Slotflow("sweep " + file.string() + " --quiet --out " + out.string() + " " + more);
}

TEST(Cli, SweepRowsCarryTheirSetupDigestAndAResumeReRunsWhatChanged) {
  const fs::path file = WriteFile("sweep.toml", kSweep), out = TempDir("digest");
  ASSERT_EQ(Sweep(file, out).exit_code, 0);
  const std::string before = Slurp(out / "results.csv");
  const std::vector<std::string> digests = Column(before, "setup_sha256");
  ASSERT_EQ(digests.size(), 24u);
  EXPECT_EQ(digests[0].size(), 64u);
  EXPECT_NE(digests[0], digests[1]);  // another seed: another set-up
  // The same file again: nothing runs, nothing changes but the journal's absence.
  const Result again = Slotflow("sweep " + file.string() + " --out " + out.string());
  EXPECT_NE(again.err.find("resuming, 24 runs already done"), std::string::npos) << again.err;
  EXPECT_EQ(Slurp(out / "results.csv"), before);
  // Another NIC: every row is re-run, though no column shows the NIC.
  std::ofstream(file) << Replaced(kSweep, "servers = 6", "servers = 6\nnic = \"2Gbps\"");
  const Result changed = Sweep(file, out);
  ASSERT_EQ(changed.exit_code, 0) << changed.err;
  EXPECT_NE(changed.err.find("24 runs re-run: their set-up changed"), std::string::npos)
      << changed.err;
  const std::vector<std::string> after = Column(Slurp(out / "results.csv"), "setup_sha256");
  for (size_t i = 0; i < after.size(); ++i) EXPECT_NE(after[i], digests[i]);
  // Fewer seeds: the rows of seed 2 leave results.csv.
  std::ofstream(file) << Replaced(Replaced(kSweep, "servers = 6", "servers = 6\nnic = \"2Gbps\""),
                                  "seeds = 2", "seeds = 1");
  const Result fewer = Sweep(file, out);
  ASSERT_EQ(fewer.exit_code, 0) << fewer.err;
  EXPECT_NE(fewer.err.find("12 rows dropped"), std::string::npos) << fewer.err;
  EXPECT_EQ(Lines(Slurp(out / "results.csv")).size(), 1u + 12);
}

// A journal as a sweep stopped part-way leaves it: the header (unless `header` is false) and
// the first `rows` rows of a whole sweep's results, then `tail`.
void WriteJournal(const fs::path& dir, const std::string& results, size_t rows, bool header,
                  const std::string& tail) {
  const std::vector<std::string> lines = Lines(results);
  std::ofstream out(dir / "journal.csv");
  for (size_t n = header ? 0 : 1; n <= rows; ++n) out << lines[n] << "\n";
  out << tail;
}

TEST(Cli, SweepResumeRepairsAJournalCutShortOrWithoutItsHeader) {
  const fs::path file = WriteFile("sweep.toml", kSweep), all = TempDir("repair_all");
  ASSERT_EQ(Sweep(file, all).exit_code, 0);
  const std::string whole = Slurp(all / "results.csv");
  const std::string expected = WithoutWallTimes(whole);
  const std::string cut = Lines(whole)[8].substr(0, 40);  // a row half written
  struct Case {
    const char* name;
    size_t rows;
    bool header;
    std::string tail, message;
  };
  for (const Case& c :
       {Case{"cut", 7, true, cut, "unfinished last line"},
        Case{"headerless", 7, false, "", "resuming, 7 runs already done"},
        Case{"cut_header", 0, true, "point,clu", ""}, Case{"empty", 0, false, "", ""}}) {
    const fs::path out = TempDir(std::string("repair_") + c.name);
    if (c.name == std::string("cut_header")) {
      std::ofstream(out / "journal.csv") << c.tail;
    } else {
      WriteJournal(out, whole, c.rows, c.header, c.tail);
    }
    const Result r = Slotflow("sweep " + file.string() + " --out " + out.string());
    ASSERT_EQ(r.exit_code, 0) << c.name << ": " << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.name << ": " << r.err;
    EXPECT_EQ(WithoutWallTimes(Slurp(out / "results.csv")), expected) << c.name;
    EXPECT_FALSE(fs::exists(out / "journal.csv")) << c.name;
  }
}

TEST(Cli, SweepRefusesAnOutWithOtherColumnsSayingWhatToDo) {
  const fs::path file = WriteFile("sweep.toml", kSweep), out = TempDir("other_columns");
  std::ofstream(out / "journal.csv") << "point,cluster.servers,variant_index,variant,seed,jobs\n";
  const Result r = Sweep(file, out);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("journal.csv:1: field '--out'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("column 2 is 'cluster.servers' there, 'cluster.slots' in this sweep"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("remove journal.csv and results.csv"), std::string::npos) << r.err;
}

TEST(Cli, SweepRefusesAnOutAnotherSweepHolds) {
  const fs::path file = WriteFile("sweep.toml", kSweep), out = TempDir("locked");
  const int fd = ::open((out / "sweep.lock").c_str(), O_RDWR | O_CREAT, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
  const Result r = Sweep(file, out);
  ::close(fd);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("field '--out': another slotflow sweep is writing to this directory"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(out / "journal.csv"));
  EXPECT_EQ(Sweep(file, out).exit_code, 0);  // the lock is free again
}

TEST(Cli, SweepKeepsTheJournalWhenAnAppendFails) {
  const fs::path file = WriteFile("sweep.toml", kSweep), out = TempDir("append_fails");
  const Result r = SlotflowWithFileLimit(
      "sweep " + file.string() + " --quiet --threads 1 --out " + out.string(), 2);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  // Each run's set-up (setups/, 1.3 KB) fits; the journal outgrows the limit after a few rows.
  EXPECT_NE(r.err.find((out / "journal.csv").string() + ": field '--out': cannot append"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
  const std::string journal = Slurp(out / "journal.csv");
  ASSERT_FALSE(journal.empty());
  EXPECT_EQ(journal.back(), '\n');  // whole rows only
  const size_t kept = Lines(journal).size() - 1;
  const Result resumed = Slotflow("sweep " + file.string() + " --out " + out.string());
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  if (kept > 0) {
    EXPECT_NE(resumed.err.find("resuming, " + std::to_string(kept) + " runs already done"),
              std::string::npos)
        << resumed.err;
  }
  EXPECT_EQ(Lines(Slurp(out / "results.csv")).size(), 1u + 24);
}

TEST(Cli, SweepKeepsTheJournalWhenResultsCannotBeWritten) {
  const fs::path file = WriteFile("sweep.toml", kSweep), out = TempDir("results_fail");
  ASSERT_EQ(Sweep(file, out).exit_code, 0);
  const std::string before = Slurp(out / "results.csv");
  // Twice the seeds: results.csv doubles, the journal holds only the new half.
  std::ofstream(file) << Replaced(kSweep, "seeds = 2", "seeds = [1, 2, 3, 4]");
  const long limit = static_cast<long>(before.size() / 1024 + 2);
  const Result r =
      SlotflowWithFileLimit("sweep " + file.string() + " --quiet --out " + out.string(), limit);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find((out / "results.csv").string() + ": field '--out'"), std::string::npos)
      << r.err;
  EXPECT_EQ(Slurp(out / "results.csv"), before);  // the old file, whole
  EXPECT_EQ(Lines(Slurp(out / "journal.csv")).size(), 1u + 24);
  const Result resumed = Slotflow("sweep " + file.string() + " --out " + out.string());
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_NE(resumed.err.find("resuming, 48 runs already done"), std::string::npos) << resumed.err;
  EXPECT_EQ(Lines(Slurp(out / "results.csv")).size(), 1u + 48);
}

TEST(Cli, SweepRefusesAResultsPathThatIsNotAFile) {
  const fs::path file = WriteFile("sweep.toml", kSweep), out = TempDir("results_dir");
  fs::create_directories(out / "results.csv");
  const Result r = Sweep(file, out);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find((out / "results.csv").string() + ": field '--out': is a directory"),
            std::string::npos)
      << r.err;
  const Result dev = Slotflow("sweep " + file.string() + " --quiet --out /dev/null");
  EXPECT_EQ(dev.exit_code, 2);
  EXPECT_NE(dev.err.find("/dev/null: field '--out': is not a directory"), std::string::npos)
      << dev.err;
}

constexpr const char* kOnePoint = R"([workload]
synthetic_jobs = 10
[cluster]
servers = 4
[sweep]
seeds = 3
systems = ["duopoly", "aalo"]
)";

TEST(Cli, ShardsSplitRunsSoOnePointSpreadsOverMachines) {
  const fs::path file = WriteFile("one.toml", kOnePoint), all = TempDir("one_all");
  ASSERT_EQ(Sweep(file, all).exit_code, 0);
  std::string inputs;
  for (int i = 1; i <= 4; ++i) {
    const fs::path out = TempDir("one_" + std::to_string(i));
    ASSERT_EQ(Sweep(file, out, "--shard " + std::to_string(i) + "/4").exit_code, 0);
    const auto manifest = nlohmann::json::parse(Slurp(out / "shard.json"));
    EXPECT_EQ(manifest["shard"], i);
    EXPECT_EQ(manifest["shards"], 4);
    EXPECT_EQ(manifest["runs"], 6);
    EXPECT_EQ(manifest["shard_runs"], i <= 2 ? 2 : 1);
    EXPECT_EQ(manifest["sweep_sha256"].get<std::string>().size(), 64u);
    if (i != 3) inputs += (out / "results.csv").string() + " ";
  }
  const fs::path merged = TempDir("one_merged") / "merged.csv";
  // Shard 3 left out: its run is missing, by the manifests and by the sweep file.
  const Result missing = Slotflow("merge " + inputs + "--out " + merged.string());
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(
      missing.err.find("1 of 6 runs are missing from the inputs (point 0, variant 0, seed 3)"),
      std::string::npos)
      << missing.err;
  EXPECT_FALSE(fs::exists(merged));
  const Result by_file =
      Slotflow("merge " + inputs + "--sweep " + file.string() + " --out " + merged.string());
  EXPECT_EQ(by_file.exit_code, 2);
  EXPECT_NE(by_file.err.find(file.string() + ": field 'runs': 1 of 6 runs are missing"),
            std::string::npos)
      << by_file.err;
  const Result partial = Slotflow("merge " + inputs + "--partial --out " + merged.string());
  EXPECT_EQ(partial.exit_code, 0) << partial.err;
  EXPECT_EQ(Lines(Slurp(merged)).size(), 1u + 5);
  inputs += (fs::path(::testing::TempDir()) /
             ("slotflow_cli_" + std::to_string(getpid()) + "_one_3") / "results.csv")
                .string();
  const Result whole =
      Slotflow("merge " + inputs + " --sweep " + file.string() + " --out " + merged.string());
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  EXPECT_EQ(WithoutWallTimes(Slurp(merged)), WithoutWallTimes(Slurp(all / "results.csv")));
  // The sweep file edited since the shards ran: their manifests say so.
  std::ofstream(file) << kOnePoint << "# edited\n";
  const Result stale =
      Slotflow("merge " + inputs + " --sweep " + file.string() + " --out " + merged.string());
  EXPECT_EQ(stale.exit_code, 2);
  EXPECT_NE(stale.err.find("shard.json: field 'sweep_sha256'"), std::string::npos) << stale.err;
}

TEST(Cli, ShardCountsAreCheckedAgainstTheRuns) {
  const fs::path file = WriteFile("one.toml", kOnePoint);
  const Result many = Sweep(file, TempDir("seven"), "--shard 7/7");
  EXPECT_EQ(many.exit_code, 2);
  EXPECT_NE(many.err.find("field '--shard': 7 shards, but the sweep has only 6 runs"),
            std::string::npos)
      << many.err;
}

TEST(Cli, SweepAddsSiColumnsForValuesWithUnits) {
  const fs::path file = WriteFile("units.toml", R"([workload]
synthetic_jobs = 10
[cluster]
servers = 4
[sweep]
systems = ["duopoly"]
[[sweep.parameter]]
key = "scheduler.monitor_interval"
values = ["100ms", 0.25]
[[sweep.parameter]]
key = "cluster.nic"
values = ["1Gbps", "500MB/s"]
[[sweep.parameter]]
key = "workload.traffic_scale"
values = [1]
)");
  const fs::path out = TempDir("units");
  const Result r = Sweep(file, out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string csv = Slurp(out / "results.csv");
  EXPECT_EQ(Lines(csv)[0].substr(0, 152),
            "point,scheduler.monitor_interval,scheduler.monitor_interval_s,cluster.nic,"
            "cluster.nic_bps,workload.traffic_scale,variant_index,variant,seed,setup_sha256");
  EXPECT_EQ(Column(csv, "scheduler.monitor_interval_s"),
            (std::vector<std::string>{"0.1", "0.1", "0.25", "0.25"}));
  EXPECT_EQ(Column(csv, "cluster.nic_bps"),
            (std::vector<std::string>{"1000000000", "4000000000", "1000000000", "4000000000"}));
}

// `stats` gives named scheduler statistics a column each after wall_s, equal to the run's own
// summary; a scheduler that keeps no such statistic leaves it empty. A bad list is refused.
TEST(Cli, SweepStatsAreColumnsOfTheirOwn) {
  const fs::path file = WriteFile("stats.toml", R"([workload]
synthetic_jobs = 20
[cluster]
servers = 6
slots = 2
[sweep]
systems = ["duopoly", "aalo"]
stats = ["branch_share.alg4-none", "congested_share"]
)");
  const fs::path out = TempDir("stats");
  const Result r = Sweep(file, out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string csv = Slurp(out / "results.csv");
  const std::string header = Lines(csv)[0];
  EXPECT_EQ(header.substr(header.rfind(",wall_s")),
            ",wall_s,stat.branch_share.alg4-none,stat.congested_share");
  const fs::path alone = TempDir("stats-alone");
  ASSERT_EQ(
      Slotflow("run --synthetic-jobs 20 --servers 6 --slots 2 --system duopoly --quiet --out " +
               alone.string())
          .exit_code,
      0);
  const auto summary = nlohmann::json::parse(Slurp(alone / "summary.json"));
  const double share = summary["scheduler_stats"]["branch_share.alg4-none"].get<double>();
  const std::vector<std::string> column = Column(csv, "stat.branch_share.alg4-none");
  ASSERT_EQ(column.size(), 2u);
  EXPECT_DOUBLE_EQ(std::stod(column[0]), share);
  EXPECT_EQ(column[1], "");  // aalo's greedy placement keeps no Alg. 4 branches
  EXPECT_EQ(Column(csv, "stat.congested_share")[0], Column(csv, "congested_share")[0]);

  const fs::path bad =
      WriteFile("stats-bad.toml", "[sweep]\nsystems = [\"duopoly\"]\nstats = [\"a\",\n \"a\"]\n");
  const Result b = Sweep(bad, TempDir("stats-bad"));
  EXPECT_EQ(b.exit_code, 2);
  EXPECT_NE(b.err.find("stats-bad.toml:4: field 'sweep.stats'"), std::string::npos) << b.err;
  const fs::path comma =
      WriteFile("stats-comma.toml", "[sweep]\nsystems = [\"duopoly\"]\nstats = [\"a,b\"]\n");
  EXPECT_EQ(Sweep(comma, TempDir("stats-comma")).exit_code, 2);
}

TEST(Cli, MergeOnAFullDiskLeavesNoFileAndNamesIt) {
  const fs::path file = WriteFile("sweep.toml", kSweep), out = TempDir("merge_full");
  ASSERT_EQ(Sweep(file, out).exit_code, 0);
  const fs::path merged = out / "merged.csv";
  const Result r = SlotflowWithFileLimit(
      "merge " + (out / "results.csv").string() + " --out " + merged.string(), 1);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find(merged.string() + ": field '--out': could not write the whole file"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(merged));
}

}  // namespace
