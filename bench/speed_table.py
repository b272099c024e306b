#!/usr/bin/python3
"""The speed table: whole runs, one at a time, each measured the same way.

    bench/speed_table.py [--slotflow ./build/slotflow] [--trace FB2010-1Hr-150-0.txt]
                         [--quick] [--day] [--solver] [--time-step]

Runs every network policy on the FB coflow trace in network mode, the FB trace as jobs under
duopoly, neat and aalo (50 servers x 4 slots, the default cluster), and 20,000 synthetic jobs
on 1,000 servers under the same systems; with --day also SWIM's FB-2010 day on 300 servers under
duopoly, neat and greedy (minutes each). Prints a Markdown table: CPU time (user + system, GNU
time), events, microseconds of CPU per event, peak RSS, and for the network-mode rows the CPU
time against fair's. --solver adds a second table for the network-mode rows: how the rate
allocator worked (summary.json's rate_solver: solves, classes filled, whole and local dense
fills), each against fair's. --time-step adds a third table: the FB trace's rows (every network
policy in network mode; duopoly, neat and aalo as jobs) again at rates.time_step 1 ms, 8 ms and
100 ms, each with its CPU, events, CPU against fair's exact CPU, and the error of its mean, p95
and p99 completion time against the exact run's. --quick runs the FB trace's first 20 coflows and 200 synthetic jobs on
100 servers instead (what the test suite runs). Time one thing at a time: run it on an
otherwise idle machine.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TRACES = os.path.join(os.path.dirname(ROOT), "shared", "traces")
NETWORK_POLICIES = ["fair", "fcfs", "las", "srpt", "coflow-fifo", "tcf", "scf", "ncf", "lcf",
                    "varys", "aalo", "cans"]
SYSTEMS = ["duopoly", "neat", "aalo"]


def measure(slotflow, args, scratch):
    """CPU seconds, peak RSS (MiB) and summary.json of one run of `slotflow run ARGS`."""
    out = os.path.join(scratch, "out")
    timing = os.path.join(scratch, "time")
    cmd = ["/usr/bin/time", "-f", "%U %S %M", "-o", timing, slotflow, "run", *args, "--quiet",
           "--out", out]
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        sys.exit(f"speed_table.py: `{' '.join(cmd[5:])}` failed:\n{done.stderr}")
    user, system, rss_kb = open(timing).read().split()[-3:]
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)
    return float(user) + float(system), int(rss_kb) / 1024, summary


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--slotflow", default=os.path.join(ROOT, "build", "slotflow"))
    ap.add_argument("--trace", default=os.path.join(TRACES, "FB2010-1Hr-150-0.txt"))
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--day", action="store_true")
    ap.add_argument("--solver", action="store_true")
    ap.add_argument("--time-step", action="store_true")
    a = ap.parse_args()
    if not os.path.isfile(a.trace):
        sys.exit(f"speed_table.py: trace not found at {a.trace} (--trace FILE)")
    if not os.access(a.slotflow, os.X_OK):
        sys.exit(f"speed_table.py: no slotflow binary at {a.slotflow} (--slotflow PATH)")
    scratch = tempfile.mkdtemp()
    trace = a.trace
    if a.quick:
        trace = os.path.join(scratch, "fb20.txt")
        with open(a.trace) as f, open(trace, "w") as g:
            lines = f.read().splitlines()
            g.write(f"{lines[0].split()[0]} 20\n" + "\n".join(lines[1:21]) + "\n")
    jobs, servers = ("200", "100") if a.quick else ("20000", "1000")
    runs = [(f"FB trace, network mode, {p}", ["--trace", trace, "--mode", "network",
                                              "--network", p]) for p in NETWORK_POLICIES]
    runs += [(f"FB trace as jobs, 50 servers, {s}", ["--trace", trace, "--system", s])
             for s in SYSTEMS]
    runs += [(f"{int(jobs):,} synthetic jobs, {int(servers):,} servers, {s}",
              ["--synthetic-jobs", jobs, "--servers", servers, "--system", s]) for s in SYSTEMS]
    if a.day:
        day = ["--trace", os.path.join(TRACES, "SWIM-FB-2010_samples_24_times_1hr_0.tsv"),
               "--servers", "300", "--set", "workload.block_size=256MiB", "--set",
               "workload.reduce_bytes=4GiB", "--map-reads", "compute-only"]
        runs += [(f"SWIM FB-2010 day, 300 servers, {s}",
                  day + (["--scheduler", "greedy"] if s == "greedy" else ["--system", s]))
                 for s in ["duopoly", "neat", "greedy"]]
    print("| run | jobs | CPU | events | µs per event | peak RSS | × fair |")
    print("|---|---|---|---|---|---|---|")
    fair = None
    solver_rows = []
    exact = {}  # the FB trace's exact runs, for the time-step table
    for name, args in runs:
        cpu, rss, summary = measure(a.slotflow, args, scratch)
        if name.startswith("FB trace"):
            exact[name] = (args, summary)
        events = summary["events"]
        if name.endswith("network mode, fair"):
            fair = cpu
        ratio = f"{cpu / fair:.1f}" if "network mode" in name and fair else ""
        per_event = 1e6 * cpu / events if events else 0
        print(f"| {name} | {summary['jobs']:,} | {cpu:.2f} s | {events:,} | {per_event:.0f} | "
              f"{rss:,.0f} MiB | {ratio} |", flush=True)
        if "network mode" in name:
            solver_rows.append((name.rsplit(", ", 1)[1], events, summary["rate_solver"]))
    if a.solver:
        print_solver_table(solver_rows)
    if a.time_step:
        print_time_step_table(a.slotflow, exact, fair, scratch)


def print_solver_table(rows):
    """The rate allocator's work per network policy, each count also against fair's."""
    base = next(r for p, _, r in rows if p == "fair")
    def against(r, key):
        return f"{r[key]:,} ({r[key] / base[key]:.1f})" if base[key] else f"{r[key]:,}"
    print()
    print("| policy | events | solves | class fills (× fair) | per solve | whole dense fills (× fair)"
          " | local dense fills |")
    print("|---|---|---|---|---|---|---|")
    for policy, events, r in rows:
        per_solve = r["class_fills"] / r["solves"] if r["solves"] else 0
        print(f"| {policy} | {events:,} | {r['solves']:,} | {against(r, 'class_fills')} | "
              f"{per_solve:.2f} | {against(r, 'dense_fills_whole')} | "
              f"{r['dense_fills_local']:,} |", flush=True)


STEPS = ["1ms", "8ms", "100ms"]
ERRORS = [("mean", "mean_jct_s"), ("p95", "p95_jct_s"), ("p99", "p99_jct_s")]


def print_time_step_table(slotflow, exact, fair, scratch):
    """Each FB-trace run again at each time step: its cost, and its error against exact."""
    print()
    print("| run | step | CPU | events | × fair exact | mean error | p95 error | p99 error |")
    print("|---|---|---|---|---|---|---|---|")
    for name, (args, base) in exact.items():
        for step in STEPS:
            cpu, _, summary = measure(slotflow, [*args, "--time-step", step], scratch)
            errors = []
            for _, key in ERRORS:
                errors.append(f"{100 * (summary[key] - base[key]) / base[key]:+.2f} %"
                              if base[key] else "")
            print(f"| {name} | {step} | {cpu:.2f} s | {summary['events']:,} | "
                  f"{cpu / fair:.1f} | {' | '.join(errors)} |", flush=True)


if __name__ == "__main__":
    main()
