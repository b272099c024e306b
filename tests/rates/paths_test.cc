// Paths: interning link lists (PathTable, through FluidSolver::InternPath).
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "rates/fluid_solver.h"
#include "rates/solver_runs.h"

namespace slotflow {
namespace {

using testing::LinkIds;

TEST(Paths, SamePathListIsInternedOnce) {
  FluidSolver s({1.0, 1.0, 1.0});
  const auto x = LinkIds({0, 2}), y = LinkIds({0, 2}), z = LinkIds({2, 0});
  EXPECT_EQ(s.InternPath(x), s.InternPath(y));
  EXPECT_NE(s.InternPath(x), s.InternPath(z));
}

TEST(Paths, IdsAreDenseAndGiveBackTheirLinks) {
  FluidSolver s({1.0, 1.0, 1.0});
  const auto a = LinkIds({1}), b = LinkIds({0, 1, 2});
  const PathId pa = s.InternPath(a), pb = s.InternPath(b);
  EXPECT_EQ(pa, 0);
  EXPECT_EQ(pb, 1);
  EXPECT_EQ(s.InternPath(std::span<const LinkId>()), 2);  // the empty path is a path
  EXPECT_EQ(std::vector<LinkId>(s.PathLinks(pb).begin(), s.PathLinks(pb).end()),
            LinkIds({0, 1, 2}));
  EXPECT_EQ(s.PathLinks(pa).size(), 1u);
  EXPECT_TRUE(s.PathLinks(PathId{2}).empty());
}

// A group keeps at most five links inline; a link id must name one of the solver's links.
TEST(Paths, TooLongPathsAndUnknownLinksAreRefused) {
  FluidSolver s(std::vector<double>(8, 1.0));
  const auto five = LinkIds({0, 1, 2, 3, 4}), six = LinkIds({0, 1, 2, 3, 4, 5});
  EXPECT_NO_THROW(s.InternPath(five));
  EXPECT_THROW(s.InternPath(six), std::logic_error);
  const auto beyond = LinkIds({0, 8}), negative = LinkIds({-1});
  EXPECT_THROW(s.InternPath(beyond), std::logic_error);
  EXPECT_THROW(s.InternPath(negative), std::logic_error);
}

// A path is kept while a flow holds it (from Add until Retire); then it is forgotten and its id
// goes to the next new path. One interned and never held stays.
TEST(Paths, APathNoFlowHoldsIsForgottenAndItsIdUsedAgain) {
  FluidSolver s({1.0, 1.0, 1.0});
  const PathId kept = s.InternPath(LinkIds({2}));
  const PathId p = s.InternPath(LinkIds({0, 1}));
  s.Add(FlowId{0}, p, 1, FlowClass{0});
  s.Add(FlowId{1}, p, 2, FlowClass{0});
  EXPECT_EQ(s.PathCount(), 2u);
  std::vector<FlowId> done;
  s.Solve();
  s.Advance(s.NextCompletionIn());  // flow 0: 1 byte at 0.5 each
  s.PopCompleted(done);
  ASSERT_EQ(done, testing::FlowIds({0}));
  s.Retire(FlowId{0});
  EXPECT_EQ(s.PathCount(), 2u);  // flow 1 still holds it
  EXPECT_EQ(s.InternPath(LinkIds({0, 1})), p);
  s.Solve();
  s.Advance(s.NextCompletionIn());
  done.clear();
  s.PopCompleted(done);
  ASSERT_EQ(done, testing::FlowIds({1}));
  s.Retire(FlowId{1});
  EXPECT_EQ(s.PathCount(), 1u);
  const PathId next = s.InternPath(LinkIds({1, 0}));
  EXPECT_EQ(next, p);  // the forgotten id, with other links
  EXPECT_EQ(std::vector<LinkId>(s.PathLinks(next).begin(), s.PathLinks(next).end()),
            LinkIds({1, 0}));
  EXPECT_EQ(s.InternPath(LinkIds({2})), kept);
  EXPECT_NE(s.InternPath(LinkIds({0, 1})), p);  // new again
}

}  // namespace
}  // namespace slotflow
