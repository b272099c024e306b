// The local water fill (LocalWaterFill): a sparse class re-filled only on the links its changes
// reach, and the whole water fill for classes of few groups.
#include <gtest/gtest.h>

#include <vector>

#include "rates/fluid_solver.h"
#include "rates/solver_runs.h"

namespace slotflow {
namespace {

using testing::LinkIds;

// Four sources to four destinations through one wide middle link, as across racks: uplinks
// 0-3 and downlinks 5-8 of 10, the middle link 4 of 1000. Each of the 16 flows (one group
// each, three links: sparse) gets 2.5, every uplink and downlink full, the middle link not.
struct ThroughTheMiddle {
  static std::vector<double> Capacity() {
    std::vector<double> c(9, 10.0);
    c[4] = 1000;
    return c;
  }
  static FlowId Flow(int src, int dst) { return FlowId{4 * src + dst}; }
  static void AddAll(FluidSolver& s) {
    for (int src = 0; src < 4; ++src) {
      for (int dst = 0; dst < 4; ++dst) {
        s.Add(Flow(src, dst), s.InternPath(LinkIds({src, 4, 5 + dst})), 100, 0);
      }
    }
  }
};

// Moving flow (0, 0) to a lower class frees 2.5 on uplink 0 and downlink 0, but every other
// flow there is held at 2.5 by its other end, still full: no rate in class 0 changes. The
// region is the two seeds (the middle link, never full, is only checked for overload); the
// moved flow gets what is left, 2.5, in class 1.
TEST(LocalWaterFill, AChangeThatReachesFewLinksIsFilledLocally) {
  FluidSolver s(ThroughTheMiddle::Capacity());
  s.SetLocalFillMinLinks(0);
  s.SetLocalWaterFillMinGroups(0);
  ThroughTheMiddle::AddAll(s);
  s.Solve();
  EXPECT_EQ(s.fill_stats().water_fills, 1);
  s.SetClass(ThroughTheMiddle::Flow(0, 0), 1);
  s.Solve();
  EXPECT_EQ(s.fill_stats().local_water_fills, 1);  // class 0; class 1 is new, filled whole
  EXPECT_EQ(s.fill_stats().whole_water_fills, 0);
  for (int src = 0; src < 4; ++src) {
    for (int dst = 0; dst < 4; ++dst) {
      EXPECT_DOUBLE_EQ(s.Rate(ThroughTheMiddle::Flow(src, dst)), 2.5) << src << dst;
    }
  }
  EXPECT_DOUBLE_EQ(s.LinkLoad(LinkId{4}), 40);
  // Moving flow (1, 1) down too: now (0, 1) is held neither by uplink 0 (7.5 of 10 used in
  // class 0) nor by the middle link, and downlink 1's two others are held at 2.5 by their
  // uplinks: it rises to 5, taking uplink 0 whole; (1, 0) likewise takes downlink 0. That
  // reaches no link that was full before, so class 0 is filled locally again. Class 1's
  // (0, 0) now finds uplink 0 full: 0; it is re-filled whole (two of its three links changed,
  // past a third), and so is the new class 2, where (1, 1) gets 0 as well.
  s.SetClass(ThroughTheMiddle::Flow(1, 1), 2);
  s.Solve();
  EXPECT_EQ(s.fill_stats().local_water_fills, 2);
  EXPECT_EQ(s.fill_stats().whole_water_fills, 1);
  EXPECT_DOUBLE_EQ(s.Rate(ThroughTheMiddle::Flow(0, 1)), 5);
  EXPECT_DOUBLE_EQ(s.Rate(ThroughTheMiddle::Flow(1, 0)), 5);
  EXPECT_DOUBLE_EQ(s.Rate(ThroughTheMiddle::Flow(1, 2)), 2.5);
  EXPECT_DOUBLE_EQ(s.Rate(ThroughTheMiddle::Flow(2, 1)), 2.5);
  EXPECT_NEAR(s.Rate(ThroughTheMiddle::Flow(0, 0)), 0, 1e-12);
  EXPECT_NEAR(s.Rate(ThroughTheMiddle::Flow(1, 1)), 0, 1e-12);
}

// Flows of 16 sizes complete one by one, each completion filled locally where it can be: every
// completion time matches a solver that fills whole (16 groups: below the default minimum).
TEST(LocalWaterFill, MatchesAFreshFillAfterCompletions) {
  const std::vector<double> capacity = ThroughTheMiddle::Capacity();
  FluidSolver s(capacity);
  s.SetLocalFillMinLinks(0);
  s.SetLocalWaterFillMinGroups(0);
  std::vector<std::vector<LinkId>> paths;
  for (int src = 0; src < 4; ++src) {
    for (int dst = 0; dst < 4; ++dst) {
      // Different sizes, so that they complete one by one.
      s.Add(ThroughTheMiddle::Flow(src, dst), s.InternPath(LinkIds({src, 4, 5 + dst})),
            10 + 7 * (4 * src + dst), 0);
    }
  }
  const std::vector<double> done = testing::RunToCompletion(s, 16);
  FluidSolver whole(capacity);
  for (int src = 0; src < 4; ++src) {
    for (int dst = 0; dst < 4; ++dst) {
      whole.Add(ThroughTheMiddle::Flow(src, dst), whole.InternPath(LinkIds({src, 4, 5 + dst})),
                10 + 7 * (4 * src + dst), 0);
    }
  }
  const std::vector<double> reference = testing::RunToCompletion(whole, 16);
  for (int f = 0; f < 16; ++f) EXPECT_NEAR(done[f], reference[f], 1e-9 * reference[f]) << f;
  EXPECT_GT(s.fill_stats().local_water_fills, 5);
  EXPECT_EQ(whole.fill_stats().local_water_fills, 0);  // 16 groups: below the default minimum
}

}  // namespace
}  // namespace slotflow
