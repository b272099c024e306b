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

}  // namespace
}  // namespace slotflow
