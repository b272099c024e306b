#include "metrics/student_t.h"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace slotflow {
namespace {

// The continued fraction of I_x(a, b) by the modified Lentz method; converges fast for
// x < (a + 1) / (a + b + 2).
double BetaContinuedFraction(double a, double b, double x) {
  constexpr double kTiny = 1e-300, kEps = 1e-16;
  constexpr int kMaxTerms = 100000;
  auto floor_tiny = [](double v) { return std::fabs(v) < kTiny ? kTiny : v; };
  const double qab = a + b, qap = a + 1, qam = a - 1;
  double c = 1, d = 1 / floor_tiny(1 - qab * x / qap), h = d;
  for (int m = 1; m <= kMaxTerms; ++m) {
    const int m2 = 2 * m;
    double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1 / floor_tiny(1 + aa * d);
    c = floor_tiny(1 + aa / c);
    h *= d * c;
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1 / floor_tiny(1 + aa * d);
    c = floor_tiny(1 + aa / c);
    const double step = d * c;
    h *= step;
    if (std::fabs(step - 1) < kEps) return h;
  }
  throw std::runtime_error(
      fmt::format("incomplete beta I_{}({}, {}) did not converge", x, a, b));
}

}  // namespace

double RegularizedIncompleteBeta(double a, double b, double x) {
  if (!(a > 0) || !(b > 0) || !(x >= 0 && x <= 1)) {
    throw std::invalid_argument(fmt::format("incomplete beta I_{}({}, {}) undefined", x, a, b));
  }
  if (x == 0 || x == 1) return x;
  const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) +
                                a * std::log(x) + b * std::log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return front * BetaContinuedFraction(a, b, x) / a;
  return 1 - front * BetaContinuedFraction(b, a, 1 - x) / b;
}

double StudentTQuantile(double p, double df) {
  if (!(p > 0 && p < 1) || !(df > 0) || !std::isfinite(df)) {
    throw std::invalid_argument(
        fmt::format("Student's t quantile needs 0 < p < 1 and df > 0, got p {}, df {}", p, df));
  }
  if (p == 0.5) return 0;
  if (p < 0.5) return -StudentTQuantile(1 - p, df);
  // P(|T| > t) = I_x(df/2, 1/2) with x = df / (df + t²), increasing in x; find the x where it
  // is the two-sided tail 2(1 − p), then t = √(df (1 − x) / x).
  const double tail = 2 * (1 - p);
  double lo = 0, hi = 1;
  for (int i = 0; i < 1100; ++i) {
    const double mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;  // lo and hi adjacent doubles
    (RegularizedIncompleteBeta(df / 2, 0.5, mid) < tail ? lo : hi) = mid;
  }
  const double x = lo + (hi - lo) / 2;
  return std::sqrt(df * (1 - x) / x);
}

}  // namespace slotflow
