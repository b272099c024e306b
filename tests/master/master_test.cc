// The master with real agents over loopback (no namespaces): two hosts run a small MapReduce
// job under the simulator's own scheduler and network policy, with measured times; a missing
// agent or a deadline ends the run with a clear LiveRunError instead of a hang.
#include "master/master.h"

#include <gtest/gtest.h>

#include <ctime>
#include <map>
#include <memory>
#include <span>
#include <thread>

#include "api/network_policy.h"
#include "api/task_scheduler.h"
#include "live/live_peer.h"
#include "scenario.h"

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

// A policy whose classes are sparse numbers, as Aalo's are: flow f has class 1000 (f + 1).
class SparseClasses : public NetworkPolicy {
 public:
  void OnFlowsStarted(const FlowView& /*net*/, ClassSink& out,
                      std::span<const FlowId> flows) override {
    for (FlowId f : flows) out.SetClass(f, FlowClass{1000 * (f + 1)});
  }
};

// The agents are played by the test: maps pinned on hosts 0 and 1, a reducer pinned on host 2
// fetching from both. The two classes in flight become live classes 0 and 1; once flow 0 ends,
// flow 1 moves up to live class 0 and both its ends are told.
TEST(Master, RanksTheClassesInFlightOntoLiveClasses) {
  ClusterSpec spec = UnitCluster(3, 1);
  spec.classes[0].nic = 12.5e6;
  Workload workload;
  workload.jobs = {Job("A", 0,
                       {StageSpec{"map", {}, {Task(0, 0, 0), Task(0, 0, 1)}},
                        StageSpec{"reduce", {0}, {Task(2e6, 0, 2)}}})};
  const Cluster cluster(spec);
  MasterConfig config;
  config.deadline = 20;
  Master master(cluster, workload, TaskSchedulerRegistry::Get().Make("greedy", {}, 1),
                std::make_unique<SparseClasses>(), config);
  RunResult result;
  std::string error;
  std::thread run([&] {
    try {
      result = master.Run();
    } catch (const std::exception& e) {
      error = e.what();
    }
  });
  // Joined also when a check below throws (the master's deadline ends it).
  const std::unique_ptr<std::thread, void (*)(std::thread*)> joined(&run, [](std::thread* t) {
    if (t->joinable()) t->join();
  });

  asio::io_context io;
  std::vector<std::unique_ptr<Peer>> agents;
  for (int h = 0; h < 3; ++h) {
    agents.push_back(std::make_unique<Peer>(io));
    agents[h]->socket().connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), master.port()));
    LimitReads(agents[h]->socket());
    agents[h]->Send(Hello{h, static_cast<uint16_t>(5000 + h)});
  }
  for (int h = 0; h < 2; ++h) {
    const auto map = std::get<Launch>(agents[h]->Receive());
    EXPECT_TRUE(map.fetches.empty());
    agents[h]->Send(TaskDone{map.task});
  }
  const auto reduce = std::get<Launch>(agents[2]->Receive());
  ASSERT_EQ(reduce.fetches.size(), 2u);
  EXPECT_EQ(reduce.fetches[0].port, 5000);
  EXPECT_EQ(reduce.fetches[0].cls, 0);  // class 1000: the first in flight
  EXPECT_EQ(reduce.fetches[1].port, 5001);
  EXPECT_EQ(reduce.fetches[1].cls, 1);  // class 2000: the second

  agents[2]->Send(FlowDone{reduce.fetches[0].flow, 1'000'000});
  const auto source = std::get<SetClass>(agents[1]->Receive());
  EXPECT_EQ(source.flow, reduce.fetches[1].flow);
  EXPECT_EQ(source.cls, 0);
  const auto fetcher = std::get<SetClass>(agents[2]->Receive());
  EXPECT_EQ(fetcher.flow, reduce.fetches[1].flow);
  EXPECT_EQ(fetcher.cls, 0);

  agents[2]->Send(FlowDone{reduce.fetches[1].flow, 1'000'000});
  agents[2]->Send(TaskDone{reduce.task});
  for (auto& a : agents) EXPECT_TRUE(std::holds_alternative<Stop>(a->Receive()));
  run.join();
  EXPECT_EQ(error, "");
  EXPECT_EQ(result.summary.unfinished_jobs, 0);
}

}  // namespace
}  // namespace slotflow::testing
