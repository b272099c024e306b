// `slotflow live --journal` end to end on a real 3-host testbed: the master is killed (SIGKILL)
// once a job and a task of another are recorded, and started again with the same journal; the
// second run skips the jobs the first completed and restores the tasks of the others it completed
// (placing none of them), and its jobs.csv has every job exactly once. Root only where `ip netns`
// works (skipped otherwise); a testbed prefix of its own, taken down at the end (a killed run
// leaves it up); bounded by the runs' deadlines.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "root_testbed.h"
#include "scenario.h"

namespace slotflow {
namespace {

namespace fs = std::filesystem;

const TestbedNames kNames{"sfj"};

const std::vector<std::string> kJobs = {"job-1", "job-2", "job-3", "job-4", "job-5"};

// The first column of each row `sql` selects from the journal (opened read-only: the master may
// be writing it); none when it cannot be read.
std::vector<std::string> Query(const fs::path& journal, const std::string& sql) {
  std::vector<std::string> rows;
  if (!fs::exists(journal)) return rows;
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(journal.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
    sqlite3_exec(
        db, sql.c_str(),
        [](void* out, int, char** values, char**) {
          static_cast<std::vector<std::string>*>(out)->emplace_back(values[0] ? values[0] : "");
          return 0;
        },
        &rows, nullptr);
  }
  sqlite3_close(db);
  return rows;
}

// Rows of the journal's `table`, or -1 while it cannot be read.
int Recorded(const fs::path& journal, const std::string& table = "completed_jobs") {
  const std::vector<std::string> count = Query(journal, "SELECT COUNT(*) FROM " + table);
  return count.empty() ? -1 : std::atoi(count.front().c_str());
}

// The tasks the journal records as completed, as "job/stage/index".
std::set<std::string> RecordedTasks(const fs::path& journal) {
  const std::vector<std::string> rows =
      Query(journal, "SELECT job_index || '/' || stage || '/' || task_index FROM completed_tasks");
  return {rows.begin(), rows.end()};
}

TEST(LiveRun, AMasterKilledAndStartedAgainRunsEveryJobOnce) {
  if (const std::string why = testing::TestbedUnavailable(kNames); !why.empty()) {
    GTEST_SKIP() << why;
  }
  const fs::path dir =
      fs::path(::testing::TempDir()) / ("slotflow_live_journal_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path journal = dir / "journal.sqlite", pid_file = dir / "pid";
  // Five jobs: four done within about 1 s, the last running to about 12 s.
  const std::string live = std::string(SLOTFLOW_BINARY) +
                           " live --hosts 3 --rate 100mbit --synthetic-jobs 5 --traffic-scale 0.1"
                           " --slot-rate 20MB/s --system duopoly --deadline 60s"
                           " --testbed-prefix sfj --quiet --journal " +
                           journal.string();
  // exec: the pid written is the master's.
  const std::string first = "sh -c 'echo $$ > " + pid_file.string() + "; exec " + live + " --out " +
                            (dir / "first").string() + "' 2>" + (dir / "first.err").string();
  int first_status = -1;
  std::thread run([&] { first_status = std::system(first.c_str()); });
  // Killed once the journal records a job and a task of a job not complete: at the latest when
  // the last job's maps are recorded (about 7 s in, four jobs done), before its reducers end
  // (about 1 s later).
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < until &&
         (Recorded(journal) < 1 || Recorded(journal, "completed_tasks") < 1)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const pid_t master = static_cast<pid_t>(std::stol("0" + testing::Slurp(pid_file)));
  if (master > 0) kill(master, SIGKILL);
  run.join();
  const int recorded = Recorded(journal);
  const int recorded_tasks = Recorded(journal, "completed_tasks");
  const std::set<std::string> restored = RecordedTasks(journal);
  std::cout << "the journal at the kill: " << recorded << " jobs, " << recorded_tasks << " tasks\n";

  const std::string second = live + " --out " + (dir / "second").string() + " --log " +
                             (dir / "second.log").string() + " 2>" + (dir / "second.err").string();
  const int status = std::system(second.c_str());
  const std::string err = testing::Slurp(dir / "second.err");
  TestbedDown(kNames);  // the killed run left it up, and the second one used it
  EXPECT_FALSE(testing::AnyNamespaceOf(kNames));
  ASSERT_GT(master, 0);
  EXPECT_NE(WIFEXITED(first_status) ? WEXITSTATUS(first_status) : -1, 0) << "not killed";
  ASSERT_GE(recorded, 1);
  ASSERT_LT(recorded, 5) << "the first run ended before it was killed";
  ASSERT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0) << err;

  const auto summary = nlohmann::json::parse(testing::Slurp(dir / "second" / "summary.json"));
  EXPECT_EQ(summary["jobs"], 5);
  EXPECT_EQ(summary["unfinished_jobs"], 0);
  EXPECT_EQ(summary["jobs_from_journal"], recorded);
  ASSERT_GE(recorded_tasks, 1);
  EXPECT_EQ(summary["tasks_from_journal"], recorded_tasks);  // every host is in the new run
  // The second master placed none of the tasks the first had recorded, and restored each.
  std::set<std::string> placed, restored_now;
  for (const std::string& line : testing::Lines(testing::Slurp(dir / "second.log"))) {
    const auto l = nlohmann::json::parse(line);
    if (l["event"] != "place" && l["event"] != "task_restored") continue;
    const std::string task =
        fmt::format("{}/{}/{}", l["job"].get<int>(), l["stage"].get<int>(), l["index"].get<int>());
    (l["event"] == "place" ? placed : restored_now).insert(task);
  }
  EXPECT_EQ(restored_now, restored);
  for (const std::string& task : restored) EXPECT_EQ(placed.count(task), 0u) << task;
  const auto lines = testing::Lines(testing::Slurp(dir / "second" / "jobs.csv"));
  ASSERT_EQ(lines.size(), 6u);
  for (size_t k = 1; k < lines.size(); ++k) {
    EXPECT_EQ(lines[k].rfind(kJobs[k - 1] + ",", 0), 0u) << lines[k];
  }
  EXPECT_EQ(Recorded(journal), 5);
  EXPECT_EQ(Recorded(journal, "completed_tasks"), 0);

  // The same journal under another seed is another run's: refused before any testbed is up.
  const int other = std::system((live + " --seed 2 2>" + (dir / "other.err").string()).c_str());
  EXPECT_EQ(WIFEXITED(other) ? WEXITSTATUS(other) : -1, 2);
  const std::string other_err = testing::Slurp(dir / "other.err");
  EXPECT_NE(other_err.find("'--journal'"), std::string::npos) << other_err;
  EXPECT_NE(other_err.find("journal of another run (seed 1"), std::string::npos) << other_err;
  EXPECT_FALSE(testing::AnyNamespaceOf(kNames));
  EXPECT_EQ(Recorded(journal), 5);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace slotflow
