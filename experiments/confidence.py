"""Mean and 95 % confidence half-width over seeds, shared by the experiment scripts.

The half-width is Student's t with n − 1 degrees of freedom, computed for any df as slotflow's
`compare` computes it (src/metrics/student_t.cc): the two-sided tail is solved for through the
regularized incomplete beta function, P(|T| > t) = I_{df/(df+t²)}(df/2, 1/2), by bisection. No
SciPy needed (./dev does not install it); experiments/confidence_test.py checks the values.
"""
import math
import statistics


def _beta_continued_fraction(a, b, x):
    """The continued fraction of I_x(a, b), modified Lentz (Numerical Recipes §6.4)."""
    tiny, eps = 1e-300, 1e-16

    def floor_tiny(v):
        return tiny if abs(v) < tiny else v

    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 / floor_tiny(1 - qab * x / qap)
    h = d
    for m in range(1, 100001):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 / floor_tiny(1 + aa * d)
        c = floor_tiny(1 + aa / c)
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 / floor_tiny(1 + aa * d)
        c = floor_tiny(1 + aa / c)
        step = d * c
        h *= step
        if abs(step - 1) < eps:
            return h
    raise ArithmeticError(f"incomplete beta I_{x}({a}, {b}) did not converge")


def regularized_incomplete_beta(a, b, x):
    """I_x(a, b) for a, b > 0 and 0 <= x <= 1."""
    if not (a > 0 and b > 0 and 0 <= x <= 1):
        raise ValueError(f"incomplete beta I_{x}({a}, {b}) undefined")
    if x in (0, 1):
        return float(x)
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) +
                     b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_continued_fraction(a, b, x) / a
    return 1 - front * _beta_continued_fraction(b, a, 1 - x) / b


def t_quantile(p, df):
    """The p-quantile of Student's t with df > 0 degrees of freedom (any df), 0 < p < 1."""
    if not (0 < p < 1 and df > 0 and math.isfinite(df)):
        raise ValueError(f"Student's t quantile needs 0 < p < 1 and df > 0, got p {p}, df {df}")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_quantile(1 - p, df)
    tail = 2 * (1 - p)
    lo, hi = 0.0, 1.0
    for _ in range(1100):
        mid = lo + (hi - lo) / 2
        if mid <= lo or mid >= hi:
            break
        if regularized_incomplete_beta(df / 2, 0.5, mid) < tail:
            lo = mid
        else:
            hi = mid
    x = lo + (hi - lo) / 2
    return math.sqrt(df * (1 - x) / x)


def t95(df):
    """The two-sided 95 % quantile t(0.975, df): 12.706 at df 1, 2.262 at 9, 1.984 at 100."""
    return t_quantile(0.975, df)


def ci95(values):
    """The half-width of the 95 % confidence interval of the mean of `values` (at least 2)."""
    n = len(values)
    return t95(n - 1) * statistics.stdev(values) / math.sqrt(n)


def mean_ci(values, single=0.0):
    """(mean, half-width of its 95 % confidence interval); `single` is the half-width given for
    one value."""
    n = len(values)
    m = sum(values) / n
    if n < 2:
        return m, single
    return m, ci95(values)
