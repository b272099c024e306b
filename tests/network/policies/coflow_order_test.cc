// Coflow-order policies and Aalo on hand-checked scenarios: every flow goes into server 3,
// whose downlink (1 unit/s) is the only bottleneck; flows of one coflow come from distinct
// senders.
#include "network_scenario.h"

namespace slotflow::testing {
namespace {

// A: one 4-unit flow (length 4, width 1, total 4); B: three 1.5-unit flows (length 1.5,
// width 3, total 4.5); C: two 2.5-unit flows (length 2.5, width 2, total 5). Arrivals C, B, A.
NetworkScenario ThreeCoflows(const std::string& policy) {
  NetworkScenario s;
  s.policy = policy;
  s.config["queues"] = "unlimited";
  s.coflows = {Coflow{.arrival = 2, .total_bytes = 4, .width = 1, .length = 4},
               Coflow{.arrival = 1, .total_bytes = 4.5, .width = 3, .length = 1.5},
               Coflow{.arrival = 0, .total_bytes = 5, .width = 2, .length = 2.5}};
  s.flows = {{.src = 0, .dst = 3, .size = 4, .coflow = 0},
             {.src = 0, .dst = 3, .size = 1.5, .coflow = 1},
             {.src = 1, .dst = 3, .size = 1.5, .coflow = 1},
             {.src = 2, .dst = 3, .size = 1.5, .coflow = 1},
             {.src = 1, .dst = 3, .size = 2.5, .coflow = 2},
             {.src = 2, .dst = 3, .size = 2.5, .coflow = 2}};
  return s;
}

// Coflow completion = its last flow's finish.
std::vector<double> CoflowFinish(const NetworkScenario& s) {
  const auto finish = s.Run();
  std::vector<double> out(s.coflows.size(), 0);
  for (size_t i = 0; i < finish.size(); ++i) {
    out[s.flows[i].coflow] = std::max(out[s.flows[i].coflow], finish[i]);
  }
  return out;
}

TEST(CoflowOrder, ShortestFirstServesBThenCThenA) {
  // Lengths B 1.5 < C 2.5 < A 4: B's 4.5 units end at 4.5, C's 5 at 9.5, A's 4 at 13.5.
  const auto t = CoflowFinish(ThreeCoflows("scf"));
  EXPECT_DOUBLE_EQ(t[1], 4.5);
  EXPECT_DOUBLE_EQ(t[2], 9.5);
  EXPECT_DOUBLE_EQ(t[0], 13.5);
}

TEST(CoflowOrder, NarrowestFirstServesAThenCThenB) {
  // Widths A 1 < C 2 < B 3: A ends at 4, C at 9, B at 13.5.
  const auto t = CoflowFinish(ThreeCoflows("ncf"));
  EXPECT_DOUBLE_EQ(t[0], 4);
  EXPECT_DOUBLE_EQ(t[2], 9);
  EXPECT_DOUBLE_EQ(t[1], 13.5);
}

TEST(CoflowOrder, SmallestTotalFirstServesAThenBThenC) {
  // Totals A 4 < B 4.5 < C 5: A ends at 4, B at 8.5, C at 13.5.
  const auto t = CoflowFinish(ThreeCoflows("tcf"));
  EXPECT_DOUBLE_EQ(t[0], 4);
  EXPECT_DOUBLE_EQ(t[1], 8.5);
  EXPECT_DOUBLE_EQ(t[2], 13.5);
}

TEST(CoflowOrder, LightestBottleneckFirstUsesTheBusiestLinkOfEachCoflow) {
  // Everything crosses server 3's downlink, so each bottleneck is the coflow's total: as TCF.
  const auto t = CoflowFinish(ThreeCoflows("lcf"));
  EXPECT_DOUBLE_EQ(t[0], 4);
  EXPECT_DOUBLE_EQ(t[1], 8.5);
  EXPECT_DOUBLE_EQ(t[2], 13.5);
}

TEST(CoflowOrder, FifoServesByArrival) {
  // Arrivals C 0 < B 1 < A 2: C ends at 5, B at 9.5, A at 13.5.
  const auto t = CoflowFinish(ThreeCoflows("coflow-fifo"));
  EXPECT_DOUBLE_EQ(t[2], 5);
  EXPECT_DOUBLE_EQ(t[1], 9.5);
  EXPECT_DOUBLE_EQ(t[0], 13.5);
}

TEST(CoflowOrder, FifoWithTwoQueuesReRanksWhenTheHeadCoflowEnds) {
  // Two queues: C (earliest) alone in class 0 ends at 5; A and B wait in class 1. When C ends,
  // B becomes the earliest active coflow and moves up to class 0: it ends at 9.5 and A at 13.5.
  // Without the re-rank A and B would share per flow (1/4 each) and B would end at 11.
  NetworkScenario s = ThreeCoflows("coflow-fifo");
  s.config["queues"] = "2";
  const auto t = CoflowFinish(s);
  EXPECT_DOUBLE_EQ(t[2], 5);
  EXPECT_DOUBLE_EQ(t[1], 9.5);
  EXPECT_DOUBLE_EQ(t[0], 13.5);
}

// Three queues: the two earliest active coflows have classes of their own, the rest share one.
// Q (arrival 1) and R (2) start at 0 and are the two earliest; S (3) waits behind R on server
// 5's downlink. At 1 the flow of P (arrival 0, the earliest) starts: P goes ahead of Q on server
// 3's downlink (P ends at 11, Q with 9 units left at 20), and R drops back to share server 5's
// downlink with S: 1/2 each, R's last unit ends at 3, S's last at 4. Had R kept its class it
// would end at 2; had P gone behind Q, Q would end at 10 and P at 20.
TEST(CoflowOrder, FifoWithThreeQueuesRanksAnEarlierCoflowThatStartsLate) {
  NetworkScenario s;
  s.servers = 6;
  s.policy = "coflow-fifo";
  s.config["queues"] = "3";
  s.coflows = {Coflow{.arrival = 0, .total_bytes = 10, .width = 1, .length = 10},
               Coflow{.arrival = 1, .total_bytes = 10, .width = 1, .length = 10},
               Coflow{.arrival = 2, .total_bytes = 2, .width = 1, .length = 2},
               Coflow{.arrival = 3, .total_bytes = 2, .width = 1, .length = 2}};
  s.flows = {{.start = 1, .src = 0, .dst = 3, .size = 10, .coflow = 0},
             {.start = 0, .src = 1, .dst = 3, .size = 10, .coflow = 1},
             {.start = 0, .src = 2, .dst = 5, .size = 2, .coflow = 2},
             {.start = 0, .src = 4, .dst = 5, .size = 2, .coflow = 3}};
  const auto t = CoflowFinish(s);
  EXPECT_DOUBLE_EQ(t[0], 11);
  EXPECT_DOUBLE_EQ(t[1], 20);
  EXPECT_DOUBLE_EQ(t[2], 3);
  EXPECT_DOUBLE_EQ(t[3], 4);
}

// Thirty queues, all flows into server 0's downlink: A (arrival 0) runs from 0 and stays
// first; at each time i = 1..25 a coflow E_i arriving at 30 − i starts, earlier than every E
// already there, so each newcomer is ranked between A and the one before it (a policy that
// gave classes by spacing them out would run out of room). After A, they must run in arrival
// order, E_25 first: 100 units each, E_i ends at 100 · (27 − i).
TEST(CoflowOrder, FifoRanksManyNewcomersBetweenTheSameTwoCoflows) {
  constexpr int kNewcomers = 25;
  NetworkScenario s;
  s.servers = kNewcomers + 2;
  s.policy = "coflow-fifo";
  s.config["queues"] = "30";
  s.coflows.push_back(Coflow{.arrival = 0, .total_bytes = 100, .width = 1, .length = 100});
  s.flows.push_back({.start = 0, .src = 1, .dst = 0, .size = 100, .coflow = 0});
  for (int i = 1; i <= kNewcomers; ++i) {
    s.coflows.push_back(Coflow{.arrival = 30.0 - i, .total_bytes = 100, .width = 1, .length = 100});
    s.flows.push_back(
        {.start = static_cast<double>(i), .src = i + 1, .dst = 0, .size = 100, .coflow = i});
  }
  const auto t = CoflowFinish(s);
  EXPECT_DOUBLE_EQ(t[0], 100);
  for (int i = 1; i <= kNewcomers; ++i) EXPECT_DOUBLE_EQ(t[i], 100.0 * (27 - i)) << "E_" << i;
}

TEST(CoflowOrder, LimitedQueuesMergeCoflowsIntoOneClass) {
  // Two queues split at 4.6: A (4) and B (4.5) share class 0 per flow (1/4 each): B's flows end
  // at 6, A has 2.5 left and ends at 8.5; C (class 1) then ends at 13.5.
  NetworkScenario s = ThreeCoflows("tcf");
  s.config["queues"] = "2";
  s.config["first_threshold"] = "4.6";
  const auto t = CoflowFinish(s);
  EXPECT_DOUBLE_EQ(t[1], 6);
  EXPECT_DOUBLE_EQ(t[0], 8.5);
  EXPECT_DOUBLE_EQ(t[2], 13.5);
}

TEST(CoflowOrder, AFlowWithoutACoflowIsItsOwnCoflow) {
  // Under TCF a lone 1-unit flow (no coflow) beats a 4-unit coflow.
  NetworkScenario s;
  s.policy = "tcf";
  s.config["queues"] = "unlimited";
  s.coflows = {Coflow{.arrival = 0, .total_bytes = 4, .width = 1, .length = 4}};
  s.flows = {{.src = 0, .dst = 3, .size = 4, .coflow = 0},
             {.src = 1, .dst = 3, .size = 1, .coflow = -1}};
  const auto finish = s.Run();
  EXPECT_DOUBLE_EQ(finish[1], 1);
  EXPECT_DOUBLE_EQ(finish[0], 5);
}

// Aalo with thresholds 2, 4, 8, ...: X (6 units, arrives 0) runs alone until Y (2 units)
// arrives at 1; both are in queue 0 and FIFO keeps X first, until X has sent 2 units at t=2 and
// is demoted to queue 1 mid-transfer. Y then runs alone and ends at 4; X ends at 4 + 4 = 8.
// Without the demotion (coflow FIFO) X would end at 6 and Y at 8.
TEST(Aalo, DemotesACoflowTheMomentItCrossesAThreshold) {
  NetworkScenario s;
  s.policy = "aalo";
  s.config["first_threshold"] = "2";
  s.config["multiplier"] = "2";
  s.coflows = {Coflow{.arrival = 0, .total_bytes = 6, .width = 1, .length = 6},
               Coflow{.arrival = 1, .total_bytes = 2, .width = 1, .length = 2}};
  s.flows = {{.start = 0, .src = 0, .dst = 2, .size = 6, .coflow = 0},
             {.start = 1, .src = 1, .dst = 2, .size = 2, .coflow = 1}};
  const auto finish = s.Run();
  EXPECT_DOUBLE_EQ(finish[1], 4);
  EXPECT_DOUBLE_EQ(finish[0], 8);
  s.policy = "coflow-fifo";
  const auto fifo = s.Run();
  EXPECT_DOUBLE_EQ(fifo[0], 6);
  EXPECT_DOUBLE_EQ(fifo[1], 8);
}

// Inside one queue Aalo is FIFO by coflow arrival: two small coflows that never reach the
// first threshold are served one after the other, not shared.
TEST(Aalo, ServesCoflowsOfOneQueueInArrivalOrder) {
  NetworkScenario s;
  s.policy = "aalo";
  s.coflows = {Coflow{.arrival = 0, .total_bytes = 3, .width = 1, .length = 3},
               Coflow{.arrival = 0.5, .total_bytes = 1, .width = 1, .length = 1}};
  s.flows = {{.start = 0, .src = 0, .dst = 2, .size = 3, .coflow = 0},
             {.start = 0.5, .src = 1, .dst = 2, .size = 1, .coflow = 1}};
  const auto finish = s.Run();
  EXPECT_DOUBLE_EQ(finish[0], 3);
  EXPECT_DOUBLE_EQ(finish[1], 4);
}

}  // namespace
}  // namespace slotflow::testing
