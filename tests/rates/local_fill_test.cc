// The local fill (LocalFill): a dense class re-filled only on the lines (rows and columns) its
// changes reach, and the whole dense fill when they reach too far.
#include "rates/local_fill.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "api/tolerance.h"
#include "rates/dense_fill.h"
#include "rates/fluid_solver.h"
#include "rates/part_tables.h"
#include "rates/solver_runs.h"

namespace slotflow {
namespace {

using testing::BigSwitch;
using testing::PartTable;

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
  sw.AddEveryPair(s, 100, FlowClass{0});
  s.Solve();
  EXPECT_EQ(s.fill_stats().dense_fills, 1);
  s.SetClass(sw.Flow(0, 0), FlowClass{1});
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
  sw.AddEveryPair(s, 100, FlowClass{0});
  s.Solve();
  s.SetClass(sw.Flow(0, 0), FlowClass{1});
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
  sw.AddEveryPair(s, 100, FlowClass{0});
  s.Solve();
  EXPECT_DOUBLE_EQ(s.Rate(sw.Flow(0, 3)), 1.0 / 9);
  EXPECT_DOUBLE_EQ(s.Rate(sw.Flow(3, 0)), (2 - 1.0 / 9) / 7);
  s.SetClass(sw.Flow(0, 0), FlowClass{1});
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
  s.SetClass(sw.Flow(5, 5), FlowClass{1});  // skipped: filled whole without trying
  s.Solve();
  EXPECT_EQ(s.fill_stats().local_fills, 0);
  EXPECT_EQ(s.fill_stats().whole_fills, 1);
  EXPECT_EQ(s.fill_stats().dense_fills, 3);
  ExpectFreshRates(s, capacity, 72);
  s.SetClass(sw.Flow(6, 6), FlowClass{1});  // tried again
  s.Solve();
  EXPECT_EQ(s.fill_stats().local_fills + s.fill_stats().whole_fills, 2);
  ExpectFreshRates(s, capacity, 72);
}

// --- LocalFill by itself, on a dense class built and filled whole by hand ---

// n sources (uplinks 0..n-1, the rows, `up` each) to n destinations (downlinks n..2n-1, the
// columns, `down` each), flow n·s + d on uplink s and downlink n + d, in class 0: built dense
// and filled whole with what a local fill needs kept (as a solve's first fill of it).
struct LocalFillCase {
  LocalFillCase(int n, double up, double down) : n(n), p(Capacities(n, up, down)), whole(2 * n) {
    for (int s = 0; s < n; ++s) {
      for (int d = 0; d < n; ++d) p.Add(n * s + d, {s, n + d});
    }
    whole.SetLocalFillMinLinks(0);
    rates::ClassState& cs = p.Class(FlowClass{0});
    rates::DenseFill::Build(p.t, cs, cs.groups);
    whole.Fill(p.t, p.residual, cs, cs.groups, /*add=*/false, /*continues=*/true);
    p.residual = p.capacity;  // the next solve starts again from the capacities
  }
  static std::vector<double> Capacities(int n, double up, double down) {
    std::vector<double> c(n, up);
    c.resize(2 * n, down);
    return c;
  }
  // The local fill of class 0; false if it gave up.
  bool TryFill() {
    return local.TryFill(p.Class(FlowClass{0}), p.t.shape, p.residual, level, reciprocals);
  }
  // A group's rate from the levels of its two lines, as DenseFill rates them.
  double RateOf(int s, int d) const { return std::min(level[s], level[n + d]); }

  int n;
  PartTable p;
  rates::DenseFill whole;
  rates::LocalFill local;
  std::vector<double> level = std::vector<double>(2 * n, -1);  // per link, as TryFill sets it
  rates::Reciprocals reciprocals;
};

// 3 x 3, uplinks 3, downlinks 100: every flow gets 1 (its uplink's share), the downlinks keep
// 97. Moving f0 (cell (0, 0)) to class 1 seeds row 0 and column 0, 2 lines of 6 (not past a
// third). Rows 1 and 2, outside at level 1, cap column 0's two flows at 1; row 0 (3) then
// rises to 3/2 for its two flows, whose columns are unsaturated and can take the extra 1/2
// each: nothing else joins. Levels: row 0 1.5, rows 1 and 2 still 1, every column unbounded;
// column 0 keeps 100 - 2, columns 1 and 2 97 - 0.5.
TEST(LocalFill, PartRefillsOnlyTheLinesAChangeReaches) {
  LocalFillCase c(3, 3, 100);
  c.p.t.SetClass(FlowId{0}, FlowClass{1});
  ASSERT_TRUE(c.p.Class(FlowClass{0}).dense);
  ASSERT_TRUE(c.TryFill());
  EXPECT_EQ(c.local.local_fills(), 1);
  EXPECT_EQ(c.local.whole_fills(), 0);
  EXPECT_EQ(c.level, std::vector<double>({1.5, 1, 1, kForever, kForever, kForever}));
  EXPECT_DOUBLE_EQ(c.RateOf(0, 1), 1.5);
  EXPECT_DOUBLE_EQ(c.RateOf(0, 2), 1.5);
  EXPECT_DOUBLE_EQ(c.RateOf(1, 0), 1);
  EXPECT_DOUBLE_EQ(c.RateOf(2, 2), 1);
  EXPECT_EQ(c.p.residual, std::vector<double>({0, 0, 0, 98, 96.5, 96.5}));
}

// No cell changed, but a class above took 1.5 of uplink 0 (its residual is 1.5, not the 3 of
// the last fill): row 0 alone is filled again, 1.5/3 = 0.5 for each of its flows; the columns
// give back 0.5 of each of their row-0 flows, and keep 97.5.
TEST(LocalFill, PartRefillsALineWhoseCapacityLeftChanged) {
  LocalFillCase c(3, 3, 100);
  c.p.residual[0] = 1.5;
  ASSERT_TRUE(c.TryFill());
  EXPECT_EQ(c.level, std::vector<double>({0.5, 1, 1, kForever, kForever, kForever}));
  EXPECT_DOUBLE_EQ(c.RateOf(0, 0), 0.5);
  EXPECT_DOUBLE_EQ(c.RateOf(1, 0), 1);
  EXPECT_EQ(c.p.residual, std::vector<double>({0, 0, 0, 97.5, 97.5, 97.5}));
}

// Nothing changed: the region is empty and every line keeps its level (1 for the rows) and
// what the last fill left of it (0 of the rows, 97 of the columns).
TEST(LocalFill, PartKeepsEveryLevelWhenNothingChanged) {
  LocalFillCase c(3, 3, 100);
  ASSERT_TRUE(c.TryFill());
  EXPECT_EQ(c.local.local_fills(), 1);
  EXPECT_EQ(c.level, std::vector<double>({1, 1, 1, kForever, kForever, kForever}));
  EXPECT_EQ(c.p.residual, std::vector<double>({0, 0, 0, 97, 97, 97}));
}

// 2 x 2: a changed cell seeds its row and column, 2 lines of 4, past a third: the local fill
// gives up (a whole fill is as cheap) and leaves residual and levels alone; the next attempt
// is skipped (backing off) without looking.
TEST(LocalFill, PartGivesUpOnAChangeThatReachesTooFarAndBacksOff) {
  LocalFillCase c(2, 3, 100);
  c.p.t.SetClass(FlowId{0}, FlowClass{1});
  EXPECT_FALSE(c.TryFill());
  EXPECT_EQ(c.local.local_fills(), 0);
  EXPECT_EQ(c.local.whole_fills(), 1);
  EXPECT_EQ(c.p.residual, c.p.capacity);
  EXPECT_EQ(c.level, std::vector<double>(4, -1));
  EXPECT_EQ(c.p.Class(FlowClass{0}).local_skip, 1);
  EXPECT_FALSE(c.TryFill());
  EXPECT_EQ(c.local.whole_fills(), 1);  // skipped, not tried
  EXPECT_EQ(c.p.Class(FlowClass{0}).local_skip, 0);
}

}  // namespace
}  // namespace slotflow
