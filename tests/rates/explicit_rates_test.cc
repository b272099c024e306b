// Explicit rates (ExplicitRates): served before any class, scaled down together where they
// oversubscribe a link, then backfilled max-min; the backfill goes on from its last fill when
// only explicit flows have left.
#include "rates/explicit_rates.h"

#include <gtest/gtest.h>

#include <vector>

#include "api/tolerance.h"
#include "rates/fluid_solver.h"
#include "rates/part_tables.h"
#include "rates/solver_runs.h"

namespace slotflow {
namespace {

using testing::BigSwitch;
using testing::LinkIds;
using testing::PartTable;

TEST(ExplicitRates, AreServedFirstAndBackfilled) {
  FluidSolver s({10.0, 10.0});
  const auto a = LinkIds({0}), b = LinkIds({1});
  s.Add(FlowId{0}, s.InternPath(a), 100, FlowClass{0});
  s.Add(FlowId{1}, s.InternPath(a), 100, FlowClass{0});
  s.Add(FlowId{2}, s.InternPath(b), 100, FlowClass{0});
  s.SetExplicitRate(FlowId{0}, 3);
  s.SetExplicitRate(FlowId{2}, 3);
  s.Solve();
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{0}), 3);  // link a is full after the max-min class fill
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{1}), 7);
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{2}), 10);  // alone on b: 3 explicit + 7 backfilled
  s.SetExplicitRate(FlowId{0}, -1);
  s.Solve();
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{0}), 5);
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{1}), 5);
}

// Explicit rates asking more than a link has are scaled down together, whatever their order:
// on a (capacity 10) 8 + 12 = 20 → half each; flow 1 also crosses b, where it asks 12 of 30.
TEST(ExplicitRates, OversubscribedOnesAreScaledDownTogether) {
  FluidSolver s({10.0, 30.0});
  const auto a = LinkIds({0}), ab = LinkIds({0, 1});
  s.Add(FlowId{0}, s.InternPath(a), 100, FlowClass{0});
  s.Add(FlowId{1}, s.InternPath(ab), 100, FlowClass{0});
  s.SetExplicitRate(FlowId{1}, 12);
  s.SetExplicitRate(FlowId{0}, 8);
  s.Solve();
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{0}), 4);
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{1}), 6);  // b has room to spare, but the backfill has nothing on a
}

// A sum over a link by rounding only (MADD fills links exactly) is served as asked; a real
// excess is scaled down.
TEST(ExplicitRates, ASumOverALinkByRoundingOnlyIsNotScaled) {
  for (const double excess : {1e-14, 1e-6}) {
    FluidSolver s({1.0});
    const auto a = LinkIds({0});
    s.Add(FlowId{0}, s.InternPath(a), 100, FlowClass{0});
    s.Add(FlowId{1}, s.InternPath(a), 100, FlowClass{0});
    s.SetExplicitRate(FlowId{0}, 0.5);
    s.SetExplicitRate(FlowId{1}, 0.5 + excess);
    s.Solve();
    if (excess < 1e-12) {
      EXPECT_EQ(s.Rate(FlowId{0}), 0.5);
      EXPECT_EQ(s.Rate(FlowId{1}), 0.5 + excess);
    } else {
      EXPECT_DOUBLE_EQ(s.Rate(FlowId{0}), 0.5 / (1 + excess));
      EXPECT_DOUBLE_EQ(s.Rate(FlowId{0}) + s.Rate(FlowId{1}), 1);
    }
  }
}

// The backfill shares what the explicit rates leave max-min among the explicit flows, on top of
// their rates: of a 8 and b 3, b's 3 go to flow 1, then a's other 5 to flow 0.
TEST(ExplicitRates, TheBackfillSharesWhatIsLeftMaxMin) {
  FluidSolver s({10.0, 4.0});
  const auto a = LinkIds({0}), ab = LinkIds({0, 1});
  s.Add(FlowId{0}, s.InternPath(a), 100, FlowClass{0});
  s.Add(FlowId{1}, s.InternPath(ab), 100, FlowClass{0});
  s.SetExplicitRate(FlowId{0}, 1);
  s.SetExplicitRate(FlowId{1}, 1);
  s.Solve();
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{1}), 1 + 3);
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{0}), 1 + 5);
}

// 8 sources x 9 destinations (72 flows, so 71 stay dense when one leaves), each flow with an
// explicit rate 0.5; uplinks 9 and downlinks 8 have 4.5 and 4 left, and the backfill gives
// every flow another 0.5. When flow (0, 0) completes, only an explicit flow has left: the
// backfill goes on from its last fill, with the 0.5 the flow gave back on its two links, and
// every flow keeps 1 (source 0 and destination 0 now have room to spare).
TEST(ExplicitRates, TheBackfillGoesOnWhenOnlyExplicitFlowsLeft) {
  const BigSwitch sw{8, 9};
  std::vector<double> capacity(sw.Links(), 9.0);
  for (int d = 0; d < 9; ++d) capacity[sw.Down(d)] = 8;
  FluidSolver s(capacity);
  for (int src = 0; src < 8; ++src) {
    for (int d = 0; d < 9; ++d) {
      s.Add(sw.Flow(src, d), sw.Path(s, src, d), src == 0 && d == 0 ? 1 : 100, FlowClass{0});
      s.SetExplicitRate(sw.Flow(src, d), 0.5);
    }
  }
  s.Solve();
  EXPECT_EQ(s.fill_stats().dense_fills, 1);
  EXPECT_EQ(s.fill_stats().continued_backfills, 0);
  for (FlowId f{0}; f < 72; ++f) EXPECT_NEAR(s.Rate(f), 1, 1e-12) << f;
  s.Advance(s.NextCompletionIn());
  std::vector<FlowId> out;
  s.PopCompleted(out);
  ASSERT_EQ(out, std::vector<FlowId>{sw.Flow(0, 0)});
  s.Solve();
  EXPECT_EQ(s.fill_stats().continued_backfills, 1);
  for (FlowId f{1}; f < 72; ++f) EXPECT_NEAR(s.Rate(f), 1, 1e-12) << f;
  EXPECT_NEAR(s.LinkLoad(sw.Up(0)), 8, 1e-12);
  EXPECT_NEAR(s.LinkLoad(sw.Down(0)), 7, 1e-12);
  EXPECT_NEAR(s.LinkLoad(sw.Up(1)), 9, 1e-12);
  // A new explicit rate starts the backfill over. Flow (1, 1) at 2 leaves 2.5 of destination
  // 1's downlink for its 8 flows, 0.3125 more each, the lowest share; then 2.6875 of source 1's
  // uplink for its 8 others, 0.3359375 each; every other link then has 0.5234375 for each of
  // its flows.
  s.SetExplicitRate(sw.Flow(1, 1), 2);
  s.Solve();
  EXPECT_EQ(s.fill_stats().continued_backfills, 1);
  EXPECT_NEAR(s.Rate(sw.Flow(1, 1)), 2.3125, 1e-12);
  EXPECT_NEAR(s.Rate(sw.Flow(4, 1)), 0.8125, 1e-12);
  EXPECT_NEAR(s.Rate(sw.Flow(1, 2)), 0.8359375, 1e-12);
  EXPECT_NEAR(s.Rate(sw.Flow(3, 4)), 1.0234375, 1e-12);
  EXPECT_NEAR(s.Rate(sw.Flow(0, 4)), 1.0234375, 1e-12);
  EXPECT_NEAR(s.LinkLoad(sw.Up(1)), 9, 1e-12);
  EXPECT_NEAR(s.LinkLoad(sw.Down(1)), 8, 1e-12);
}

// --- ExplicitRates by itself, on a GroupTable built by hand ---

// Within capacity, every explicit rate is served as asked and taken from its links: f0 asks 3
// of link 0, f1 4 of links 0 and 1; link 0 keeps 10 - 7, link 1 10 - 4. f2, with no explicit
// rate, is a class's and gets nothing here.
TEST(ExplicitRates, PartServesRatesWithinCapacityAsAsked) {
  PartTable p({10.0, 10.0});
  p.Add(0, {0});
  p.Add(1, {0, 1});
  p.Add(2, {1});
  p.t.SetExplicitRate(FlowId{0}, 3);
  p.t.SetExplicitRate(FlowId{1}, 4);
  ASSERT_EQ(p.t.explicit_groups.size(), 2u);
  rates::ExplicitRates serve(2);
  serve.Serve(p.t, p.residual);
  EXPECT_DOUBLE_EQ(p.Rate(0), 3);
  EXPECT_DOUBLE_EQ(p.Rate(1), 4);
  EXPECT_EQ(p.Rate(2), 0);
  EXPECT_EQ(p.residual, std::vector<double>({3, 6}));
  EXPECT_FALSE(serve.backfill_continues());
  EXPECT_FALSE(p.t.explicit_changed);
}

// Asked more than a link has, the rates across it are scaled down together: link 0 (10) is
// asked 8 + 12 = 20, so each gets half, f0 4 and f1 6, whatever link 1 (30) could give f1;
// link 0 keeps nothing, link 1 30 - 6.
TEST(ExplicitRates, PartScalesAnOversubscribedLinksRatesDownTogether) {
  PartTable p({10.0, 30.0});
  p.Add(0, {0});
  p.Add(1, {0, 1});
  p.t.SetExplicitRate(FlowId{1}, 12);
  p.t.SetExplicitRate(FlowId{0}, 8);
  rates::ExplicitRates serve(2);
  serve.Serve(p.t, p.residual);
  EXPECT_DOUBLE_EQ(p.Rate(0), 4);
  EXPECT_DOUBLE_EQ(p.Rate(1), 6);
  EXPECT_EQ(p.residual, std::vector<double>({0, 24}));
}

// A link of no capacity scales every rate across it to 0 (f0 asks 2 of links 0 and 1), and
// the flows off it keep theirs: f1 gets its 2 of link 1 (5), which keeps 3.
TEST(ExplicitRates, PartServesNothingAcrossALinkOfNoCapacity) {
  PartTable p({0.0, 5.0});
  p.Add(0, {0, 1});
  p.Add(1, {1});
  p.t.SetExplicitRate(FlowId{0}, 2);
  p.t.SetExplicitRate(FlowId{1}, 2);
  rates::ExplicitRates serve(2);
  serve.Serve(p.t, p.residual);
  EXPECT_EQ(p.Rate(0), 0);
  EXPECT_DOUBLE_EQ(p.Rate(1), 2);
  EXPECT_EQ(p.residual, std::vector<double>({0, 3}));
}

// Equal rates whose sum passes the link by rounding only (0.5 + (0.5 + 1e-14) of 1) are served
// as asked; with no explicit rate at all, the serve leaves every link as it was.
TEST(ExplicitRates, PartServesASumOverByRoundingAsAskedAndNothingWithoutRates) {
  PartTable p({1.0});
  p.Add(0, {0});
  p.Add(1, {0});
  rates::ExplicitRates serve(1);
  serve.Serve(p.t, p.residual);
  EXPECT_EQ(p.residual, p.capacity);
  p.t.SetExplicitRate(FlowId{0}, 0.5);
  p.t.SetExplicitRate(FlowId{1}, 0.5 + 1e-14);
  serve.Serve(p.t, p.residual);
  EXPECT_EQ(p.Rate(0), 0.5);
  EXPECT_EQ(p.Rate(1), 0.5 + 1e-14);
  EXPECT_NEAR(p.residual[0], 0, 1e-13);
}

}  // namespace
}  // namespace slotflow
