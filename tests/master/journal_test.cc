// The master's journal (SQLite): a run that ends part-way has recorded the jobs it completed;
// started again on the same journal, the master runs only the others, and the results give
// every job exactly once. A journal of another workload is refused, naming --journal.
#include "master/journal.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>

#include "common/error.h"
#include "live/live_peer.h"
#include "master/master.h"
#include "network/network_policy.h"
#include "scenario.h"
#include "sim/task_scheduler.h"

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

  // Runs the master with two agents; the error, if the run failed.
  std::string Run(const Cluster& cluster, RunResult& result) const {
    Master master(cluster, workload, TaskSchedulerRegistry::Get().Make("greedy", {}, 1),
                  NetworkPolicyRegistry::Get().Make("fair", {}, 1), config);
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
    return error;
  }
};

TEST(MasterJournal, ARunStartedAgainRunsOnlyTheJobsNotRecorded) {
  JournalRun run;
  const Cluster cluster(run.spec);
  // The first master ends (its deadline) after A completed and before B arrives.
  run.config.deadline = 1;
  RunResult first;
  EXPECT_NE(run.Run(cluster, first).find("deadline"), std::string::npos);
  {
    const Journal journal(run.file.string(), {"A", "B"});
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
  const Journal journal(run.file.string(), {"A", "B"});
  EXPECT_EQ(journal.completed().size(), 2u);
}

TEST(MasterJournal, AJournalOfAnotherWorkloadIsRefused) {
  JournalRun run;
  {
    Journal journal(run.file.string(), {"A", "B"});
    journal.Record(1, JobResult{"B"});
  }
  try {
    const Journal other(run.file.string(), {"A", "C"});
    ADD_FAILURE() << "a journal of another workload was taken";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--journal");
    EXPECT_NE(std::string(e.what()).find("another workload"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace slotflow::testing
