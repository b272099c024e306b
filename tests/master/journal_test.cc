// The master's journal (SQLite): a run that ends part-way has recorded the jobs and the tasks it
// completed; started again on the same journal, the master runs only the other jobs and, of a
// job it had begun, only the tasks not recorded (or whose output is on a host it lacks), and the
// results give every job exactly once. A journal of another workload is refused, naming
// --journal.
#include "master/journal.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "api/error.h"
#include "api/network_policy.h"
#include "api/task_scheduler.h"
#include "live/live_peer.h"
#include "master/master.h"
#include "scenario.h"

namespace slotflow::testing {
namespace {

namespace fs = std::filesystem;

struct JournalRun {
  ClusterSpec spec = UnitCluster(2, 2);
  Workload workload;
  MasterConfig config;
  fs::path file =
      fs::path(::testing::TempDir()) / ("slotflow_journal_" + std::to_string(getpid()) + ".sqlite");

  JournalRun() {
    spec.classes[0].nic = 12.5e6;
    spec.slot_rate = 100e6;
    config.join_timeout = 10;
    config.journal = file.string();
    StageSpec maps{"map", {}, std::vector<TaskSpec>(2, Task(1e6))};
    StageSpec reduces{"reduce", {0}, std::vector<TaskSpec>(2, Task(2e6, 0.1))};
    workload.jobs = {Job("A", 0, {maps, reduces}), Job("B", 1.5, {maps})};
    fs::remove(file);
  }
  ~JournalRun() { fs::remove(file); }

  // Runs the master with two agents; the error, if the run failed. `placed` gets the tasks the
  // master placed, as "job/stage/index" (job and stage by index), `restored` those it restored.
  std::string Run(const Cluster& cluster, RunResult& result,
                  std::set<std::string>* placed = nullptr,
                  std::set<std::string>* restored = nullptr) const {
    std::ostringstream decisions;
    EventLog log(decisions);
    MasterConfig with_log = config;
    with_log.log = &log;
    Master master(cluster, workload, TaskSchedulerRegistry::Get().Make("greedy", {}, 1),
                  NetworkPolicyRegistry::Get().Make("fair", {}, 1), with_log);
    AgentThread a0(0, master.port()), a1(1, master.port());
    a0.Start();
    a1.Start();
    std::string error;
    try {
      result = master.Run();
    } catch (const LiveRunError& e) {
      error = e.what();
    }
    a0.Join();
    a1.Join();
    log.Flush();
    for (const std::string& line : Lines(decisions.str())) {
      const auto l = nlohmann::json::parse(line);
      const std::string task =
          fmt::format("{}/{}/{}", l.value("job", -1), l.value("stage", -1), l.value("index", -1));
      if (placed != nullptr && l["event"] == "place") placed->insert(task);
      if (restored != nullptr && l["event"] == "task_restored") {
        restored->insert(task);
        EXPECT_EQ(l["t"], 0) << line;  // as the run begins
      }
    }
    return error;
  }
};

// A's reducers compute for 2 s; its maps are done within 0.2 s.
Workload SlowReducers() {
  StageSpec maps{"map", {}, std::vector<TaskSpec>(2, Task(1e6))};
  StageSpec reduces{"reduce", {0}, std::vector<TaskSpec>(2, Task(2e6, 2))};
  Workload w;
  w.jobs = {Job("A", 0, {maps, reduces})};
  return w;
}

TEST(MasterJournal, ARunStartedAgainRunsOnlyTheTasksNotRecorded) {
  JournalRun run;
  run.workload = SlowReducers();
  const Cluster cluster(run.spec);
  // The first master ends (its deadline) with A's maps done and its reducers computing.
  run.config.deadline = 1;
  RunResult first;
  std::set<std::string> placed;
  EXPECT_NE(run.Run(cluster, first, &placed).find("deadline"), std::string::npos);
  EXPECT_EQ(placed, (std::set<std::string>{"0/0/0", "0/0/1", "0/1/0", "0/1/1"}));
  std::vector<JournaledTask> maps;
  {
    const Journal journal(run.file.string(), run.workload, 1);
    EXPECT_TRUE(journal.completed().empty());
    ASSERT_EQ(journal.completed_tasks().size(), 2u);
    for (const JournaledTask& t : journal.completed_tasks()) {
      EXPECT_EQ(t.job, 0);
      EXPECT_EQ(t.stage, 0);
      EXPECT_EQ(t.index, static_cast<int>(maps.size()));
      EXPECT_GT(t.done.finish_at, t.done.placed_at);
      EXPECT_LT(t.done.finish_at, 1);
      maps.push_back(t);
    }
  }

  // The second runs A's reducers only, reading the maps' outputs where the first ran them.
  run.config.deadline = 20;
  RunResult second;
  placed.clear();
  std::set<std::string> restored;
  ASSERT_EQ(run.Run(cluster, second, &placed, &restored), "");
  EXPECT_EQ(placed, (std::set<std::string>{"0/1/0", "0/1/1"}));
  EXPECT_EQ(restored, (std::set<std::string>{"0/0/0", "0/0/1"}));
  EXPECT_EQ(second.summary.unfinished_jobs, 0);
  EXPECT_EQ(second.summary.jobs_from_journal, 0);
  EXPECT_EQ(second.summary.tasks_from_journal, 2);
  ASSERT_EQ(second.jobs.size(), 1u);
  EXPECT_GE(second.jobs[0].jct, 2);
  // tasks.csv gives the maps as the first run measured them.
  for (int k = 0; k < 2; ++k) {
    EXPECT_EQ(second.tasks[k].server, maps[k].done.server);
    EXPECT_EQ(second.tasks[k].placed, maps[k].done.placed_at);
    EXPECT_EQ(second.tasks[k].finish, maps[k].done.finish_at);
  }
  const Journal journal(run.file.string(), run.workload, 1);
  EXPECT_EQ(journal.completed().size(), 1u);
  EXPECT_TRUE(journal.completed_tasks().empty());  // gone with their job's record
}

// A task whose output is on a host the run does not have runs again; the others do not.
TEST(MasterJournal, ATaskWhoseOutputIsOnAHostTheRunLacksRunsAgain) {
  JournalRun run;
  run.workload = SlowReducers();
  run.workload.jobs[0].stages[1].tasks = std::vector<TaskSpec>(2, Task(2e6, 0.1));
  {
    Journal journal(run.file.string(), run.workload, 1);
    FinishedTask on_5, on_1;
    on_5.server = ServerId{5};
    on_1.server = ServerId{1};
    on_1.finish_at = 0.5;
    journal.RecordTasks({{0, 0, 0, on_5}, {0, 0, 1, on_1}});
  }
  const Cluster cluster(run.spec);  // hosts 0 and 1
  RunResult result;
  std::set<std::string> placed, restored;
  ASSERT_EQ(run.Run(cluster, result, &placed, &restored), "");
  EXPECT_EQ(placed, (std::set<std::string>{"0/0/0", "0/1/0", "0/1/1"}));
  EXPECT_EQ(restored, std::set<std::string>{"0/0/1"});
  EXPECT_EQ(result.summary.tasks_from_journal, 1);
  EXPECT_EQ(result.summary.unfinished_jobs, 0);
  EXPECT_EQ(result.tasks[1].finish, 0.5);
}

TEST(MasterJournal, ARunStartedAgainRunsOnlyTheJobsNotRecorded) {
  JournalRun run;
  const Cluster cluster(run.spec);
  // The first master ends (its deadline) after A completed and before B arrives.
  run.config.deadline = 1;
  RunResult first;
  EXPECT_NE(run.Run(cluster, first).find("deadline"), std::string::npos);
  {
    const Journal journal(run.file.string(), run.workload, 1);
    ASSERT_EQ(journal.completed().size(), 1u);
    EXPECT_EQ(journal.completed().at(0).name, "A");
  }

  run.config.deadline = 20;
  RunResult second;
  ASSERT_EQ(run.Run(cluster, second), "");
  EXPECT_EQ(second.summary.unfinished_jobs, 0);
  EXPECT_EQ(second.summary.jobs_from_journal, 1);
  ASSERT_EQ(second.jobs.size(), 2u);
  EXPECT_EQ(second.jobs[0].name, "A");
  EXPECT_EQ(second.jobs[1].name, "B");
  EXPECT_GE(second.jobs[1].first_start, 1.5);
  // A's tasks did not run again: none of them was placed by the second master.
  for (const TaskResult& t : second.tasks) {
    if (t.job == "A") {
      EXPECT_LT(t.placed, 0) << t.stage << " " << t.index;
    }
  }
  const Journal journal(run.file.string(), run.workload, 1);
  EXPECT_EQ(journal.completed().size(), 2u);
}

TEST(MasterJournal, AJournalOfAnotherWorkloadIsRefused) {
  JournalRun run;
  {
    Journal journal(run.file.string(), run.workload, 1);
    journal.Record(1, JobResult{"B"});
  }
  Workload other_jobs = run.workload;
  other_jobs.jobs[1].name = "C";
  try {
    const Journal other(run.file.string(), other_jobs, 1);
    ADD_FAILURE() << "a journal of another workload was taken";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--journal");
    EXPECT_NE(std::string(e.what()).find("another workload"), std::string::npos) << e.what();
  }
}

// The error a journal of `workload` whose file was prepared by `sql` (after a journal of seed 1
// recorded job 1, when `record`) gives when opened for `seed`; "" when it opens.
std::string OpenError(const fs::path& file, const Workload& workload, const std::string& sql,
                      bool record = true, uint64_t seed = 1) {
  fs::remove(file);
  if (record) {
    Journal journal(file.string(), workload, 1);
    journal.Record(1, JobResult{"B"});
  }
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sql;
  sqlite3_close(db);
  try {
    const Journal journal(file.string(), workload, seed);
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--journal");
    return e.what();
  }
  return "";
}

TEST(MasterJournal, WhatIsNotAJournalOfThisRunIsRefusedNamingWhy) {
  JournalRun run;
  const Workload& w = run.workload;
  auto says = [](const std::string& error, const std::string& part) {
    return error.find(part) != std::string::npos;
  };
  EXPECT_EQ(OpenError(run.file, w, "SELECT 1"), "");  // this run's journal opens
  EXPECT_TRUE(says(OpenError(run.file, w, "SELECT 1", true, 2),
                   "journal of another run (" + JournalIdentity(w, 1) + "); this run is " +
                       JournalIdentity(w, 2)));
  EXPECT_TRUE(
      says(OpenError(run.file, w, "CREATE TABLE completed_jobs (job_index INTEGER, x TEXT)", false),
           "not a journal of slotflow live"));
  EXPECT_TRUE(says(OpenError(run.file, w, "ALTER TABLE completed_jobs ADD COLUMN extra REAL"),
                   "not a journal of slotflow live"));
  // A row whose name is NULL (the NOT NULL constraint dropped by hand-made tables).
  EXPECT_TRUE(says(OpenError(run.file, w,
                             "CREATE TABLE completed_jobs (job_index INTEGER PRIMARY KEY, name "
                             "TEXT, submit_s REAL, first_start_s REAL, finish_s REAL, jct_s "
                             "REAL, bytes REAL, tasks INTEGER, local_fraction REAL, size_group "
                             "INTEGER); INSERT INTO completed_jobs (job_index) VALUES (0)",
                             false),
                   "job 0: name is not text"));
  EXPECT_TRUE(says(OpenError(run.file, w, "UPDATE completed_jobs SET jct_s = 'soon'"),
                   "job 1: jct_s is not a number"));
  EXPECT_TRUE(says(OpenError(run.file, w, "DELETE FROM run"), "not the run they belong to"));
  // Completed tasks: of a job, stage or index the workload lacks, or with a NULL or a bad value.
  const std::string task_row = "INSERT INTO completed_tasks VALUES ";
  const std::pair<std::string, std::string> bad_tasks[] = {
      {"(0, 1, 2, 0, 1, 0, 0, 0, 0, 0, 0)",
       "records task 2 of stage 1 of job 0, which this workload does not have"},
      {"(1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0)",
       "records task 0 of stage 1 of job 1, which this workload does not have"},
      {"(0, 0, 1, -3, 1, 0, 0, 0, 0, 0, 0)", "task 1 of stage 0 of job 0 (A): server is negative"},
      {"(0, 0, 1, 0, 7, 0, 0, 0, 0, 0, 0)",
       "task 1 of stage 0 of job 0 (A): locality is not 0 to 3"},
      {"(0, 0, 1, 0, 1, 0, 0, NULL, 0, 0, 0)", "a completed task's placed_s is not a number"},
      {"(0, 0, 1, 0, 1.5, 0, 0, 0, 0, 0, 0)", "a completed task's locality is not an integer"},
  };
  for (const auto& [row, why] : bad_tasks) {
    EXPECT_TRUE(says(OpenError(run.file, w, task_row + row), why)) << row;
  }
  EXPECT_TRUE(says(OpenError(run.file, w, "ALTER TABLE completed_tasks ADD COLUMN extra REAL"),
                   "not a journal of slotflow live"));
  // A journal with completed tasks but no record of its run is refused as one with jobs is.
  EXPECT_TRUE(says(OpenError(run.file, w,
                             "DELETE FROM completed_jobs; DELETE FROM run; " + task_row +
                                 "(0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0)"),
                   "not the run they belong to"));
}

TEST(MasterJournal, TheIdentityNamesTheSeedAndChangesWithTheWorkload) {
  JournalRun run;
  const std::string one = JournalIdentity(run.workload, 1);
  EXPECT_EQ(one.rfind("seed 1, workload ", 0), 0u) << one;
  EXPECT_EQ(JournalIdentity(run.workload, 1), one);
  EXPECT_NE(JournalIdentity(run.workload, 2), one);
  Workload later = run.workload;
  later.jobs[1].submit += 1;
  EXPECT_NE(JournalIdentity(later, 1), one);
}

}  // namespace
}  // namespace slotflow::testing
