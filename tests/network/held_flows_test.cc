// Held flows (FlowSpec::hold, the simulator's model of a task's launch and a connection's
// set-up): in flight for every view from their start, moving no bytes until the hold is over,
// and then in the class their policy gave them meanwhile. Unit links (1 unit/s).
#include <gtest/gtest.h>

#include "network_scenario.h"

namespace slotflow::testing {
namespace {

// A (0 → 1, 2 units) alone for 1 s, then sharing server 1's downlink with B (2 → 1, 2 units,
// held 1 s): A ends at 1 + 1 / 0.5 = 3, B at 3 + 1 = 4.
TEST(HeldFlows, AHeldFlowTakesNoShareUntilItsHoldEnds) {
  NetworkScenario s;
  s.flows = {FlowAt{.start = 0, .src = 0, .dst = 1, .size = 2},
             FlowAt{.start = 0, .src = 2, .dst = 1, .size = 2, .hold = 1}};
  const std::vector<double> f = s.Run();
  EXPECT_DOUBLE_EQ(f[0], 3);
  EXPECT_DOUBLE_EQ(f[1], 4);
}

// SRPT with a class per size classifies B (1 unit) above A (4 units) while B is held; once
// released B takes the link at once: A alone 0..1 (3 left), B 1..2, A 2..5. (Had B kept the
// solver's held class, it would never move.)
TEST(HeldFlows, TheClassGivenDuringTheHoldHoldsAfterIt) {
  NetworkScenario s;
  s.policy = "srpt";
  s.config = {{"queues", "unlimited"}};
  s.flows = {FlowAt{.start = 0, .src = 0, .dst = 1, .size = 4},
             FlowAt{.start = 0, .src = 2, .dst = 1, .size = 1, .hold = 1}};
  const std::vector<double> f = s.Run();
  EXPECT_DOUBLE_EQ(f[1], 2);
  EXPECT_DOUBLE_EQ(f[0], 5);
}

TEST(HeldFlows, AHeldFlowIsInFlightForEveryView) {
  ClusterSpec cs;
  cs.classes = {ServerClass{.name = "n", .count = 2, .slots = 1, .nic = 1.0}};
  const Cluster cluster(cs);
  Engine engine;
  Network net(cluster, NetworkPolicyRegistry::Get().Make("fair"), engine.clock());
  FlowSpec fs;
  fs.src = ServerId{0};
  fs.dst = ServerId{1};
  fs.size = 3;
  fs.hold = 0.5;
  const FlowId f = net.StartFlow(fs);
  net.Resolve();
  EXPECT_TRUE(net.Active(f));
  EXPECT_EQ(net.IncomingFlows(ServerId{1}), 1);
  EXPECT_EQ(net.OutgoingFlows(ServerId{0}), 1);
  EXPECT_EQ(net.Class(f), 0);  // fair's one class, not the solver's held class
  EXPECT_EQ(net.Rate(f), 0);
  EXPECT_DOUBLE_EQ(net.Remaining(f), 3);
  EXPECT_DOUBLE_EQ(net.NextEventTime(), 0.5);  // the hold's end
}

}  // namespace
}  // namespace slotflow::testing
