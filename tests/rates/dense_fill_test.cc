// The dense fill (DenseFill): a class of at least 64 groups, all on two-link paths, filled as a
// matrix of member counts (first links x second links).
#include <gtest/gtest.h>

#include <vector>

#include "api/random.h"
#include "api/tolerance.h"
#include "rates/fluid_solver.h"
#include "rates/solver_runs.h"

namespace slotflow {
namespace {

using testing::BigSwitch;
using testing::LinkIds;
using testing::ReferenceMaxMin;

// 8 sources x 8 destinations, a flow on every pair: 64 groups, a dense class. Uplinks 8, but
// source 0's is 1; downlinks 8, but destination 0's is 1.875.
//  1. Source 0's share is the smallest (1/8): its 8 flows get 0.125.
//  2. Destination 0 has 1.875 - 0.125 = 1.75 left for 7 flows: 0.25 each.
//  3. Every other uplink has 8 - 0.25 = 7.75 for 7 flows, 31/28 each, below what the other
//     downlinks would give (7.875 / 7 = 1.125); those downlinks are left unsaturated.
TEST(DenseFill, AHandCheckedMatrix) {
  const BigSwitch sw{8, 8};
  std::vector<double> capacity(16, 8.0);
  capacity[sw.Up(0)] = 1;
  capacity[sw.Down(0)] = 1.875;
  FluidSolver s(capacity);
  sw.AddEveryPair(s, 100, 0);
  s.Solve();
  EXPECT_EQ(s.fill_stats().dense_fills, 1);
  EXPECT_EQ(s.fill_stats().water_fills, 0);
  for (int d = 0; d < 8; ++d) EXPECT_DOUBLE_EQ(s.Rate(sw.Flow(0, d)), 0.125) << d;
  for (int src = 1; src < 8; ++src) {
    EXPECT_DOUBLE_EQ(s.Rate(sw.Flow(src, 0)), 0.25) << src;
    for (int d = 1; d < 8; ++d) EXPECT_DOUBLE_EQ(s.Rate(sw.Flow(src, d)), 31.0 / 28) << src;
  }
  EXPECT_NEAR(s.LinkLoad(sw.Up(3)), 8, 1e-12);
  EXPECT_NEAR(s.LinkLoad(sw.Down(0)), 1.875, 1e-12);
  EXPECT_NEAR(s.LinkLoad(sw.Down(3)), 7.875, 1e-12);
}

// After a change, the dense class is filled again from its matrix, kept current in between.
// 8 sources x 9 destinations (72 groups, so 71 stay dense when one leaves), uplinks 9 and
// downlinks 100: every flow gets 1, its uplink's share, and no downlink is full. Moving flow
// (0, 0) to a lower class leaves source 0's eight others 9/8 each and the moved flow nothing
// (its uplink is full).
TEST(DenseFill, TheMatrixFollowsFlowsBetweenSolves) {
  const BigSwitch sw{8, 9};
  std::vector<double> capacity(sw.Links(), 9.0);
  for (int d = 0; d < 9; ++d) capacity[sw.Down(d)] = 100;
  FluidSolver s(capacity);
  sw.AddEveryPair(s, 100, 0);
  s.Solve();
  for (FlowId f{0}; f < 72; ++f) EXPECT_DOUBLE_EQ(s.Rate(f), 1) << f;
  s.SetClass(sw.Flow(0, 0), 1);
  s.Solve();
  EXPECT_EQ(s.fill_stats().dense_fills, 2);  // class 1 has one group: the water fill
  EXPECT_EQ(s.fill_stats().water_fills, 1);
  EXPECT_NEAR(s.Rate(sw.Flow(0, 0)), 0, 1e-12);
  for (int d = 1; d < 9; ++d) EXPECT_DOUBLE_EQ(s.Rate(sw.Flow(0, d)), 9.0 / 8) << d;
  for (int src = 1; src < 8; ++src) {
    for (int d = 0; d < 9; ++d) EXPECT_DOUBLE_EQ(s.Rate(sw.Flow(src, d)), 1) << src << d;
  }
  // Back in class 0, and a second flow in one cell: source 1's uplink now shares 9 among 10.
  s.SetClass(sw.Flow(0, 0), 0);
  s.Add(FlowId{72}, sw.Path(s, 1, 1), 100, 0);
  s.Solve();
  EXPECT_EQ(s.fill_stats().dense_fills, 3);
  EXPECT_EQ(s.ActiveGroupCount(), 72);
  EXPECT_DOUBLE_EQ(s.Rate(sw.Flow(0, 0)), 1);
  EXPECT_DOUBLE_EQ(s.Rate(sw.Flow(0, 1)), 1);
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{72}), 9.0 / 10);
  EXPECT_DOUBLE_EQ(s.Rate(sw.Flow(1, 1)), 9.0 / 10);
}

// Below 64 groups, or with a group off two links, a class is filled by the water fill.
TEST(DenseFill, SmallOrMixedClassesAreNotDense) {
  {
    const BigSwitch sw{7, 7};  // 49 groups
    FluidSolver s(std::vector<double>(sw.Links(), 7.0));
    sw.AddEveryPair(s, 100, 0);
    s.Solve();
    EXPECT_EQ(s.fill_stats().dense_fills, 0);
    EXPECT_EQ(s.fill_stats().water_fills, 1);
    EXPECT_DOUBLE_EQ(s.Rate(FlowId{0}), 1);
  }
  {
    const BigSwitch sw{8, 8};
    std::vector<double> capacity(sw.Links() + 1, 8.0);
    FluidSolver s(capacity);
    sw.AddEveryPair(s, 100, 0);
    s.Solve();
    EXPECT_EQ(s.fill_stats().dense_fills, 1);
    const auto third = LinkIds({0, 16, 8});  // source 0 to destination 0 through link 16
    s.Add(FlowId{64}, s.InternPath(third), 100, 0);
    s.Solve();
    EXPECT_EQ(s.fill_stats().dense_fills, 1);
    EXPECT_EQ(s.fill_stats().water_fills, 1);
    EXPECT_DOUBLE_EQ(s.Rate(FlowId{64}), 8.0 / 9);
    EXPECT_DOUBLE_EQ(s.Rate(sw.Flow(0, 5)), 8.0 / 9);
  }
}

// Random big-switch traffic (two-link paths, enough groups for a dense class) matches the
// textbook reference.
TEST(DenseFill, MaxMinMatchesReferenceOnRandomTraffic) {
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    Rng rng(seed);
    const int servers = 12;
    std::vector<double> capacity;
    for (int l = 0; l < 2 * servers + 2; ++l) capacity.push_back(1 + rng.UniformInt(10));
    FluidSolver s(capacity);
    std::vector<std::vector<LinkId>> paths;
    for (FlowId f{0}; f < 150; ++f) {
      const auto src = static_cast<int32_t>(rng.UniformInt(servers));
      const auto dst = static_cast<int32_t>(rng.UniformInt(servers));
      std::vector<LinkId> p = LinkIds({2 * src, 2 * dst + 1});
      s.Add(f, s.InternPath(p), 1000, 0);
      paths.push_back(p);
    }
    s.Solve();
    EXPECT_EQ(s.fill_stats().dense_fills, 1);
    EXPECT_EQ(s.fill_stats().water_fills, 0);
    const auto expected = ReferenceMaxMin(capacity, paths);
    for (FlowId f{0}; f < 150; ++f) {
      EXPECT_NEAR(s.Rate(f), expected[f], kRelTolerance * expected[f])
          << "seed " << seed << " flow " << f;
    }
  }
}

}  // namespace
}  // namespace slotflow
