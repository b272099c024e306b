#!/usr/bin/env python3
"""What a task scheduler written in Python costs: built-in schedulers in C++ against their
Python ports in examples/python/ (the same decisions: greedy line by line; minDist, loadAware
with load = bytes and neat through the view's topology, flows and predictor) on the FB trace as
jobs, 50 servers x 4 slots (the default cluster). Prints each one's wall and CPU time, its
placements and its CPU time over the C++ one's; with --repeat N, the medians of N runs each,
alternating C++ and Python. --env also times slotflow.Env: steps per second of an episode that
places the first candidate at each step.

    PYTHONPATH=build/python python3 bench/python_policy.py [--trace FILE] [--repeat N]
        [--ports greedy,minDist,loadAware,neat] [--env]
"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples",
                                "python"))
import slotflow  # noqa: E402
import greedy  # noqa: E402,F401  (registers py-greedy)
import load_aware  # noqa: E402,F401  (registers py-loadAware)
import min_dist  # noqa: E402,F401  (registers py-minDist)
import neat  # noqa: E402,F401  (registers py-neat)

PORTS = {"greedy": ("greedy", "py-greedy", {}),
         "minDist": ("minDist", "py-minDist", {}),
         "loadAware": ("loadAware", "py-loadAware", {"load": "bytes"}),
         "neat": ("neat", "py-neat", {})}

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("--trace", default="../shared/traces/FB2010-1Hr-150-0.txt")
parser.add_argument("--repeat", type=int, default=1)
parser.add_argument("--ports", default=",".join(PORTS))
parser.add_argument("--env", action="store_true", help="also time slotflow.Env's steps")
args = parser.parse_args()
if not os.path.isfile(args.trace):
    sys.exit(f"python_policy.py: trace not found at {args.trace}")


def timed(call):
    wall, cpu = time.perf_counter(), time.process_time()
    out = call()
    return time.perf_counter() - wall, time.process_time() - cpu, out


for port in args.ports.split(","):
    if port not in PORTS:
        sys.exit(f"python_policy.py: unknown port '{port}' (known: {', '.join(PORTS)})")
    cpp, py, settings = PORTS[port]
    runs = {cpp: [], py: []}
    for _ in range(args.repeat):
        for name in runs:
            runs[name].append(timed(lambda: slotflow.run(
                scheduler={"policy": name, **settings}, trace=args.trace)))
    cpu_of = {name: statistics.median(r[1] for r in rs) for name, rs in runs.items()}
    for name, rs in runs.items():
        wall = statistics.median(r[0] for r in rs)
        result = rs[0][2]
        print(f"{name:<13} wall {wall:7.2f} s  cpu {cpu_of[name]:7.2f} s  "
              f"placements {len(result.tasks):>7}  cpu x C++ {cpu_of[name] / cpu_of[cpp]:5.2f}  "
              f"mean JCT {result.summary['mean_jct_s']:.3f} s")

if args.env:
    for observe in [(), ("servers", "tasks", "jobs", "candidate_table")]:
        env = slotflow.Env(trace=args.trace, observe=observe)
        rates = []
        for _ in range(args.repeat):
            def episode():
                obs, _ = env.reset(seed=1)
                steps, done = 0, False
                while not done:
                    obs, _, terminated, truncated, _ = env.step(obs["candidates"][0])
                    steps += 1
                    done = terminated or truncated
                return steps
            wall, cpu, steps = timed(episode)
            rates.append((steps / wall, steps, wall))
        rate, steps, wall = statistics.median(rates)
        print(f"Env, observe={'+'.join(observe) or 'candidates only'}: {steps} steps in "
              f"{wall:.2f} s, {rate:.0f} steps/s")
