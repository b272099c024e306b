// The master loses an agent mid-shuffle (agents played by the test over loopback): the map
// whose output lived on the lost host runs again elsewhere, the reducer that was fetching from
// it starts over once it has, and the job completes; the summary names the lost host and counts
// the re-runs.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "api/network_policy.h"
#include "api/task_scheduler.h"
#include "live/live_peer.h"
#include "master/master.h"
#include "scenario.h"

namespace slotflow::testing {
namespace {

constexpr uint16_t kBasePort = 5000;  // host h says its data port is kBasePort + h

// A played agent: maps are done at once; before `lost` is chosen, a task with fetches is held
// (the shuffle is in progress), its first source becomes `lost`, and that host's connection is
// shut down from here (its own thread, blocked reading, then ends); after, every fetch is done
// and then the task.
struct PlayedAgent {
  int host;
  std::atomic<int>& lost;
  std::vector<std::atomic<int>>& fds;  // every played agent's control socket
  bool stopped = false;
  std::string error;

  void Run(uint16_t master_port) {
    asio::io_context io;
    Peer peer(io);
    try {
      peer.socket().connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), master_port));
      LimitReads(peer.socket());
      fds[host] = peer.socket().native_handle();
      peer.Send(Hello{host, static_cast<uint16_t>(kBasePort + host)});
      while (!stopped) Handle(peer, peer.Receive());
    } catch (const std::exception& e) {
      if (lost != host) error = e.what();
    }
  }

  void Handle(Peer& peer, const ControlMessage& m) {
    if (std::holds_alternative<Stop>(m)) {
      stopped = true;
    } else if (const auto* l = std::get_if<Launch>(&m)) {
      int expected = -1;
      if (!l->fetches.empty() &&
          lost.compare_exchange_strong(expected, l->fetches.front().port - kBasePort)) {
        ::shutdown(fds[lost], SHUT_RDWR);
        return;
      }
      for (const Fetch& f : l->fetches) peer.Send(FlowDone{f.flow, f.bytes});
      peer.Send(TaskDone{l->task, l->attempt});
    }
  }
};

// 3 hosts of 1 slot, every block on all three, played agents; `jobs` MapReduce jobs of 3 maps
// and a reducer, 1.5 s apart. One host is lost mid-shuffle (PlayedAgent); with `rejoin`, a new
// played agent for it says hello 0.3 s later.
struct LossRun {
  RunResult result;
  std::string error;
  int lost = -1;
  std::vector<std::string> agent_errors;
  bool rejoined_agent_stopped = false;

  LossRun(int jobs, bool rejoin) {
    ClusterSpec spec = UnitCluster(3, 1);
    spec.classes[0].nic = 12.5e6;
    spec.replicas = 3;  // every block survives the loss of one host
    Workload workload;
    StageSpec maps{"map", {}, std::vector<TaskSpec>(3, Task(1e6))};
    for (int j = 0; j < jobs; ++j) {
      workload.jobs.push_back(Job(std::string(1, static_cast<char>('A' + j)), 1.5 * j,
                                  {maps, StageSpec{"reduce", {0}, {Task(3e6)}}}));
    }
    const Cluster cluster(spec);
    MasterConfig config;
    config.deadline = 20;
    config.agent_timeout = 30;  // the played agents send no heartbeats
    Master master(cluster, workload, TaskSchedulerRegistry::Get().Make("greedy", {}, 1),
                  NetworkPolicyRegistry::Get().Make("fair", {}, 1), config);
    std::atomic<int> lost_host{-1};
    std::vector<std::atomic<int>> fds(3);
    std::vector<std::unique_ptr<PlayedAgent>> agents;
    std::vector<std::thread> threads;
    for (int h = 0; h < 3; ++h) {
      agents.push_back(std::make_unique<PlayedAgent>(PlayedAgent{h, lost_host, fds, false, ""}));
      threads.emplace_back([&a = *agents.back(), port = master.port()] { a.Run(port); });
    }
    std::unique_ptr<PlayedAgent> again;
    if (rejoin) {
      threads.emplace_back([&, port = master.port()] {
        while (lost_host < 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
        std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the loss is handled
        again = std::make_unique<PlayedAgent>(PlayedAgent{lost_host, lost_host, fds, false, ""});
        again->Run(port);
      });
    }
    try {
      result = master.Run();
    } catch (const std::exception& e) {
      error = e.what();
    }
    for (auto& t : threads) t.join();
    lost = lost_host;
    for (const auto& a : agents) agent_errors.push_back(a->error);
    rejoined_agent_stopped = again && again->stopped;
  }
};

TEST(MasterAgentLoss, AHostLostMidShuffleHasItsTasksRunElsewhere) {
  const LossRun run(1, /*rejoin=*/false);
  ASSERT_EQ(run.error, "");
  ASSERT_GE(run.lost, 0);
  for (const std::string& e : run.agent_errors) EXPECT_EQ(e, "");
  const RunResult& r = run.result;
  EXPECT_EQ(r.summary.unfinished_jobs, 0);
  ASSERT_EQ(r.jobs.size(), 1u);
  EXPECT_EQ(r.summary.lost_hosts, std::vector<int>{run.lost});
  EXPECT_TRUE(r.summary.rejoined_hosts.empty());
  // The lost host's map (its output was still to be fetched) and the reducer fetching it.
  EXPECT_EQ(r.summary.tasks_rerun, 2);
  ASSERT_EQ(r.tasks.size(), 4u);
  for (const TaskResult& t : r.tasks) EXPECT_NE(t.server, run.lost) << t.stage << " " << t.index;
}

// A new agent for the lost host says hello while the run goes on (a second job arrives later):
// the host rejoins, the summary names it, and its agent is told to stop at the end.
TEST(MasterAgentLoss, ANewAgentForALostHostRejoins) {
  const LossRun run(2, /*rejoin=*/true);
  ASSERT_EQ(run.error, "");
  ASSERT_GE(run.lost, 0);
  EXPECT_TRUE(run.rejoined_agent_stopped);
  EXPECT_EQ(run.result.summary.unfinished_jobs, 0);
  EXPECT_EQ(run.result.summary.lost_hosts, std::vector<int>{run.lost});
  EXPECT_EQ(run.result.summary.rejoined_hosts, std::vector<int>{run.lost});
}

// An agent that stays connected but sends nothing (not even heartbeats) for agent_timeout is
// lost; the real agents beside it, beating every second, are not.
TEST(MasterAgentLoss, ASilentAgentIsLostAfterTheTimeout) {
  ClusterSpec spec = UnitCluster(3, 1);
  spec.classes[0].nic = 12.5e6;
  spec.replicas = 3;
  spec.slot_rate = 100e6;
  Workload workload;
  workload.jobs = {Job("A", 0, {StageSpec{"map", {}, std::vector<TaskSpec>(3, Task(1e6))}})};
  const Cluster cluster(spec);
  MasterConfig config;
  config.deadline = 20;
  config.agent_timeout = 2.5;
  Master master(cluster, workload, TaskSchedulerRegistry::Get().Make("greedy", {}, 1),
                NetworkPolicyRegistry::Get().Make("fair", {}, 1), config);
  AgentThread a0(0, master.port()), a1(1, master.port());
  a0.Start();
  a1.Start();
  asio::io_context io;
  Peer silent(io);
  silent.socket().connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), master.port()));
  silent.Send(Hello{2, kBasePort + 2});
  const auto before = std::chrono::steady_clock::now();
  const RunResult r = master.Run();
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - before).count();
  a0.Join();
  a1.Join();
  EXPECT_FALSE(a0.error());
  EXPECT_FALSE(a1.error());
  EXPECT_EQ(r.summary.unfinished_jobs, 0);
  EXPECT_EQ(r.summary.lost_hosts, std::vector<int>{2});
  EXPECT_EQ(r.summary.tasks_rerun, 1);  // its map, launched and never done
  EXPECT_GE(took, 2.5);
  EXPECT_LT(took, 10);
  for (const TaskResult& t : r.tasks) EXPECT_NE(t.server, 2);
}

// With every agent lost, the run ends with an error at once rather than waiting.
TEST(MasterAgentLoss, NoAgentLeftEndsTheRun) {
  ClusterSpec spec = UnitCluster(1, 1);
  Workload workload;
  workload.jobs = {Job("A", 0, {StageSpec{"map", {}, {Task(0, 5)}}})};
  const Cluster cluster(spec);
  MasterConfig config;
  config.deadline = 20;
  Master master(cluster, workload, TaskSchedulerRegistry::Get().Make("greedy", {}, 1),
                NetworkPolicyRegistry::Get().Make("fair", {}, 1), config);
  std::thread agent([port = master.port()] {
    asio::io_context io;
    Peer peer(io);
    peer.socket().connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
    LimitReads(peer.socket());
    peer.Send(Hello{0, kBasePort});
    std::get<Launch>(peer.Receive());
    peer.socket().close();
  });
  const auto before = std::chrono::steady_clock::now();
  try {
    master.Run();
    ADD_FAILURE() << "the run finished with no agent";
  } catch (const LiveRunError& e) {
    EXPECT_NE(std::string(e.what()).find("no agent is left"), std::string::npos) << e.what();
  }
  agent.join();
  EXPECT_LT(std::chrono::steady_clock::now() - before, std::chrono::seconds(5));
}

}  // namespace
}  // namespace slotflow::testing
