// The NEAT+ completion-time predictor (NEAT+ §IV, §V-B1; NEAT+ Fig. 1, §I): the paper's
// example, hand-checked coflow cases, the compressed state against the exact predictor, and the
// per-server edge summaries built from a live Network.
#include "api/neat_predictor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "api/neat_daemons.h"
#include "api/network_policy.h"
#include "api/task_scheduler.h"
#include "engine/engine.h"
#include "network/network.h"
#include "scenario.h"

namespace slotflow {
namespace {

constexpr Bytes kGb = 1e9 / 8;             // one gigabit in bytes
constexpr BytesPerSecond kGbps = 1e9 / 8;  // 1 Gbps in bytes/s

// NEAT Fig. 1: node 1 has two 10 Gb flows, node 3 one 4 Gb flow; a new 5 Gb flow arrives.
const std::vector<LinkTransfer> kNode1 = {{10 * kGb, 10 * kGb}, {10 * kGb, 10 * kGb}};
const std::vector<LinkTransfer> kNode3 = {{4 * kGb, 4 * kGb}};
const LinkTransfer kNewFlow{5 * kGb, 5 * kGb};

struct Fig1Case {
  NeatPolicy policy;
  Seconds node1, node3;
};

class NeatFig1 : public ::testing::TestWithParam<Fig1Case> {};

TEST_P(NeatFig1, PredictsThePapersTimesAndPicksItsNode) {
  const Fig1Case& c = GetParam();
  const Seconds t1 = PredictOnLink(c.policy, kGbps, kNode1, kNewFlow);
  const Seconds t3 = PredictOnLink(c.policy, kGbps, kNode3, kNewFlow);
  EXPECT_NEAR(t1, c.node1, 1e-9);
  EXPECT_NEAR(t3, c.node3, 1e-9);
  // The sender's uplink is idle, so the path prediction is the receiver's downlink.
  const std::vector<LinkView> path1 = {{kGbps, {}, 5 * kGb}, {kGbps, kNode1, 5 * kGb}};
  EXPECT_NEAR(PredictOnPath(c.policy, path1, 5 * kGb), c.node1, 1e-9);
}

INSTANTIATE_TEST_SUITE_P(
    Policies, NeatFig1,
    ::testing::Values(Fig1Case{NeatPolicy::kFcfs, 25, 9},  // node 3
                      Fig1Case{NeatPolicy::kFair, 15, 9},  // node 3
                      Fig1Case{NeatPolicy::kLas, 15, 9},   // node 3 (LAS predicted as Fair)
                      Fig1Case{NeatPolicy::kSrpt, 5, 9}),  // node 1: the new flow goes first
    [](const auto& info) { return std::string(NeatPolicyName(info.param.policy)); });

// Objective (2) on the same example, worked by hand (1 Gbps, Gb and seconds):
//   FCFS: Δ = 0 for everyone: node 1 25, node 3 9 → node 3.
//   Fair/LAS: the new flow delays each existing one by min(s_f, 5): node 1 15 + 5 + 5 = 25,
//     node 3 9 + 4 = 13 → node 3.
//   SRPT: only flows larger than 5 wait, by 5 each: node 1 5 + 5 + 5 = 15, node 3 9 + 0 = 9 →
//     node 3, although the new flow's own time is smaller on node 1 (5 against 9): the paper's
//     §I remark that minimising the increase of the total FCT under SRPT picks node 3.
struct ObjectiveCase {
  NeatPolicy policy;
  Seconds delay1, delay3;  // Σ Δ on each node's link
  Seconds node1, node3;    // the objective
};

class NeatFig1Objective : public ::testing::TestWithParam<ObjectiveCase> {};

TEST_P(NeatFig1Objective, AddsTheDelayOfEveryExistingFlow) {
  const ObjectiveCase& c = GetParam();
  Bytes d1 = 0, d3 = 0;
  for (const LinkTransfer& t : kNode1) d1 += DelayedBytes(c.policy, t, kNewFlow);
  for (const LinkTransfer& t : kNode3) d3 += DelayedBytes(c.policy, t, kNewFlow);
  EXPECT_NEAR(d1 / kGbps, c.delay1, 1e-9);
  EXPECT_NEAR(d3 / kGbps, c.delay3, 1e-9);
  const Seconds o1 = ObjectiveOnLink(c.policy, kGbps, kNode1, kNewFlow);
  const Seconds o3 = ObjectiveOnLink(c.policy, kGbps, kNode3, kNewFlow);
  EXPECT_NEAR(o1, c.node1, 1e-9);
  EXPECT_NEAR(o3, c.node3, 1e-9);
  EXPECT_LT(o3, o1);  // node 3 under every policy
  const std::vector<LinkView> path1 = {{kGbps, {}, 5 * kGb}, {kGbps, kNode1, 5 * kGb}};
  EXPECT_NEAR(ObjectiveOnPath(c.policy, path1, 5 * kGb), c.node1, 1e-9);
}

INSTANTIATE_TEST_SUITE_P(Policies, NeatFig1Objective,
                         ::testing::Values(ObjectiveCase{NeatPolicy::kFcfs, 0, 0, 25, 9},
                                           ObjectiveCase{NeatPolicy::kFair, 10, 4, 25, 13},
                                           ObjectiveCase{NeatPolicy::kLas, 10, 4, 25, 13},
                                           ObjectiveCase{NeatPolicy::kSrpt, 10, 0, 15, 9}),
                         [](const auto& info) {
                           return std::string(NeatPolicyName(info.param.policy));
                         });

// Coflow Δ terms on the three-coflow link below (unit bandwidth), new coflow s_c0 = 6 with 2
// bytes here:
//   coflow Fair/LAS, eq. (12): min(s_c, 6) · 2 / 6 for A (4), B (10), C (6): 4/3 + 2 + 2.
//   TCF, eq. (17): only B (10 > 6) waits, for c0's 2 bytes: 2.
TEST(NeatPredictor, CoflowDelaysFollowEachPolicy) {
  const std::vector<LinkTransfer> coflows = {{4, 2}, {10, 6}, {6, 3}};
  const LinkTransfer added{6, 2};
  auto delay = [&](NeatPolicy p) {
    Bytes d = 0;
    for (const LinkTransfer& t : coflows) d += DelayedBytes(p, t, added);
    return d;
  };
  EXPECT_NEAR(delay(NeatPolicy::kCoflowFair), 4.0 / 3 + 2 + 2, 1e-12);
  EXPECT_NEAR(delay(NeatPolicy::kCoflowLas), 4.0 / 3 + 2 + 2, 1e-12);
  EXPECT_DOUBLE_EQ(delay(NeatPolicy::kTcf), 2);
  // TCF's objective charges the larger coflow B, which its own prediction ignores.
  EXPECT_DOUBLE_EQ(ObjectiveOnLink(NeatPolicy::kTcf, 1, coflows, added),
                   PredictOnLink(NeatPolicy::kTcf, 1, coflows, added) + 2);
  // Coflow FCFS keys coflows by arrival (sizes stand for arrival times): A, B and C arrived at
  // 1, 2 and 3. A c0 that arrived last delays nobody (NEAT+'s case); one that arrived at 2.5,
  // a reduce task of an older coflow placed late, delays C by its 2 bytes.
  const std::vector<LinkTransfer> arrivals = {{1, 2}, {2, 6}, {3, 3}};
  auto fcfs_delay = [&](Seconds arrival) {
    Bytes d = 0;
    for (const LinkTransfer& t : arrivals) {
      d += DelayedBytes(NeatPolicy::kCoflowFcfs, t, LinkTransfer{arrival, 2});
    }
    return d;
  };
  EXPECT_DOUBLE_EQ(fcfs_delay(4), 0);
  EXPECT_DOUBLE_EQ(fcfs_delay(2.5), 2);
}

// Propositions 4.1 and 4.2 as properties: on random links, the candidate that minimises
// objective (2) is the one that minimises the new transfer's fair-share prediction (4) / (11),
//   - under flow Fair, LAS and SRPT (any sizes: Fair's objective is 2·(4) − s0/B, SRPT's is (4));
//   - under coflow Fair, LAS and TCF when every coflow splits its bytes over the links as the new
//     one does (s_{c,l}/s_c = s_{c0,l}/s_c0), the proposition's condition.
TEST(NeatPredictor, PropositionsPlaceAsTheFairSharePredictionDoes) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> size(1, 100);
  std::uniform_int_distribution<int> count(0, 6);
  for (int trial = 0; trial < 500; ++trial) {
    const bool coflow = trial % 2 == 1;
    const double share = 0.3;  // every coflow's bytes on each link / its size
    const Bytes s0 = size(rng);
    const LinkTransfer added{s0, coflow ? share * s0 : s0};
    std::vector<std::vector<LinkTransfer>> links(4);
    for (auto& link : links) {
      for (int n = count(rng); n > 0; --n) {
        const Bytes s = size(rng);
        link.push_back({s, coflow ? share * s : s});
      }
    }
    const NeatPolicy fair = coflow ? NeatPolicy::kCoflowFair : NeatPolicy::kFair;
    auto argmin = [&](auto&& cost) {
      size_t best = 0;
      for (size_t i = 1; i < links.size(); ++i) {
        if (cost(links[i]) < cost(links[best]) - 1e-9) best = i;
      }
      return best;
    };
    const size_t by_fair_share =
        argmin([&](const auto& l) { return PredictOnLink(fair, 1, l, added); });
    const std::vector<NeatPolicy> policies =
        coflow ? std::vector<NeatPolicy>{NeatPolicy::kCoflowFair, NeatPolicy::kCoflowLas,
                                         NeatPolicy::kTcf}
               : std::vector<NeatPolicy>{NeatPolicy::kFair, NeatPolicy::kLas, NeatPolicy::kSrpt};
    for (NeatPolicy p : policies) {
      EXPECT_EQ(argmin([&](const auto& l) { return ObjectiveOnLink(p, 1, l, added); }),
                by_fair_share)
          << NeatPolicyName(p) << " trial " << trial;
    }
    // Why: the identities behind the propositions, link by link. Fair/LAS: (2) = 2·(4) − s0/B
    // (eq. (6)); SRPT and TCF: (2) = the fair-share prediction itself (eqs. (9), (17)).
    for (const auto& l : links) {
      const Seconds own = PredictOnLink(fair, 1, l, added);
      const NeatPolicy las = coflow ? NeatPolicy::kCoflowLas : NeatPolicy::kLas;
      const NeatPolicy first = coflow ? NeatPolicy::kTcf : NeatPolicy::kSrpt;
      EXPECT_NEAR(ObjectiveOnLink(fair, 1, l, added), 2 * own - added.on_link, 1e-9);
      EXPECT_NEAR(ObjectiveOnLink(las, 1, l, added), 2 * own - added.on_link, 1e-9);
      EXPECT_NEAR(ObjectiveOnLink(first, 1, l, added), own, 1e-9);
    }
  }
}

// Three coflows on a unit link: A (s_c 4, 2 bytes here), B (10, 6), C (6, 3); new coflow
// s_c0 = 6 with 2 bytes on the link.
const std::vector<LinkTransfer> kCoflows = {{4, 2}, {10, 6}, {6, 3}};
const LinkTransfer kNewCoflow{6, 2};

TEST(NeatPredictor, CoflowFcfsCountsEveryByteOfEarlierCoflows) {
  // Sizes are arrival times under coflow FCFS: coflows with 2, 6 and 3 bytes on the link that
  // arrived at 1, 2 and 3. A new coflow arriving last waits for all 11 bytes: 13 s for its 2;
  // one that arrived at 2.5 waits for the first two only: 10 s.
  const std::vector<LinkTransfer> arrivals = {{1, 2}, {2, 6}, {3, 3}};
  EXPECT_DOUBLE_EQ(PredictOnLink(NeatPolicy::kCoflowFcfs, 1, arrivals, {4, 2}), 13);
  EXPECT_DOUBLE_EQ(PredictOnLink(NeatPolicy::kCoflowFcfs, 1, arrivals, {2.5, 2}), 10);
}

TEST(NeatPredictor, CoflowFairCountsEachCoflowsProgressShare) {
  // A: min(4,6)·2/4 = 2; B: min(10,6)·6/10 = 3.6; C: 6·3/6 = 3; plus the new 2.
  EXPECT_DOUBLE_EQ(PredictOnLink(NeatPolicy::kCoflowFair, 1, kCoflows, kNewCoflow), 10.6);
  EXPECT_DOUBLE_EQ(PredictOnLink(NeatPolicy::kCoflowLas, 1, kCoflows, kNewCoflow), 10.6);
}

TEST(NeatPredictor, TcfCountsOnlyCoflowsNotLargerThanTheNewOne) {
  // A (4 ≤ 6) and C (6 ≤ 6) go first; B (10) waits.
  EXPECT_DOUBLE_EQ(PredictOnLink(NeatPolicy::kTcf, 1, kCoflows, kNewCoflow), 7);
  // A smaller new coflow passes C too.
  EXPECT_DOUBLE_EQ(PredictOnLink(NeatPolicy::kTcf, 1, kCoflows, {5, 2}), 4);
  // Bandwidth divides.
  EXPECT_DOUBLE_EQ(PredictOnLink(NeatPolicy::kTcf, 2, kCoflows, kNewCoflow), 3.5);
}

TEST(NeatPredictor, ACoflowGivenInPartsPredictsTheSameAsWhole) {
  const std::vector<LinkTransfer> parts = {{4, 2}, {10, 4}, {10, 2}, {6, 1}, {6, 2}};
  for (NeatPolicy p : {NeatPolicy::kCoflowFcfs, NeatPolicy::kCoflowFair, NeatPolicy::kTcf}) {
    EXPECT_DOUBLE_EQ(PredictOnLink(p, 1, parts, kNewCoflow),
                     PredictOnLink(p, 1, kCoflows, kNewCoflow))
        << NeatPolicyName(p);
  }
}

TEST(NeatPredictor, PathIsTheSlowestLinkAndLocalIsFree) {
  // Uplink: TCF 2 + 1 new = 3 over bandwidth 1; downlink: 7 over bandwidth 1.
  const std::vector<LinkTransfer> up = {{4, 2}};
  const std::vector<LinkView> path = {{1, up, 1}, {1, kCoflows, 2}};
  EXPECT_DOUBLE_EQ(PredictOnPath(NeatPolicy::kTcf, path, 6), 7);
  const std::vector<LinkView> slow_up = {{0.5, up, 1}, {1, kCoflows, 2}};
  EXPECT_DOUBLE_EQ(PredictOnPath(NeatPolicy::kTcf, slow_up, 6), 7);
  const std::vector<LinkView> slower_up = {{0.25, up, 1}, {1, kCoflows, 2}};
  EXPECT_DOUBLE_EQ(PredictOnPath(NeatPolicy::kTcf, slower_up, 6), 12);
  EXPECT_DOUBLE_EQ(PredictOnPath(NeatPolicy::kTcf, {}, 6), 0);
  EXPECT_DOUBLE_EQ(PredictOnLink(NeatPolicy::kTcf, 1, kCoflows, {6, 0}), 0);
}

// --- compressed state ---

CompressedLinkState Compress(const std::vector<LinkTransfer>& ts, Bytes first = 1e4,
                             double growth = 2, int bins = 40) {
  CompressedLinkState s(first, growth, bins);
  for (const LinkTransfer& t : ts) s.Add(t);
  return s;
}

const NeatPolicy kAllPolicies[] = {
    NeatPolicy::kFcfs,       NeatPolicy::kFair,       NeatPolicy::kLas,       NeatPolicy::kSrpt,
    NeatPolicy::kCoflowFcfs, NeatPolicy::kCoflowFair, NeatPolicy::kCoflowLas, NeatPolicy::kTcf};

TEST(CompressedLinkState, AgreesWithTheExactPredictorOnNeatFig1) {
  for (NeatPolicy p : kAllPolicies) {
    for (const auto* node : {&kNode1, &kNode3}) {
      EXPECT_NEAR(Compress(*node).Predict(p, kGbps, kNewFlow),
                  PredictOnLink(p, kGbps, *node, kNewFlow), 1e-9)
          << NeatPolicyName(p);
    }
  }
}

TEST(CompressedLinkState, AgreesWithTheExactPredictorOnTheCoflowExample) {
  // Unit sizes all fall in bin 0, which then straddles s_c0 = 6: A and B are its extremes and
  // C (the only other member, size 6) is the bin's mean.
  const CompressedLinkState s = Compress(kCoflows);
  EXPECT_EQ(s.bins()[0].count, 3);
  for (NeatPolicy p : {NeatPolicy::kCoflowFcfs, NeatPolicy::kCoflowFair, NeatPolicy::kTcf}) {
    EXPECT_DOUBLE_EQ(s.Predict(p, 1, kNewCoflow), PredictOnLink(p, 1, kCoflows, kNewCoflow))
        << NeatPolicyName(p);
  }
}

TEST(CompressedLinkState, BinsGrowExponentially) {
  const CompressedLinkState s(1, 2, 6);  // [0,1) [1,2) [2,4) [4,8) [8,16) [16,∞)
  EXPECT_EQ(s.BinOf(0.5), 0);
  EXPECT_EQ(s.BinOf(1), 1);
  EXPECT_EQ(s.BinOf(3.9), 2);
  EXPECT_EQ(s.BinOf(4), 3);
  EXPECT_EQ(s.BinOf(15), 4);
  EXPECT_EQ(s.BinOf(1e9), 5);
}

// 30 transfers of sizes in [0.5, 100), each with 5-100 % of its bytes on the link.
std::vector<LinkTransfer> RandomTransfers(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> size(0.5, 100), frac(0.05, 1);
  std::vector<LinkTransfer> ts;
  for (int i = 0; i < 30; ++i) {
    const Bytes s = size(rng);
    ts.push_back({s, s * frac(rng)});
  }
  return ts;
}

TEST(CompressedLinkState, ExactWhenNoBinStraddlesTheNewSize) {
  // Sizes in [0.5, 100) never equal 8, a bin boundary, so every bin lies wholly below or above.
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    const std::vector<LinkTransfer> ts = RandomTransfers(rng);
    const CompressedLinkState c = Compress(ts, 1, 2, 12);
    for (NeatPolicy p : kAllPolicies) {
      // Flow policies see flows, whose bytes on the link are their size.
      std::vector<LinkTransfer> exact = ts;
      if (!IsCoflowPolicy(p)) {
        for (LinkTransfer& t : exact) t.on_link = t.size;
      }
      const CompressedLinkState cc = IsCoflowPolicy(p) ? c : Compress(exact, 1, 2, 12);
      EXPECT_NEAR(cc.Predict(p, 3, {8, 2}), PredictOnLink(p, 3, exact, {8, 2}), 1e-9)
          << NeatPolicyName(p);
    }
  }
}

TEST(CompressedLinkState, ApproximatesAStraddlingBinByItsExtremesAndMean) {
  // One bin [4, 8) holding flows 4, 5, 7.5, 7.9; new flow 6. Extremes exact: 4 and min(7.9, 6);
  // the other two have mean 6.25 > 6, so Fair counts 2·6 and SRPT nothing for them.
  const std::vector<LinkTransfer> flows = {{4, 4}, {5, 5}, {7.5, 7.5}, {7.9, 7.9}};
  const CompressedLinkState s = Compress(flows, 1, 2, 6);
  EXPECT_EQ(s.bins()[3].count, 4);
  EXPECT_DOUBLE_EQ(s.InterferingBytes(NeatPolicy::kFair, 6), 4 + 6 + 12);
  EXPECT_DOUBLE_EQ(s.InterferingBytes(NeatPolicy::kSrpt, 6), 4);
  EXPECT_DOUBLE_EQ(s.InterferingBytes(NeatPolicy::kFcfs, 6), 24.4);
  // Exact values, for comparison: Fair 4 + 5 + 6 + 6 = 21, SRPT 9.
  EXPECT_DOUBLE_EQ(PredictOnLink(NeatPolicy::kFair, 1, flows, {6, 6}), 27);
  EXPECT_DOUBLE_EQ(PredictOnLink(NeatPolicy::kSrpt, 1, flows, {6, 6}), 15);
}

// Objective (2)'s delay from the bins: exact when no bin straddles the new size (each transfer
// given whole), and a straddling bin's extremes exact, its rest at the bin's mean.
TEST(CompressedLinkState, DelayFactorMatchesTheExactDelays) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 50; ++trial) {
    const std::vector<LinkTransfer> ts = RandomTransfers(rng);
    for (NeatPolicy p : kAllPolicies) {
      double exact = 0;
      for (const LinkTransfer& t : ts) exact += DelayedBytes(p, t, {8, 1});
      EXPECT_NEAR(Compress(ts, 1, 2, 12).DelayFactor(p, 8), exact, 1e-9) << NeatPolicyName(p);
    }
  }
  // One bin [4, 8) with 4, 5, 7.5, 7.9 and a new size 6: Fair counts 4/6 and 6/6 for the
  // extremes and, the rest's mean 6.25 being above 6, 1 each for the other two; SRPT counts the
  // larger extreme and the two others.
  const CompressedLinkState s = Compress({{4, 4}, {5, 5}, {7.5, 7.5}, {7.9, 7.9}}, 1, 2, 6);
  EXPECT_DOUBLE_EQ(s.DelayFactor(NeatPolicy::kFair, 6), 4.0 / 6 + 1 + 2);
  EXPECT_DOUBLE_EQ(s.DelayFactor(NeatPolicy::kSrpt, 6), 3);
  EXPECT_DOUBLE_EQ(s.DelayFactor(NeatPolicy::kFcfs, 6), 0);
}

TEST(CompressedLinkState, ClearEmptiesEveryBin) {
  CompressedLinkState s = Compress(kNode1);
  s.Clear();
  EXPECT_EQ(s.count(), 0);
  EXPECT_DOUBLE_EQ(s.Predict(NeatPolicy::kFcfs, kGbps, kNewFlow), 5);
}

// --- edge summaries from a live network ---

// `servers` servers with 1 byte/s NICs under fair sharing, the clock at 0 until a test runs
// the engine: the network of the edge-summary and daemon tests.
struct FairNetwork {
  explicit FairNetwork(int servers)
      : cluster(testing::UnitCluster(servers, 1)),
        net(cluster, NetworkPolicyRegistry::Get().Make("fair"), engine.clock()) {}
  Cluster cluster;
  Engine engine;
  Network net;
};

TEST(EdgeLoads, SumsEachServersEdgeLinksFromActiveFlows) {
  FairNetwork on(4);
  Cluster& cluster = on.cluster;
  Network& net = on.net;
  Coflow small, large;
  small.total_bytes = 4;
  large.total_bytes = 10;
  const CoflowId c_small = net.AddCoflow(small);
  const CoflowId c_large = net.AddCoflow(large);
  auto start = [&](ServerId src, ServerId dst, Bytes size, CoflowId c) {
    FlowSpec fs;
    fs.src = src;
    fs.dst = dst;
    fs.size = size;
    fs.coflow = c;
    net.StartFlow(fs);
  };
  start(ServerId{0}, ServerId{2}, 2, c_small);
  start(ServerId{1}, ServerId{2}, 6, c_large);
  start(ServerId{3}, ServerId{2}, 1, kNoCoflow);  // a block read: a coflow of its own, of size 1
  net.Resolve();

  EdgeLoads loads;
  loads.Compute(cluster, net, NeatPolicy::kTcf, 6);
  EXPECT_DOUBLE_EQ(loads.down(ServerId{2}), 3);  // 2 (coflow 4) + 1 (lone 1); coflow 10 waits
  EXPECT_DOUBLE_EQ(loads.up(ServerId{0}), 2);
  EXPECT_DOUBLE_EQ(loads.up(ServerId{1}), 0);
  EXPECT_DOUBLE_EQ(loads.up(ServerId{3}), 1);
  EXPECT_EQ(loads.down_flows(ServerId{2}), 3);
  EXPECT_DOUBLE_EQ(loads.down_min_remaining(ServerId{2}), 1);
  EXPECT_FALSE(loads.Preferred(ServerId{2}, 6));  // carries a flow with less than 6 left
  EXPECT_TRUE(loads.Preferred(ServerId{2}, 1));
  EXPECT_TRUE(loads.Preferred(ServerId{1}, 6));  // idle
  EXPECT_DOUBLE_EQ(loads.PredictDown(ServerId{2}, 2), 5);
  EXPECT_DOUBLE_EQ(loads.PredictUp(ServerId{0}, 2), 4);
  EXPECT_DOUBLE_EQ(loads.PredictDown(ServerId{2}, 0), 0);

  // Fair sharing of downlink 2 at 1/3 each; at t = 1.5 the remaining bytes are 1.5, 5.5, 0.5.
  std::vector<FlowId> done;
  net.AdvanceTo(1.5, done);
  ASSERT_TRUE(done.empty());
  loads.Compute(cluster, net, NeatPolicy::kFair, 3);  // flow view: min(remaining, 3)
  EXPECT_NEAR(loads.down(ServerId{2}), 1.5 + 3 + 0.5, 1e-9);
  EXPECT_NEAR(loads.down_min_remaining(ServerId{2}), 0.5, 1e-9);
  EXPECT_FALSE(loads.Preferred(ServerId{2}, 1));
  EXPECT_TRUE(loads.Preferred(ServerId{2}, 0.5));
  loads.Compute(cluster, net, NeatPolicy::kTcf, 4);  // coflow 4 and the lone 1 count, by remaining
  EXPECT_NEAR(loads.down(ServerId{2}), 2, 1e-9);
  EXPECT_TRUE(loads.Preferred(ServerId{0}, 4));
}

// ComputeFor gives the links it is asked for the values Compute gives them, to the last bit
// (the same terms summed in the same order), and leaves the others idle. Enough coflows that
// the set of (link, coflow) pairs already counted grows several times.
TEST(EdgeLoads, ComputeForMatchesComputeOnItsLinks) {
  FairNetwork on(8);
  Cluster& cluster = on.cluster;
  Network& net = on.net;
  std::vector<CoflowId> coflows;
  for (int i = 0; i < 60; ++i) {
    Coflow c;
    c.total_bytes = 3 + i % 17;
    coflows.push_back(net.AddCoflow(c));
  }
  for (int i = 0; i < 400; ++i) {
    FlowSpec fs;
    fs.src = ServerId{(i * 5) % 8};
    fs.dst = ServerId{(i * 3 + i / 8) % 8};
    fs.size = 0.1 + (i * 7) % 13;
    fs.coflow = i % 9 == 0 ? kNoCoflow : coflows[static_cast<size_t>(i * 11) % coflows.size()];
    net.StartFlow(fs);
  }
  net.Resolve();
  std::vector<FlowId> done;
  net.AdvanceTo(0.7, done);
  const std::vector<ServerId> ups = {ServerId{1}, ServerId{4}, ServerId{6}};
  const std::vector<ServerId> downs = {ServerId{0}, ServerId{4}, ServerId{5}};
  for (NeatPolicy p : kAllNeatPolicies) {
    EdgeLoads all, some;
    all.Compute(cluster, net, p, 9, true);
    some.ComputeFor(cluster, net, p, 9, true, ups, downs);
    for (int i = 0; i < 8; ++i) {
      const ServerId s{i};
      const bool up = std::find(ups.begin(), ups.end(), s) != ups.end();
      const bool down = std::find(downs.begin(), downs.end(), s) != downs.end();
      EXPECT_EQ(some.up(s), up ? all.up(s) : 0) << NeatPolicyName(p) << " " << i;
      const Seconds idle_up = 2 / cluster.LinkCapacity(cluster.Uplink(s));
      const Seconds idle_down = 2 / cluster.LinkCapacity(cluster.Downlink(s));
      EXPECT_EQ(some.ObjectiveUp(s, 2), up ? all.ObjectiveUp(s, 2) : idle_up) << NeatPolicyName(p);
      EXPECT_EQ(some.down(s), down ? all.down(s) : 0) << NeatPolicyName(p) << " " << i;
      EXPECT_EQ(some.down_flows(s), down ? all.down_flows(s) : 0);
      EXPECT_EQ(some.down_min_remaining(s),
                down ? all.down_min_remaining(s) : std::numeric_limits<Bytes>::infinity());
      EXPECT_EQ(some.ObjectiveDown(s, 2), down ? all.ObjectiveDown(s, 2) : idle_down)
          << NeatPolicyName(p);
    }
    EXPECT_GT(all.down(ServerId{0}), 0) << NeatPolicyName(p);
  }
}

// One EdgeLoads asked again and again (as a scheduler asks it) keeps the flows it read for the
// rest of the instant: each answer still equals a fresh Compute's, when the size and links
// asked change, when a flow starts at the same instant, and when time moves on.
TEST(EdgeLoads, ComputeForAgainAtOneInstantAndAfterAFlowStartsOrTimeMoves) {
  FairNetwork on(4);
  Cluster& cluster = on.cluster;
  Engine& engine = on.engine;
  Network& net = on.net;
  auto start = [&](int src, int dst, Bytes size) {
    FlowSpec fs;
    fs.src = ServerId{src};
    fs.dst = ServerId{dst};
    fs.size = size;
    net.StartFlow(fs);
  };
  start(0, 1, 4);
  start(2, 1, 6);
  start(3, 0, 5);
  net.Resolve();
  EdgeLoads kept;
  auto expect_fresh = [&](Bytes size, std::vector<ServerId> downs, const char* when) {
    EdgeLoads fresh;
    fresh.Compute(cluster, net, NeatPolicy::kFair, size, true);
    kept.ComputeFor(cluster, net, NeatPolicy::kFair, size, true, {}, downs);
    for (ServerId s : downs) {
      EXPECT_EQ(kept.down(s), fresh.down(s)) << when << " " << s;
      EXPECT_EQ(kept.down_flows(s), fresh.down_flows(s)) << when << " " << s;
      EXPECT_EQ(kept.ObjectiveDown(s, 2), fresh.ObjectiveDown(s, 2)) << when << " " << s;
    }
  };
  expect_fresh(3, {ServerId{1}}, "first");
  expect_fresh(5, {ServerId{0}, ServerId{1}}, "same instant");
  start(3, 1, 1);  // same instant: server 1 gets a third flow
  expect_fresh(5, {ServerId{1}}, "after a start");
  EXPECT_EQ(kept.down_flows(ServerId{1}), 3);
  net.Resolve();
  start(0, 1, 2);  // the rates re-solved, then another start, still at the same instant
  expect_fresh(5, {ServerId{0}, ServerId{1}}, "after a re-solve and a start");
  EXPECT_EQ(kept.down_flows(ServerId{1}), 4);
  net.Resolve();
  // Half a second on, as the simulator moves time: the clock, then the network.
  engine.Schedule(0.5, engine.AddKind([](int64_t) {}), 0);
  engine.Run(ContinuousProcess{[] { return kForever; },
                               [&](Seconds t) {
                                 std::vector<FlowId> done;
                                 net.AdvanceTo(t, done);
                               }},
             [] {});
  ASSERT_EQ(net.now(), 0.5);
  expect_fresh(5, {ServerId{0}, ServerId{1}}, "later");
  EXPECT_LT(kept.down(ServerId{1}), 4 + 6 + 1 + 2);  // bytes have moved since
}

// NEAT+'s network daemons (api/neat_daemons.h): flows enter and leave their edge links'
// state as they start and end; a queried link is rebuilt from its flows' remaining bytes as of
// now; the node state is the cache of the last start, end or rebuild at the node; under a
// coflow policy a coflow's flows on a link are one binned transfer.
TEST(NeatDaemons, FollowFlowsAsTheyStartAndEnd) {
  FairNetwork on(4);
  Cluster& cluster = on.cluster;
  Engine& engine = on.engine;
  Network& net = on.net;
  Coflow big;
  big.total_bytes = 10;
  const CoflowId c = net.AddCoflow(big);
  auto start = [&](int src, int dst, Bytes size, CoflowId coflow) {
    FlowSpec fs;
    fs.src = ServerId{src};
    fs.dst = ServerId{dst};
    fs.size = size;
    fs.coflow = coflow;
    net.StartFlow(fs);
  };
  start(0, 2, 2, kNoCoflow);
  start(1, 2, 6, c);
  start(3, 2, 4, c);
  net.Resolve();
  NeatDaemons fair(cluster, NeatPolicy::kFair), tcf(cluster, NeatPolicy::kTcf);
  fair.Sync(net);
  tcf.Sync(net);
  EXPECT_EQ(fair.Down(net, ServerId{2}).count(), 3);  // three flows
  EXPECT_EQ(tcf.Down(net, ServerId{2}).count(), 2);   // the lone read and coflow c, once
  EXPECT_DOUBLE_EQ(tcf.Down(net, ServerId{2}).InterferingBytes(NeatPolicy::kTcf, 10), 12);
  EXPECT_EQ(fair.Up(net, ServerId{1}).count(), 1);
  EXPECT_EQ(fair.Down(net, ServerId{1}).count(), 0);
  EXPECT_DOUBLE_EQ(fair.cached_min_remaining(ServerId{2}), 2);
  EXPECT_EQ(fair.cached_min_remaining(ServerId{0}), std::numeric_limits<Bytes>::infinity());

  // Time moves by the engine, as in a run; each probe below runs at its time.
  std::vector<std::function<void()>> probes;
  const int32_t probe = engine.AddKind([&](int64_t k) { probes[static_cast<size_t>(k)](); });
  // Downlink 2 shares 1/3 each: at t = 3 the remaining bytes are 1, 5, 3. No flow started or
  // ended, so the cached node state still says 2; a query rebuilds the link as of now.
  probes.emplace_back([&] {
    fair.Sync(net);
    EXPECT_DOUBLE_EQ(fair.cached_min_remaining(ServerId{2}), 2);
    EXPECT_NEAR(fair.Down(net, ServerId{2}).InterferingBytes(NeatPolicy::kFair, 100), 9, 1e-9);
    EXPECT_NEAR(fair.cached_min_remaining(ServerId{2}), 1, 1e-9);
  });
  // The 2-byte read ends at t = 6. At 6.5 a tiny flow starts from 0 to 1 and soon ends: at 7,
  // with no sync between, it was never seen; the end at node 2 has the sync refresh its node
  // state (at 1/2 each since t = 6, 3.5 and 1.5 bytes left: 1.5).
  probes.emplace_back([&] { start(0, 1, 1e-6, kNoCoflow); });
  probes.emplace_back([&] {
    fair.Sync(net);
    EXPECT_EQ(fair.Down(net, ServerId{2}).count(), 2);
    EXPECT_EQ(fair.Down(net, ServerId{1}).count(), 0);
    EXPECT_EQ(fair.Up(net, ServerId{0}).count(), 0);
    EXPECT_NEAR(fair.cached_min_remaining(ServerId{2}), 1.5, 1e-9);
  });
  engine.Schedule(3, probe, 0);
  engine.Schedule(6.5, probe, 1);
  engine.Schedule(7, probe, 2);
  std::vector<FlowId> done;
  const ContinuousProcess fluid{[&] { return net.NextEventTime(); },
                                [&](Seconds t) { net.AdvanceTo(t, done); }};
  engine.Run(fluid, [&] { net.Resolve(); });
  EXPECT_EQ(done.size(), 4u);
}

}  // namespace
}  // namespace slotflow

namespace slotflow {
namespace {

// predictor = auto follows the network policy in force: every registered policy declares the
// predictor its rule is closest to (a new policy must be added here on purpose).
TEST(NeatPredictor, EveryNetworkPolicyDeclaresItsPredictor) {
  const std::map<std::string, NeatPolicy> expected = {{"fcfs", NeatPolicy::kFcfs},
                                                      {"fair", NeatPolicy::kFair},
                                                      {"las", NeatPolicy::kLas},
                                                      {"srpt", NeatPolicy::kSrpt},
                                                      {"coflow-fifo", NeatPolicy::kCoflowFcfs},
                                                      {"aalo", NeatPolicy::kCoflowLas},
                                                      {"tcf", NeatPolicy::kTcf},
                                                      {"varys", NeatPolicy::kTcf},
                                                      {"scf", NeatPolicy::kTcf},
                                                      {"ncf", NeatPolicy::kTcf},
                                                      {"lcf", NeatPolicy::kTcf},
                                                      {"cans", NeatPolicy::kTcf}};
  for (const auto& [name, entry] : NetworkPolicyRegistry::Get().entries()) {
    ASSERT_TRUE(expected.contains(name)) << name << " has no predictor chosen for it";
    EXPECT_EQ(entry.declared.neat_predictor, expected.at(name)) << name;
    EXPECT_EQ(NeatPolicyForNetwork(name), expected.at(name)) << name;
  }
  EXPECT_EQ(NeatPolicyForNetwork(""), NeatPolicy::kTcf);
  EXPECT_THROW(NeatPolicyForNetwork("no-such-policy"), InputError);
}

// A network policy cannot be registered without its predictor: the registry's Add takes one
// (no overload without it), and an empty or unknown name stops the program at start-up.
template <class R>
concept AddsWithoutDeclaring = requires(R& r, typename R::Factory f) {
  r.Add("p", "d", std::vector<SettingSpec>{}, f);
};
static_assert(!AddsWithoutDeclaring<NetworkPolicyRegistry>);
static_assert(AddsWithoutDeclaring<TaskSchedulerRegistry>);

TEST(NeatPredictor, ARegistrationWithoutAPredictorIsRefused) {
  EXPECT_EQ(DeclareNetworkPolicy("new", "coflow-las").neat_predictor, NeatPolicy::kCoflowLas);
  try {
    DeclareNetworkPolicy("new", "");
    ADD_FAILURE() << "no predictor accepted";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("network policy 'new' is registered with no NEAT+ "
                                         "predictor"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(DeclareNetworkPolicy("new", "coflow-lsa"), std::logic_error);
}

}  // namespace
}  // namespace slotflow
