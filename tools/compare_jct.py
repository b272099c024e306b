#!/usr/bin/python3
"""Two runs of the same workload side by side: job completion times, job by job.

    tools/compare_jct.py REFERENCE OTHER [--labels A,B] [--out PNG]

REFERENCE and OTHER are run directories (or their jobs.csv), e.g. a simulated run and a live
run of the same jobs, as Duopoly's Fig. 5 compares its simulator with its testbed. Jobs are
matched by name, and both runs must hold the same jobs. Prints, for each run, the mean, p50,
p95 and p99 JCT and OTHER's error against REFERENCE on each ((other − reference) / reference),
and the median of the per-job relative errors. With --out, plots both runs' JCT CDFs (log
scale) into PNG.

Bad input (a missing file, a wrong header, a malformed value, job sets that differ) exits with
status 2 and a message naming the file and line.
"""
import argparse
import csv
import math
import os
import sys

REQUIRED = ["job", "jct_s"]


class BadInput(Exception):
    pass


def read_jobs(path):
    """job name -> JCT (s) from a run directory or its jobs.csv."""
    if os.path.isdir(path):
        path = os.path.join(path, "jobs.csv")
    try:
        f = open(path, newline="")
    except OSError as e:
        raise BadInput(f"{path}: cannot read: {e.strerror}")
    with f:
        reader = csv.reader(f)
        header = next(reader, None)
        if header is None or any(c not in header for c in REQUIRED):
            raise BadInput(f"{path}:1: header: expected columns {', '.join(REQUIRED)}")
        col = {c: header.index(c) for c in REQUIRED}
        jobs = {}
        for line, row in enumerate(reader, start=2):
            if len(row) != len(header):
                raise BadInput(f"{path}:{line}: expected {len(header)} fields, got {len(row)}")
            name = row[col["job"]]
            try:
                jct = float(row[col["jct_s"]])
            except ValueError:
                raise BadInput(f"{path}:{line}: jct_s: not a number: {row[col['jct_s']]!r}")
            if not math.isfinite(jct) or jct < 0:
                raise BadInput(f"{path}:{line}: jct_s: must be finite and non-negative")
            if name in jobs:
                raise BadInput(f"{path}:{line}: job: {name!r} appears twice")
            jobs[name] = jct
    if not jobs:
        raise BadInput(f"{path}: no jobs")
    return path, jobs


def quantile(sorted_values, q):
    """The q-quantile, interpolated between ranks as slotflow's summaries compute it."""
    rank = q * (len(sorted_values) - 1)
    lo = math.floor(rank)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (rank - lo)


def stats(values):
    v = sorted(values)
    return {"mean": sum(v) / len(v), "p50": quantile(v, 0.5), "p95": quantile(v, 0.95),
            "p99": quantile(v, 0.99)}


def compare(ref, other):
    """The table rows: statistic -> (reference, other, relative error), plus the median per-job
    relative error (jobs whose reference JCT is 0 are left out of it)."""
    a, b = stats(ref.values()), stats(other.values())
    rows = {k: (a[k], b[k], (b[k] - a[k]) / a[k] if a[k] > 0 else float("nan")) for k in a}
    per_job = sorted(abs(other[j] - ref[j]) / ref[j] for j in ref if ref[j] > 0)
    return rows, (quantile(per_job, 0.5) if per_job else float("nan"))


def plot(ref, other, labels, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 4))
    for values, label in ((ref, labels[0]), (other, labels[1])):
        v = sorted(max(x, 1e-6) for x in values.values())
        ax.step(v, [(i + 1) / len(v) for i in range(len(v))], where="post", label=label)
    ax.set_xscale("log")
    ax.set_xlabel("job completion time (s)")
    ax.set_ylabel("CDF of jobs")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("reference")
    parser.add_argument("other")
    parser.add_argument("--labels", default="reference,other")
    parser.add_argument("--out")
    args = parser.parse_args()
    labels = args.labels.split(",")
    try:
        if len(labels) != 2 or not all(labels):
            raise BadInput("--labels: expected two names separated by a comma")
        ref_path, ref = read_jobs(args.reference)
        other_path, other = read_jobs(args.other)
        missing = sorted(set(ref) ^ set(other))
        if missing:
            raise BadInput(f"{other_path}: the job sets differ from {ref_path}'s: "
                           f"{', '.join(missing[:5])}{' ...' if len(missing) > 5 else ''}")
        rows, per_job = compare(ref, other)
        print(f"{len(ref)} jobs; error = ({labels[1]} − {labels[0]}) / {labels[0]}")
        print(f"{'':6}{labels[0]:>14}{labels[1]:>14}{'error':>10}")
        for k, (a, b, e) in rows.items():
            print(f"{k + '_s':6}{a:14.3f}{b:14.3f}{e:+10.2%}")
        print(f"median per-job |error| {per_job:.2%}")
        if args.out:
            try:
                plot(ref, other, labels, args.out)
            except OSError as e:
                raise BadInput(f"--out: cannot write {args.out}: {e.strerror}")
    except BadInput as e:
        print(f"compare_jct: error: {e}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
