#include "metrics/student_t.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace slotflow {
namespace {

// Closed forms: df 1 is the Cauchy, t = tan(π (p − 1/2)); df 2, t = (2p − 1) / √(2p (1 − p)).
TEST(StudentT, MatchesTheClosedFormsAtOneAndTwoDegreesOfFreedom) {
  for (double p : {0.6, 0.9, 0.975, 0.995}) {
    EXPECT_NEAR(StudentTQuantile(p, 1), std::tan(std::numbers::pi * (p - 0.5)), 1e-9) << p;
    EXPECT_NEAR(StudentTQuantile(p, 2), (2 * p - 1) / std::sqrt(2 * p * (1 - p)), 1e-9) << p;
  }
}

// The two-sided 95 % values of the usual tables, to their four decimals, at any df (not only
// up to 30), and to 1e-8 of an independent computation (SciPy 1.10's t.ppf).
TEST(StudentT, TwoSided95AtAnyDegreesOfFreedom) {
  EXPECT_NEAR(StudentT95(1), 12.7062, 5e-5);
  EXPECT_NEAR(StudentT95(2), 4.3027, 5e-5);
  EXPECT_NEAR(StudentT95(9), 2.2622, 5e-5);
  EXPECT_NEAR(StudentT95(30), 2.0423, 5e-5);
  EXPECT_NEAR(StudentT95(100), 1.9840, 5e-5);
  EXPECT_NEAR(StudentT95(1000), 1.9623, 5e-5);
  const struct {
    double df, t;
  } known[] = {{3, 3.182446305284263},   {4, 2.7764451051977987}, {10, 2.2281388519649385},
               {29, 2.045229642132703},  {31, 2.0395134463964077}, {39, 2.022690911734728},
               {40, 2.0210753829953374}, {100, 1.9839715184496334}, {1e4, 1.960201239890626},
               {1e6, 1.9599663568141066}, {0.5, 164.55767352096103}, {2.5, 3.5746548420118773}};
  for (const auto& k : known) EXPECT_NEAR(StudentT95(k.df), k.t, 1e-8 * k.t) << k.df;
  // Falls towards the normal's 1.959964 as df grows, never below it.
  double last = StudentT95(1);
  for (double df : {2.0, 5.0, 30.0, 31.0, 1e3, 1e5, 1e7}) {
    const double t = StudentT95(df);
    EXPECT_LT(t, last) << df;
    EXPECT_GT(t, 1.959963984540054) << df;
    last = t;
  }
  EXPECT_NEAR(StudentT95(1e7), 1.959963984540054, 1e-6);
}

TEST(StudentT, OtherQuantilesAndTheLowerTail) {
  EXPECT_NEAR(StudentTQuantile(0.995, 5), 4.032142983557536, 1e-8);
  EXPECT_NEAR(StudentTQuantile(0.9, 12), 1.3562173340231976, 1e-8);
  EXPECT_NEAR(StudentTQuantile(0.05, 7), -1.8945786050613054, 1e-8);
  EXPECT_EQ(StudentTQuantile(0.5, 3), 0);
  EXPECT_THROW(StudentTQuantile(1, 3), std::invalid_argument);
  EXPECT_THROW(StudentTQuantile(0.975, 0), std::invalid_argument);
  EXPECT_THROW(StudentTQuantile(0.975, INFINITY), std::invalid_argument);
}

TEST(StudentT, RegularizedIncompleteBeta) {
  EXPECT_NEAR(RegularizedIncompleteBeta(2.5, 0.5, 0.3), 0.01892712407194565, 1e-12);
  EXPECT_NEAR(RegularizedIncompleteBeta(0.5, 0.5, 0.5), 0.5, 1e-12);
  // I_x(3, 4) = Σ_{j=3}^{6} C(6, j) x^j (1 − x)^(6 − j).
  const double x = 0.7;
  const int choose[] = {1, 6, 15, 20, 15, 6, 1};
  double sum = 0;
  for (int j = 3; j <= 6; ++j) sum += choose[j] * std::pow(x, j) * std::pow(1 - x, 6 - j);
  EXPECT_NEAR(RegularizedIncompleteBeta(3, 4, x), sum, 1e-12);
  EXPECT_EQ(RegularizedIncompleteBeta(3, 4, 0), 0);
  EXPECT_EQ(RegularizedIncompleteBeta(3, 4, 1), 1);
}

}  // namespace
}  // namespace slotflow
