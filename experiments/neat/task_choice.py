#!/usr/bin/python3
"""NEAT+'s choice of task, isolated: the table of experiments/neat/task-choice.toml's sweep.

    experiments/neat/task_choice.py RESULTS.csv

RESULTS.csv is the sweep's results.csv (`slotflow sweep experiments/neat/task-choice.toml
--out DIR` writes DIR/results.csv; the committed run is experiments/neat/results/task-choice.csv).
Prints one markdown table, runs nothing: per network policy and placement, the mean JCT
(mean ± 95 % CI over seeds, Student's t), the placement's mean JCT over NEAT+'s under the same
network policy taken seed by seed (paired; > 1: NEAT+ faster), and the share of map reads that
were local. Variants are named PLACEMENT-NETWORK, NEAT+ as neat-NETWORK.
"""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from confidence import mean_ci  # noqa: E402

NETWORKS = [("fair", "Fair"), ("las", "LAS"), ("srpt", "SRPT"), ("varys", "Varys"),
            ("tcf", "TCF")]
PLACEMENTS = [("neat", "NEAT+"), ("minDist", "minDist"),
              ("minDist-local-first", "minDist, local-first"), ("loadAware", "loadAware"),
              ("loadAware-local-first", "loadAware, local-first")]


def cell(values, digits):
    m, h = mean_ci(values, single=None)
    return f"{m:.{digits}f}" if h is None else f"{m:.{digits}f} ± {h:.{digits}f}"


def fail(message):
    print(f"task_choice: {message}", file=sys.stderr)
    sys.exit(2)


def read(path):
    """variant -> seed -> (mean JCT, locality), from a sweep's results.csv."""
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except (OSError, UnicodeDecodeError) as e:
        fail(f"{path}: {getattr(e, 'strerror', None) or e}")
    runs = {}
    for line, row in enumerate(rows, start=2):
        values = {}
        for field, kind in [("variant", str), ("seed", int), ("mean_jct_s", float),
                            ("locality", float)]:
            try:
                values[field] = kind(row[field])
            except (KeyError, TypeError, ValueError):
                fail(f"{path}:{line}: field '{field}' missing or not a {kind.__name__}")
        runs.setdefault(values["variant"], {})[values["seed"]] = (values["mean_jct_s"],
                                                                 values["locality"])
    return runs


def main():
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        print("usage: experiments/neat/task_choice.py RESULTS.csv", file=sys.stderr)
        sys.exit(2)
    runs = read(sys.argv[1])
    print("| network | placement | mean JCT (s) | / NEAT+ | map reads local |")
    print("|---|---|---|---|---|")
    for net, net_label in NETWORKS:
        neat = runs.get(f"neat-{net}")
        if neat is None:
            continue
        for name, label in PLACEMENTS:
            seeds = runs.get(f"{name}-{net}")
            if seeds is None:
                continue
            jct = [seeds[s][0] for s in sorted(seeds)]
            paired = [seeds[s][0] / neat[s][0] for s in sorted(seeds) if s in neat]
            local = [100 * seeds[s][1] for s in sorted(seeds)]
            print(f"| {net_label} | {label} | {cell(jct, 1)} | {cell(paired, 2)} | "
                  f"{cell(local, 0)} % |")


if __name__ == "__main__":
    main()
