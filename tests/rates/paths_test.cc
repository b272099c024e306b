// Paths: interning link lists (PathTable, through FluidSolver::InternPath).
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "rates/fluid_solver.h"

namespace slotflow {
namespace {

TEST(Paths, SamePathListIsInternedOnce) {
  FluidSolver s({1.0, 1.0, 1.0});
  const LinkId x[] = {0, 2}, y[] = {0, 2}, z[] = {2, 0};
  EXPECT_EQ(s.InternPath(x), s.InternPath(y));
  EXPECT_NE(s.InternPath(x), s.InternPath(z));
}

TEST(Paths, IdsAreDenseAndGiveBackTheirLinks) {
  FluidSolver s({1.0, 1.0, 1.0});
  const LinkId a[] = {1}, b[] = {0, 1, 2}, none[] = {0};
  const PathId pa = s.InternPath(a), pb = s.InternPath(b);
  EXPECT_EQ(pa, 0);
  EXPECT_EQ(pb, 1);
  EXPECT_EQ(s.InternPath(std::span<const LinkId>(none, 0)), 2);  // the empty path is a path
  EXPECT_EQ(std::vector<LinkId>(s.PathLinks(pb).begin(), s.PathLinks(pb).end()),
            (std::vector<LinkId>{0, 1, 2}));
  EXPECT_EQ(s.PathLinks(pa).size(), 1u);
  EXPECT_TRUE(s.PathLinks(2).empty());
}

// A group keeps at most five links inline; a link id must name one of the solver's links.
TEST(Paths, TooLongPathsAndUnknownLinksAreRefused) {
  FluidSolver s(std::vector<double>(8, 1.0));
  const LinkId five[] = {0, 1, 2, 3, 4}, six[] = {0, 1, 2, 3, 4, 5};
  EXPECT_NO_THROW(s.InternPath(five));
  EXPECT_THROW(s.InternPath(six), std::logic_error);
  const LinkId beyond[] = {0, 8}, negative[] = {-1};
  EXPECT_THROW(s.InternPath(beyond), std::logic_error);
  EXPECT_THROW(s.InternPath(negative), std::logic_error);
}

}  // namespace
}  // namespace slotflow
