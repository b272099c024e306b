#!/usr/bin/env python3
"""Checks experiments/confidence.py: Student's t quantiles against closed forms, the usual
tables and, where SciPy is installed, scipy.stats.t.ppf; and the mean and half-width.

    confidence_test.py REPO
"""
import math
import os
import statistics
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.abspath(sys.argv.pop(1)), "experiments"))
from confidence import mean_ci, regularized_incomplete_beta, t95, t_quantile  # noqa: E402


class StudentT(unittest.TestCase):
    def test_closed_forms_at_one_and_two_degrees_of_freedom(self):
        for p in (0.6, 0.9, 0.975, 0.995):
            self.assertAlmostEqual(t_quantile(p, 1), math.tan(math.pi * (p - 0.5)), delta=1e-9)
            self.assertAlmostEqual(t_quantile(p, 2), (2 * p - 1) / math.sqrt(2 * p * (1 - p)),
                                   delta=1e-9)

    def test_two_sided_95_at_any_degrees_of_freedom(self):
        table = {1: 12.7062, 2: 4.3027, 9: 2.2622, 30: 2.0423, 100: 1.9840, 1000: 1.9623}
        for df, t in table.items():
            self.assertAlmostEqual(t95(df), t, delta=5e-5, msg=df)
        # SciPy 1.10's t.ppf(0.975, df).
        known = {3: 3.182446305284263, 10: 2.2281388519649385, 31: 2.0395134463964077,
                 39: 2.022690911734728, 1e4: 1.960201239890626, 1e6: 1.9599663568141066,
                 0.5: 164.55767352096103, 2.5: 3.5746548420118773}
        for df, t in known.items():
            self.assertAlmostEqual(t95(df), t, delta=1e-8 * t, msg=df)
        last = t95(1)
        for df in (2, 5, 30, 31, 1e3, 1e5, 1e7):
            self.assertLess(t95(df), last)
            self.assertGreater(t95(df), 1.959963984540054)
            last = t95(df)

    def test_other_quantiles(self):
        self.assertAlmostEqual(t_quantile(0.995, 5), 4.032142983557536, delta=1e-8)
        self.assertAlmostEqual(t_quantile(0.05, 7), -1.8945786050613054, delta=1e-8)
        self.assertEqual(t_quantile(0.5, 3), 0)
        self.assertRaises(ValueError, t_quantile, 1, 3)
        self.assertRaises(ValueError, t_quantile, 0.975, 0)
        self.assertAlmostEqual(regularized_incomplete_beta(2.5, 0.5, 0.3), 0.01892712407194565,
                               delta=1e-12)

    def test_against_scipy_where_installed(self):
        try:
            from scipy.stats import t as scipy_t
        except ImportError:
            self.skipTest("no SciPy")
        for df in list(range(1, 61)) + [75, 120, 500, 2000, 0.7, 3.3]:
            self.assertAlmostEqual(t95(df), scipy_t.ppf(0.975, df), delta=1e-8, msg=df)

    def test_mean_ci(self):
        m, h = mean_ci([1, 2, 3])
        self.assertEqual(m, 2)
        self.assertAlmostEqual(h, t95(2) / math.sqrt(3), delta=1e-12)
        values = [float(i % 2) for i in range(10)]
        self.assertAlmostEqual(mean_ci(values)[1],
                               2.2621571627409915 * statistics.stdev(values) / math.sqrt(10),
                               delta=1e-9)
        self.assertEqual(mean_ci([5.0], single=float("inf")), (5.0, float("inf")))


if __name__ == "__main__":
    unittest.main()
