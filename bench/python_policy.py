#!/usr/bin/env python3
"""What a task scheduler written in Python costs: greedy in C++ against its line-by-line Python
port (examples/python/greedy.py, the same decisions) on the FB trace as jobs, 50 servers x 4
slots (the default cluster). Prints each one's wall time and CPU time, its placements and the
Python scheduler's next() calls per second; with --repeat N, the median of N runs each,
alternating the two.

    PYTHONPATH=build/python python3 bench/python_policy.py [--trace FILE] [--repeat N]
"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples",
                                "python"))
import slotflow  # noqa: E402
from greedy import PyGreedy  # noqa: E402

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("--trace", default="../shared/traces/FB2010-1Hr-150-0.txt")
parser.add_argument("--repeat", type=int, default=1)
args = parser.parse_args()
if not os.path.isfile(args.trace):
    sys.exit(f"python_policy.py: trace not found at {args.trace}")

times = {"greedy": [], "py-greedy": []}
for _ in range(args.repeat):
    for name in times:
        calls = PyGreedy.calls
        wall, cpu = time.perf_counter(), time.process_time()
        r = slotflow.run(scheduler=name, trace=args.trace)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        times[name].append((wall, cpu, len(r.tasks), PyGreedy.calls - calls,
                            r.summary["mean_jct_s"]))
for name, runs in times.items():
    wall = statistics.median(t[0] for t in runs)
    cpu = statistics.median(t[1] for t in runs)
    _, _, placed, calls, jct = runs[0]
    line = (f"{name:<10} wall {wall:7.2f} s  cpu {cpu:7.2f} s  placements {placed:>7}  "
            f"placements/s {placed / wall:>9.0f}  mean JCT {jct:.3f} s")
    if calls:
        line += f"  next() calls {calls} ({calls / wall:.0f}/s)"
    print(line)
