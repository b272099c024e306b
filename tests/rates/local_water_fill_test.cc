// The local water fill (LocalWaterFill): a sparse class re-filled only on the links its changes
// reach, and the whole water fill for classes of few groups.
#include "rates/local_water_fill.h"

#include <gtest/gtest.h>

#include <vector>

#include "rates/fluid_solver.h"
#include "rates/part_tables.h"
#include "rates/solver_runs.h"
#include "rates/water_fill.h"

namespace slotflow {
namespace {

using testing::LinkIds;
using testing::PartTable;

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
        s.Add(Flow(src, dst), s.InternPath(LinkIds({src, 4, 5 + dst})), 100, FlowClass{0});
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
  s.SetClass(ThroughTheMiddle::Flow(0, 0), FlowClass{1});
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
  s.SetClass(ThroughTheMiddle::Flow(1, 1), FlowClass{2});
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
            10 + 7 * (4 * src + dst), FlowClass{0});
    }
  }
  const std::vector<double> done = testing::RunToCompletion(s, 16);
  FluidSolver whole(capacity);
  for (int src = 0; src < 4; ++src) {
    for (int dst = 0; dst < 4; ++dst) {
      whole.Add(ThroughTheMiddle::Flow(src, dst), whole.InternPath(LinkIds({src, 4, 5 + dst})),
                10 + 7 * (4 * src + dst), FlowClass{0});
    }
  }
  const std::vector<double> reference = testing::RunToCompletion(whole, 16);
  for (int f = 0; f < 16; ++f) EXPECT_NEAR(done[f], reference[f], 1e-9 * reference[f]) << f;
  EXPECT_GT(s.fill_stats().local_water_fills, 5);
  EXPECT_EQ(whole.fill_stats().local_water_fills, 0);  // 16 groups: below the default minimum
}

// --- LocalWaterFill by itself, around whole water fills done by hand ---

// Three sources to three destinations through a middle link, as across racks: uplinks 0-2 (9),
// the middle link 3 (1000), downlinks 4-6 (9); flow 3s + d on uplink s, the middle link and
// downlink 4 + d, in class 0 (three links: sparse). The whole water fill gives every flow 3,
// filling every uplink and downlink; the middle link keeps 1000 - 27.
struct LocalWaterCase {
  LocalWaterCase() : p(Capacities()), whole(7), local(7) {
    for (int s = 0; s < 3; ++s) {
      for (int d = 0; d < 3; ++d) p.Add(3 * s + d, {s, 3, 4 + d});
    }
    local.SetMinLinks(0);
    local.SetMinGroups(0);
    // As FluidSolver fills a class whose local fills are wanted, the first time.
    rates::ClassState& cs = p.Class(FlowClass{0});
    local.BeforeWholeFill(p.t, p.residual, cs);
    whole.Fill(p.t, p.residual, cs.groups, /*add=*/false);
    local.AfterWholeFill(p.t, p.residual, whole, cs);
  }
  static std::vector<double> Capacities() { return {9, 9, 9, 1000, 9, 9, 9}; }
  int Flow(int s, int d) const { return 3 * s + d; }
  double Rate(int s, int d) const { return p.Rate(Flow(s, d)); }
  // The next solve's fill of class 0, from the capacities again; false if not done locally.
  bool TryFill() {
    p.residual = p.capacity;
    return local.TryFill(p.t, p.residual, p.Class(FlowClass{0}));
  }

  PartTable p;
  rates::WaterFill whole;
  rates::LocalWaterFill local;
};

// 1. Flow (0, 0) leaves class 0: uplink 0 and downlink 0, full, are the region (2 of the 7
//    links the class crossed); their other flows are each capped at 3 by their other end,
//    still full, so no rate changes and nothing joins. Uplink 0 and downlink 0 keep 3, the
//    middle link 1000 - 24.
// 2. Flow (1, 1) leaves too: uplink 1 and downlink 1 are the region. (1, 2) and (2, 1) are
//    capped at 3 by downlink 2 and uplink 2, still full; uplink 1 then has 9 - 3 = 6 for
//    (1, 0), whose other links (downlink 0, the middle) are not full, and downlink 1 6 for
//    (0, 1): both rise to 6, which downlink 0 and uplink 0 (3 left each) can take exactly, so
//    nothing joins. Every uplink and downlink is full again; the middle keeps 1000 - 27.
TEST(LocalWaterFill, PartRefillsOnlyTheLinksAChangeReaches) {
  LocalWaterCase c;
  for (int s = 0; s < 3; ++s) {
    for (int d = 0; d < 3; ++d) ASSERT_DOUBLE_EQ(c.Rate(s, d), 3) << s << d;
  }
  c.p.t.SetClass(FlowId{c.Flow(0, 0)}, FlowClass{1});
  ASSERT_TRUE(c.TryFill());
  EXPECT_EQ(c.local.local_fills(), 1);
  for (int f = 1; f < 9; ++f) EXPECT_DOUBLE_EQ(c.p.Rate(f), 3) << f;
  EXPECT_EQ(c.p.residual, std::vector<double>({3, 0, 0, 976, 3, 0, 0}));

  c.p.t.SetClass(FlowId{c.Flow(1, 1)}, FlowClass{2});
  ASSERT_TRUE(c.TryFill());
  EXPECT_EQ(c.local.local_fills(), 2);
  EXPECT_EQ(c.local.whole_fills(), 0);
  EXPECT_DOUBLE_EQ(c.Rate(1, 0), 6);
  EXPECT_DOUBLE_EQ(c.Rate(0, 1), 6);
  EXPECT_DOUBLE_EQ(c.Rate(0, 2), 3);
  EXPECT_DOUBLE_EQ(c.Rate(1, 2), 3);
  EXPECT_DOUBLE_EQ(c.Rate(2, 0), 3);
  EXPECT_DOUBLE_EQ(c.Rate(2, 1), 3);
  EXPECT_DOUBLE_EQ(c.Rate(2, 2), 3);
  EXPECT_EQ(c.p.residual, std::vector<double>({0, 0, 0, 973, 0, 0, 0}));
}

// Flows (0, 0) and (1, 1) leave at once: four full links (uplinks and downlinks 0 and 1) are
// the region, past a third of 7: the local fill gives up and changes nothing, and the next
// attempt is skipped (backing off).
TEST(LocalWaterFill, PartGivesUpOnAChangeThatReachesTooFarAndBacksOff) {
  LocalWaterCase c;
  c.p.t.SetClass(FlowId{c.Flow(0, 0)}, FlowClass{1});
  c.p.t.SetClass(FlowId{c.Flow(1, 1)}, FlowClass{1});
  EXPECT_FALSE(c.TryFill());
  EXPECT_EQ(c.local.local_fills(), 0);
  EXPECT_EQ(c.local.whole_fills(), 1);
  EXPECT_EQ(c.p.residual, c.p.capacity);
  EXPECT_EQ(c.p.Class(FlowClass{0}).sparse.skip, 1);
  EXPECT_FALSE(c.TryFill());
  EXPECT_EQ(c.local.whole_fills(), 1);  // skipped, not tried
}

// When a local fill is wanted, and when it cannot be done: a class of no groups is never
// filled locally, nor (by default) one below 1,024 groups or a network below 1,000 links; a
// class whose last whole fill crossed fewer links than the minimum keeps nothing to fill
// from, and its local fill does nothing.
TEST(LocalWaterFill, PartIsWantedOnlyForClassesOfManyGroupsOnLargeNetworks) {
  LocalWaterCase c;
  EXPECT_TRUE(c.local.Wanted(c.p.t, 9));
  EXPECT_FALSE(c.local.Wanted(c.p.t, 0));
  rates::LocalWaterFill by_default(7);
  EXPECT_FALSE(by_default.Wanted(c.p.t, 9));
  by_default.SetMinGroups(0);
  EXPECT_FALSE(by_default.Wanted(c.p.t, 9));  // 7 links: below the network minimum

  PartTable p(LocalWaterCase::Capacities());
  p.Add(0, {0, 3, 4});
  rates::LocalWaterFill local(7);
  local.SetMinGroups(0);
  local.SetMinLinks(4);  // the class crosses 3
  rates::WaterFill whole(7);
  local.BeforeWholeFill(p.t, p.residual, p.Class(FlowClass{0}));
  whole.Fill(p.t, p.residual, p.Class(FlowClass{0}).groups, /*add=*/false);
  local.AfterWholeFill(p.t, p.residual, whole, p.Class(FlowClass{0}));
  EXPECT_DOUBLE_EQ(p.Rate(0), 9);
  EXPECT_FALSE(p.Class(FlowClass{0}).sparse.valid);
  p.residual = p.capacity;
  EXPECT_FALSE(local.TryFill(p.t, p.residual, p.Class(FlowClass{0})));
  EXPECT_EQ(p.residual, p.capacity);
  EXPECT_EQ(local.local_fills() + local.whole_fills(), 0);
}

}  // namespace
}  // namespace slotflow
