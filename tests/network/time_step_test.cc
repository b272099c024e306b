// A stepped network (rates.time_step): rates change only at boundaries k x step; a flow started
// between them waits, a flow done within a step ends at the boundary after it, having sent
// exactly its size, and a byte mark passed within a step is acted on at the boundary after.
// Unit links (1 B/s); steps of binary fractions, so every time below is exact.
#include <gtest/gtest.h>

#include "network/time_step.h"
#include "network_scenario.h"

namespace slotflow::testing {
namespace {

TEST(TimeStep, BoundariesAreMultiplesComparedExactly) {
  const TimeStep step(0.008);
  EXPECT_EQ(step.AtOrAfter(0), 0);
  EXPECT_EQ(step.AtOrAfter(0.001), 0.008);
  EXPECT_EQ(step.AtOrAfter(0.008), 0.008);
  EXPECT_EQ(step.AtOrAfter(1000.0001), 125001 * 0.008);
  for (int64_t k : {1, 3, 10, 125, 1'000'003}) {
    const double b = static_cast<double>(k) * 0.008;
    EXPECT_TRUE(step.IsBoundary(b)) << k;
    EXPECT_EQ(step.AtOrAfter(b), b) << k;
    EXPECT_FALSE(step.IsBoundary(b + 0.004)) << k;
  }
  EXPECT_EQ(step.AtOrAfter(kForever), kForever);
  EXPECT_TRUE(TimeStep(0).IsBoundary(0.123));  // exact: every time is one
}

// A (0 -> 1, 0.9 B) alone from 0; B (2 -> 1, 2 B) starts at 0.25, held to the boundary at 0.5,
// then both share server 1's downlink at 0.5 B/s. A has 0.4 B left: done at 1.3, mid-step, so it
// ends at 1.5 and B keeps 0.5 B/s until then (A's share idles); B (0.5 B sent) alone from 1.5:
// done at 3.0. Exact: A 1.55, B 2.9.
TEST(TimeStep, StartsWaitAndEndsComeAtTheBoundaryAfter) {
  NetworkScenario s;
  s.flows = {FlowAt{.start = 0, .src = 0, .dst = 1, .size = 0.9},
             FlowAt{.start = 0.25, .src = 2, .dst = 1, .size = 2}};
  const std::vector<double> exact = s.Run();
  EXPECT_DOUBLE_EQ(exact[0], 1.55);
  EXPECT_DOUBLE_EQ(exact[1], 2.9);
  s.time_step = 0.5;
  const std::vector<double> f = s.Run();
  EXPECT_DOUBLE_EQ(f[0], 1.5);
  EXPECT_DOUBLE_EQ(f[1], 3.0);
}

// A flow with a hold is released at the first boundary at or after its hold's end: 0.3 + 0.5
// -> 1.0; 1 B alone: done at 2.0.
TEST(TimeStep, AHoldEndsAtTheBoundaryAfterIt) {
  NetworkScenario s;
  s.flows = {FlowAt{.start = 0.3, .src = 0, .dst = 1, .size = 1, .hold = 0.5}};
  s.time_step = 0.25;
  EXPECT_DOUBLE_EQ(s.Run()[0], 2.0);
}

// LAS with a first threshold of 2 B (class 0 below it, class 1 from it). A (0 -> 1, 6 B) from 0
// alone; B (2 -> 1, 1 B) starts at 1.0, held to 1.5; both in class 0 share 0.5 B/s. A passes
// 2 B sent at 2.5, mid-step: it stays in class 0 to the boundary at 3.0 (A 2.25 B, B 0.75 B
// sent), then is demoted; B alone is done at 3.25, mid-step, and ends at 3.75, A moving nothing
// meanwhile (B's class holds the link to the boundary); A's 3.75 B left alone: done at 7.5.
TEST(TimeStep, AMarkPassedWithinAStepIsActedOnAtTheBoundary) {
  NetworkScenario s;
  s.policy = "las";
  s.config = {{"first_threshold", "2B"}};
  s.flows = {FlowAt{.start = 0, .src = 0, .dst = 1, .size = 6},
             FlowAt{.start = 1.0, .src = 2, .dst = 1, .size = 1}};
  s.time_step = 0.75;
  const std::vector<double> f = s.Run();
  EXPECT_DOUBLE_EQ(f[1], 3.75);
  EXPECT_DOUBLE_EQ(f[0], 7.5);
}

// Between boundaries a class change waits (the view says the new class at once) and nothing
// moves but what the views compute: Remaining counts the bytes sent since the boundary.
TEST(TimeStep, AClassSetBetweenBoundariesWaitsForTheNext) {
  ClusterSpec cs;
  cs.classes = {ServerClass{.name = "n", .count = 3, .slots = 1, .nic = 1.0}};
  const Cluster cluster(cs);
  Engine engine;
  Network net(cluster, NetworkPolicyRegistry::Get().Make("fair"), engine.clock());
  net.SetTimeStep(0.5);
  FlowSpec a;
  a.src = ServerId{0};
  a.dst = ServerId{1};
  a.size = 4;
  FlowSpec b = a;
  b.src = ServerId{2};
  const FlowId fa = net.StartFlow(a);
  const FlowId fb = net.StartFlow(b);
  net.Resolve();  // at 0, a boundary: both share server 1's downlink
  EXPECT_DOUBLE_EQ(net.Rate(fa), 0.5);
  std::vector<FlowId> done;
  const int32_t set_kind = engine.AddKind([&](int64_t) {
    net.SetClass(fb, 1, ClassSink::kNoReason);  // at 0.25: B below A
    EXPECT_EQ(net.Class(fb), 1);
    EXPECT_DOUBLE_EQ(net.Rate(fb), 0.5);  // not yet
    EXPECT_DOUBLE_EQ(net.Remaining(fa), 4 - 0.125);
    EXPECT_DOUBLE_EQ(net.NextEventTime(), 0.5);
  });
  engine.Schedule(0.25, set_kind, 0);
  const ContinuousProcess fluid{[&] { return net.NextEventTime(); },
                                [&](Seconds t) { net.AdvanceTo(t, done); }};
  bool checked = false;
  engine.Run(fluid, [&] {
    net.Resolve();
    if (engine.now() == 0.5) {
      EXPECT_DOUBLE_EQ(net.Rate(fa), 1.0);
      EXPECT_DOUBLE_EQ(net.Rate(fb), 0.0);
      EXPECT_DOUBLE_EQ(net.Remaining(fb), 3.75);
      checked = true;
    }
  });
  EXPECT_TRUE(checked);
}

}  // namespace
}  // namespace slotflow::testing
