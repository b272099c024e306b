#!/usr/bin/python3
"""The TCDS evaluation (TCDS §3): Table 1's five groups under fifo, delay (DS) and tcds, over
several seeds, on the cluster of tcds.toml.

    experiments/tcds/run.py [--slotflow build/slotflow] [--seeds 10] [--out experiments/tcds/results]
                            [--jobs 2] [--set KEY=VALUE ...] [--arg=--FLAG=VALUE ...]
    experiments/tcds/run.py --from-runs [--out experiments/tcds/results]
    experiments/tcds/run.py --table {response,paired,paired-wide,locality} [--out DIR]

writes OUT/runs.csv (one row per group, scheduler and seed: mean job response time, per class,
the node / rack / off-rack shares of the tasks and their mean wait from ready to placed),
OUT/summary.csv (per group and scheduler: the mean over seeds and its 95 % confidence
half-width, Student's t with seeds − 1 degrees of freedom: experiments/confidence.py),
OUT/paired.csv (per group, the paired differences between schedulers) and the plots
OUT/response.png (beside the paper's Fig. 2) and OUT/locality.png (beside its Fig. 3).
--from-runs runs nothing: it reads OUT/runs.csv and writes the rest from it again. --table runs
nothing and writes nothing: it prints one of the tables of docs/results-tcds.md from
OUT/runs.csv (response: JCT, wait and locality per group and scheduler; paired: the paired
differences; paired-wide: the same with the three mean JCTs; locality: the node-local and
off-rack shares). --set
passes a policy setting to every run (e.g. scheduler.heartbeat=1s); --arg passes any other flag
of `slotflow run` (e.g. --arg=--nic=100Mbps). Each run is bounded by a 120 s timeout; runs go
--jobs at a time. Needs Debian's python3-matplotlib (/usr/bin/python3).
"""
import argparse
import concurrent.futures
import csv
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from confidence import ci95  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GROUPS = [1, 2, 3, 4, 5]
TABLE1 = {1: (50, 50, 10), 2: (10, 50, 50), 3: (30, 30, 30), 4: (50, 10, 10), 5: (10, 10, 50)}
SCHEDULERS = ["fifo", "delay", "tcds"]
LABEL = {"fifo": "FIFO", "delay": "DS", "tcds": "TCDS"}
CLASSES = ["very-short", "short", "long"]
LEVELS = ["node", "rack", "off-rack"]


def run_one(slotflow, group, scheduler, seed, extra):
    with tempfile.TemporaryDirectory(prefix="tcds-") as out:
        cmd = [slotflow, "run", "--quiet", "--config", os.path.join(HERE, "tcds.toml"),
               "--tcds-group", str(group), "--scheduler", scheduler, "--seed", str(seed),
               "--out", out] + extra
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)}: exit {done.returncode}: {done.stderr.strip()}")
        with open(os.path.join(out, "jobs.csv"), newline="") as f:
            jobs = list(csv.DictReader(f))
        with open(os.path.join(out, "tasks.csv"), newline="") as f:
            tasks = list(csv.DictReader(f))
    row = {"group": group, "scheduler": scheduler, "seed": seed, "jobs": len(jobs),
           "mean_jct_s": statistics.fmean(float(j["jct_s"]) for j in jobs)}
    for c in CLASSES:
        jcts = [float(j["jct_s"]) for j in jobs if j["job"].rsplit("-", 1)[0] == c]
        row[f"mean_jct_{c}_s"] = statistics.fmean(jcts) if jcts else ""
    for level in LEVELS:
        row[f"{level}_share"] = sum(t["locality"] == level for t in tasks) / len(tasks)
    row["mean_wait_s"] = statistics.fmean(float(t["placed_s"]) - float(t["ready_s"])
                                          for t in tasks)
    return row


def summarise(rows):
    keys = [k for k in rows[0] if k not in ("group", "scheduler", "seed", "jobs")]
    out = []
    for g in GROUPS:
        for s in SCHEDULERS:
            mine = [r for r in rows if r["group"] == g and r["scheduler"] == s]
            srow = {"group": g, "scheduler": s, "seeds": len(mine)}
            for k in keys:
                vals = [r[k] for r in mine if r[k] != ""]
                srow[k] = statistics.fmean(vals) if vals else ""
                srow[k + "_ci95"] = ci95(vals) if len(vals) > 1 else ""
            out.append(srow)
    return out


def paired(rows):
    """Per group, the mean over seeds of the paired difference in mean job response time (the
    schedulers of one seed see the same jobs and replicas), with its 95 % half-width."""
    by = {(r["group"], r["scheduler"], r["seed"]): r["mean_jct_s"] for r in rows}
    seeds = sorted({r["seed"] for r in rows})
    out = []
    for g in GROUPS:
        prow = {"group": g}
        for a, b in [("tcds", "delay"), ("tcds", "fifo"), ("delay", "fifo")]:
            d = [by[(g, a, s)] - by[(g, b, s)] for s in seeds]
            prow[f"{a}_minus_{b}_s"] = statistics.fmean(d)
            prow[f"{a}_minus_{b}_ci95"] = ci95(d)
        out.append(prow)
    return out

# The paper's reading of each group in Figs. 2 and 3 (TCDS §3.2), beside ours in the tables.
GROUP_NAME = {1: "very short dominate", 2: "short and long", 3: "even", 4: "very short dominate",
              5: "long dominate"}
PAPER_FIG2 = {1: "TCDS best", 2: "TCDS ≈ DS < FIFO", 3: "—", 4: "TCDS best",
              5: "TCDS better than DS"}
PAPER_FIG3 = {1: "TCDS a little below DS, both ≫ FIFO", 2: "TCDS ≈ DS", 3: "—",
              4: "TCDS a little below DS", 5: "both drop"}
LOCALITY_NAME = {1: "very short dominate", 4: "very short dominate", 5: "long dominate"}


def signed(m, ci):
    """A difference as the docs write it: explicit sign, a true minus, ± its half-width."""
    return f"{m:+.2f}".replace("-", "−") + f" ± {ci:.2f}"


def table(name, rows):
    """One of docs/results-tcds.md's tables, from runs.csv's rows."""
    summary = {(r["group"], r["scheduler"]): r for r in summarise(rows)}
    diffs = {d["group"]: d for d in paired(rows)}
    pairs = [("tcds", "delay"), ("tcds", "fifo"), ("delay", "fifo")]
    if name == "response":
        lines = ["| group (vs, s, l) | scheduler | mean JCT (s) | very short jobs (s) | short jobs "
                 "(s) | long jobs (s) | wait (s) | node | rack | off-rack |", "|---" * 10 + "|"]
        for g in GROUPS:
            for i, s in enumerate(SCHEDULERS):
                r = summary[(g, s)]
                group = f"{g} ({', '.join(map(str, TABLE1[g]))})" if i == 0 else ""
                cells = [group, LABEL[s], f"{r['mean_jct_s']:.2f} ± {r['mean_jct_s_ci95']:.2f}"]
                cells += [f"{r[f'mean_jct_{c}_s']:.2f}" for c in CLASSES]
                cells += [f"{r['mean_wait_s']:.2f}"] + [f"{r[f'{lv}_share']:.3f}" for lv in LEVELS]
                lines.append(("| " + " | ".join(cells) + " |").replace("|  |", "| |"))
    elif name in ("paired", "paired-wide"):
        wide = name == "paired-wide"
        last = "FIFO / DS / TCDS mean JCT (s)" if wide else "paper (Fig. 2)"
        lines = [f"| group | TCDS − DS (s) | TCDS − FIFO (s) | DS − FIFO (s) | {last} |",
                 "|---|---|---|---|---|"]
        for g in GROUPS:
            d = diffs[g]
            cells = [str(g) if wide else f"{g} ({GROUP_NAME[g]})"]
            cells += [signed(d[f"{a}_minus_{b}_s"], d[f"{a}_minus_{b}_ci95"]) for a, b in pairs]
            cells.append(" / ".join(f"{summary[(g, s)]['mean_jct_s']:.2f}" for s in SCHEDULERS)
                         if wide else PAPER_FIG2[g])
            lines.append("| " + " | ".join(cells) + " |")
    elif name == "locality":
        lines = ["| group | node-local FIFO / DS / TCDS | off-rack FIFO / DS / TCDS | paper (Fig. 3) |",
                 "|---|---|---|---|"]
        for g in GROUPS:
            cells = [f"{g} ({LOCALITY_NAME[g]})" if g in LOCALITY_NAME else str(g)]
            for level in ("node", "off-rack"):
                cells.append(" / ".join(f"{summary[(g, s)][f'{level}_share']:.3f}"
                                        for s in SCHEDULERS))
            cells.append(PAPER_FIG3[g])
            lines.append("| " + " | ".join(cells) + " |")
    else:
        raise ValueError(f"no table {name!r}")
    return "\n".join(lines) + "\n"


def read_runs(path):
    """runs.csv as run_one returned its rows (numbers as numbers, "" where a class had no job)."""
    rows = []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            row = {}
            for k, v in r.items():
                if k in ("group", "seed", "jobs"):
                    row[k] = int(v)
                elif k == "scheduler" or v == "":
                    row[k] = v
                else:
                    row[k] = float(v)
            rows.append(row)
    return rows


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        for r in rows:
            w.writerow({k: (f"{v:.6g}" if isinstance(v, float) else v) for k, v in r.items()})


def bars(ax, summary, key, ylabel):
    width = 0.26
    for i, s in enumerate(SCHEDULERS):
        xs = [g + (i - 1) * width for g in GROUPS]
        mine = {r["group"]: r for r in summary if r["scheduler"] == s}
        ax.bar(xs, [mine[g][key] for g in GROUPS], width, yerr=[mine[g][key + "_ci95"] or 0
                                                              for g in GROUPS],
               capsize=2, label=LABEL[s])
    ax.set_xticks(GROUPS, [f"{g}\n{TABLE1[g]}" for g in GROUPS])
    ax.set_xlabel("group (very short, short, long tasks)")
    ax.set_ylabel(ylabel)
    ax.set_ylim(0, ax.get_ylim()[1] * 1.15)  # room for the legend above the bars
    ax.legend(ncol=3, loc="upper left", fontsize=8)


def plot(summary, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4))
    bars(ax, summary, "mean_jct_s", "mean job response time (s)")
    ax.set_title("Job response time (cf. TCDS Fig. 2)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "response.png"), dpi=110)
    plt.close(fig)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    bars(axes[0], summary, "node_share", "node-local share of tasks")
    axes[0].set_title("Data locality (cf. TCDS Fig. 3)")
    width = 0.26
    for i, s in enumerate(SCHEDULERS):
        mine = {r["group"]: r for r in summary if r["scheduler"] == s}
        xs = [g + (i - 1) * width for g in GROUPS]
        bottom = [0.0] * len(GROUPS)
        for level, colour in zip(LEVELS, ["tab:green", "tab:olive", "tab:red"]):
            vals = [mine[g][f"{level}_share"] for g in GROUPS]
            axes[1].bar(xs, vals, width, bottom=bottom, color=colour, edgecolor="white",
                        label=level if i == 0 else None)
            bottom = [b + v for b, v in zip(bottom, vals)]
        for x in xs:
            axes[1].text(x, 1.01, LABEL[s][0], ha="center", fontsize=7)
    axes[1].set_xticks(GROUPS, [str(g) for g in GROUPS])
    axes[1].set_xlabel("group; bars F(IFO), D(S), T(CDS)")
    axes[1].set_ylabel("share of tasks")
    axes[1].set_ylim(0, 1.08)
    axes[1].legend(loc="lower right", fontsize=8)
    axes[1].set_title("Where tasks read their block")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "locality.png"), dpi=110)
    plt.close(fig)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--slotflow", default=os.path.join(ROOT, "build", "slotflow"))
    p.add_argument("--seeds", type=int, default=10)
    p.add_argument("--out", default=os.path.join(HERE, "results"))
    p.add_argument("--jobs", type=int, default=2, help="runs at a time (default 2: both cores)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--arg", action="append", default=[], metavar="--FLAG=VALUE")
    p.add_argument("--from-runs", action="store_true",
                   help="run nothing: summarise OUT/runs.csv again")
    p.add_argument("--table", choices=["response", "paired", "paired-wide", "locality"],
                   help="run and write nothing: print this table of docs/results-tcds.md")
    a = p.parse_args()
    if a.table:
        sys.stdout.write(table(a.table, read_runs(os.path.join(a.out, "runs.csv"))))
        return
    if a.from_runs:
        rows = read_runs(os.path.join(a.out, "runs.csv"))
        if len({r["seed"] for r in rows}) < 2:
            sys.exit("run.py: runs.csv needs at least 2 seeds (for a confidence interval)")
    else:
        if a.seeds < 2:
            sys.exit("run.py: --seeds must be at least 2 (for a confidence interval)")
        os.makedirs(a.out, exist_ok=True)
        work = [(g, s, seed) for g in GROUPS for s in SCHEDULERS
                for seed in range(1, a.seeds + 1)]
        with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
            extra = [x for kv in a.set for x in ("--set", kv)] + a.arg
            rows = list(pool.map(lambda w: run_one(a.slotflow, *w, extra), work))
        write_csv(os.path.join(a.out, "runs.csv"), rows)
    summary = summarise(rows)
    write_csv(os.path.join(a.out, "summary.csv"), summary)
    diffs = paired(rows)
    write_csv(os.path.join(a.out, "paired.csv"), diffs)
    plot(summary, a.out)
    wrote = "" if a.from_runs else "runs.csv, "
    print(f"{len(rows)} runs; wrote {wrote}summary.csv, paired.csv, response.png, locality.png "
          f"in {a.out}")
    for r in summary:
        print(f"group {r['group']} {LABEL[r['scheduler']]:5} JCT {r['mean_jct_s']:7.2f} s "
              f"± {r['mean_jct_s_ci95']:5.2f}  node {r['node_share']:.3f} rack "
              f"{r['rack_share']:.3f} off-rack {r['off-rack_share']:.3f}  "
              f"wait {r['mean_wait_s']:.2f} s")
    for d in diffs:
        print(f"group {d['group']} paired: TCDS-DS {d['tcds_minus_delay_s']:+.2f} "
              f"± {d['tcds_minus_delay_ci95']:.2f} s, TCDS-FIFO {d['tcds_minus_fifo_s']:+.2f} "
              f"± {d['tcds_minus_fifo_ci95']:.2f} s, DS-FIFO {d['delay_minus_fifo_s']:+.2f} "
              f"± {d['delay_minus_fifo_ci95']:.2f} s")


if __name__ == "__main__":
    main()
