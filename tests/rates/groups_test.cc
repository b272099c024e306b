// Flows and groups (GroupTable): which flows share a group, flows moving between groups with
// their remaining bytes, and group ids reused and repacked.
#include "rates/groups.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "rates/fluid_solver.h"
#include "rates/part_tables.h"
#include "rates/solver_runs.h"

namespace slotflow {
namespace {

using testing::LinkIds;
using testing::PartTable;
using testing::RunToCompletion;

TEST(Groups, GroupedFlowsOnOnePathFinishBySize) {
  FluidSolver s({6.0});
  const auto l = LinkIds({0});
  const PathId p = s.InternPath(l);
  s.Add(FlowId{0}, p, 6, FlowClass{0});
  s.Add(FlowId{1}, p, 2, FlowClass{0});
  s.Add(FlowId{2}, p, 4, FlowClass{0});
  s.Solve();
  EXPECT_EQ(s.ActiveGroupCount(), 1);
  const auto done = RunToCompletion(s, 3);
  EXPECT_DOUBLE_EQ(done[1], 1);              // 2 bytes at 2 each
  EXPECT_NEAR(done[2], 1 + 2.0 / 3, 1e-12);  // its last 2 bytes at 3
  EXPECT_NEAR(done[0], 2, 1e-12);            // 2 at 2, 2 at 3, its last 2 alone at 6
}

// Flows share a group only with the same path and class and no explicit rate; a flow with an
// explicit rate is a group of its own, and joins the shared one again when it is cleared.
TEST(Groups, FlowsShareAGroupOnlyOnTheSamePathInTheSameClass) {
  FluidSolver s({10.0, 10.0});
  const auto a = LinkIds({0}), b = LinkIds({1});
  const PathId pa = s.InternPath(a), pb = s.InternPath(b);
  s.Add(FlowId{0}, pa, 100, FlowClass{0});
  s.Add(FlowId{1}, pa, 100, FlowClass{0});
  s.Add(FlowId{2}, pa, 100, FlowClass{0});
  EXPECT_EQ(s.ActiveGroupCount(), 1);
  s.Add(FlowId{3}, pa, 100, FlowClass{1});
  s.Add(FlowId{4}, pb, 100, FlowClass{0});
  EXPECT_EQ(s.ActiveGroupCount(), 3);
  s.SetExplicitRate(FlowId{0}, 1);
  s.SetExplicitRate(FlowId{1}, 2);
  EXPECT_EQ(s.ActiveGroupCount(), 5);
  s.SetExplicitRate(FlowId{0}, 3);  // a new rate, the same group
  EXPECT_EQ(s.ActiveGroupCount(), 5);
  s.SetExplicitRate(FlowId{0}, -1);
  s.SetExplicitRate(FlowId{1}, -1);
  EXPECT_EQ(s.ActiveGroupCount(), 3);
  s.SetClass(FlowId{3}, FlowClass{0});
  EXPECT_EQ(s.ActiveGroupCount(), 2);
  EXPECT_EQ(s.ActiveFlowCount(), 5);
  s.Solve();
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{3}), 2.5);  // four flows on a
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{4}), 10);
}

TEST(Groups, ChangingClassKeepsRemainingBytes) {
  FluidSolver s({10.0});
  const auto l = LinkIds({0});
  const PathId p = s.InternPath(l);
  s.Add(FlowId{0}, p, 20, FlowClass{0});
  s.Add(FlowId{1}, p, 20, FlowClass{0});
  s.Solve();
  s.Advance(1);  // each has 15 left
  EXPECT_DOUBLE_EQ(s.Remaining(FlowId{0}), 15);
  s.SetClass(FlowId{0}, FlowClass{5});
  EXPECT_DOUBLE_EQ(s.Remaining(FlowId{0}), 15);
  s.Solve();
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{1}), 10);
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{0}), 0);
  EXPECT_DOUBLE_EQ(s.NextCompletionIn(), 1.5);
}

TEST(Groups, GainingAndLosingAnExplicitRateKeepsRemainingBytes) {
  FluidSolver s({10.0});
  const auto l = LinkIds({0});
  const PathId p = s.InternPath(l);
  s.Add(FlowId{0}, p, 20, FlowClass{0});
  s.Add(FlowId{1}, p, 20, FlowClass{0});
  s.Solve();
  s.Advance(1);  // each has 15 left
  s.SetExplicitRate(FlowId{0}, 2);
  EXPECT_DOUBLE_EQ(s.Remaining(FlowId{0}), 15);
  s.Solve();
  s.Advance(1);  // flow 0 at 2 (nothing left to backfill), flow 1 at 8
  EXPECT_DOUBLE_EQ(s.Remaining(FlowId{0}), 13);
  EXPECT_DOUBLE_EQ(s.Remaining(FlowId{1}), 7);
  s.SetExplicitRate(FlowId{0}, -1);
  EXPECT_DOUBLE_EQ(s.Remaining(FlowId{0}), 13);
}

TEST(Groups, AnActiveFlowCannotBeAddedAgain) {
  FluidSolver s({1.0});
  const auto l = LinkIds({0});
  const PathId p = s.InternPath(l);
  s.Add(FlowId{0}, p, 1, FlowClass{0});
  EXPECT_THROW(s.Add(FlowId{0}, p, 1, FlowClass{0}), std::logic_error);
  EXPECT_FALSE(s.Active(FlowId{1}));  // never added
  EXPECT_TRUE(s.Active(FlowId{0}));
}

// 100 flows, each alone on its own link of capacity 1, flow i of i + 1 bytes: they complete one
// a second, lowest id first, while the live groups are the highest ids, so the ids are repacked
// again and again (more than a ninth dead) on the way; every completion still comes on time.
TEST(Groups, RepackedGroupIdsKeepRatesAndCompletions) {
  const int n = 100;
  FluidSolver s(std::vector<double>(n, 1.0));
  for (int i = 0; i < n; ++i) {  // flow i alone on link i
    const auto path = LinkIds({i});
    s.Add(FlowId{i}, s.InternPath(path), i + 1, FlowClass{0});
  }
  EXPECT_EQ(s.ActiveGroupCount(), n);
  const auto done = RunToCompletion(s, n);
  for (int f = 0; f < n; ++f) EXPECT_DOUBLE_EQ(done[f], f + 1) << "flow " << f;
}

// Ids freed by completions are reused lowest first, and a repack in the middle of a history
// leaves the rates a fresh solver gives.
TEST(Groups, RatesAfterARepackMatchAFreshSolve) {
  const int n = 80;
  std::vector<double> capacity(n + 1, 1.0);
  capacity[n] = 40;  // a shared link, 40 for 80 flows
  FluidSolver s(capacity);
  for (int i = 0; i < n; ++i) {  // flow i on link i and the shared link
    const auto path = LinkIds({i, n});
    s.Add(FlowId{i}, s.InternPath(path), i < 60 ? 0.25 : 1000, FlowClass{0});
  }
  s.Solve();
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{0}), 0.5);
  s.Advance(s.NextCompletionIn());
  std::vector<FlowId> out;
  s.PopCompleted(out);
  ASSERT_EQ(out.size(), 60u);
  s.Solve();  // 20 live of 80 ids: repacked
  for (FlowId f{60}; f < n; ++f) EXPECT_DOUBLE_EQ(s.Rate(f), 1) << "flow " << f;
  EXPECT_EQ(s.ActiveGroupCount(), 20);
  EXPECT_DOUBLE_EQ(s.LinkLoad(LinkId{n}), 20);
}

// --- GroupTable by itself ---

// Groups are keyed by (path, class): f0 and f1 on path A in class 0 are one group of two
// members; f2 on A in class 1, f3 on B in class 0 and f4, given an explicit rate, are groups of
// their own. Class 0 lists two groups, class 1 one; the explicit list one.
TEST(Groups, PartKeysGroupsByPathAndClass) {
  PartTable p({10.0, 10.0});
  p.Add(0, {0});
  p.Add(1, {0});
  p.Add(2, {0}, 100, /*cls=*/FlowClass{1});
  p.Add(3, {1});
  p.Add(4, {0});
  EXPECT_EQ(p.Group(4), p.Group(0));
  p.t.SetExplicitRate(FlowId{4}, 2);
  EXPECT_EQ(p.Group(1), p.Group(0));
  EXPECT_EQ(p.t.count[p.Group(0)], 2);
  EXPECT_NE(p.Group(2), p.Group(0));
  EXPECT_NE(p.Group(3), p.Group(0));
  EXPECT_NE(p.Group(4), p.Group(0));
  EXPECT_EQ(p.t.live_group_count, 4);
  EXPECT_EQ(p.t.active_flows, 5);
  EXPECT_EQ(p.Class(FlowClass{0}).groups.size(), 2u);
  EXPECT_EQ(p.Class(FlowClass{1}).groups.size(), 1u);
  EXPECT_EQ(p.t.explicit_groups, std::vector<int32_t>{p.Group(4)});
  EXPECT_EQ(p.t.explicit_rate[p.Group(4)], 2);
  EXPECT_TRUE(p.t.dirty);
}

// A group's members share its rate and its service: f0 (10 bytes) and f1 (4) in one group at 2
// for 1.5 s have each received 3: 7 and 1 left. f2 (5) joining now has all 5 left. The rate
// goes to 4 from now on: after 0.5 s more each member has 2 more (f0 5 left, f2 3). Moving f0 to
// class 1 takes its 5 bytes left to a group of rate 0.
TEST(Groups, PartCountsEachMembersBytesFromItsGroupsService) {
  PartTable p({10.0});
  p.Add(0, {0}, 10);
  p.Add(1, {0}, 4);
  const int32_t g = p.Group(0);
  p.t.SetRate(g, 2);
  p.t.pending = 1.5;
  EXPECT_DOUBLE_EQ(p.t.ServiceNow(g), 3);
  EXPECT_DOUBLE_EQ(p.t.Remaining(FlowId{0}), 7);
  EXPECT_DOUBLE_EQ(p.t.Remaining(FlowId{1}), 1);
  p.Add(2, {0}, 5);
  EXPECT_EQ(p.Group(2), g);
  EXPECT_DOUBLE_EQ(p.t.Remaining(FlowId{2}), 5);
  p.t.SetRate(g, 4);
  EXPECT_DOUBLE_EQ(p.t.Remaining(FlowId{0}), 7);  // the time so far stays at the old rate
  p.t.pending = 2;
  EXPECT_DOUBLE_EQ(p.Rate(0), 4);
  EXPECT_DOUBLE_EQ(p.Rate(2), 4);
  EXPECT_DOUBLE_EQ(p.t.Remaining(FlowId{0}), 5);
  EXPECT_DOUBLE_EQ(p.t.Remaining(FlowId{2}), 3);
  p.t.SetClass(FlowId{0}, FlowClass{1});
  EXPECT_NE(p.Group(0), g);
  EXPECT_EQ(p.Rate(0), 0);
  EXPECT_DOUBLE_EQ(p.t.Remaining(FlowId{0}), 5);
  EXPECT_EQ(p.t.count[g], 2);
}

// A class whose last flow leaves is no longer listed, and the highest class changed since the
// last solve is the lowest class number touched: moving f1 from class 3 to class 2 empties
// class 3 and makes class 2.
TEST(Groups, PartDropsAClassWithNoFlowsLeft) {
  PartTable p({10.0});
  p.Add(0, {0}, 10, /*cls=*/FlowClass{5});
  p.Add(1, {0}, 10, /*cls=*/FlowClass{3});
  p.t.dirty_from = rates::kNoDirtyClass;  // as after a solve
  p.t.SetClass(FlowId{1}, FlowClass{2});
  EXPECT_EQ(p.t.class_ids.count(FlowClass{3}), 0u);
  EXPECT_EQ(p.t.class_ids.count(FlowClass{2}), 1u);
  EXPECT_EQ(p.t.class_ids.size(), 2u);
  EXPECT_EQ(p.t.dirty_from, 2);
  EXPECT_EQ(p.t.live_group_count, 2);
}

// The dense shape: every two-link path's first link is a row and its second a column, in the
// order they appear; a link first on one path and second on another, or a path of another
// length, leaves the class with no dense shape.
TEST(Groups, PartShapesTwoLinkPathsIntoRowsAndColumns) {
  PartTable p({1.0, 1.0, 1.0, 1.0});
  p.Add(0, {1, 3});
  p.Add(1, {0, 2});
  p.Add(2, {1, 2});
  const rates::DenseShape& shape = p.t.shape;
  EXPECT_EQ(shape.row_link, LinkIds({1, 0}));
  EXPECT_EQ(shape.col_link, LinkIds({3, 2}));
  EXPECT_TRUE(shape.TwoLinkShape(p.t.live_group_count));
  p.Add(3, {0});
  EXPECT_FALSE(shape.TwoLinkShape(p.t.live_group_count));
  p.t.SetClass(FlowId{3}, FlowClass{1});  // still one path of one link
  EXPECT_FALSE(shape.TwoLinkShape(p.t.live_group_count));
  PartTable q({1.0, 1.0, 1.0});
  q.Add(0, {0, 1});
  q.Add(1, {1, 2});  // link 1 is a column, then a row
  EXPECT_TRUE(q.t.shape.shared);
  EXPECT_FALSE(q.t.shape.TwoLinkShape(q.t.live_group_count));
}

}  // namespace
}  // namespace slotflow
