#!/usr/bin/python3
"""NEAT+ against loadAware, minDist and random where placement can matter (NEAT+ §V-A3, §V-B2).

    experiments/neat/placement.py [compute] [replicas] [fanin] [coflows]
                                  [--out DIR] [--seeds N] [--flows N] [--loads 0.1,0.5,0.9]
                                  [--threads N] [--slotflow ./build/slotflow]

Each workload is run with `slotflow compare --scheduler neat,loadAware,minDist,random` at every
point (racks of 10 and of 40 on the 160-host cluster of loads-*.toml, Fair, LAS and SRPT with
unlimited priority classes, edge load 0.1-0.9), --seeds seeds each (default 5), data-mining
flow sizes, --flows flows per run (default 3000):

compute   each reading task then computes its input at 125 MB/s (the NIC's rate) on hosts of
          2 slots (`flow_compute = proportional`, `--slots 2 --slot-rate 125MB/s`), so slots
          bind and NEAT+'s free-compute fallback (§V-A1) matters;
replicas  the same, with each input block on 3 random servers (`flow_replicas = 3`): a task
          may read locally or choose among the replicas' racks and hosts;
fanin     many-to-one stages: each job's size split over 8 senders (`flow_senders = 8`) and
          read by one task, so the receiver's downlink is the bottleneck; no compute, 1000 slots;
coflows   the FB trace as jobs under Varys and TCF (NEAT+'s coflow predictor), jobs in SJF order
          as in Duopoly's comparison with NEAT, on the default cluster (50 servers x 4 slots,
          1 Gbps; --seeds seeds; no load or rack grid): once with
          map tasks reading their blocks over the network (so locality decides), once with map
          reads as compute only (`--map-reads compute-only`, so only where reduce tasks go,
          and so the shuffle, differs).

A finished point (DIR/WORKLOAD/POINT/compare.csv) is not run again, so an interrupted run
resumes. Writes DIR/table.md (mean and p99 completion time ± 95 % CI over seeds, each
baseline's over NEAT+'s taken seed by seed, and at load 0.7 the ratio per flow-size decade as
NEAT+ Fig. 3 splits it) and DIR/placement.png. DIR defaults to out/neat/placement.
"""
import argparse
import csv
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from confidence import mean_ci  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PLACEMENTS = ["neat", "loadAware", "minDist", "random"]
BASELINES = PLACEMENTS[1:]
LABEL = {"neat": "NEAT+", "loadAware": "loadAware", "minDist": "minDist", "random": "random"}
NETWORKS = ["fair", "las", "srpt"]
NET_LABEL = {"fair": "Fair (DCTCP)", "las": "LAS (L2DCT)", "srpt": "SRPT (PASE)",
             "varys": "Varys", "tcf": "TCF"}
COMPUTE = ["--slots", "2", "--slot-rate", "125MB/s", "--set", "workload.flow_compute=proportional"]
WORKLOADS = {
    "compute": COMPUTE,
    "replicas": COMPUTE + ["--set", "workload.flow_replicas=3"],
    "fanin": ["--slots", "1000", "--set", "workload.flow_senders=8"],
}
DECADES = [(1, 1e3), (1e3, 1e4), (1e4, 1e5), (1e5, 1e6), (1e6, 1e7), (1e7, 1e8), (1e8, 1e9 + 1)]
DECADE_LABEL = ["<1KB", "1-10KB", "10-100KB", "0.1-1MB", "1-10MB", "10-100MB", "0.1-1GB"]
SIZE_LOAD = 0.7  # the load of the per-size tables


def cluster(rack):
    """The 160-host cluster with racks of `rack` hosts and 10 Gbps rack links."""
    return ["--servers", "160", "--nic", "1Gbps", "--topology", "two-tier",
            "--servers-per-rack", str(rack), "--oversubscription", str(rack / 10)]


def compare(args, out, cmd):
    """Runs one compare point unless its results are there; returns its per-seed rows."""
    done = os.path.join(out, "compare.csv")
    if not os.path.exists(done):
        shutil.rmtree(out + ".part", ignore_errors=True)  # an interrupted attempt
        cmd = [args.slotflow, "compare", "--quiet", "--scheduler", ",".join(PLACEMENTS),
               "--seeds", str(args.seeds), "--out", out + ".part", *cmd]
        if args.threads:
            cmd += ["--threads", str(args.threads)]
        print("+", " ".join(cmd), file=sys.stderr)
        if subprocess.run(cmd, cwd=ROOT).returncode != 0:
            sys.exit(f"placement: {' '.join(cmd)} failed")
        os.replace(out + ".part", out)
    rows = list(csv.DictReader(open(done)))
    for r in rows:
        if r["unfinished_jobs"] != "0":
            sys.exit(f"placement: {out}: {r['variant']} seed {r['seed']} left jobs unfinished")
    return rows


def by_placement(rows, stat):
    """placement -> {seed: value of `stat`}."""
    out = {}
    for r in rows:
        out.setdefault(r["variant"], {})[r["seed"]] = float(r[stat])
    return out


def ratio(base, ours):
    """base / ours seed by seed (> 1: NEAT+ faster), as mean ± CI."""
    return [base[k] / ours[k] for k in ours if ours[k] > 0]


def cell(values, scale=1.0, digits=1):
    m, h = mean_ci([v * scale for v in values])
    return f"{m:.{digits}f} ± {h:.{digits}f}"


def size_ratios(out, seeds):
    """Per decade: {baseline: [mean JCT / NEAT+'s mean JCT, per seed]}."""
    per = [{b: [] for b in BASELINES} for _ in DECADES]
    for seed in range(1, seeds + 1):
        means = {}
        for p in PLACEMENTS:
            rows = list(csv.DictReader(open(os.path.join(out, p, f"seed-{seed}", "jobs.csv"))))
            for d, (lo, hi) in enumerate(DECADES):
                v = [float(r["jct_s"]) for r in rows if lo <= float(r["bytes"]) < hi]
                means[(p, d)] = sum(v) / len(v) if v else None
        for d in range(len(DECADES)):
            for b in BASELINES:
                if means[("neat", d)] and means[(b, d)] is not None:
                    per[d][b].append(means[(b, d)] / means[("neat", d)])
    return per


def flow_workload(args, name, lines, best):
    loads = [float(x) for x in args.loads.split(",")]
    plot = {}
    for rack in [10, 40]:
        for net in NETWORKS:
            header = ("| load | " + " | ".join(LABEL[p] for p in PLACEMENTS) + " | " +
                      " | ".join(f"{LABEL[b]} / NEAT+" for b in BASELINES) + " |")
            sep = "|---" * (1 + len(PLACEMENTS) + len(BASELINES)) + "|"
            tables = {"mean_jct_s": [header, sep], "p99_jct_s": [header, sep]}
            for load in loads:
                out = os.path.join(args.out, name, f"racks{rack}-{net}-load{load}")
                cmd = ["--generator", "flows", "--flow-sizes", "datamining", "--flow-load",
                       str(load), "--flows", str(args.flows), *cluster(rack), "--network", net,
                       *WORKLOADS[name]]
                if net != "fair":
                    cmd += ["--set", "network.queues=unlimited"]
                rows = compare(args, out, cmd)
                for stat, table in tables.items():
                    v = by_placement(rows, stat)
                    ratios = [ratio(v[b], v["neat"]) for b in BASELINES]
                    table.append(f"| {load} | " +
                                 " | ".join(cell(list(v[p].values()), 1e3) for p in PLACEMENTS) +
                                 " | " + " | ".join(cell(r, 1, 2) for r in ratios) + " |")
                    if stat == "mean_jct_s":
                        plot.setdefault((rack, net), {})[load] = {
                            p: mean_ci([x * 1e3 for x in v[p].values()]) for p in PLACEMENTS}
                        for b, r in zip(BASELINES, ratios):
                            m, _ = mean_ci(r)
                            best.append((m, f"{name}, racks of {rack}, {net}, load {load}, "
                                            f"against {LABEL[b]}"))
            lines += [f"#### {name}: {NET_LABEL[net]}, racks of {rack}", "",
                      "Mean completion time (ms):", "", *tables["mean_jct_s"], "",
                      "p99 completion time (ms):", "", *tables["p99_jct_s"], ""]
            if SIZE_LOAD in loads:
                per = size_ratios(os.path.join(args.out, name,
                                               f"racks{rack}-{net}-load{SIZE_LOAD}"), args.seeds)
                lines += [f"By size at load {SIZE_LOAD}, each baseline's mean over NEAT+'s:", "",
                          "| size | " + " | ".join(f"{LABEL[b]} / NEAT+" for b in BASELINES) +
                          " |", "|---" * (1 + len(BASELINES)) + "|"]
                for d, label in enumerate(DECADE_LABEL):
                    if per[d]["random"]:
                        lines.append(f"| {label} | " + " | ".join(
                            cell(per[d][b], 1, 2) if per[d][b] else "" for b in BASELINES) + " |")
                lines.append("")
    return plot


def coflows(args, lines, best):
    trace = os.path.join(ROOT, "..", "shared", "traces", "FB2010-1Hr-150-0.txt")
    header = ("| set-up | " + " | ".join(LABEL[p] for p in PLACEMENTS) + " | " +
              " | ".join(f"{LABEL[b]} / NEAT+" for b in BASELINES) + " |")
    table = [header, "|---" * (1 + len(PLACEMENTS) + len(BASELINES)) + "|"]
    p99 = [header, table[1]]
    for reads in ["network", "compute-only"]:
        for net in ["varys", "tcf"]:
            out = os.path.join(args.out, "coflows", net if reads == "network" else f"{net}-{reads}")
            rows = compare(args, out, ["--trace", args.trace or trace, "--network", net,
                                       "--map-reads", reads, "--order", "sjf"])
            for stat, t in [("mean_jct_s", table), ("p99_jct_s", p99)]:
                v = by_placement(rows, stat)
                ratios = [ratio(v[b], v["neat"]) for b in BASELINES]
                t.append(f"| {NET_LABEL[net]}, map reads {reads} | " +
                         " | ".join(cell(list(v[p].values())) for p in PLACEMENTS) + " | " +
                         " | ".join(cell(r, 1, 2) for r in ratios) + " |")
                if stat == "mean_jct_s":
                    for b, r in zip(BASELINES, ratios):
                        best.append((mean_ci(r)[0],
                                     f"coflows, {net}, map reads {reads}, against {LABEL[b]}"))
    lines += ["#### coflows: the FB trace as jobs", "", "Mean job completion time (s):", "",
              *table, "", "p99 (s):", "", *p99, ""]


def plot_all(out, plots):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    rows = [(name, rack) for name in plots for rack in [10, 40]]
    fig, axes = plt.subplots(len(rows), 3, figsize=(14, 3.6 * len(rows)), squeeze=False)
    for row, (name, rack) in zip(axes, rows):
        for ax, net in zip(row, NETWORKS):
            points = plots[name][(rack, net)]
            loads = sorted(points)
            for p in PLACEMENTS:
                ax.errorbar(loads, [points[l][p][0] for l in loads],
                            yerr=[points[l][p][1] for l in loads], marker="o", capsize=3,
                            label=LABEL[p])
            ax.set_title(f"{name}: {NET_LABEL[net]}, racks of {rack}", fontsize=9)
            ax.set_xlabel("edge load")
            ax.set_ylabel("mean completion (ms)")
            ax.grid(alpha=0.3)
    axes[0][0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "placement.png"), dpi=90)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    every = ["compute", "replicas", "fanin", "coflows"]
    parser.add_argument("workloads", nargs="*", help="any of " + ", ".join(every) + " (default: all)")
    parser.add_argument("--out", default=os.path.join("out", "neat", "placement"))
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--flows", type=int, default=3000, help="flows per run")
    parser.add_argument("--loads", default="0.1,0.3,0.5,0.7,0.9")
    parser.add_argument("--threads", type=int)
    parser.add_argument("--trace", help="the FB trace, if not at ../shared/traces/")
    parser.add_argument("--slotflow", default="./build/slotflow")
    args = parser.parse_args()
    for name in args.workloads:
        if name not in every:
            parser.error(f"unknown workload '{name}' (known: {', '.join(every)})")
    args.workloads = args.workloads or every
    os.makedirs(args.out, exist_ok=True)
    lines = [f"NEAT+ against its baselines: {args.seeds} seeds, {args.flows} flows per run, "
             "mean ± 95 % CI over seeds; ratios > 1: NEAT+ faster.", ""]
    best, plots = [], {}
    for name in args.workloads:
        if name == "coflows":
            coflows(args, lines, best)
        else:
            plots[name] = flow_workload(args, name, lines, best)
    best.sort(reverse=True)
    lines += ["Largest mean ratios (a baseline's mean over NEAT+'s):", ""]
    lines += [f"- {m:.2f}: {where}" for m, where in best[:5]]
    text = "\n".join(lines) + "\n"
    with open(os.path.join(args.out, "table.md"), "w") as f:
        f.write(text)
    print(text)
    if plots:
        plot_all(args.out, plots)


if __name__ == "__main__":
    main()
