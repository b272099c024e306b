// Events (EventSearch): the next completion and the next mark at the current rates, moving time
// forward, and taking the flows that completed or reached their marks.
#include <gtest/gtest.h>

#include <vector>

#include "api/tolerance.h"
#include "rates/fluid_solver.h"
#include "rates/solver_runs.h"

namespace slotflow {
namespace {

using testing::FlowIds;
using testing::LinkIds;

TEST(Events, AdvanceCountsDownToTheNextCompletion) {
  FluidSolver s({2.0});
  const auto l = LinkIds({0});
  s.Add(FlowId{0}, s.InternPath(l), 10, FlowClass{0});
  s.Solve();
  EXPECT_DOUBLE_EQ(s.NextCompletionIn(), 5);
  s.Advance(2);
  EXPECT_DOUBLE_EQ(s.NextCompletionIn(), 3);
  EXPECT_DOUBLE_EQ(s.Remaining(FlowId{0}), 6);
  std::vector<FlowId> out;
  s.Advance(0);  // just checks
  s.PopCompleted(out);
  EXPECT_TRUE(out.empty());
  s.Advance(3);
  EXPECT_EQ(s.NextCompletionIn(), 0);
  s.PopCompleted(out);
  EXPECT_EQ(out, FlowIds({0}));
  EXPECT_FALSE(s.Active(FlowId{0}));
  EXPECT_EQ(s.Remaining(FlowId{0}), 0);
  EXPECT_EQ(s.Rate(FlowId{0}), 0);
  s.Solve();
  EXPECT_EQ(s.NextCompletionIn(), kForever);
}

// A flow is done when what is left of it is within kRelTolerance of its size.
TEST(Events, AFlowWithinTheToleranceOfItsSizeIsDone) {
  for (const double left : {0.5, 2.0}) {  // in kRelTolerance of the size
    FluidSolver s({1.0});
    const auto l = LinkIds({0});
    s.Add(FlowId{0}, s.InternPath(l), 1000, FlowClass{0});
    s.Solve();
    s.Advance(1000 * (1 - left * kRelTolerance));
    std::vector<FlowId> out;
    s.PopCompleted(out);
    EXPECT_EQ(out.size(), left < 1 ? 1u : 0u) << left;
  }
}

TEST(Events, SimultaneousCompletionsComeOutTogetherInIdOrder) {
  FluidSolver s({2.0, 2.0});
  const auto a = LinkIds({0}), b = LinkIds({1});
  s.Add(FlowId{1}, s.InternPath(b), 4, FlowClass{0});
  s.Add(FlowId{0}, s.InternPath(a), 4, FlowClass{0});
  s.Solve();
  s.Advance(s.NextCompletionIn());
  std::vector<FlowId> out;
  s.PopCompleted(out);
  EXPECT_EQ(out, FlowIds({0, 1}));
  EXPECT_EQ(s.ActiveFlowCount(), 0);
}

// Marks: the earliest byte mark at current rates, taken once reached, kept (in bytes sent)
// when a flow moves to another class, and gone when the flow completes.
TEST(Events, MarksAreReachedAtTheirBytesSentAndFollowClassChanges) {
  FluidSolver s({10.0});
  const auto l = LinkIds({0});
  const PathId p = s.InternPath(l);
  s.Add(FlowId{0}, p, 20, FlowClass{0});
  s.Add(FlowId{1}, p, 40, FlowClass{0});
  s.SetMark(FlowId{0}, 10);
  s.SetMark(FlowId{1}, 5);
  s.Solve();                            // 5 each
  EXPECT_DOUBLE_EQ(s.NextMarkIn(), 1);  // flow 1 reaches 5 sent at 1
  s.Advance(0.5);
  std::vector<FlowId> out;
  s.TakeMarked(out);
  EXPECT_TRUE(out.empty());
  EXPECT_DOUBLE_EQ(s.NextMarkIn(), 0.5);
  s.Advance(0.5);
  s.TakeMarked(out);
  EXPECT_EQ(out, FlowIds({1}));
  s.Solve();
  EXPECT_DOUBLE_EQ(s.NextMarkIn(), 1);  // flow 0: 5 sent, its mark at 10, 5/s
  // Flow 0 moves behind flow 1 with 5 sent; its mark (10 sent) stays: flow 1 takes the link
  // until it ends at 1 + 35/10 = 4.5, then flow 0 needs 5 more bytes at 10/s → 5.
  s.SetClass(FlowId{0}, FlowClass{1});
  s.Solve();
  EXPECT_DOUBLE_EQ(s.NextCompletionIn(), 3.5);
  EXPECT_EQ(s.NextMarkIn(), kForever);  // flow 0 has rate 0
  s.Advance(3.5);
  out.clear();
  s.PopCompleted(out);
  EXPECT_EQ(out, FlowIds({1}));
  s.Solve();
  EXPECT_DOUBLE_EQ(s.NextMarkIn(), 0.5);
  s.Advance(0.5);
  out.clear();
  s.TakeMarked(out);
  EXPECT_EQ(out, FlowIds({0}));
  // A new mark, then completion clears it.
  s.SetMark(FlowId{0}, 19);
  s.Solve();
  EXPECT_DOUBLE_EQ(s.NextMarkIn(), 0.9);
  s.ClearMark(FlowId{0});
  s.Solve();
  EXPECT_EQ(s.NextMarkIn(), kForever);
  s.SetMark(FlowId{0}, 20);
  s.Solve();
  s.Advance(s.NextCompletionIn());
  out.clear();
  s.PopCompleted(out);
  EXPECT_EQ(out, FlowIds({0}));
  s.Solve();
  EXPECT_EQ(s.NextMarkIn(), kForever);
}

// The search for events skips blocks of groups that all have rate 0. A flow that is due as it
// joins such a group (here an empty one, behind a higher class that fills the shared link)
// must still complete at once, and a mark due as it is set must still be reported.
TEST(Events, DueFlowsAndMarksInGroupsWithoutRateAreFound) {
  std::vector<double> capacity(41, 100.0);
  FluidSolver s(capacity);
  const auto shared = LinkIds({0});
  s.Add(FlowId{0}, s.InternPath(shared), 1e6,
        FlowClass{0});                             // class 0 takes all of link 0 for 10,000 s
  for (int k = 1; k <= 40; ++k) {                  // 40 class-1 groups behind it, rate 0
    const auto path = LinkIds({0, k});
    s.Add(FlowId{k}, s.InternPath(path), 500, FlowClass{1});
  }
  s.Solve();
  ASSERT_EQ(s.Rate(FlowId{30}), 0);
  ASSERT_DOUBLE_EQ(s.NextCompletionIn(), 1e4);
  s.Advance(10);

  const auto path30 = LinkIds({0, 30});
  s.Add(FlowId{41}, s.InternPath(path30), 0, FlowClass{1});
  s.Solve();
  EXPECT_EQ(s.NextCompletionIn(), 0);
  s.Advance(0);
  std::vector<FlowId> out;
  s.PopCompleted(out);
  EXPECT_EQ(out, FlowIds({41}));

  s.SetMark(FlowId{20}, 0);  // at 0 bytes sent: reached already, at rate 0
  s.Solve();
  EXPECT_EQ(s.NextMarkIn(), 0);
  s.Advance(0);
  out.clear();
  s.TakeMarked(out);
  EXPECT_EQ(out, FlowIds({20}));
}

// A mark found reached by Advance is taken by TakeMarked even when a solve in between repacked
// the group ids (the marked group moved to a lower id).
TEST(Events, MarksFoundBeforeARepackAreStillTaken) {
  const int n = 100;
  FluidSolver s(std::vector<double>(n, 1.0));
  for (int i = 0; i < n; ++i) {  // flow i alone on link i
    const auto path = LinkIds({i});
    s.Add(FlowId{i}, s.InternPath(path), i < 30 ? 0.5 : 1000,
          FlowClass{0});  // flows 0-29 done at 0.5
  }
  s.SetMark(FlowId{99}, 0.5);  // the highest id, reached at 0.5 too
  s.Solve();
  EXPECT_DOUBLE_EQ(s.NextMarkIn(), 0.5);
  s.Advance(0.5);
  std::vector<FlowId> out;
  s.PopCompleted(out);
  EXPECT_EQ(out.size(), 30u);
  s.Solve();  // 70 live of 100 ids: repacked, group 99 moves
  out.clear();
  s.TakeMarked(out);
  EXPECT_EQ(out, FlowIds({99}));
  s.Solve();
  EXPECT_EQ(s.NextMarkIn(), kForever);
  EXPECT_DOUBLE_EQ(s.NextCompletionIn(), 999.5);
}

}  // namespace
}  // namespace slotflow
