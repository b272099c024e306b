// The agent against a master played by the test over loopback (no namespaces needed): it runs
// a task (local block, fetches from its own data server, compute), reports what it measured,
// re-marks live sockets when a flow's class changes, and fails clearly when it cannot go on.
#include "live/agent.h"

#include <gtest/gtest.h>

#include <chrono>
#include <map>

#include "api/error.h"
#include "live/line_channel.h"
#include "live_peer.h"

namespace slotflow::testing {
namespace {

TEST(Agent, RunsATaskAndReportsWhatItMeasured) {
  Listener master;
  AgentThread agent(3, master.port());
  agent.Start();
  Peer control(master.io());
  master.Accept(control);
  const auto hello = std::get<Hello>(control.Receive());
  EXPECT_EQ(hello.host, 3);
  EXPECT_EQ(hello.data_port, agent.agent().data_port());

  const auto launched = std::chrono::steady_clock::now();
  control.Send(Launch{TaskId{1},
                      3'000'000,
                      0.2,
                      {Fetch{FlowId{0}, "127.0.0.1", hello.data_port, 2'000'000, 1},
                       Fetch{FlowId{1}, "127.0.0.1", hello.data_port, 1'000'000, 0}}});
  std::map<FlowId, int64_t> done;
  ControlMessage m = control.ReceiveSkippingProgress();
  while (const auto* d = std::get_if<FlowDone>(&m)) {
    done[d->flow] = d->bytes;
    m = control.ReceiveSkippingProgress();
  }
  ASSERT_TRUE(std::holds_alternative<TaskDone>(m)) << MessageType(m);
  EXPECT_EQ(std::get<TaskDone>(m).task, 1);
  EXPECT_GE(std::chrono::duration<double>(std::chrono::steady_clock::now() - launched).count(),
            0.2);
  EXPECT_EQ(done, (std::map<FlowId, int64_t>{{FlowId{0}, 2'000'000}, {FlowId{1}, 1'000'000}}));

  control.Send(Stop{});
  agent.Join();
  EXPECT_FALSE(agent.error());
}

TEST(Agent, AClassChangeMarksTheLiveSocketsOfBothEnds) {
  Listener master, source;
  AgentThread agent(0, master.port());
  agent.Start();
  Peer control(master.io());
  master.Accept(control);
  const auto hello = std::get<Hello>(control.Receive());

  // Fetching end: flow 5 from a source that accepts and never sends.
  control.Send(
      Launch{TaskId{2}, 0, 0, {Fetch{FlowId{5}, "127.0.0.1", source.port(), 1'000'000, 0}}});
  Peer silent_source(source.io());
  source.Accept(silent_source);
  EXPECT_EQ(std::get<FetchRequest>(silent_source.Receive()).flow, 5);
  EXPECT_EQ(agent.agent().FlowSocketTos(FlowId{5}), std::vector<int>{TosOfClass(0)});
  control.Send(SetClass{FlowId{5}, 3});
  EXPECT_TRUE(Eventually(
      [&] { return agent.agent().FlowSocketTos(FlowId{5}) == std::vector<int>{TosOfClass(3)}; }));

  // Serving end: flow 9 to a fetcher that asks for far more than it reads.
  Peer fetcher(source.io());
  fetcher.socket().connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), hello.data_port));
  fetcher.Send(FetchRequest{FlowId{9}, int64_t{1} << 40, 2});
  EXPECT_TRUE(Eventually(
      [&] { return agent.agent().FlowSocketTos(FlowId{9}) == std::vector<int>{TosOfClass(2)}; }));
  control.Send(SetClass{FlowId{9}, 4});
  EXPECT_TRUE(Eventually(
      [&] { return agent.agent().FlowSocketTos(FlowId{9}) == std::vector<int>{TosOfClass(4)}; }));

  control.Send(Stop{});
  agent.Join();
  EXPECT_FALSE(agent.error());
}

TEST(Agent, MarkSocketSetsIpTos) {
  asio::io_context io;
  tcp::socket s(io);
  s.open(tcp::v4());
  MarkSocket(s.native_handle(), TosOfClass(2));
  EXPECT_EQ(SocketTos(s.native_handle()), TosOfClass(2));
  MarkSocket(s.native_handle(), ControlTos());
  EXPECT_EQ(SocketTos(s.native_handle()), 0xe0);
}

TEST(Agent, AnUnreachableMasterIsAnInputErrorNamingIt) {
  uint16_t closed_port;
  {
    Listener gone;
    closed_port = gone.port();
  }
  AgentThread agent(0, closed_port, /*connect_timeout=*/0.3);
  agent.Start();
  agent.Join();
  ASSERT_TRUE(agent.error());
  try {
    std::rethrow_exception(agent.error());
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--master");
    EXPECT_NE(std::string(e.what()).find("cannot reach the master"), std::string::npos);
  }
}

// The source may be a lost host: the agent reports the fetch and goes on; the master cancels the
// task.
TEST(Agent, AFetchThatCannotConnectIsReportedAndItsTaskCancelled) {
  uint16_t closed_port;
  {
    Listener gone;
    closed_port = gone.port();
  }
  Listener master;
  AgentThread agent(1, master.port());
  agent.Start();
  Peer control(master.io());
  master.Accept(control);
  control.Receive();  // hello
  control.Send(Launch{TaskId{4}, 0, 0, {Fetch{FlowId{8}, "127.0.0.1", closed_port, 10, 0}}});
  const auto failure = std::get<FetchFailed>(control.ReceiveSkippingProgress());
  EXPECT_EQ(failure.flow, 8);
  EXPECT_NE(failure.text.find("flow 8: cannot connect"), std::string::npos) << failure.text;
  control.Send(Cancel{TaskId{4}});
  // Launched again after the cancel, it runs (no fetch this time) and is done.
  control.Send(Launch{TaskId{4}, 0, 0, {}});
  EXPECT_EQ(std::get<TaskDone>(control.ReceiveSkippingProgress()).task, 4);
  control.Send(Stop{});
  agent.Join();
  EXPECT_FALSE(agent.error());
}

}  // namespace
}  // namespace slotflow::testing
