// Varys (SEBF + MADD; Chowdhury et al., SIGCOMM'14 §5): exact completion times on a big switch,
// every link 1 unit/s.
// Server s has uplink "up s" and downlink "down s".
#include "network_scenario.h"

namespace slotflow::testing {
namespace {

constexpr double kTol = 1e-9;

Coflow MakeCoflow(Bytes total) {
  Coflow c;
  c.total_bytes = total;
  return c;
}

// Coflow A: 0→2 and 1→3, 1 unit each (total 2, Γ = 1). Coflow B: 0→4, 1.5 units (total 1.5,
// Γ = 1.5). Both need up 0. Smallest total first (SCF/TCF) would run B first (B ends 1.5, A's
// 0→2 ends 2.5); SEBF runs A first:
//   A: Γ = 1, rates 1 and 1, both end at 1; up 0 is then exhausted, B gets 0.
//   B: alone from 1, 1.5 units at rate 1 → ends at 2.5.
TEST(VarysPolicy, SmallestEffectiveBottleneckFirstNotSmallestTotal) {
  NetworkScenario s;
  s.servers = 5;
  s.policy = "varys";
  s.coflows = {MakeCoflow(2), MakeCoflow(1.5)};
  s.flows = {{.start = 0, .src = 0, .dst = 2, .size = 1, .coflow = 0},
             {.start = 0, .src = 1, .dst = 3, .size = 1, .coflow = 0},
             {.start = 0, .src = 0, .dst = 4, .size = 1.5, .coflow = 1}};
  const auto finish = s.Run();
  EXPECT_NEAR(finish[0], 1, kTol);
  EXPECT_NEAR(finish[1], 1, kTol);
  EXPECT_NEAR(finish[2], 2.5, kTol);
}

// Coflow A: 0→2 of 2 units and 1→3 of 0.5 units (Γ = 2). Coflow B: 1→4 of 10 units (Γ = 10).
// MADD for A: τ = 2, rates 1 and 0.25, so both flows of A end together at 2 although one is
// 4× smaller. B on what is left: up 1 has 0.75 → τ = 10/0.75, rate 0.75; up 1 and up 0 are then
// full, nothing to backfill. At 2 B has 8.5 left, alone at rate 1 → ends at 10.5.
// (Fair sharing would end A's small flow at 1: up 1 split 0.5/0.5.)
TEST(VarysPolicy, MaddFinishesAllFlowsOfACoflowTogether) {
  NetworkScenario s;
  s.servers = 5;
  s.policy = "varys";
  s.coflows = {MakeCoflow(2.5), MakeCoflow(10)};
  s.flows = {{.start = 0, .src = 0, .dst = 2, .size = 2, .coflow = 0},
             {.start = 0, .src = 1, .dst = 3, .size = 0.5, .coflow = 0},
             {.start = 0, .src = 1, .dst = 4, .size = 10, .coflow = 1}};
  const auto finish = s.Run();
  EXPECT_NEAR(finish[0], 2, kTol);
  EXPECT_NEAR(finish[1], 2, kTol);
  EXPECT_DOUBLE_EQ(finish[0], finish[1]);
  EXPECT_NEAR(finish[2], 10.5, kTol);
}

// One coflow: 0→2 of 2 units, 1→3 of 1 unit. MADD alone gives rates 1 and 0.5 (both end at 2),
// leaving half of up 1 and down 3 idle; backfill gives that half to 1→3, which runs at 1 and
// ends at 1. 0→2 ends at 2.
TEST(VarysPolicy, BackfillUsesCapacityMaddLeavesIdle) {
  NetworkScenario s;
  s.servers = 4;
  s.policy = "varys";
  s.coflows = {MakeCoflow(3)};
  s.flows = {{.start = 0, .src = 0, .dst = 2, .size = 2, .coflow = 0},
             {.start = 0, .src = 1, .dst = 3, .size = 1, .coflow = 0}};
  const auto finish = s.Run();
  EXPECT_NEAR(finish[0], 2, kTol);
  EXPECT_NEAR(finish[1], 1, kTol);
}

// Coflow A: 0→2 of 2 units (Γ = 2). Coflow B: 0→3 of 4 units and 1→3 of 1 unit (Γ = 5, down 3).
// A takes all of up 0, so B needs an exhausted link: τ = ∞, MADD gives B nothing. Backfill
// (work conservation) still runs B's 1→3 on the idle up 1 / down 3 at rate 1: ends at 1.
// A ends at 2; then B's 0→3 (4 units) alone at rate 1 → ends at 6.
TEST(VarysPolicy, StarvedCoflowStillUsesIdleLinks) {
  NetworkScenario s;
  s.servers = 4;
  s.policy = "varys";
  s.coflows = {MakeCoflow(2), MakeCoflow(5)};
  s.flows = {{.start = 0, .src = 0, .dst = 2, .size = 2, .coflow = 0},
             {.start = 0, .src = 0, .dst = 3, .size = 4, .coflow = 1},
             {.start = 0, .src = 1, .dst = 3, .size = 1, .coflow = 1}};
  const auto finish = s.Run();
  EXPECT_NEAR(finish[0], 2, kTol);
  EXPECT_NEAR(finish[1], 6, kTol);
  EXPECT_NEAR(finish[2], 1, kTol);
}

// A coflow arriving later with a smaller bottleneck pre-empts: A (0→1, 4 units) from 0; B (0→2,
// 1 unit) at 1. At 1 A has 3 left (Γ = 3) and B has Γ = 1: B first at rate 1, ends at 2; A
// resumes, 3 units → ends at 5.
TEST(VarysPolicy, RecomputesOnArrival) {
  NetworkScenario s;
  s.servers = 3;
  s.policy = "varys";
  s.coflows = {MakeCoflow(4), MakeCoflow(1)};
  s.flows = {{.start = 0, .src = 0, .dst = 1, .size = 4, .coflow = 0},
             {.start = 1, .src = 0, .dst = 2, .size = 1, .coflow = 1}};
  const auto finish = s.Run();
  EXPECT_NEAR(finish[1], 2, kTol);
  EXPECT_NEAR(finish[0], 5, kTol);
}

// Flows without a coflow are coflows of their own: the smaller bottleneck first. 0→1 of 2 and
// 0→2 of 1: the 1-unit flow ends at 1, the other at 3 (fair sharing: 2 and 3).
TEST(VarysPolicy, FlowsWithoutCoflowAreTheirOwnCoflow) {
  NetworkScenario s;
  s.servers = 3;
  s.policy = "varys";
  s.flows = {{.start = 0, .src = 0, .dst = 1, .size = 2},
             {.start = 0, .src = 0, .dst = 2, .size = 1}};
  const auto finish = s.Run();
  EXPECT_NEAR(finish[0], 3, kTol);
  EXPECT_NEAR(finish[1], 1, kTol);
}

}  // namespace
}  // namespace slotflow::testing
