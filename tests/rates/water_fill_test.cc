// The water fill (WaterFill): max-min progressive filling of a sparse class, with each round's
// bottleneck found by a scan of the open links or by a min-tree.
#include "rates/water_fill.h"

#include <gtest/gtest.h>

#include <vector>

#include "api/random.h"
#include "api/tolerance.h"
#include "rates/fluid_solver.h"
#include "rates/part_tables.h"
#include "rates/solver_runs.h"

namespace slotflow {
namespace {

using testing::LinkIds;
using testing::PartTable;
using testing::ReferenceMaxMin;
using testing::RunToCompletion;

TEST(WaterFill, TwoFlowsShareALinkThenTheSurvivorTakesItAll) {
  FluidSolver s({10.0});
  const auto l = LinkIds({0});
  const PathId p = s.InternPath(l);
  s.Add(FlowId{0}, p, 10, FlowClass{0});
  s.Add(FlowId{1}, p, 30, FlowClass{0});
  s.Solve();
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{0}), 5);
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{1}), 5);
  const auto done = RunToCompletion(s, 2);
  EXPECT_DOUBLE_EQ(done[0], 2);  // 10 bytes at 5
  EXPECT_DOUBLE_EQ(done[1], 4);  // 10 sent by t=2, then 20 at 10
}

// Link A (10) carries f0 and f1; link B (4) carries f1 and f2. Splitting each link equally
// would give f0 5; max-min fixes B first (2 each) and gives f0 the remaining 8.
TEST(WaterFill, MultiBottleneckMaxMinDiffersFromEqualSplit) {
  FluidSolver s({10.0, 4.0});
  const auto a = LinkIds({0}), ab = LinkIds({0, 1}), b = LinkIds({1});
  s.Add(FlowId{0}, s.InternPath(a), 100, FlowClass{0});
  s.Add(FlowId{1}, s.InternPath(ab), 100, FlowClass{0});
  s.Add(FlowId{2}, s.InternPath(b), 100, FlowClass{0});
  s.Solve();
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{0}), 8);
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{1}), 2);
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{2}), 2);
  EXPECT_DOUBLE_EQ(s.LinkLoad(LinkId{0}), 10);
  EXPECT_DOUBLE_EQ(s.LinkLoad(LinkId{1}), 4);
}

// Three-level water filling: uplinks u0 (6), u1 (10); downlink d (9).
// f0: u0→d, f1: u1→d, f2: u1 only, f3: u0 only... d's fair share 4.5 is the tightest for
// f0/f1? u0 has f0,f3 → share 3; so f0 = f3 = 3, then d has 6 left for f1, u1 leaves 4 for f2
// vs f1: u1 share = 10/2 = 5 < 6 → f1 = f2 = 5.
TEST(WaterFill, ProgressiveFillingFreezesBottlenecksInOrder) {
  FluidSolver s({6.0, 10.0, 9.0});
  const auto p0 = LinkIds({0, 2}), p1 = LinkIds({1, 2}), p2 = LinkIds({1}), p3 = LinkIds({0});
  s.Add(FlowId{0}, s.InternPath(p0), 50, FlowClass{0});
  s.Add(FlowId{1}, s.InternPath(p1), 50, FlowClass{0});
  s.Add(FlowId{2}, s.InternPath(p2), 50, FlowClass{0});
  s.Add(FlowId{3}, s.InternPath(p3), 50, FlowClass{0});
  s.Solve();
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{0}), 3);
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{3}), 3);
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{1}), 5);
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{2}), 5);
  // Four groups over three links: the scan of the open links.
  EXPECT_EQ(s.fill_stats().water_fills, 1);
  EXPECT_EQ(s.fill_stats().min_tree_fills, 0);
  EXPECT_EQ(s.fill_stats().dense_fills, 0);
}

// Few groups over many links (three over ten) take the min-tree: A crosses links 0-4, B 4-8,
// C 8-9. Link 8 (3) is the tightest, 1.5 each for B and C; link 4 (6) then leaves 4.5 to A.
TEST(WaterFill, FewGroupsOverManyLinksFindTheirBottlenecksWithTheMinTree) {
  std::vector<double> capacity(10, 100.0);
  capacity[4] = 6;
  capacity[8] = 3;
  FluidSolver s(capacity);
  const auto a = LinkIds({0, 1, 2, 3, 4}), b = LinkIds({4, 5, 6, 7, 8}), c = LinkIds({8, 9});
  s.Add(FlowId{0}, s.InternPath(a), 100, FlowClass{0});
  s.Add(FlowId{1}, s.InternPath(b), 100, FlowClass{0});
  s.Add(FlowId{2}, s.InternPath(c), 100, FlowClass{0});
  s.Solve();
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{0}), 4.5);
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{1}), 1.5);
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{2}), 1.5);
  EXPECT_DOUBLE_EQ(s.LinkLoad(LinkId{4}), 6);
  EXPECT_DOUBLE_EQ(s.LinkLoad(LinkId{8}), 3);
  EXPECT_DOUBLE_EQ(s.LinkLoad(LinkId{0}), 4.5);
  EXPECT_EQ(s.fill_stats().water_fills, 1);
  EXPECT_EQ(s.fill_stats().min_tree_fills, 1);
}

// A group's members share its rate: three flows on one path count three times on its links.
TEST(WaterFill, AGroupCountsEachMemberOnItsLinks) {
  FluidSolver s({12.0, 100.0});
  const auto a = LinkIds({0}), ab = LinkIds({0, 1});
  for (FlowId f{0}; f < 3; ++f) s.Add(f, s.InternPath(ab), 100, FlowClass{0});
  s.Add(FlowId{3}, s.InternPath(a), 100, FlowClass{0});
  s.Solve();
  for (FlowId f{0}; f < 4; ++f) EXPECT_DOUBLE_EQ(s.Rate(f), 3) << "flow " << f;
  EXPECT_DOUBLE_EQ(s.LinkLoad(LinkId{1}), 9);
}

// Random two-tier-like traffic (mixed path lengths, so no class is dense) matches the
// textbook reference.
TEST(WaterFill, MaxMinMatchesReferenceOnRandomTraffic) {
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
      if (rng.UniformInt(2) == 0)
        p.insert(p.begin() + 1, LinkId{2 * servers + static_cast<int32_t>(rng.UniformInt(2))});
      s.Add(f, s.InternPath(p), 1000, FlowClass{0});
      paths.push_back(p);
    }
    s.Solve();
    EXPECT_EQ(s.fill_stats().dense_fills, 0);
    const auto expected = ReferenceMaxMin(capacity, paths);
    for (FlowId f{0}; f < 150; ++f) {
      EXPECT_NEAR(s.Rate(f), expected[f], kRelTolerance * expected[f])
          << "seed " << seed << " flow " << f;
    }
  }
}

// --- WaterFill by itself, on a GroupTable built by hand ---

// Link 0 (10) carries f0 and f1, link 1 (4) carries f1 and f2. Link 1's share, 4/2 = 2, is the
// smaller: f1 = f2 = 2 and link 1 is that level; link 0 then has 10 - 2 = 8 for f0 alone.
TEST(WaterFill, PartFreezesTheSmallestShareFirst) {
  PartTable p({10.0, 4.0});
  p.Add(0, {0});
  p.Add(1, {0, 1});
  p.Add(2, {1});
  rates::WaterFill fill(2);
  fill.Fill(p.t, p.residual, p.Class(FlowClass{0}).groups, /*add=*/false);
  EXPECT_DOUBLE_EQ(p.Rate(0), 8);
  EXPECT_DOUBLE_EQ(p.Rate(1), 2);
  EXPECT_DOUBLE_EQ(p.Rate(2), 2);
  EXPECT_DOUBLE_EQ(fill.level(LinkId{1}), 2);
  EXPECT_DOUBLE_EQ(fill.level(LinkId{0}), 8);
  EXPECT_EQ(p.residual, std::vector<double>({0, 0}));
  EXPECT_EQ(fill.fills(), 1);
  EXPECT_EQ(fill.min_tree_fills(), 0);  // 2 links for 3 groups: the scan
}

// A link of capacity 0 is every crossing group's bottleneck at share 0: f0 (links 0 and 1)
// gets 0 and takes nothing of link 1 (6), which f1 then has alone.
TEST(WaterFill, PartGivesNothingAcrossALinkOfNoCapacity) {
  PartTable p({0.0, 6.0});
  p.Add(0, {0, 1});
  p.Add(1, {1});
  rates::WaterFill fill(2);
  fill.Fill(p.t, p.residual, p.Class(FlowClass{0}).groups, /*add=*/false);
  EXPECT_EQ(p.Rate(0), 0);
  EXPECT_DOUBLE_EQ(p.Rate(1), 6);
  EXPECT_EQ(fill.level(LinkId{0}), 0);
  EXPECT_EQ(p.residual, std::vector<double>({0, 0}));
}

// Flows that share no link each take the whole of their own: 3, 5 and 7. An empty list of
// groups changes nothing.
TEST(WaterFill, PartGivesFlowsSharingNoLinkTheirWholeLinks) {
  PartTable p({3.0, 5.0, 7.0});
  p.Add(0, {0});
  p.Add(1, {1});
  p.Add(2, {2});
  rates::WaterFill fill(3);
  fill.Fill(p.t, p.residual, {}, /*add=*/false);
  EXPECT_EQ(p.residual, p.capacity);
  EXPECT_EQ(p.Rate(0), 0);
  fill.Fill(p.t, p.residual, p.Class(FlowClass{0}).groups, /*add=*/false);
  EXPECT_DOUBLE_EQ(p.Rate(0), 3);
  EXPECT_DOUBLE_EQ(p.Rate(1), 5);
  EXPECT_DOUBLE_EQ(p.Rate(2), 7);
  EXPECT_EQ(p.residual, std::vector<double>({0, 0, 0}));
}

// Equal demands in one group: f0-f2 on one path (links 0 and 1) are one group of three members,
// f3 is alone on link 0 (12): four members there, 12/4 = 3 each; link 1 (100) keeps 100 - 3·3.
TEST(WaterFill, PartCountsEveryMemberOfAGroup) {
  PartTable p({12.0, 100.0});
  for (int f = 0; f < 3; ++f) p.Add(f, {0, 1});
  p.Add(3, {0});
  ASSERT_EQ(p.t.live_group_count, 2);
  rates::WaterFill fill(2);
  fill.Fill(p.t, p.residual, p.Class(FlowClass{0}).groups, /*add=*/false);
  for (int f = 0; f < 4; ++f) EXPECT_DOUBLE_EQ(p.Rate(f), 3) << f;
  EXPECT_EQ(p.residual, std::vector<double>({0, 91}));
}

// The backfill adds to the rates already set: f0 has 2 (an explicit rate served before, which
// left 8 of link 0) and gains the 8 left; f1 (link 1 alone, 5) had none and gains 5.
TEST(WaterFill, PartAddsToTheRatesAlreadySetWhenBackfilling) {
  PartTable p({10.0, 5.0});
  p.Add(0, {0});
  p.Add(1, {1});
  p.t.SetRate(p.Group(0), 2);
  p.residual[0] = 8;
  rates::WaterFill fill(2);
  fill.Fill(p.t, p.residual, p.Class(FlowClass{0}).groups, /*add=*/true);
  EXPECT_DOUBLE_EQ(p.Rate(0), 10);
  EXPECT_DOUBLE_EQ(p.Rate(1), 5);
  EXPECT_EQ(p.residual, std::vector<double>({0, 0}));
}

// Few groups over many links (3 over 10: 10² > 8·3) take the min-tree. A crosses links 0-4, B
// 4-8, C 8-9; all 100 but link 4 (6) and link 8 (3). Link 8's share 3/2 = 1.5 is the smallest:
// B = C = 1.5; link 4 then has 6 - 1.5 = 4.5 for A; link 0 keeps 100 - 4.5.
TEST(WaterFill, PartFindsTheBottlenecksOfFewGroupsWithTheMinTree) {
  std::vector<double> capacity(10, 100.0);
  capacity[4] = 6;
  capacity[8] = 3;
  PartTable p(capacity);
  p.Add(0, {0, 1, 2, 3, 4});
  p.Add(1, {4, 5, 6, 7, 8});
  p.Add(2, {8, 9});
  rates::WaterFill fill(10);
  fill.Fill(p.t, p.residual, p.Class(FlowClass{0}).groups, /*add=*/false);
  EXPECT_EQ(fill.min_tree_fills(), 1);
  EXPECT_DOUBLE_EQ(p.Rate(0), 4.5);
  EXPECT_DOUBLE_EQ(p.Rate(1), 1.5);
  EXPECT_DOUBLE_EQ(p.Rate(2), 1.5);
  EXPECT_DOUBLE_EQ(fill.level(LinkId{8}), 1.5);
  EXPECT_DOUBLE_EQ(fill.level(LinkId{4}), 4.5);
  EXPECT_EQ(fill.level(LinkId{0}), kForever);  // not a bottleneck
  EXPECT_DOUBLE_EQ(p.residual[0], 95.5);
  EXPECT_DOUBLE_EQ(p.residual[4], 0);
  EXPECT_DOUBLE_EQ(p.residual[9], 98.5);
}

}  // namespace
}  // namespace slotflow
