#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "run/compare_stats.h"

namespace slotflow {
namespace {

// 1, 2, 3: mean 2, sample standard deviation 1, t(0.975, 2) = 0.95 / √(2 · 0.975 · 0.025) =
// 4.30265: half-width 4.30265 / √3.
TEST(MeanAndCi, UsesStudentsTWithNMinusOneDegreesOfFreedom) {
  const MeanCi m = MeanAndCi({1, 2, 3});
  EXPECT_DOUBLE_EQ(m.mean, 2);
  EXPECT_NEAR(m.ci, 0.95 / std::sqrt(2 * 0.975 * 0.025) / std::sqrt(3.0), 1e-12);
  EXPECT_TRUE(std::isnan(MeanAndCi({5}).ci));  // one seed: no interval, undefined
  EXPECT_DOUBLE_EQ(MeanAndCi({4, 4, 4, 4}).ci, 0);
  // 40 values: t(0.975, 39) = 2.02269, not the normal's 1.96.
  std::vector<double> v;
  for (int i = 0; i < 40; ++i) v.push_back(i % 2);
  const double sd = std::sqrt(40 * 0.25 / 39);
  EXPECT_NEAR(MeanAndCi(v).ci, 2.022690911734728 * sd / std::sqrt(40.0), 1e-9);
}

}  // namespace
}  // namespace slotflow
