#!/usr/bin/python3
"""Duopoly, NEAT, Aalo and the heartbeat schedulers on SWIM's real MapReduce jobs, beside the
coflow benchmark's FB hour with its generated map stage.

    experiments/swim/run.py [--out DIR] [--threads N] [--slotflow ./build/slotflow] [--plot-only]
                            [--setups fb2009-hour,...] [--shard I/N]

Runs the three sweeps of this folder (5 seeds each, resumable: a finished run is not run again):

fb-coflow-hour  the coflow benchmark's FB hour as jobs, map inputs from Duopoly §6.1's balanced
                rule, on 150 servers;
fb-coflow-hour-ratio  the same, each job's map input 2.47 times its shuffle (SWIM's FB-2010
                day's ratio) in place of the balanced rule's 31 times: only the map stage
                differs;
fb2010-hour     SWIM's FB-2010 first hour (real map inputs, the same 3,000-machine cluster) on
                the same 150 servers;
fb2009-hour     SWIM's FB-2009 busiest hour (7-8 h) on 30 servers (600 machines at the same 20
                machines per server).

Every set-up is Duopoly's base (4 slots of 1 GB/s, 1 Gbps NICs, 3 replicas, map reads as
compute per Duopoly §2.1) and runs duopoly, neat, aalo, and fifo, delay and tcds under fair
sharing. Writes DIR/table.md: per set-up the workload's bytes (map input and shuffle, read from
the trace as slotflow reads it), then per system the mean, p95 and p99 JCT (± 95 % CI over the
seeds), the busy share of slots and downlinks, the share of time in slot-insufficient mode, and
Duopoly's reduction of the mean against each system seed by seed. DIR defaults to out/swim.
--setups runs and tabulates only the named set-ups; --shard I/N runs only every N-th run of each
sweep (slotflow sweep --shard), for a quick look.
"""
import argparse
import csv
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from coflow_trace import reducer_bytes  # noqa: E402
from confidence import mean_ci  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SETUPS = [("fb-coflow-hour", "FB coflow hour, balanced map stage, 150 servers"),
          ("fb-coflow-hour-ratio", "FB coflow hour, map input 2.47 x shuffle, 150 servers"),
          ("fb2010-hour", "SWIM FB-2010, first hour, 150 servers"),
          ("fb2009-hour", "SWIM FB-2009, 7-8 h, 30 servers")]
SYSTEMS = ["duopoly", "neat", "aalo", "fifo", "delay", "tcds"]


def read_toml(path):
    import tomllib
    with open(path, "rb") as f:
        return tomllib.load(f)


def seconds(text):
    """"7h", "0s", "90m" as the sweep files write them."""
    units = {"s": 1, "m": 60, "h": 3600}
    return float(text[:-1]) * units[text[-1]]


def workload_bytes(setup):
    """(jobs, map input, shuffle) in bytes, as slotflow reads the set-up's trace."""
    w = read_toml(os.path.join(HERE, setup + ".toml"))["workload"]
    trace = os.path.join(ROOT, w["trace"])
    if w.get("trace_format") == "swim":
        start = seconds(w["trace_start"])
        end = start + seconds(w["trace_length"])
        jobs = inp = shuffle = 0
        with open(trace) as f:
            for line in f:
                fields = line.rstrip("\n").split("\t")
                if len(fields) != 6 or not start <= float(fields[1]) < end:
                    continue
                jobs += 1
                inp += float(fields[3])
                shuffle += float(fields[4])
        return jobs, inp, shuffle
    return None


def coflow_bytes(args, out, setup):
    """The coflow hour's jobs, map input and shuffle, from one run's jobs.csv (bytes = map input
    + shuffle) and the trace's reducer megabytes (MiB, docs/readings.md)."""
    w = read_toml(os.path.join(HERE, setup + ".toml"))["workload"]
    trace = os.path.join(ROOT, w["trace"])
    shuffle = 0.0
    for reducers in reducer_bytes(trace):
        for b in reducers:
            shuffle += b
    run_dir = os.path.join(out, setup + "-bytes")
    jobs_csv = os.path.join(run_dir, "jobs.csv")
    if not os.path.exists(jobs_csv):
        ratio = ["--map-input-ratio", str(w["map_input_ratio"])] if "map_input_ratio" in w else []
        subprocess.run([args.slotflow, "run", "--trace", trace, "--servers", "150",
                        "--map-reads", "compute-only", "--quiet", "--out", run_dir] + ratio,
                       cwd=ROOT, check=True)
    with open(jobs_csv) as f:
        rows = list(csv.DictReader(f))
    total = sum(float(r["bytes"]) for r in rows)
    return len(rows), total - shuffle, shuffle


def cell(values, scale=1.0, digits=1):
    m, h = mean_ci([v * scale for v in values])
    return f"{m:.{digits}f} ± {h:.{digits}f}"


def reduction(rows, other):
    """Duopoly's reduction of the mean JCT against `other`, %, seed by seed."""
    d = {r["seed"]: float(r["mean_jct_s"]) for r in rows["duopoly"]}
    o = {r["seed"]: float(r["mean_jct_s"]) for r in rows[other]}
    return [100 * (1 - d[s] / o[s]) for s in sorted(d) if s in o]


def table(args, out):
    lines = []
    for setup, title in SETUPS:
        path = os.path.join(out, setup, "results.csv")
        if not os.path.exists(path):
            continue
        with open(path) as f:
            results = list(csv.DictReader(f))
        rows = {s: [r for r in results if r["variant"] == s] for s in SYSTEMS}
        counts = workload_bytes(setup) or coflow_bytes(args, out, setup)
        jobs, inp, shuffle = counts
        lines += [f"**{title}**: {jobs} jobs, map input {inp / 1e12:.1f} TB, shuffle "
                  f"{shuffle / 1e12:.1f} TB (map input / shuffle {inp / shuffle:.1f}).", "",
                  "| system | mean JCT (s) | p95 (s) | p99 (s) | slots busy (%) | downlinks busy (%) "
                  "| slot-insufficient (% of time) | Duopoly's mean vs it (%) |",
                  "|---|---|---|---|---|---|---|---|"]
        for s in SYSTEMS:
            r = rows[s]
            if not r:
                continue
            col = lambda k, scale=1.0, digits=1: cell([float(x[k]) for x in r], scale, digits)
            red = "—" if s == "duopoly" else cell(reduction(rows, s))
            lines.append(f"| {s} | {col('mean_jct_s', digits=2)} | {col('p95_jct_s', digits=2)} "
                         f"| {col('p99_jct_s')} | {col('slot_utilisation', 100)} "
                         f"| {col('downlink_utilisation', 100)} "
                         f"| {col('insufficient_share', 100)} | {red} |")
        lines.append("")
    with open(os.path.join(out, "table.md"), "w") as f:
        f.write("\n".join(lines))
    print("\n".join(lines))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", default=os.path.join(ROOT, "out", "swim"))
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--slotflow", default=os.path.join(ROOT, "build", "slotflow"))
    p.add_argument("--plot-only", action="store_true", help="do not run the sweeps")
    p.add_argument("--setups", help="comma-separated set-ups (default: all)")
    p.add_argument("--shard", help="I/N: every N-th run of each sweep only")
    args = p.parse_args()
    if args.setups:
        names = args.setups.split(",")
        unknown = [n for n in names if n not in dict(SETUPS)]
        if unknown:
            p.error(f"unknown set-up {unknown[0]} (known: {', '.join(n for n, _ in SETUPS)})")
        SETUPS[:] = [s for s in SETUPS if s[0] in names]
    args.slotflow = os.path.abspath(args.slotflow)
    out = os.path.abspath(args.out)
    if not args.plot_only:
        for setup, _ in SETUPS:
            cmd = [args.slotflow, "sweep", os.path.join(HERE, setup + ".toml"),
                   "--out", os.path.join(out, setup)]
            if args.threads:
                cmd += ["--threads", str(args.threads)]
            if args.shard:
                cmd += ["--shard", args.shard]
            subprocess.run(cmd, cwd=ROOT, check=True)
    table(args, out)


if __name__ == "__main__":
    main()
