#!/usr/bin/python3
"""The JTPW evaluation (JTPW §3.2) under capacity and jtpw, over several seeds, on the
three-worker cluster of cluster.toml.

    experiments/jtpw/run.py [--slotflow build/slotflow] [--seeds 5] [--jobs 2]
                            [--out experiments/jtpw/results] [--set KEY=VALUE ...]
    experiments/jtpw/run.py --table {several,alone,flow} [--out experiments/jtpw/results]
    experiments/jtpw/run.py --table against --variant {many,one} --out DIR [--base DIR]
                            [--label TEXT]

Experiment 1, a single job type (单作业类型): five Terasort-like or five Grep-like jobs of 1, 3
or 5 GB each, submitted 1 s apart ({terasort,grep}-5xNGB.toml); and, beside it, one such job
alone ({terasort,grep}-NGB.toml).
Experiment 2: the 10-job flow of Table 2, submitted 1 s apart (flow.toml).
Each under both readings of how many jobs a queue runs at once (per_queue many / one).

writes OUT/runs.csv (one row per workload, scheduler and seed: mean JCT, and jtpw's count of
IO-bound and CPU-bound jobs), OUT/summary.csv (per workload and scheduler: mean JCT over seeds
with its 95 % confidence half-width, and jtpw's reduction against capacity), OUT/flow-jobs.png
(the mixed flow at seed 1, one bar per job under each scheduler and variant, like the paper's
Figs. 6-7), OUT/flow-one-utilisation.png (each worker's disk and slot use in that flow under
per_queue=one) and OUT/flow-VARIANT-SCHEDULER/ (that run's outputs with utilisation.csv, for
tools/timeline.py). --set passes a policy
setting to every jtpw run. Each run is bounded by a 120 s timeout; runs go --jobs at a time.
Needs Debian's python3-matplotlib (/usr/bin/python3). --table runs and writes nothing: it prints
one of docs/results-jtpw.md's tables from OUT/runs.csv (several: experiment 1, five jobs of a
type; alone: one job alone; flow: experiment 2); against: for one reading of a queue, every
workload's mean JCT under capacity, jtpw in BASE/runs.csv (default experiments/jtpw/results)
and jtpw in OUT/runs.csv (a run with --set, named LABEL in the header), the difference between
the two jtpw runs seed by seed, and OUT's change against capacity.
"""
import argparse
import concurrent.futures
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from confidence import mean_ci  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# Experiment 1: several jobs of one type, and one job alone.
SEVERAL = [f"{p}-5x{gb}GB" for p in ("terasort", "grep") for gb in (1, 3, 5)]
ALONE = [f"{p}-{gb}GB" for p in ("terasort", "grep") for gb in (1, 3, 5)]
WORKLOADS = SEVERAL + ALONE + ["flow"]
SCHEDULERS = ["capacity", "jtpw"]
# How many jobs of a queue may run at once: many (work-conserving, the default) or one (JTPW §1
# and its Table 3); both schedulers run each variant. Capacity has Hadoop's one default queue.
VARIANTS = {"many": [], "one": ["scheduler.per_queue=one"]}


def command(slotflow, workload, scheduler, variant, seed, out, sets):
    cmd = [slotflow, "run", "--quiet", "--config", os.path.join(HERE, "cluster.toml"),
           "--jobs", os.path.join(HERE, workload + ".toml"), "--scheduler", scheduler,
           "--seed", str(seed), "--out", out]
    for s in VARIANTS[variant] + (sets if scheduler == "jtpw" else []):
        cmd += ["--set", s]
    return cmd


def run_one(slotflow, workload, scheduler, variant, seed, sets, keep=None):
    with tempfile.TemporaryDirectory(prefix="jtpw-") as tmp:
        out = keep or tmp
        if keep:
            os.makedirs(keep, exist_ok=True)
            cmd = command(slotflow, workload, scheduler, variant, seed, out, sets) + ["--utilisation"]
        else:
            cmd = command(slotflow, workload, scheduler, variant, seed, out, sets)
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)}: exit {done.returncode}: {done.stderr.strip()}")
        with open(os.path.join(out, "jobs.csv"), newline="") as f:
            jobs = list(csv.DictReader(f))
        with open(os.path.join(out, "summary.json")) as f:
            stats = json.load(f).get("scheduler_stats", {})
    return {"variant": variant, "workload": workload, "scheduler": scheduler, "seed": seed,
            "mean_jct_s": statistics.fmean(float(j["jct_s"]) for j in jobs),
            "jobs_io": stats.get("jobs_io", ""), "jobs_cpu": stats.get("jobs_cpu", "")}


def summarise(rows):
    out = []
    by = {}
    for r in rows:
        by.setdefault((r["variant"], r["workload"], r["scheduler"]), []).append(r["mean_jct_s"])
    groups = [(w, [w]) for w in WORKLOADS] + [("5 jobs of one type (all six)", SEVERAL),
                                                ("1 job alone (all six)", ALONE)]
    for variant in VARIANTS:
      for label, members in groups:
        base = None
        for s in SCHEDULERS:
            # The mean of the workloads' per-seed values: seeds pair up across schedulers.
            per_seed = [statistics.fmean(v) for v in zip(*(by[(variant, w, s)] for w in members))]
            m, ci = mean_ci(per_seed)
            base = m if base is None else base
            out.append({"variant": variant, "workload": label, "scheduler": s,
                        "mean_jct_s": f"{m:.2f}",
                        "ci95_s": f"{ci:.2f}",
                        "reduction_vs_capacity": f"{100 * (base - m) / base:.1f}%"})
    return out


def percent(text):
    """summary.csv's reduction ("-0.8%") as the docs write it ("−0.8 %", "+3.2 %", "0.0 %")."""
    value = float(text.rstrip("%"))
    if f"{abs(value):.1f}" == "0.0":
        return "0.0 %"
    return f"{value:+.1f} %".replace("-", "−")


def table(name, rows):
    """One of docs/results-jtpw.md's tables, from runs.csv's rows."""
    summary = {(r["variant"], r["workload"], r["scheduler"]): r for r in summarise(rows)}

    def cells(variant, workload, bold=False):
        cap, jtpw = (summary[(variant, workload, s)] for s in SCHEDULERS)
        change = percent(jtpw["reduction_vs_capacity"])
        return [f"{cap['mean_jct_s']} ± {cap['ci95_s']}", jtpw["mean_jct_s"],
                f"**{change}**" if bold else change]

    def job(w):
        program, size = w.split("-", 1)
        count, gb = (size[:-2].split("x") if "x" in size else (None, size[:-2]))
        kind = f"{program.capitalize()}-like, {gb} GiB"
        return f"5 × {kind}" if count else kind

    if name == "several":
        lines = ["| jobs | capacity, `many` | jtpw, `many` | JTPW vs capacity | capacity, `one` | "
                 "jtpw, `one` | JTPW vs capacity |", "|---" * 7 + "|"]
        for w, label in [(w, job(w)) for w in SEVERAL] + [("5 jobs of one type (all six)", None)]:
            bold = label is None
            row = [label or "**all six**"] + cells("many", w, bold) + cells("one", w, bold)
            lines.append("| " + " | ".join(row) + " |")
    elif name == "alone":
        lines = ["| job | capacity | jtpw | JTPW vs capacity |", "|---|---|---|---|"]
        for w, label in [(w, job(w)) for w in ALONE] + [("1 job alone (all six)", None)]:
            row = [label or "**all six**"] + cells("many", w, label is None)
            lines.append("| " + " | ".join(row) + " |")
    elif name == "flow":
        # The paper's number (JTPW §3.2, experiment 2) beside ours, as the docs show it.
        lines = ["| reading of a queue | capacity | jtpw | JTPW vs capacity | paper |",
                 "|---|---|---|---|---|",
                 "| `many` (the default) | " + " | ".join(cells("many", "flow")) + " | |",
                 "| `one` (JTPW §1) | " + " | ".join(cells("one", "flow", True)) +
                 " | **+30.8 %** |"]
    else:
        raise ValueError(f"no table {name!r}")
    return "\n".join(lines) + "\n"


def against(base_rows, rows, variant, label):
    """For one reading of a queue: capacity, jtpw in base_rows, jtpw in rows (a run with a
    setting), their paired difference (mean ± 95 % half-width over seeds) and rows' change
    against capacity, per workload (one job alone only under many: both readings agree)."""
    def per_seed(source, scheduler, members):
        by = {}
        for r in source:
            if r["variant"] == variant and r["scheduler"] == scheduler and r["workload"] in members:
                by.setdefault(r["seed"], []).append(r["mean_jct_s"])
        return {k: statistics.fmean(v) for k, v in by.items() if len(v) == len(members)}

    groups = [(w, [w]) for w in SEVERAL] + [(None, SEVERAL)]
    if variant == "many":
        groups += [(w, [w]) for w in ALONE] + [(None, ALONE)]
    groups.append(("flow", ["flow"]))
    lines = [f"| jobs | capacity | jtpw | jtpw, {label} | {label} − jtpw (s) | {label} vs "
             "capacity |", "|---" * 6 + "|"]
    for w, members in groups:
        cap = per_seed(rows, "capacity", members)
        old, new = per_seed(base_rows, "jtpw", members), per_seed(rows, "jtpw", members)
        seeds = sorted(set(cap) & set(old) & set(new))
        cap_m, cap_ci = mean_ci([cap[k] for k in seeds])
        old_m = statistics.fmean(old[k] for k in seeds)
        new_m = statistics.fmean(new[k] for k in seeds)
        d_m, d_ci = mean_ci([new[k] - old[k] for k in seeds])
        if w is None:
            name = "**all six, " + ("five jobs**" if members is SEVERAL else "alone**")
        elif w == "flow":
            name = "Table 2's flow"
        else:
            program, size = w.split("-", 1)
            count, gb = size[:-2].split("x") if "x" in size else (None, size[:-2])
            name = (f"5 × " if count else "") + f"{program.capitalize()}-like, {gb} GiB"
        diff = f"{d_m:+.2f}".replace("-", "−")
        diff = "0.00" if diff in ("+0.00", "−0.00") else diff
        if d_ci >= 0.005:
            diff += f" ± {d_ci:.2f}"
        lines.append(f"| {name} | {cap_m:.2f} ± {cap_ci:.2f} | {old_m:.2f} | {new_m:.2f} | "
                     f"{diff} | {percent(f'{100 * (cap_m - new_m) / cap_m:.1f}%')} |")
    return "\n".join(lines) + "\n"


def read_runs(path):
    """runs.csv as run_one returned its rows."""
    with open(path, newline="") as f:
        return [dict(r, seed=int(r["seed"]), mean_jct_s=float(r["mean_jct_s"]))
                for r in csv.DictReader(f)]


def plot_flow(out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, 2, figsize=(11, 7), sharex=True, sharey=True)
    for ax, (variant, s) in zip(axes.flat, [(v, s) for v in VARIANTS for s in SCHEDULERS]):
        with open(os.path.join(out, f"flow-{variant}-{s}", "jobs.csv"), newline="") as f:
            jobs = list(csv.DictReader(f))
        for k, j in enumerate(jobs):
            submit, start, finish = (float(j[c]) for c in ("submit_s", "first_start_s", "finish_s"))
            colour = "tab:blue" if j["job"].startswith("T") else "tab:orange"
            ax.barh(k, start - submit, left=submit, color=colour, alpha=0.3)
            ax.barh(k, finish - start, left=start, color=colour)
        mean = statistics.fmean(float(j["jct_s"]) for j in jobs)
        ax.set_yticks(range(len(jobs)), [j["job"] for j in jobs])
        ax.invert_yaxis()
        ax.set_title(f"{s}, per_queue={variant}: mean completion {mean:.1f} s", fontsize=9)
        ax.set_xlabel("time (s)")
    fig.suptitle("Table 2 flow, seed 1 (pale: submitted, waiting; solid: running; "
                 "blue Terasort-like, orange Grep-like)", fontsize=9)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "flow-jobs.png"), dpi=110)


def plot_utilisation(out, variant="one"):
    """Each worker's disk and slot use over time in the flow at seed 1 (utilisation.csv)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, 2, figsize=(11, 5), sharex=True, sharey=True)
    for col, s in enumerate(SCHEDULERS):
        with open(os.path.join(out, f"flow-{variant}-{s}", "utilisation.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        end = max(float(r["t_s"]) for r in rows)
        for row_ax, metric in zip(axes[:, col], ("disk", "cpu")):
            for server in sorted({r["server"] for r in rows}, key=int):
                mine = [r for r in rows if r["server"] == server]
                ts = [float(r["t_s"]) for r in mine] + [end]
                vs = [float(r[metric]) for r in mine]
                row_ax.stairs(vs, ts, label=f"w{int(server) + 1}")
            row_ax.set_title(f"{s}, per_queue={variant}: {metric} in use", fontsize=9)
        axes[1, col].set_xlabel("time (s)")
    axes[0, 0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, f"flow-{variant}-utilisation.png"), dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--slotflow", default=os.path.join(ROOT, "build", "slotflow"))
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=os.path.join(HERE, "results"))
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--table", choices=["several", "alone", "flow", "against"],
                    help="run and write nothing: print this table of docs/results-jtpw.md")
    ap.add_argument("--base", default=os.path.join(HERE, "results"),
                    help="--table against: the results directory of the jtpw run to compare with")
    ap.add_argument("--variant", choices=list(VARIANTS), default="many",
                    help="--table against: the reading of a queue")
    ap.add_argument("--label", default="variant",
                    help="--table against: the name of OUT's jtpw run in the header")
    a = ap.parse_args()
    if a.table == "against":
        sys.stdout.write(against(read_runs(os.path.join(a.base, "runs.csv")),
                                 read_runs(os.path.join(a.out, "runs.csv")), a.variant, a.label))
        return 0
    if a.table:
        sys.stdout.write(table(a.table, read_runs(os.path.join(a.out, "runs.csv"))))
        return 0
    os.makedirs(a.out, exist_ok=True)
    tasks = [(w, s, v, k) for v in VARIANTS for w in WORKLOADS for s in SCHEDULERS
             for k in range(1, a.seeds + 1)]
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        rows = list(pool.map(lambda t: run_one(a.slotflow, *t, a.set), tasks))
    with open(os.path.join(a.out, "runs.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    summary = summarise(rows)
    with open(os.path.join(a.out, "summary.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(summary[0]))
        w.writeheader()
        w.writerows(summary)
    for v in VARIANTS:
        for s in SCHEDULERS:
            run_one(a.slotflow, "flow", s, v, 1, a.set, keep=os.path.join(a.out, f"flow-{v}-{s}"))
    plot_flow(a.out)
    plot_utilisation(a.out)
    for r in summary:
        print(f"{r['variant']:<5} {r['workload']:<29} {r['scheduler']:<9} {r['mean_jct_s']:>8} ± "
              f"{r['ci95_s']:<6} "
              f"{r['reduction_vs_capacity']}")


if __name__ == "__main__":
    sys.exit(main())
