#include "rates/fluid_solver.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

#include "common/random.h"
#include "common/tolerance.h"

namespace slotflow {
namespace {

// Runs the solver until every flow completes; returns completion time per flow id.
std::vector<double> RunToCompletion(FluidSolver& s, int flows) {
  std::vector<double> done(flows, -1);
  double now = 0;
  std::vector<FlowId> out;
  s.Solve();
  while (s.ActiveFlowCount() > 0) {
    const double dt = s.NextCompletionIn();
    EXPECT_LT(dt, 1e9) << "starved flows";
    if (dt >= 1e9) break;
    s.Advance(dt);
    now += dt;
    out.clear();
    s.PopCompleted(out);
    for (FlowId f : out) done[f] = now;
    s.Solve();
  }
  return done;
}

TEST(FluidSolver, TwoFlowsShareALinkThenTheSurvivorTakesItAll) {
  FluidSolver s({10.0});
  const LinkId l[] = {0};
  const PathId p = s.InternPath(l);
  s.Add(0, p, 10, 0);
  s.Add(1, p, 30, 0);
  s.Solve();
  EXPECT_DOUBLE_EQ(s.Rate(0), 5);
  EXPECT_DOUBLE_EQ(s.Rate(1), 5);
  const auto done = RunToCompletion(s, 2);
  EXPECT_DOUBLE_EQ(done[0], 2);  // 10 bytes at 5
  EXPECT_DOUBLE_EQ(done[1], 4);  // 10 sent by t=2, then 20 at 10
}

// Link A (10) carries f0 and f1; link B (4) carries f1 and f2. Splitting each link equally
// would give f0 5; max-min fixes B first (2 each) and gives f0 the remaining 8.
TEST(FluidSolver, MultiBottleneckMaxMinDiffersFromEqualSplit) {
  FluidSolver s({10.0, 4.0});
  const LinkId a[] = {0}, ab[] = {0, 1}, b[] = {1};
  s.Add(0, s.InternPath(a), 100, 0);
  s.Add(1, s.InternPath(ab), 100, 0);
  s.Add(2, s.InternPath(b), 100, 0);
  s.Solve();
  EXPECT_DOUBLE_EQ(s.Rate(0), 8);
  EXPECT_DOUBLE_EQ(s.Rate(1), 2);
  EXPECT_DOUBLE_EQ(s.Rate(2), 2);
  EXPECT_DOUBLE_EQ(s.LinkLoad(0), 10);
  EXPECT_DOUBLE_EQ(s.LinkLoad(1), 4);
}

// Three-level water filling: uplinks u0 (6), u1 (10); downlink d (9).
// f0: u0→d, f1: u1→d, f2: u1 only, f3: u0 only... d's fair share 4.5 is the tightest for
// f0/f1? u0 has f0,f3 → share 3; so f0 = f3 = 3, then d has 6 left for f1, u1 leaves 4 for f2
// vs f1: u1 share = 10/2 = 5 < 6 → f1 = f2 = 5.
TEST(FluidSolver, ProgressiveFillingFreezesBottlenecksInOrder) {
  FluidSolver s({6.0, 10.0, 9.0});
  const LinkId p0[] = {0, 2}, p1[] = {1, 2}, p2[] = {1}, p3[] = {0};
  s.Add(0, s.InternPath(p0), 50, 0);
  s.Add(1, s.InternPath(p1), 50, 0);
  s.Add(2, s.InternPath(p2), 50, 0);
  s.Add(3, s.InternPath(p3), 50, 0);
  s.Solve();
  EXPECT_DOUBLE_EQ(s.Rate(0), 3);
  EXPECT_DOUBLE_EQ(s.Rate(3), 3);
  EXPECT_DOUBLE_EQ(s.Rate(1), 5);
  EXPECT_DOUBLE_EQ(s.Rate(2), 5);
}

TEST(FluidSolver, StrictPriorityAcrossClasses) {
  FluidSolver s({10.0});
  const LinkId l[] = {0};
  const PathId p = s.InternPath(l);
  s.Add(0, p, 20, 1);  // low priority, starts first
  s.Add(1, p, 10, 0);  // high priority
  s.Solve();
  EXPECT_DOUBLE_EQ(s.Rate(1), 10);
  EXPECT_DOUBLE_EQ(s.Rate(0), 0);
  const auto done = RunToCompletion(s, 2);
  EXPECT_DOUBLE_EQ(done[1], 1);
  EXPECT_DOUBLE_EQ(done[0], 3);
}

// A high-priority flow bottlenecked elsewhere leaves the rest of a shared link to lower classes.
TEST(FluidSolver, LowerClassGetsWhatHigherClassCannotUse) {
  FluidSolver s({10.0, 4.0});
  const LinkId ab[] = {0, 1}, a[] = {0};
  s.Add(0, s.InternPath(ab), 100, 0);
  s.Add(1, s.InternPath(a), 100, 1);
  s.Solve();
  EXPECT_DOUBLE_EQ(s.Rate(0), 4);
  EXPECT_DOUBLE_EQ(s.Rate(1), 6);
}

TEST(FluidSolver, ExplicitRatesAreServedFirstAndBackfilled) {
  FluidSolver s({10.0, 10.0});
  const LinkId a[] = {0}, b[] = {1};
  s.Add(0, s.InternPath(a), 100, 0);
  s.Add(1, s.InternPath(a), 100, 0);
  s.Add(2, s.InternPath(b), 100, 0);
  s.SetExplicitRate(0, 3);
  s.SetExplicitRate(2, 3);
  s.Solve();
  EXPECT_DOUBLE_EQ(s.Rate(0), 3);  // link a is full after the max-min class fill
  EXPECT_DOUBLE_EQ(s.Rate(1), 7);
  EXPECT_DOUBLE_EQ(s.Rate(2), 10);  // alone on b: 3 explicit + 7 backfilled
  s.SetExplicitRate(0, -1);
  s.Solve();
  EXPECT_DOUBLE_EQ(s.Rate(0), 5);
  EXPECT_DOUBLE_EQ(s.Rate(1), 5);
}

// Explicit rates asking more than a link has are scaled down together, whatever their order:
// on a (capacity 10) 8 + 12 = 20 → half each; flow 1 also crosses b, where it asks 12 of 30.
TEST(FluidSolver, OversubscribedExplicitRatesAreScaledDownTogether) {
  FluidSolver s({10.0, 30.0});
  const LinkId a[] = {0}, ab[] = {0, 1};
  s.Add(0, s.InternPath(a), 100, 0);
  s.Add(1, s.InternPath(ab), 100, 0);
  s.SetExplicitRate(1, 12);
  s.SetExplicitRate(0, 8);
  s.Solve();
  EXPECT_DOUBLE_EQ(s.Rate(0), 4);
  EXPECT_DOUBLE_EQ(s.Rate(1), 6);  // b has room to spare, but the backfill has nothing on a
}

TEST(FluidSolver, GroupedFlowsOnOnePathFinishBySize) {
  FluidSolver s({6.0});
  const LinkId l[] = {0};
  const PathId p = s.InternPath(l);
  s.Add(0, p, 6, 0);
  s.Add(1, p, 2, 0);
  s.Add(2, p, 4, 0);
  s.Solve();
  EXPECT_EQ(s.ActiveGroupCount(), 1);
  const auto done = RunToCompletion(s, 3);
  EXPECT_DOUBLE_EQ(done[1], 1);              // 2 bytes at 2 each
  EXPECT_NEAR(done[2], 1 + 2.0 / 3, 1e-12);  // its last 2 bytes at 3
  EXPECT_NEAR(done[0], 2, 1e-12);            // 2 at 2, 2 at 3, its last 2 alone at 6
}

TEST(FluidSolver, ChangingClassKeepsRemainingBytes) {
  FluidSolver s({10.0});
  const LinkId l[] = {0};
  const PathId p = s.InternPath(l);
  s.Add(0, p, 20, 0);
  s.Add(1, p, 20, 0);
  s.Solve();
  s.Advance(1);  // each has 15 left
  EXPECT_DOUBLE_EQ(s.Remaining(0), 15);
  s.SetClass(0, 5);
  EXPECT_DOUBLE_EQ(s.Remaining(0), 15);
  s.Solve();
  EXPECT_DOUBLE_EQ(s.Rate(1), 10);
  EXPECT_DOUBLE_EQ(s.Rate(0), 0);
  EXPECT_DOUBLE_EQ(s.NextCompletionIn(), 1.5);
}

// Marks: the earliest byte mark at current rates, taken once reached, kept (in bytes sent)
// when a flow moves to another class, and gone when the flow completes.
TEST(FluidSolver, MarksAreReachedAtTheirBytesSentAndFollowClassChanges) {
  FluidSolver s({10.0});
  const LinkId l[] = {0};
  const PathId p = s.InternPath(l);
  s.Add(0, p, 20, 0);
  s.Add(1, p, 40, 0);
  s.SetMark(0, 10);
  s.SetMark(1, 5);
  s.Solve();  // 5 each
  EXPECT_DOUBLE_EQ(s.NextMarkIn(), 1);  // flow 1 reaches 5 sent at 1
  s.Advance(0.5);
  std::vector<FlowId> out;
  s.TakeMarked(out);
  EXPECT_TRUE(out.empty());
  EXPECT_DOUBLE_EQ(s.NextMarkIn(), 0.5);
  s.Advance(0.5);
  s.TakeMarked(out);
  EXPECT_EQ(out, (std::vector<FlowId>{1}));
  s.Solve();
  EXPECT_DOUBLE_EQ(s.NextMarkIn(), 1);  // flow 0: 5 sent, its mark at 10, 5/s
  // Flow 0 moves behind flow 1 with 5 sent; its mark (10 sent) stays: flow 1 takes the link
  // until it ends at 1 + 35/10 = 4.5, then flow 0 needs 5 more bytes at 10/s → 5.
  s.SetClass(0, 1);
  s.Solve();
  EXPECT_DOUBLE_EQ(s.NextCompletionIn(), 3.5);
  EXPECT_EQ(s.NextMarkIn(), kForever);  // flow 0 has rate 0
  s.Advance(3.5);
  out.clear();
  s.PopCompleted(out);
  EXPECT_EQ(out, (std::vector<FlowId>{1}));
  s.Solve();
  EXPECT_DOUBLE_EQ(s.NextMarkIn(), 0.5);
  s.Advance(0.5);
  out.clear();
  s.TakeMarked(out);
  EXPECT_EQ(out, (std::vector<FlowId>{0}));
  // A new mark, then completion clears it.
  s.SetMark(0, 19);
  s.Solve();
  EXPECT_DOUBLE_EQ(s.NextMarkIn(), 0.9);
  s.ClearMark(0);
  s.Solve();
  EXPECT_EQ(s.NextMarkIn(), kForever);
  s.SetMark(0, 20);
  s.Solve();
  s.Advance(s.NextCompletionIn());
  out.clear();
  s.PopCompleted(out);
  EXPECT_EQ(out, (std::vector<FlowId>{0}));
  s.Solve();
  EXPECT_EQ(s.NextMarkIn(), kForever);
}

TEST(FluidSolver, SimultaneousCompletionsComeOutTogetherInIdOrder) {
  FluidSolver s({2.0, 2.0});
  const LinkId a[] = {0}, b[] = {1};
  s.Add(1, s.InternPath(b), 4, 0);
  s.Add(0, s.InternPath(a), 4, 0);
  s.Solve();
  s.Advance(s.NextCompletionIn());
  std::vector<FlowId> out;
  s.PopCompleted(out);
  EXPECT_EQ(out, (std::vector<FlowId>{0, 1}));
  EXPECT_EQ(s.ActiveFlowCount(), 0);
}

// The search for events skips blocks of groups that all have rate 0. A flow that is due as it
// joins such a group (here an empty one, behind a higher class that fills the shared link)
// must still complete at once, and a mark due as it is set must still be reported.
TEST(FluidSolver, DueFlowsAndMarksInGroupsWithoutRateAreFound) {
  std::vector<double> capacity(41, 100.0);
  FluidSolver s(capacity);
  const LinkId shared[] = {0};
  s.Add(0, s.InternPath(shared), 1e6, 0);  // class 0 takes all of link 0 for 10,000 s
  for (LinkId k = 1; k <= 40; ++k) {       // 40 class-1 groups behind it, rate 0
    const LinkId path[] = {0, k};
    s.Add(k, s.InternPath(path), 500, 1);
  }
  s.Solve();
  ASSERT_EQ(s.Rate(30), 0);
  ASSERT_DOUBLE_EQ(s.NextCompletionIn(), 1e4);
  s.Advance(10);

  const LinkId path30[] = {0, 30};
  s.Add(41, s.InternPath(path30), 0, 1);
  s.Solve();
  EXPECT_EQ(s.NextCompletionIn(), 0);
  s.Advance(0);
  std::vector<FlowId> out;
  s.PopCompleted(out);
  EXPECT_EQ(out, std::vector<FlowId>{41});

  s.SetMark(20, 0);  // at 0 bytes sent: reached already, at rate 0
  s.Solve();
  EXPECT_EQ(s.NextMarkIn(), 0);
  s.Advance(0);
  out.clear();
  s.TakeMarked(out);
  EXPECT_EQ(out, std::vector<FlowId>{20});
}

TEST(FluidSolver, SamePathListIsInternedOnce) {
  FluidSolver s({1.0, 1.0, 1.0});
  const LinkId x[] = {0, 2}, y[] = {0, 2}, z[] = {2, 0};
  EXPECT_EQ(s.InternPath(x), s.InternPath(y));
  EXPECT_NE(s.InternPath(x), s.InternPath(z));
}

}  // namespace
}  // namespace slotflow

namespace slotflow {
namespace {

// Textbook progressive filling on individual flows: raise every unfrozen flow's rate equally
// until a link saturates, freeze the flows crossing it, repeat. Slow and obviously right.
std::vector<double> ReferenceMaxMin(const std::vector<double>& capacity,
                                    const std::vector<std::vector<LinkId>>& paths) {
  std::vector<double> rate(paths.size(), 0), used(capacity.size(), 0);
  std::vector<bool> frozen(paths.size(), false);
  for (size_t left = paths.size(); left > 0;) {
    double delta = 1e300;
    for (size_t l = 0; l < capacity.size(); ++l) {
      int n = 0;
      for (size_t f = 0; f < paths.size(); ++f) {
        if (!frozen[f] && std::count(paths[f].begin(), paths[f].end(), static_cast<LinkId>(l))) ++n;
      }
      if (n > 0) delta = std::min(delta, (capacity[l] - used[l]) / n);
    }
    for (size_t f = 0; f < paths.size(); ++f) {
      if (frozen[f]) continue;
      rate[f] += delta;
      for (LinkId l : paths[f]) used[l] += delta;
    }
    for (size_t f = 0; f < paths.size(); ++f) {
      if (frozen[f]) continue;
      for (LinkId l : paths[f]) {
        if (used[l] >= capacity[l] * (1 - 1e-12)) {
          frozen[f] = true;
          --left;
          break;
        }
      }
    }
  }
  return rate;
}

// Random big-switch traffic (two-link paths; enough groups for the dense two-link fill) and
// random two-tier-like traffic (mixed path lengths; the general fill) both match the reference.
class MaxMinMatchesReference : public ::testing::TestWithParam<bool> {};

TEST_P(MaxMinMatchesReference, OnRandomTraffic) {
  const bool two_link_only = GetParam();
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    Rng rng(seed);
    const int servers = 12;
    std::vector<double> capacity;
    for (int l = 0; l < 2 * servers + 2; ++l) capacity.push_back(1 + rng.UniformInt(10));
    FluidSolver s(capacity);
    std::vector<std::vector<LinkId>> paths;
    for (FlowId f = 0; f < 150; ++f) {
      const auto src = static_cast<LinkId>(rng.UniformInt(servers));
      const auto dst = static_cast<LinkId>(rng.UniformInt(servers));
      std::vector<LinkId> p{2 * src, 2 * dst + 1};
      if (!two_link_only && rng.UniformInt(2) == 0)
        p.insert(p.begin() + 1, 2 * servers + rng.UniformInt(2));
      s.Add(f, s.InternPath(p), 1000, 0);
      paths.push_back(p);
    }
    s.Solve();
    const auto expected = ReferenceMaxMin(capacity, paths);
    for (FlowId f = 0; f < 150; ++f) {
      EXPECT_NEAR(s.Rate(f), expected[f], kRelTolerance * expected[f])
          << "seed " << seed << " flow " << f;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Paths, MaxMinMatchesReference, ::testing::Values(true, false),
                         [](const auto& info) { return info.param ? "TwoLink" : "Mixed"; });

// Solve() re-fills only the classes at and below the first one that changed, a dense class is
// re-filled only on the links its changes reach when that is few of them, only the groups on
// links whose level moved are re-rated, and dense states are kept up to date between solves.
// Over a long random history of arrivals, class changes, explicit rates and completions across
// four classes, then completions until nothing is left (classes turn sparse, groups die and
// their ids get repacked), every rate must equal what a fresh solver holding the same flows
// computes from scratch.
class IncrementalSolveMatchesFreshSolve : public ::testing::TestWithParam<bool> {};

TEST_P(IncrementalSolveMatchesFreshSolve, OverARandomHistory) {
  const bool two_link_only = GetParam();
  const int servers = 12;
  std::vector<double> capacity;
  Rng rng(7);
  for (int l = 0; l < 2 * servers + 2; ++l) capacity.push_back(50 + rng.UniformInt(100));
  FluidSolver s(capacity);
  s.SetLocalFillMinLinks(0);  // 24 links: below the default
  std::vector<std::vector<LinkId>> paths;
  std::vector<FlowId> active;
  std::map<FlowId, double> explicit_rate;
  auto add_flows = [&](int n) {
    for (int i = 0; i < n; ++i) {
      const auto f = static_cast<FlowId>(paths.size());
      const auto src = static_cast<LinkId>(rng.UniformInt(servers));
      const auto dst = static_cast<LinkId>(rng.UniformInt(servers));
      std::vector<LinkId> p{2 * src, 2 * dst + 1};
      if (!two_link_only && rng.UniformInt(8) == 0)
        p.insert(p.begin() + 1, 2 * servers + rng.UniformInt(2));
      s.Add(f, s.InternPath(p), 1 + rng.UniformInt(1000), rng.UniformInt(4));
      paths.push_back(p);
      active.push_back(f);
    }
  };
  add_flows(800);
  std::vector<FlowId> done;
  int checked = 0;
  for (int step = 0; !active.empty(); ++step) {
    ASSERT_LT(step, 5000);
    s.Solve();
    FluidSolver fresh(capacity);
    for (FlowId f : active) {
      fresh.Add(f, fresh.InternPath(paths[f]), s.Remaining(f), s.Class(f));
      if (auto e = explicit_rate.find(f); e != explicit_rate.end()) fresh.SetExplicitRate(f, e->second);
    }
    fresh.Solve();
    for (FlowId f : active) {
      // Relative, plus an absolute floor for capacity left over by rounding (~1e-16).
      ASSERT_NEAR(s.Rate(f), fresh.Rate(f), kRelTolerance * (fresh.Rate(f) + 1)) << "step " << step;
      ++checked;
    }
    // Next: a completion, sometimes arrivals or a few class changes.
    s.Advance(s.NextCompletionIn());
    done.clear();
    s.PopCompleted(done);
    std::erase_if(active, [&](FlowId f) { return !s.Active(f); });
    std::erase_if(explicit_rate, [&](const auto& e) { return !s.Active(e.first); });
    if (step % 5 == 0 && step < 300) add_flows(1 + rng.UniformInt(20));
    if (step % 7 == 0) {
      for (int i = 0; i < 5 && !active.empty(); ++i) {
        s.SetClass(active[rng.UniformInt(active.size())], rng.UniformInt(4));
      }
    }
    // Explicit rates for a while (steps 100-199): set on some flows, cleared on others.
    if (step >= 100 && step < 200 && !active.empty()) {
      for (int i = 0; i < 8; ++i) {
        const FlowId f = active[rng.UniformInt(active.size())];
        const double rate = static_cast<double>(rng.UniformInt(20));
        s.SetExplicitRate(f, rate);
        explicit_rate[f] = rate;
      }
    }
    if (step == 200) {
      for (const auto& [f, rate] : explicit_rate) s.SetExplicitRate(f, -1);
      explicit_rate.clear();
    }
    // Then as Varys sets them (steps 220-399): on many flows at once, small enough that no link
    // is oversubscribed, and left alone while flows complete, so the backfill goes on from its
    // last fill.
    if (step >= 220 && step < 400 && step % 30 == 10) {
      for (FlowId f : active) {
        if (rng.UniformInt(5) < 2) {
          const double rate = 0.25 * static_cast<double>(1 + rng.UniformInt(4));
          s.SetExplicitRate(f, rate);
          explicit_rate[f] = rate;
        }
      }
    }
  }
  EXPECT_GT(checked, 100000);
  if (two_link_only) {  // dense classes: both ways of filling them were taken many times
    EXPECT_GT(s.fill_stats().local_fills, 500);
    EXPECT_GT(s.fill_stats().whole_fills, 100);
    EXPECT_GT(s.fill_stats().continued_backfills, 300);
  }
}

INSTANTIATE_TEST_SUITE_P(Paths, IncrementalSolveMatchesFreshSolve, ::testing::Values(true, false),
                         [](const auto& info) { return info.param ? "TwoLink" : "Mixed"; });

}  // namespace
}  // namespace slotflow
