"""Mean and 95 % confidence half-width over seeds, shared by the experiment scripts."""
import math
import statistics

# Student's t, two-sided 95 %, by degrees of freedom (n − 1); 1.96 beyond the table.
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
       9: 2.262, 10: 2.228}


def mean_ci(values, single=0.0):
    """(mean, half-width of its 95 % confidence interval); `single` is the half-width given for
    one value."""
    n = len(values)
    m = sum(values) / n
    if n < 2:
        return m, single
    return m, T95.get(n - 1, 1.96) * statistics.stdev(values) / math.sqrt(n)
