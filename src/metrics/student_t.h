// Student's t distribution: its quantiles, for confidence intervals over seeds (run/compare).
#pragma once

namespace slotflow {

// The p-quantile of Student's t with df > 0 degrees of freedom (any df, not only whole ones),
// 0 < p < 1. Computed, not tabled: the two-sided tail 2(1 − p) is solved for through the
// regularized incomplete beta function, P(|T| > t) = I_{df/(df+t²)}(df/2, 1/2), by bisection
// to double precision (within about 1e-9 of the exact value for df from 0.5 to 10^7). Throws
// std::invalid_argument outside that domain.
double StudentTQuantile(double p, double df);

// The two-sided 95 % quantile, t(0.975, df): 12.706 at df 1, 2.262 at 9, 2.042 at 30, 1.984
// at 100, approaching the normal's 1.95996 as df grows.
inline double StudentT95(double df) { return StudentTQuantile(0.975, df); }

// The regularized incomplete beta function I_x(a, b), a, b > 0, 0 <= x <= 1 (continued
// fraction, Numerical Recipes §6.4).
double RegularizedIncompleteBeta(double a, double b, double x);

}  // namespace slotflow
