// Per-flow policies fcfs, las and srpt (NEAT+ §IV-A): exact completion times on a big switch.
// Unless stated, every link carries 1 unit/s; server s has an uplink and a downlink, so flows
// from distinct senders into one receiver compete only on its downlink.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "network_scenario.h"

namespace slotflow::testing {
namespace {

constexpr double kTol = 1e-9;

// Small exponential thresholds for the limited-queue cases: 1, 2, 4, 8, ... units.
using SettingsMap = std::map<std::string, std::string>;

SettingsMap SmallThresholds(int queues = 8) {
  return {{"queues", std::to_string(queues)}, {"first_threshold", "1"}, {"multiplier", "2"}};
}

SettingsMap Unlimited() { return {{"queues", "unlimited"}}; }

TEST(FcfsPolicy, ServesFlowsInStartOrderTiesByFlowId) {
  NetworkScenario s;
  s.policy = "fcfs";
  s.config = Unlimited();
  s.flows = {{.start = 0, .src = 0, .dst = 3, .size = 2},
             {.start = 0.5, .src = 1, .dst = 3, .size = 1},
             {.start = 0.5, .src = 2, .dst = 3, .size = 1}};
  const auto finish = s.Run();
  EXPECT_NEAR(finish[0], 2, kTol);  // the oldest keeps the whole downlink: 2 units at rate 1
  EXPECT_NEAR(finish[1], 3, kTol);  // waits until 2, then 1 unit at rate 1
  EXPECT_NEAR(finish[2], 4, kTol);  // same start as flow 1 but a higher id: waits until 3
}

// Q = 2: the oldest active flow gets class 0, all the others share class 1 max-min; when the
// oldest ends the next one moves up. Flow 0 is alone on its links, flows 1 and 2 share a
// downlink.
TEST(FcfsPolicy, LimitedQueuesShareTheLastClassUnlimitedDoNot) {
  NetworkScenario s;
  s.servers = 6;
  s.policy = "fcfs";
  s.flows = {{.start = 0, .src = 0, .dst = 1, .size = 0.5},
             {.start = 0, .src = 2, .dst = 5, .size = 1},
             {.start = 0, .src = 3, .dst = 5, .size = 1}};
  s.config["queues"] = "2";
  auto finish = s.Run();
  EXPECT_NEAR(finish[0], 0.5, kTol);
  // 0–0.5: flows 1 and 2 both in class 1, 1/2 each → 0.25 sent each. At 0.5 flow 0 ends, flow 1
  // becomes the oldest (class 0): 0.75 left at rate 1 → 1.25.
  EXPECT_NEAR(finish[1], 1.25, kTol);
  EXPECT_NEAR(finish[2], 2.0, kTol);  // 0.75 left, alone from 1.25 → 2.0
  s.config = Unlimited();             // every flow its own class: flow 1 strictly before flow 2
  finish = s.Run();
  EXPECT_NEAR(finish[0], 0.5, kTol);
  EXPECT_NEAR(finish[1], 1.0, kTol);
  EXPECT_NEAR(finish[2], 2.0, kTol);
}

// Q = 3: the two oldest active flows each get a class of their own, strictly ordered; when the
// oldest ends, the third oldest moves up behind the second, and the youngest stays last.
TEST(FcfsPolicy, LimitedQueuesKeepTheOldestStrictlyOrderedAsFlowsEnd) {
  NetworkScenario s;
  s.servers = 6;
  s.policy = "fcfs";
  s.config["queues"] = "3";
  s.flows = {{.start = 0, .src = 0, .dst = 5, .size = 1},
             {.start = 0, .src = 1, .dst = 5, .size = 2},
             {.start = 0, .src = 2, .dst = 5, .size = 1},
             {.start = 0, .src = 3, .dst = 5, .size = 1}};
  const auto finish = s.Run();
  EXPECT_NEAR(finish[0], 1, kTol);  // the oldest has the downlink to itself
  EXPECT_NEAR(finish[1], 3, kTol);  // then flow 1, ahead of flow 2 that just moved up
  EXPECT_NEAR(finish[2], 4, kTol);
  EXPECT_NEAR(finish[3], 5, kTol);
}

// Thresholds 1, 2, 4, ...: a flow is demoted the instant its sent bytes reach one.
TEST(LasPolicy, DemotesAFlowMidTransferAtAThreshold) {
  NetworkScenario s;
  s.policy = "las";
  s.config = SmallThresholds();
  s.flows = {{.start = 0, .src = 0, .dst = 2, .size = 2},
             {.start = 0.5, .src = 1, .dst = 2, .size = 2}};
  // 0–0.5: flow 0 alone in class 0, sent 0.5. 0.5–1.5: both in class 0 at 1/2; at 1.5 flow 0
  // has sent 1 → class 1 (flow 1 has sent 0.5). 1.5–2: flow 1 alone at rate 1, sent 1 at 2 →
  // class 1. From 2 both are in class 1 with 1 unit left each, 1/2 each → both end at 4.
  // (Fair sharing would end flow 0 at 3.5; demoting at 1.5 is what delays it.)
  auto finish = s.Run();
  EXPECT_NEAR(finish[0], 4, kTol);
  EXPECT_NEAR(finish[1], 4, kTol);
  s.config["queues"] = "1";  // one class: no demotion, plain max-min
  finish = s.Run();
  EXPECT_NEAR(finish[0], 3.5, kTol);  // 0.5 alone, then 1.5 at 1/2 → 3.5
  EXPECT_NEAR(finish[1], 4, kTol);    // 1.5 sent by 3.5, the last 0.5 alone
}

// Unlimited: class = floor(bytes sent) at each event. With the default thresholds (10 MiB) both
// flows stay in class 0 and share.
TEST(LasPolicy, UnlimitedQueuesRankBySentBytesAtEachEvent) {
  NetworkScenario s;
  s.policy = "las";
  s.flows = {{.start = 0, .src = 0, .dst = 2, .size = 2},
             {.start = 1, .src = 1, .dst = 2, .size = 1}};
  s.config = Unlimited();
  auto finish = s.Run();
  // At 1 flow 0 has sent 1 (class 1), the new flow 0 (class 0): it runs alone 1–2.
  EXPECT_NEAR(finish[1], 2, kTol);
  EXPECT_NEAR(finish[0], 3, kTol);
  s.config = {};  // 8 queues, first threshold 10 MiB: one class here
  finish = s.Run();
  EXPECT_NEAR(finish[1], 3, kTol);  // 1 at 1/2
  EXPECT_NEAR(finish[0], 3, kTol);  // 1 sent by 1, 1 more at 1/2
}

// Thresholds 1, 2, 4, ...: SRPT promotes a flow the moment its remaining bytes drop below the
// threshold under its class (an exact event), whatever else happens.
TEST(SrptPolicy, PromotesAFlowTheMomentItsRemainingBytesDropBelowAThreshold) {
  NetworkScenario s;
  s.policy = "srpt";
  s.config = SmallThresholds();
  s.flows = {{.start = 0, .src = 0, .dst = 2, .size = 3.5},
             {.start = 0, .src = 1, .dst = 2, .size = 3}};
  // Both have [2, 4) left: class 2, 1/2 each. At 2 flow 1 has 2 left → class 1 and runs alone
  // at rate 1: it ends at 4. Flow 0 has 2.5 left at 2 and the link alone from 4 → 6.5.
  auto finish = s.Run();
  EXPECT_NEAR(finish[1], 4, kTol);
  EXPECT_NEAR(finish[0], 6.5, kTol);
  // An unrelated arrival at 2.5 (own links) changes nothing: promotions do not wait for events.
  s.servers = 5;
  s.flows.push_back({.start = 2.5, .src = 3, .dst = 4, .size = 1});
  finish = s.Run();
  EXPECT_NEAR(finish[1], 4, kTol);
  EXPECT_NEAR(finish[0], 6.5, kTol);
  EXPECT_NEAR(finish[2], 3.5, kTol);
}

// One scenario where LAS and SRPT disagree: an old flow with little left and a new big one.
// Thresholds 1, 2, 4, ...
TEST(PerFlowPolicies, LasAndSrptDisagree) {
  NetworkScenario s;
  s.config = SmallThresholds();
  s.flows = {{.start = 0, .src = 0, .dst = 2, .size = 3},
             {.start = 1.5, .src = 1, .dst = 2, .size = 2.5}};
  s.policy = "srpt";
  auto finish = s.Run();
  // Flow 0: 3 left → class 2. At the arrival at 1.5 it has 1.5 left → class 1, the new flow
  // 2.5 (class 2): flow 0 keeps the link and ends at 3; flow 1 runs 3–5.5.
  EXPECT_NEAR(finish[0], 3, kTol);
  EXPECT_NEAR(finish[1], 5.5, kTol);
  s.policy = "las";
  finish = s.Run();
  // Flow 0: sent 1 at 1 → class 1; at 1.5 sent 1.5. Flow 1 (class 0) runs alone 1.5–2.5, sent 1
  // → class 1. Both in class 1 at 1/2: flow 0 reaches sent 2 at 3.5 (flow 1 sent 1.5) → class 2;
  // flow 1 alone reaches sent 2 at 4 → class 2. Both at 1/2: flow 1 (0.5 left) ends at 5, flow 0
  // has 0.5 left then and ends at 5.5.
  EXPECT_NEAR(finish[0], 5.5, kTol);
  EXPECT_NEAR(finish[1], 5, kTol);
}

// NEAT+ Fig. 1 (§I; also NEAT, CoNEXT 2016): 1 Gbps links (125e6 B/s); a new 5 Gb flow
// (6.25e8 B) can go to node 1, which already receives two 10 Gb flows (1.25e9 B each), or to node
// 3, which receives one 4 Gb flow (5e8 B). All senders are distinct, so only the receiver's
// downlink is shared. Everything starts at 0, the new flow last (so FCFS ranks it last).
// Returns the new flow's completion time at `receiver` (1 or 3).
double NeatNewFlowFinish(const std::string& policy, int receiver) {
  NetworkScenario s;
  s.servers = 4;
  s.nic = 125e6;
  s.policy = policy;
  if (policy != "fair") s.config = Unlimited();  // fair has no classes
  if (receiver == 1) {
    s.flows = {{.start = 0, .src = 0, .dst = 1, .size = 1.25e9},
               {.start = 0, .src = 2, .dst = 1, .size = 1.25e9}};
  } else {
    s.flows = {{.start = 0, .src = 0, .dst = 3, .size = 5e8}};
  }
  s.flows.push_back({.start = 0, .src = receiver == 1 ? 3 : 1, .dst = receiver, .size = 6.25e8});
  return s.Run().back();
}

TEST(PerFlowPolicies, NeatFigure1) {
  // FCFS: node 1 serves 10 + 10 Gb first (20 s), then 5 s → 25; node 3: 4 s, then 5 s → 9.
  EXPECT_NEAR(NeatNewFlowFinish("fcfs", 1), 25, kTol);
  EXPECT_NEAR(NeatNewFlowFinish("fcfs", 3), 9, kTol);
  // Fair: node 1 gives 1/3 Gbps each, 5 Gb → 15 s (the others are bigger); node 3 gives 1/2
  // each: at 8 s the 4 Gb flow ends and the new one has 1 Gb left, alone → 9.
  EXPECT_NEAR(NeatNewFlowFinish("fair", 1), 15, kTol);
  EXPECT_NEAR(NeatNewFlowFinish("fair", 3), 9, kTol);
  // SRPT: at node 1 the new flow is the shortest → 5 s; at node 3 the 4 Gb flow goes first → 9.
  EXPECT_NEAR(NeatNewFlowFinish("srpt", 1), 5, kTol);
  EXPECT_NEAR(NeatNewFlowFinish("srpt", 3), 9, kTol);
}

}  // namespace
}  // namespace slotflow::testing
