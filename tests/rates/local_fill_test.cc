// The local fill (LocalFill): a dense class re-filled only on the lines (rows and columns) its
// changes reach, and the whole dense fill when they reach too far.
#include <gtest/gtest.h>

#include <vector>

#include "api/tolerance.h"
#include "rates/fluid_solver.h"
#include "rates/solver_runs.h"

namespace slotflow {
namespace {

using testing::BigSwitch;

// Every rate of s against a fresh solver holding the same flows.
void ExpectFreshRates(FluidSolver& s, const std::vector<double>& capacity, int flows) {
  FluidSolver fresh(capacity);
  for (FlowId f{0}; f < flows; ++f) {
    if (!s.Active(f)) continue;
    fresh.Add(f, fresh.InternPath(s.PathLinks(s.FlowPath(f))), s.Remaining(f), s.Class(f));
  }
  fresh.Solve();
  for (FlowId f{0}; f < flows; ++f) {
    if (s.Active(f)) {
      EXPECT_NEAR(s.Rate(f), fresh.Rate(f), kRelTolerance * (fresh.Rate(f) + 1)) << f;
    }
  }
}

// 8 sources x 9 destinations (72 groups, so 71 stay dense when one leaves), uplinks 9 and
// downlinks 100: every flow gets 1, its uplink's share, and no downlink is full. Moving flow
// (0, 0) to a lower class changes row 0 and column 0 only: row 0's level rises to 9/8, its
// flows to the unsaturated columns use 1/8 more of each, which they have, and column 0 stays
// unsaturated. The region is those two lines of 17.
TEST(LocalFill, AChangeThatReachesFewLinesIsFilledLocally) {
  const BigSwitch sw{8, 9};
  std::vector<double> capacity(sw.Links(), 9.0);
  for (int d = 0; d < 9; ++d) capacity[sw.Down(d)] = 100;
  FluidSolver s(capacity);
  s.SetLocalFillMinLinks(0);  // 17 links: below the default
  sw.AddEveryPair(s, 100, 0);
  s.Solve();
  EXPECT_EQ(s.fill_stats().dense_fills, 1);
  s.SetClass(sw.Flow(0, 0), 1);
  s.Solve();
  EXPECT_EQ(s.fill_stats().local_fills, 1);
  EXPECT_EQ(s.fill_stats().whole_fills, 0);
  EXPECT_EQ(s.fill_stats().dense_fills, 1);
  for (int d = 1; d < 9; ++d) EXPECT_DOUBLE_EQ(s.Rate(sw.Flow(0, d)), 9.0 / 8) << d;
  for (int src = 1; src < 8; ++src) {
    for (int d = 0; d < 9; ++d) EXPECT_DOUBLE_EQ(s.Rate(sw.Flow(src, d)), 1) << src << d;
  }
  EXPECT_NEAR(s.Rate(sw.Flow(0, 0)), 0, 1e-12);  // class 1, behind a full uplink
  EXPECT_NEAR(s.LinkLoad(sw.Down(3)), 8.125, 1e-12);
  EXPECT_NEAR(s.LinkLoad(sw.Down(0)), 7, 1e-12);
}

// The same change on a class over fewer links than the minimum is filled whole.
TEST(LocalFill, ClassesOverFewLinksAreFilledWhole) {
  const BigSwitch sw{8, 9};
  std::vector<double> capacity(sw.Links(), 9.0);
  for (int d = 0; d < 9; ++d) capacity[sw.Down(d)] = 100;
  FluidSolver s(capacity);
  sw.AddEveryPair(s, 100, 0);
  s.Solve();
  s.SetClass(sw.Flow(0, 0), 1);
  s.Solve();
  EXPECT_EQ(s.fill_stats().local_fills, 0);
  EXPECT_EQ(s.fill_stats().whole_fills, 0);
  EXPECT_EQ(s.fill_stats().dense_fills, 2);
  EXPECT_DOUBLE_EQ(s.Rate(sw.Flow(0, 1)), 9.0 / 8);
}

// Uplinks 9 but source 0's, 1; downlinks 9 but destination 0's, 2. Source 0's flows get 1/9,
// destination 0's others (2 - 1/9) / 7, and every other row is saturated at (9 - that) / 8;
// the other columns are not. Moving flow (0, 0) away raises column 0's level to 2/7, which
// changes its groups with every other row: the region grows to 9 of 17 lines, past a third,
// and the class is filled whole: source 0's flows 1/8, destination 0's 2/7, the others
// (9 - 2/7) / 8. The next change is then filled whole without trying (the back-off), and the
// one after is tried again.
TEST(LocalFill, AChangeThatReachesTooFarIsFilledWholeAndBacksOff) {
  const BigSwitch sw{8, 9};
  std::vector<double> capacity(sw.Links(), 9.0);
  capacity[sw.Up(0)] = 1;
  capacity[sw.Down(0)] = 2;
  FluidSolver s(capacity);
  s.SetLocalFillMinLinks(0);
  sw.AddEveryPair(s, 100, 0);
  s.Solve();
  EXPECT_DOUBLE_EQ(s.Rate(sw.Flow(0, 3)), 1.0 / 9);
  EXPECT_DOUBLE_EQ(s.Rate(sw.Flow(3, 0)), (2 - 1.0 / 9) / 7);
  s.SetClass(sw.Flow(0, 0), 1);
  s.Solve();
  EXPECT_EQ(s.fill_stats().local_fills, 0);
  EXPECT_EQ(s.fill_stats().whole_fills, 1);
  EXPECT_EQ(s.fill_stats().dense_fills, 2);
  for (int d = 1; d < 9; ++d) EXPECT_DOUBLE_EQ(s.Rate(sw.Flow(0, d)), 1.0 / 8) << d;
  for (int src = 1; src < 8; ++src) {
    EXPECT_DOUBLE_EQ(s.Rate(sw.Flow(src, 0)), 2.0 / 7) << src;
    for (int d = 1; d < 9; ++d) {
      EXPECT_DOUBLE_EQ(s.Rate(sw.Flow(src, d)), (9 - 2.0 / 7) / 8) << src << d;
    }
  }
  s.SetClass(sw.Flow(5, 5), 1);  // skipped: filled whole without trying
  s.Solve();
  EXPECT_EQ(s.fill_stats().local_fills, 0);
  EXPECT_EQ(s.fill_stats().whole_fills, 1);
  EXPECT_EQ(s.fill_stats().dense_fills, 3);
  ExpectFreshRates(s, capacity, 72);
  s.SetClass(sw.Flow(6, 6), 1);  // tried again
  s.Solve();
  EXPECT_EQ(s.fill_stats().local_fills + s.fill_stats().whole_fills, 2);
  ExpectFreshRates(s, capacity, 72);
}

}  // namespace
}  // namespace slotflow
