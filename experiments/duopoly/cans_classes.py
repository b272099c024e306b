#!/usr/bin/python3
"""How the FB trace's coflows and macroflows fall into cans' 8 priority classes.

    experiments/duopoly/cans_classes.py [TRACE]   (default ../shared/traces/FB2010-1Hr-150-0.txt)

A coflow is one job's shuffle (the sum of its reducers' bytes), a macroflow one reducer's input;
sizes are read as MiB, as slotflow reads the trace. Class k < 7 holds sizes below T·E^k, the last
class the rest (cans' defaults: coflows T = 10 MiB, E = 8; macroflows T = 10 MiB, E = 4), and for
comparison one 10 MiB × 10 scale for both.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from coflow_trace import MIB, reducer_bytes  # noqa: E402


def sizes(path):
    coflows, macroflows = [], []
    for reducers in reducer_bytes(path):
        coflows.append(sum(reducers))
        macroflows += reducers
    return coflows, macroflows


def classes(values, first, multiplier, queues=8):
    count, size = [0] * queues, [0.0] * queues
    for v in values:
        k = 0
        while k < queues - 1 and v >= first * multiplier ** k:
            k += 1
        count[k] += 1
        size[k] += v
    return count, [100 * s / sum(size) for s in size]


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "../shared/traces/FB2010-1Hr-150-0.txt"
    coflows, macroflows = sizes(path)
    print("| unit | thresholds | count per class 0..7 | bytes per class 0..7 (%) |")
    print("|---|---|---|---|")
    for name, values, mult in (("coflow", coflows, 8), ("macroflow", macroflows, 4),
                               ("coflow", coflows, 10), ("macroflow", macroflows, 10)):
        count, share = classes(values, 10 * MIB, mult)
        print(f"| {name} | 10 MiB × {mult} | {' / '.join(map(str, count))} | "
              f"{' / '.join(f'{s:.1f}' for s in share)} |")


if __name__ == "__main__":
    main()
