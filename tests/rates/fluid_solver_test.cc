// The solver as a whole (FluidSolver): the order of the fills (explicit rates, each class in
// priority order, the backfill), which classes a solve fills again, and every fill against a
// fresh solver over a long random history.
#include "rates/fluid_solver.h"

#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "api/random.h"
#include "api/tolerance.h"
#include "rates/solver_runs.h"

namespace slotflow {
namespace {

using testing::LinkIds;
using testing::RunToCompletion;

TEST(FluidSolver, StrictPriorityAcrossClasses) {
  FluidSolver s({10.0});
  const auto l = LinkIds({0});
  const PathId p = s.InternPath(l);
  s.Add(FlowId{0}, p, 20, FlowClass{1});  // low priority, starts first
  s.Add(FlowId{1}, p, 10, FlowClass{0});  // high priority
  s.Solve();
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{1}), 10);
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{0}), 0);
  const auto done = RunToCompletion(s, 2);
  EXPECT_DOUBLE_EQ(done[1], 1);
  EXPECT_DOUBLE_EQ(done[0], 3);
}

// A high-priority flow bottlenecked elsewhere leaves the rest of a shared link to lower classes.
TEST(FluidSolver, LowerClassGetsWhatHigherClassCannotUse) {
  FluidSolver s({10.0, 4.0});
  const auto ab = LinkIds({0, 1}), a = LinkIds({0});
  s.Add(FlowId{0}, s.InternPath(ab), 100, FlowClass{0});
  s.Add(FlowId{1}, s.InternPath(a), 100, FlowClass{1});
  s.Solve();
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{0}), 4);
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{1}), 6);
}

// The solver's water fills, solves that filled something, and classes filled so far.
void ExpectFills(const FluidSolver& s, int64_t water_fills, int64_t solves, int64_t class_fills) {
  EXPECT_EQ(s.fill_stats().water_fills, water_fills);
  EXPECT_EQ(s.fill_stats().solves, solves);
  EXPECT_EQ(s.fill_stats().class_fills, class_fills);
}

// Classes above the first one that changed keep their rates: a solve fills again only that
// class and the ones below it (each class here is one group, a water fill), and nothing when
// nothing changed. With explicit rates, whose backfill comes after every class, it fills all.
TEST(FluidSolver, OnlyTheFirstChangedClassAndThoseBelowAreFilledAgain) {
  FluidSolver s({10.0, 5.0});
  const auto a = LinkIds({0}), b = LinkIds({1});
  const PathId pa = s.InternPath(a), pb = s.InternPath(b);
  s.Add(FlowId{0}, pa, 100, FlowClass{0});
  s.Add(FlowId{1}, pa, 100, FlowClass{1});
  s.Add(FlowId{2}, pa, 100, FlowClass{2});
  s.Solve();
  ExpectFills(s, 3, 1, 3);
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{0}), 10);
  s.Solve();
  ExpectFills(s, 3, 1, 3);
  s.SetClass(FlowId{2}, FlowClass{3});  // class 2 goes, class 3 comes: only class 3 is filled
  s.Solve();
  ExpectFills(s, 4, 2, 4);
  s.Add(FlowId{3}, pb, 100, FlowClass{1});  // classes 1 and 3
  s.Solve();
  ExpectFills(s, 6, 3, 6);
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{3}), 5);
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{1}), 0);
  s.SetClass(FlowId{0}, FlowClass{1});  // class 0 goes: all of them, now classes 1 and 3
  s.Solve();
  ExpectFills(s, 8, 4, 8);
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{0}), 5);
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{1}), 5);
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{2}), 0);
  s.SetExplicitRate(FlowId{3}, 1);
  s.Solve();  // the explicit rate, classes 1 and 3, and the backfill
  ExpectFills(s, 11, 5, 10);
  s.SetClass(FlowId{2}, FlowClass{4});
  s.Solve();
  ExpectFills(s, 14, 6, 12);
  EXPECT_DOUBLE_EQ(s.Rate(FlowId{3}), 5);
}

// Run to the end, a low class waits for the high one and then takes the link.
TEST(FluidSolver, ALowClassTakesTheLinkWhenTheHighOneCompletes) {
  FluidSolver s({4.0});
  const auto l = LinkIds({0});
  const PathId p = s.InternPath(l);
  s.Add(FlowId{0}, p, 8, FlowClass{1});
  s.Add(FlowId{1}, p, 4, FlowClass{0});
  s.Add(FlowId{2}, p, 4, FlowClass{0});
  const auto done = RunToCompletion(s, 3);
  EXPECT_DOUBLE_EQ(done[1], 2);  // 4 bytes at 2
  EXPECT_DOUBLE_EQ(done[2], 2);
  EXPECT_DOUBLE_EQ(done[0], 4);  // then 8 at 4
}

}  // namespace
}  // namespace slotflow

namespace slotflow {
namespace {

// Solve() re-fills only the classes at and below the first one that changed, a class (dense or
// sparse) is re-filled only on the links its changes reach when that is few of them, only the
// groups on links whose level moved are re-rated, and dense states are kept up to date between
// solves. Over a long random history of arrivals, class changes, explicit rates and completions
// across four classes, then completions until nothing is left (classes turn sparse, groups die and
// their ids get repacked), every rate must equal what a fresh solver holding the same flows
// computes from scratch.
// Paths: two links each (dense classes); one in eight through one of two middle links as well
// (sparse); or half of them through a middle link too wide to fill (sparse, with links that
// are never a bottleneck, as a two-tier cluster's rack links mostly are).
enum class Paths { kTwoLink, kMixed, kWideMiddle };
class IncrementalSolveMatchesFreshSolve : public ::testing::TestWithParam<Paths> {};

TEST_P(IncrementalSolveMatchesFreshSolve, OverARandomHistory) {
  const bool two_link_only = GetParam() == Paths::kTwoLink;
  const bool wide = GetParam() == Paths::kWideMiddle;
  const int servers = 12;
  std::vector<double> capacity;
  Rng rng(7);
  for (int l = 0; l < 2 * servers + 2; ++l) capacity.push_back(50 + rng.UniformInt(100));
  if (wide) capacity[2 * servers] = capacity[2 * servers + 1] = 1e6;
  FluidSolver s(capacity);
  s.SetLocalFillMinLinks(0);  // 24 links: below the default
  s.SetLocalWaterFillMinGroups(0);
  std::vector<std::vector<LinkId>> paths;
  std::vector<FlowId> active;
  std::map<FlowId, double> explicit_rate;
  auto add_flows = [&](int n) {
    for (int i = 0; i < n; ++i) {
      const auto f = static_cast<FlowId>(paths.size());
      const auto src = static_cast<int32_t>(rng.UniformInt(servers));
      const auto dst = static_cast<int32_t>(rng.UniformInt(servers));
      std::vector<LinkId> p = LinkIds({2 * src, 2 * dst + 1});
      if (!two_link_only && rng.UniformInt(wide ? 2 : 8) == 0)
        p.insert(p.begin() + 1, LinkId{2 * servers + static_cast<int32_t>(rng.UniformInt(2))});
      s.Add(f, s.InternPath(p), 1 + rng.UniformInt(1000), FlowClass{rng.UniformInt(4)});
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
      if (auto e = explicit_rate.find(f); e != explicit_rate.end())
        fresh.SetExplicitRate(f, e->second);
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
        s.SetClass(active[rng.UniformInt(active.size())], FlowClass{rng.UniformInt(4)});
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
  } else {  // sparse classes: both ways of filling them were taken many times
    EXPECT_GT(s.fill_stats().local_water_fills, 500);
    EXPECT_GT(s.fill_stats().whole_water_fills, 100);
  }
}

INSTANTIATE_TEST_SUITE_P(Paths, IncrementalSolveMatchesFreshSolve,
                         ::testing::Values(Paths::kTwoLink, Paths::kMixed, Paths::kWideMiddle),
                         [](const auto& info) {
                           return info.param == Paths::kTwoLink ? "TwoLink"
                                  : info.param == Paths::kMixed ? "Mixed"
                                                                : "WideMiddle";
                         });

}  // namespace
}  // namespace slotflow
