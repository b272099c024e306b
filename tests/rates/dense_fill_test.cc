// The dense fill (DenseFill): a class of at least 64 groups, all on two-link paths, filled as a
// matrix of member counts (first links x second links).
#include "rates/dense_fill.h"

#include <gtest/gtest.h>

#include <vector>

#include "api/random.h"
#include "api/tolerance.h"
#include "rates/fluid_solver.h"
#include "rates/part_tables.h"
#include "rates/solver_runs.h"

namespace slotflow {
namespace {

using testing::BigSwitch;
using testing::LinkIds;
using testing::PartTable;
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
  sw.AddEveryPair(s, 100, FlowClass{0});
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
  sw.AddEveryPair(s, 100, FlowClass{0});
  s.Solve();
  for (FlowId f{0}; f < 72; ++f) EXPECT_DOUBLE_EQ(s.Rate(f), 1) << f;
  s.SetClass(sw.Flow(0, 0), FlowClass{1});
  s.Solve();
  EXPECT_EQ(s.fill_stats().dense_fills, 2);  // class 1 has one group: the water fill
  EXPECT_EQ(s.fill_stats().water_fills, 1);
  EXPECT_NEAR(s.Rate(sw.Flow(0, 0)), 0, 1e-12);
  for (int d = 1; d < 9; ++d) EXPECT_DOUBLE_EQ(s.Rate(sw.Flow(0, d)), 9.0 / 8) << d;
  for (int src = 1; src < 8; ++src) {
    for (int d = 0; d < 9; ++d) EXPECT_DOUBLE_EQ(s.Rate(sw.Flow(src, d)), 1) << src << d;
  }
  // Back in class 0, and a second flow in one cell: source 1's uplink now shares 9 among 10.
  s.SetClass(sw.Flow(0, 0), FlowClass{0});
  s.Add(FlowId{72}, sw.Path(s, 1, 1), 100, FlowClass{0});
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
    sw.AddEveryPair(s, 100, FlowClass{0});
    s.Solve();
    EXPECT_EQ(s.fill_stats().dense_fills, 0);
    EXPECT_EQ(s.fill_stats().water_fills, 1);
    EXPECT_DOUBLE_EQ(s.Rate(FlowId{0}), 1);
  }
  {
    const BigSwitch sw{8, 8};
    std::vector<double> capacity(sw.Links() + 1, 8.0);
    FluidSolver s(capacity);
    sw.AddEveryPair(s, 100, FlowClass{0});
    s.Solve();
    EXPECT_EQ(s.fill_stats().dense_fills, 1);
    const auto third = LinkIds({0, 16, 8});  // source 0 to destination 0 through link 16
    s.Add(FlowId{64}, s.InternPath(third), 100, FlowClass{0});
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
      s.Add(f, s.InternPath(p), 1000, FlowClass{0});
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

// --- DenseFill by itself, on a GroupTable built by hand ---

// Two sources (uplinks 0 and 1, the rows) to two destinations (downlinks 2 and 3, the
// columns), flow 2s + d on uplink s and downlink 2 + d; `capacity` per link.
PartTable TwoByTwo(std::vector<double> capacity) {
  PartTable p(std::move(capacity));
  for (int s = 0; s < 2; ++s) {
    for (int d = 0; d < 2; ++d) p.Add(2 * s + d, {s, 2 + d});
  }
  return p;
}

// Builds class 0's matrix and fills it whole, as a solve does the first time.
void BuildAndFill(PartTable& p, rates::DenseFill& fill) {
  rates::ClassState& cs = p.Class(FlowClass{0});
  rates::DenseFill::Build(p.t, cs, cs.groups);
  fill.Fill(p.t, p.residual, cs, cs.groups, /*add=*/false, /*continues=*/true);
}

// Uplink 0 (1) has the smallest share, 1/2: f0 = f1 = 0.5. Each downlink (8) then has 7.5 for
// one flow, uplink 1 (8) 4 for each of two, the smaller: f2 = f3 = 4, and the downlinks keep
// 7.5 - 4 = 3.5 each.
TEST(DenseFill, PartFillsAHandCheckedMatrix) {
  PartTable p = TwoByTwo({1, 8, 8, 8});
  rates::DenseFill fill(4);
  BuildAndFill(p, fill);
  EXPECT_TRUE(p.Class(FlowClass{0}).dense);
  EXPECT_EQ(p.Class(FlowClass{0}).rows, 2u);
  EXPECT_EQ(p.Class(FlowClass{0}).cols, 2u);
  EXPECT_DOUBLE_EQ(p.Rate(0), 0.5);
  EXPECT_DOUBLE_EQ(p.Rate(1), 0.5);
  EXPECT_DOUBLE_EQ(p.Rate(2), 4);
  EXPECT_DOUBLE_EQ(p.Rate(3), 4);
  EXPECT_EQ(p.residual, std::vector<double>({0, 0, 3.5, 3.5}));
  EXPECT_EQ(fill.dense_fills(), 1);
}

// Uplink 0 has no capacity: its share is 0, so f0 = f1 = 0, charging the downlinks nothing;
// uplink 1 (8) then gives f2 = f3 = 4 and the downlinks (8) keep 4 each.
TEST(DenseFill, PartGivesNothingOnALineOfNoCapacity) {
  PartTable p = TwoByTwo({0, 8, 8, 8});
  rates::DenseFill fill(4);
  BuildAndFill(p, fill);
  EXPECT_EQ(p.Rate(0), 0);
  EXPECT_EQ(p.Rate(1), 0);
  EXPECT_DOUBLE_EQ(p.Rate(2), 4);
  EXPECT_DOUBLE_EQ(p.Rate(3), 4);
  EXPECT_EQ(p.residual, std::vector<double>({0, 0, 4, 4}));
}

// A cell of two members, and a column with none in the class: f0 and f1 share cell (0, 0) as
// one group, f2 is on (1, 0), and f3 on (1, 1) is in class 1, so class 0's column 1 is empty
// and keeps its capacity. Uplink 0 (6) has share 6/2 = 3 < downlink 0 (10), 10/3: f0 = f1 = 3.
// Downlink 0 then has 10 - 6 = 4 for f2, below uplink 1's 10: f2 = 4.
TEST(DenseFill, PartCountsEveryMemberOfACellAndSkipsEmptyLines) {
  PartTable p({6, 10, 10, 10});
  p.Add(0, {0, 2});
  p.Add(1, {0, 2});
  p.Add(2, {1, 2});
  p.Add(3, {1, 3}, 100, /*cls=*/FlowClass{1});
  ASSERT_EQ(p.Class(FlowClass{0}).groups.size(), 2u);
  rates::DenseFill fill(4);
  BuildAndFill(p, fill);
  EXPECT_EQ(p.Class(FlowClass{0}).cols, 2u);
  EXPECT_DOUBLE_EQ(p.Rate(0), 3);
  EXPECT_DOUBLE_EQ(p.Rate(1), 3);
  EXPECT_DOUBLE_EQ(p.Rate(2), 4);
  EXPECT_EQ(p.Rate(3), 0);  // class 1 is not filled here
  EXPECT_EQ(p.residual, std::vector<double>({0, 6, 0, 10}));
}

// The matrix follows the flows between fills, and the next fill re-rates only the groups on
// lines whose level moved. After the fill of PartFillsAHandCheckedMatrix, f4 joins f3 in cell
// (1, 1): uplink 0 still freezes first at 0.5; uplink 1 (8) now has three members, 8/3 each,
// below what the downlinks offer (7.5 and 7.5/2): f2 = f3 = f4 = 8/3; f0 and f1 keep 0.5.
TEST(DenseFill, PartFollowsAChangedCellIntoTheNextFill) {
  PartTable p = TwoByTwo({1, 8, 8, 8});
  rates::DenseFill fill(4);
  BuildAndFill(p, fill);
  p.Add(4, {1, 3});
  EXPECT_EQ(p.Group(4), p.Group(3));
  EXPECT_EQ(p.Class(FlowClass{0}).matrix[3], 2);  // cell (1, 1)
  p.residual = p.capacity;
  rates::ClassState& cs = p.Class(FlowClass{0});
  fill.Fill(p.t, p.residual, cs, cs.groups, /*add=*/false, /*continues=*/true);
  EXPECT_EQ(fill.dense_fills(), 2);
  EXPECT_DOUBLE_EQ(p.Rate(0), 0.5);
  EXPECT_DOUBLE_EQ(p.Rate(1), 0.5);
  EXPECT_DOUBLE_EQ(p.Rate(2), 8.0 / 3);
  EXPECT_DOUBLE_EQ(p.Rate(3), 8.0 / 3);
  EXPECT_DOUBLE_EQ(p.Rate(4), 8.0 / 3);
  EXPECT_NEAR(p.residual[1], 0, 1e-12);
  EXPECT_NEAR(p.residual[2], 7.5 - 8.0 / 3, 1e-12);
  EXPECT_NEAR(p.residual[3], 7.5 - 16.0 / 3, 1e-12);
}

// A dense state lists each line's non-empty cells (its bits) as its counts change: a cell
// joins its row's and column's lists when it gets a member and leaves them when it has none.
TEST(DenseFill, LinesListTheirNonEmptyCells) {
  rates::ClassState cs;
  cs.rows = 2;
  cs.cols = 70;  // two words a row
  cs.matrix.assign(cs.rows * cs.cols, 0);
  cs.matrix_t.assign(cs.rows * cs.cols, 0);
  cs.line_weight.assign(cs.rows + cs.cols, 0);
  cs.row_words = 2;
  cs.col_words = 1;
  cs.row_bits.assign(cs.rows * cs.row_words, 0);
  cs.col_bits.assign(cs.cols * cs.col_words, 0);
  auto members = [&](size_t line) {
    std::vector<size_t> out;
    rates::ForEachMember(cs, line, [&](size_t j) { out.push_back(j); });
    return out;
  };
  rates::AddToCell(cs, 1 * 70 + 65, 2);
  rates::AddToCell(cs, 1 * 70 + 3, 1);
  rates::AddToCell(cs, 0 * 70 + 65, 1);
  EXPECT_EQ(members(1), (std::vector<size_t>{3, 65}));  // row 1, in column order
  EXPECT_EQ(members(0), (std::vector<size_t>{65}));
  EXPECT_EQ(members(2 + 65), (std::vector<size_t>{0, 1}));  // column 65, in row order
  rates::AddToCell(cs, 1 * 70 + 65, -1);  // one member left: still listed
  EXPECT_EQ(members(1), (std::vector<size_t>{3, 65}));
  rates::AddToCell(cs, 1 * 70 + 65, -1);
  EXPECT_EQ(members(1), (std::vector<size_t>{3}));
  EXPECT_EQ(members(2 + 65), (std::vector<size_t>{0}));
  EXPECT_EQ(members(2 + 3), (std::vector<size_t>{1}));
}

}  // namespace
}  // namespace slotflow
