// The master with real agents over loopback (no namespaces): two hosts run a small MapReduce
// job under the simulator's own scheduler and network policy, with measured times; a missing
// agent or a deadline ends the run with a clear LiveRunError instead of a hang.
#include "master/master.h"

#include <gtest/gtest.h>

#include <ctime>
#include <map>
#include <memory>
#include <thread>

#include "live/live_peer.h"
#include "network/network_policy.h"
#include "scenario.h"
#include "sim/task_scheduler.h"

namespace slotflow::testing {
namespace {

struct LiveRun {
  ClusterSpec spec;
  Workload workload;
  MasterConfig config;

  LiveRun() {
    spec = UnitCluster(2, 2);
    spec.classes[0].nic = 12.5e6;  // the model's capacities: 100 Mbit/s
    spec.slot_rate = 100e6;        // a 1 MB block computes for 10 ms
    config.listen_address = "127.0.0.1";
    config.join_timeout = 10;
    config.deadline = 30;
    StageSpec maps{"map", {}, std::vector<TaskSpec>(2, Task(1e6))};
    StageSpec reduces{"reduce", {0}, std::vector<TaskSpec>(2, Task(2e6, 0.1))};
    workload.jobs = {Job("A", 0, {maps, reduces}), Job("B", 0.2, {maps})};
  }
  std::unique_ptr<Master> Make(const Cluster& cluster, const std::string& network,
                               const std::string& scheduler = "greedy",
                               const std::map<std::string, std::string>& settings = {}) const {
    return std::make_unique<Master>(cluster, workload,
                                    TaskSchedulerRegistry::Get().Make(scheduler, settings, 1),
                                    NetworkPolicyRegistry::Get().Make(network, {}, 1), config);
  }
};

TEST(Master, RunsJobsOnTwoAgentsWithMeasuredTimes) {
  LiveRun run;
  const Cluster cluster(run.spec);
  auto master = run.Make(cluster, "las");
  AgentThread a0(0, master->port()), a1(1, master->port());
  a0.Start();
  a1.Start();
  const RunResult r = master->Run();
  a0.Join();
  a1.Join();
  EXPECT_FALSE(a0.error());
  EXPECT_FALSE(a1.error());

  EXPECT_EQ(r.summary.unfinished_jobs, 0);
  ASSERT_EQ(r.jobs.size(), 2u);
  EXPECT_EQ(r.jobs[0].name, "A");
  // A's reducers compute for 0.1 s after the maps: its completion time is at least that.
  EXPECT_GE(r.jobs[0].jct, 0.1);
  EXPECT_GE(r.jobs[1].first_start, 0.2);  // B runs once it has arrived
  EXPECT_LT(r.summary.makespan, 10);
  ASSERT_EQ(r.tasks.size(), 6u);
  for (const TaskResult& t : r.tasks) {
    EXPECT_GE(t.server, 0);
    EXPECT_LE(t.placed, t.read_done);
    EXPECT_LE(t.read_done, t.compute_done);
    EXPECT_EQ(t.compute_done, t.finish);
  }
  EXPECT_GT(r.summary.flows, 0);
}

// fifo places only when a server's heartbeat offers its free slots: nothing starts before the
// first beat of some server, and the run still ends.
TEST(Master, DrivesAHeartbeatScheduler) {
  LiveRun run;
  run.workload.jobs.pop_back();
  const Cluster cluster(run.spec);
  auto master = run.Make(cluster, "fair", "fifo", {{"heartbeat", "300ms"}});
  AgentThread a0(0, master->port()), a1(1, master->port());
  a0.Start();
  a1.Start();
  const RunResult r = master->Run();
  a0.Join();
  a1.Join();
  ASSERT_EQ(r.jobs.size(), 1u);
  EXPECT_EQ(r.summary.unfinished_jobs, 0);
  // Server 0 beats at 0, 0.3, ...; server 1 at 0.15, 0.45, ...: the reducers, ready after the
  // maps, wait for a beat.
  for (const TaskResult& t : r.tasks) {
    if (t.stage == "reduce") {
      EXPECT_GT(t.placed, t.ready) << t.index;
    }
  }
}

TEST(Master, AMissingAgentEndsTheRunWhenJoiningTimesOut) {
  LiveRun run;
  run.config.join_timeout = 0.5;
  const Cluster cluster(run.spec);
  auto master = run.Make(cluster, "fair");
  AgentThread only(0, master->port());
  only.Start();
  try {
    master->Run();
    ADD_FAILURE() << "the run finished without host 1";
  } catch (const LiveRunError& e) {
    EXPECT_NE(std::string(e.what()).find("only 1 of 2 agents"), std::string::npos) << e.what();
  }
  only.Join();  // told to stop
}

TEST(Master, TheDeadlineEndsARunThatCannotFinish) {
  LiveRun run;
  run.config.deadline = 0.5;
  run.workload.jobs[1].submit = 60;  // arrives long after the deadline
  const Cluster cluster(run.spec);
  auto master = run.Make(cluster, "fair");
  AgentThread a0(0, master->port()), a1(1, master->port());
  a0.Start();
  a1.Start();
  try {
    master->Run();
    ADD_FAILURE() << "the run outlived its deadline";
  } catch (const LiveRunError& e) {
    EXPECT_NE(std::string(e.what()).find("deadline of 0.5 s passed with 1 of 2 jobs"),
              std::string::npos)
        << e.what();
  }
  a0.Join();
  a1.Join();
}

// Waiting for the next event costs no CPU: nothing polls, and the listener closed once every
// agent joined is left alone.
TEST(Master, WaitsWithoutBusyLooping) {
  LiveRun run;
  run.config.deadline = 1;
  run.workload.jobs = {Job("late", 60, {StageSpec{"map", {}, {Task(0, 0)}}})};
  const Cluster cluster(run.spec);
  auto master = run.Make(cluster, "fair");
  AgentThread a0(0, master->port()), a1(1, master->port());
  a0.Start();
  a1.Start();
  const std::clock_t before = std::clock();
  EXPECT_THROW(master->Run(), LiveRunError);  // the deadline, 1 s of waiting
  const double cpu_s = static_cast<double>(std::clock() - before) / CLOCKS_PER_SEC;
  EXPECT_LT(cpu_s, 0.1);
  a0.Join();
  a1.Join();
}

}  // namespace
}  // namespace slotflow::testing
