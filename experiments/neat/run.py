#!/usr/bin/python3
"""NEAT+'s evaluation (NEAT+ §II Fig. 3, §VI), run, plotted and tabulated.

    experiments/neat/run.py loads-datamining | loads-websearch | fig3 | accuracy
                            [--out DIR] [--seeds N] [--threads N] [--slotflow ./build/slotflow]
    experiments/neat/run.py loads-datamining | loads-websearch | fig3 --table-from FILE

loads-*   `slotflow sweep experiments/neat/loads-*.toml`: NEAT+ (every server a candidate, and
          kept to the sender's rack), loadAware and minDist under Fair, LAS and SRPT at loads
          0.1-0.9, 5 seeds. Writes DIR/results.csv (the sweep's, one row per run), DIR/loads.png
          (mean FCT against load) and DIR/table.md (mean FCT ± 95 % CI, and the better
          baseline's mean FCT over NEAT+'s, taken seed by seed).
fig3      `slotflow compare --scheduler minDist,loadAware` under Fair and under SRPT on the
          data-mining flows at load 0.5 (the paper gives no load; ours), 5 seeds, both rack
          sizes. Writes DIR/results.csv (per rack size, policy, flow-size decade, placement and
          seed: the flows and their mean FCT, laid out as a sweep's results.csv), DIR/fig3.png
          and DIR/table.md: per flow-size decade, minDist's mean FCT over loadAware's (< 1:
          minDist better), taken seed by seed, mean ± 95 % CI over seeds.
accuracy  NEAT+'s own prediction of each transfer it places (objective = own, the decision
          log's predicted_s) against the transfer's simulated time (tasks.csv: read_done -
          placed), under each network policy: on random link states of 8 servers with one new
          transfer and nothing after it (--scenarios per policy), and over whole runs (each flow
          policy on the data-mining flows at load 0.5, each coflow policy on the FB trace's
          jobs). Writes DIR/accuracy.png (CDFs of the relative error) and DIR/table.md.

--table-from FILE runs and writes nothing: it prints the tables of a results.csv of loads-* or
fig3 kept elsewhere (experiments/neat/results/<experiment>.csv), as docs/results-neat.md shows
them.

DIR defaults to out/neat/<experiment>. The cluster is the one of loads-*.toml: 160 hosts, 1 Gbps
edge, one 10 Gbps link between each rack and the core, racks of 10 hosts (non-blocking) and, for
loads-datamining and fig3, also of 40 (4:1). Needs Debian's python3-matplotlib.
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from confidence import mean_ci  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCHEDULERS = ["neat", "neat-rack", "loadAware", "minDist"]
LABEL = {"neat": "NEAT+", "neat-rack": "NEAT+ (rack)", "loadAware": "loadAware",
         "minDist": "minDist"}
NETWORKS = ["fair", "las", "srpt"]
# Run with unlimited priority classes in the accuracy runs, as the predictor assumes (Aalo keeps
# its own queues: they are its design).
IDEAL = ["las", "srpt", "tcf", "coflow-fifo"]
NET_LABEL = {"fair": "Fair (DCTCP)", "las": "LAS (L2DCT)", "srpt": "SRPT (PASE)"}


def cluster(rack):
    """The 160-host cluster with racks of `rack` hosts and 10 Gbps rack links."""
    return ["--servers", "160", "--slots", "1000", "--nic", "1Gbps", "--topology", "two-tier",
            "--servers-per-rack", str(rack), "--oversubscription", str(rack / 10)]


DECADES = [(1, 1e3), (1e3, 1e4), (1e4, 1e5), (1e5, 1e6), (1e6, 1e7), (1e7, 1e8), (1e8, 1e9 + 1)]
DECADE_LABEL = ["<1KB", "1-10KB", "10-100KB", "0.1-1MB", "1-10MB", "10-100MB", "0.1-1GB"]


def fmt_ci(values, scale=1.0, digits=3):
    m, h = mean_ci([v * scale for v in values])
    return f"{m:.{digits}f} ± {h:.{digits}f}"


def run(cmd):
    print("+", " ".join(cmd), file=sys.stderr)
    r = subprocess.run(cmd, cwd=ROOT)
    if r.returncode != 0:
        sys.exit(f"neat: {cmd[0]} exited with {r.returncode}")


def loads(args, name):
    sweep = os.path.join(HERE, f"{name}.toml")
    if args.flows != 20000 or args.seeds != 5:
        # A smaller grid: the sweep file with its flows per run and seeds replaced.
        text = open(sweep).read()
        text = re.sub(r"(?m)^flows = 20000$", f"flows = {args.flows}", text)
        text = re.sub(r"(?m)^seeds = 5$", f"seeds = {args.seeds}", text)
        sweep = os.path.join(os.path.abspath(args.out), f"{name}.toml")
        with open(sweep, "w") as f:
            f.write(text)
    start = time.time()
    cmd = [args.slotflow, "sweep", sweep, "--out", args.out]
    if args.threads:
        cmd += ["--threads", str(args.threads)]
    run(cmd)
    wall = time.time() - start
    data = loads_data(os.path.join(args.out, "results.csv"))
    lines = [f"Mean FCT (ms, mean ± 95 % CI over seeds) and the better baseline's mean FCT over "
             f"NEAT+'s (seed by seed; > 1: NEAT+ faster), `{name}`; sweep wall time {wall:.0f} s.",
             ""]
    write_table(args.out, lines + loads_table(data))
    racks = sorted({k[0] for k in data})
    load_values = sorted({k[1] for k in data})
    plot_loads(args.out, data, racks, load_values, name)


def loads_data(path):
    """A loads-* sweep's results.csv as (racks of, load, scheduler, network) -> {seed: mean
    FCT}."""
    data = {}
    for r in csv.DictReader(open(path, newline="")):
        if r["unfinished_jobs"] != "0":
            sys.exit(f"neat: {r['variant']} seed {r['seed']} left flows unfinished")
        sched, net = r["variant"].rsplit("-", 1)  # neat-rack-fair: neat-rack, fair
        rack = int(r.get("cluster.servers_per_rack", 10))
        key = (rack, float(r["workload.flow_load"]), sched, net)
        data.setdefault(key, {})[r["seed"]] = float(r["mean_jct_s"])
    return data


def loads_table(data):
    """Per rack size and network policy: mean FCT per load and placement, and the better
    baseline's mean FCT over NEAT+'s and NEAT+ (rack)'s, seed by seed."""
    lines = []
    for rack in sorted({k[0] for k in data}):
        for net in NETWORKS:
            lines += [f"**{NET_LABEL[net]}, racks of {rack}**", "",
                      "| load | NEAT+ | NEAT+ (rack) | loadAware | minDist | best baseline / NEAT+ "
                      "| best baseline / NEAT+ (rack) |",
                      "|---|---|---|---|---|---|---|"]
            for load in sorted({k[1] for k in data}):
                cells = [fmt_ci(list(data[(rack, load, s, net)].values()), 1e3) for s in SCHEDULERS]
                ratios = []
                for s in ["neat", "neat-rack"]:
                    ours = data[(rack, load, s, net)]
                    best = [min(data[(rack, load, b, net)][k] for b in ["loadAware", "minDist"])
                            for k in ours]
                    ratios.append(fmt_ci([b / ours[k] for b, k in zip(best, ours)], 1, 3))
                lines.append(f"| {load} | " + " | ".join(cells + ratios) + " |")
            lines.append("")
    return lines


def plot_loads(out, data, racks, load_values, name):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(len(racks), 3, figsize=(14, 4 * len(racks)), squeeze=False)
    for row, rack in zip(axes, racks):
        for ax, net in zip(row, NETWORKS):
            for s in SCHEDULERS:
                ms = [mean_ci([v * 1e3 for v in data[(rack, l, s, net)].values()])
                      for l in load_values]
                ax.errorbar(load_values, [m for m, _ in ms], yerr=[h for _, h in ms], marker="o",
                            capsize=3, label=LABEL[s])
            ax.set_title(f"{NET_LABEL[net]}, racks of {rack}")
            ax.set_xlabel("network load")
            ax.set_ylabel("mean FCT (ms)")
            ax.grid(alpha=0.3)
    axes[0][0].legend()
    fig.suptitle(f"NEAT+ against its baselines, {name.split('-')[1]} flows, 160 hosts")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "loads.png"), dpi=100)


def write_table(out, lines):
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out, "table.md"), "w") as f:
        f.write(text)
    print(text)


def read_tasks(path):
    """(size, FCT) per flow of a run's tasks.csv."""
    out = []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            out.append((float(r["input_bytes"]), float(r["finish_s"]) - float(r["ready_s"])))
    return out


FIG3_CASES = [(r, n) for r in [10, 40] for n in ["fair", "srpt"]]
FIG3_COLUMNS = ["point", "cluster.servers_per_rack", "network.policy", "flow_size",
                "variant_index", "variant", "seed", "flows", "mean_fct_s"]


def fig3(args):
    rows = []  # FIG3_COLUMNS: the flows of one decade in one run and their mean FCT
    for rack, net in FIG3_CASES:
        out = os.path.join(args.out, f"racks{rack}-{net}")
        cmd = [args.slotflow, "compare", "--quiet", "--generator", "flows", "--flow-sizes",
               "datamining", "--flow-load", "0.5", "--flows", str(args.flows), *cluster(rack),
               "--network", net, "--scheduler", "minDist,loadAware", "--set", "scheduler.load=bytes",
               "--set", "scheduler.busy_ties=fewer-running", "--seeds", str(args.seeds),
               "--out", out]
        if net != "fair":
            cmd += ["--set", "network.queues=unlimited"]
        run(cmd)
        fct = {(s, seed): read_tasks(os.path.join(out, s, f"seed-{seed}", "tasks.csv"))
               for s in ["minDist", "loadAware"] for seed in range(1, args.seeds + 1)}
        for d, (lo, hi) in enumerate(DECADES):
            point = len(rows) // (2 * args.seeds)
            for v, s in enumerate(["minDist", "loadAware"]):
                for seed in range(1, args.seeds + 1):
                    times = [t for size, t in fct[(s, seed)] if lo <= size < hi]
                    rows.append([point, rack, net, DECADE_LABEL[d], v, s, seed, len(times),
                                 repr(sum(times) / len(times)) if times else ""])
    path = os.path.join(args.out, "results.csv")
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(FIG3_COLUMNS)
        w.writerows(rows)
    per = fig3_data(path)
    lines = ["minDist's mean FCT over loadAware's per flow size (mean ± 95 % CI over "
             f"{args.seeds} seeds; < 1: minDist better), data-mining flows at load 0.5, racks of "
             "10 (non-blocking) and 40 (4:1).", ""]
    write_table(args.out, lines + fig3_table(per))
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, 2, figsize=(11, 7), sharey="row")
    for row, rack in zip(axes, [10, 40]):
        for ax, net in zip(row, ["srpt", "fair"]):
            ms = [mean_ci(per[(rack, net)][d]) for d in range(len(DECADES))]
            ax.bar(DECADE_LABEL, [m for m, _ in ms], yerr=[h for _, h in ms], capsize=3)
            ax.axhline(1, color="k", lw=0.8)
            ax.set_title(f"{'SRPT' if net == 'srpt' else 'Fair'}, racks of {rack}")
            ax.tick_params(axis="x", rotation=30)
        row[0].set_ylabel("FCT minDist / FCT loadAware")
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "fig3.png"), dpi=100)


def fig3_data(path):
    """fig3's results.csv as (racks of, network) -> decade -> [minDist's mean FCT over
    loadAware's, per seed] (NaN for a seed without flows of that size)."""
    mean = {}  # (racks of, network, decade, placement) -> {seed: mean FCT}
    for r in csv.DictReader(open(path, newline="")):
        key = (int(r["cluster.servers_per_rack"]), r["network.policy"],
               DECADE_LABEL.index(r["flow_size"]), r["variant"])
        mean.setdefault(key, {})[r["seed"]] = float(r["mean_fct_s"] or "nan")
    per = {}
    for (rack, net, d, s), values in mean.items():
        if s == "minDist":
            other = mean[(rack, net, d, "loadAware")]
            per.setdefault((rack, net), {})[d] = [values[k] / other[k] for k in values]
    return per


def fig3_table(per):
    lines = ["| flow size | Fair, racks of 10 | SRPT, racks of 10 | Fair, racks of 40 "
             "| SRPT, racks of 40 |", "|---|---|---|---|---|"]
    for d, label in enumerate(DECADE_LABEL):
        cells = [fmt_ci(per[case][d]) for case in FIG3_CASES]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return lines


def predictions(log_path):
    """(job index, stage index, task index) -> (server, NEAT+'s predicted_s), for the transfers
    it placed by prediction."""
    pred = {}
    with open(log_path) as f:
        for line in f:
            if '"place"' not in line:
                continue
            e = json.loads(line)
            why = e.get("why", {})
            if e.get("event") == "place" and why.get("rule") == "predicted":
                pred[(e["job"], e["stage"], e["index"])] = (e["server"], why["predicted_s"])
    return pred


def accuracy_run(args, net, workload, out):
    """Relative errors of NEAT+'s predictions under `net`. tasks.csv lists tasks in id order,
    so jobs appear in index order; a job's stages are read, or map then reduce."""
    os.makedirs(out, exist_ok=True)
    log = os.path.join(out, "decisions.jsonl")
    ideal = ["--set", "network.queues=unlimited"] if net in IDEAL else []
    run([args.slotflow, "run", "--quiet", "--scheduler", "neat", "--network", net,
         "--set", "scheduler.objective=own", *ideal, "--log", log, "--out", out, *workload])
    pred = predictions(log)
    errors = []
    job_index = {}
    with open(os.path.join(out, "tasks.csv"), newline="") as f:
        for r in csv.DictReader(f):
            j = job_index.setdefault(r["job"], len(job_index))
            key = (j, 1 if r["stage"] == "reduce" else 0, int(r["task"]))
            if key not in pred:
                continue
            server, p = pred[key]
            if server != int(r["server"]):
                sys.exit(f"neat: {log} and tasks.csv disagree on job {r['job']}")
            actual = float(r["read_done_s"]) - float(r["placed_s"])
            if actual > 1e-9 and float(r["remote_bytes"]) > 0:
                errors.append((p - actual) / actual)
    os.remove(log)
    return errors


def scenario_file(rng, coflows):
    """A random link state on 8 servers at 1 Gbps: background transfers from t = 0 between
    random pinned servers (flows, or coflows of 1-4 flows), and at 1 ms a new job whose map is
    on server 0 (no slots) and whose reduce task NEAT+ places on one of servers 1-7."""
    log_size = lambda: int(10 ** rng.uniform(6, 9))  # 1 MB .. 1 GB, log-uniform
    lines = ["[cluster]", 'nic = "1Gbps"', "replicas = 1",
             "[[cluster.class]]", 'name = "sender"', "count = 1", "slots = 0",
             "[[cluster.class]]", 'name = "rest"', "count = 7", "slots = 1"]
    for k in range(rng.randint(1, 6 if coflows else 12)):
        src = rng.randrange(8)
        dsts = [rng.choice([d for d in range(8) if d != src])
                for _ in range(rng.randint(1, 4) if coflows else 1)]
        lines += ["[[job]]", f'name = "bg{k}"', "submit = 0",
                  "  [[job.stage]]", '  name = "map"', "  tasks = 1", "  compute = 0",
                  f"  servers = [{src}]",
                  "  [[job.stage]]", '  name = "reduce"', '  parents = ["map"]',
                  f"  tasks = {len(dsts)}", f"  input = {log_size()}", "  compute = 0",
                  f"  servers = {dsts}"]
    lines += ["[[job]]", 'name = "new"', '  submit = "1ms"',
              "  [[job.stage]]", '  name = "map"', "  tasks = 1", "  compute = 0",
              "  servers = [0]",
              "  [[job.stage]]", '  name = "reduce"', '  parents = ["map"]', "  tasks = 1",
              f"  input = {log_size()}", "  compute = 0"]
    return "\n".join(lines) + "\n"


def static_error(args, net, seed, work):
    import random
    rng = random.Random(f"{net}-{seed}")
    path = os.path.join(work, f"{net}-{seed}")
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "jobs.toml"), "w") as f:
        f.write(scenario_file(rng, net in ["coflow-fifo", "aalo", "tcf"]))
    ideal = ["--set", "network.queues=unlimited"] if net in IDEAL else []
    log = os.path.join(path, "log.jsonl")
    subprocess.run([args.slotflow, "run", "--quiet", "--jobs", os.path.join(path, "jobs.toml"),
                    "--scheduler", "neat", "--network", net, "--set", "scheduler.objective=own",
                    *ideal, "--log", log, "--out", path], cwd=ROOT, check=True)
    pred = [p for (j, st, i), (srv, p) in predictions(log).items()]
    with open(os.path.join(path, "tasks.csv"), newline="") as f:
        row = [r for r in csv.DictReader(f) if r["job"] == "new" and r["stage"] == "reduce"][0]
    actual = float(row["read_done_s"]) - float(row["placed_s"])
    return (pred[0] - actual) / actual


def accuracy_static(args):
    import concurrent.futures
    import shutil
    import tempfile
    work = tempfile.mkdtemp(prefix="neat-accuracy-")
    nets = ["fcfs", "fair", "las", "srpt", "coflow-fifo", "aalo", "tcf"]
    curves = {}
    with concurrent.futures.ThreadPoolExecutor(args.threads or os.cpu_count()) as pool:
        for net in nets:
            curves[net] = sorted(pool.map(lambda k: static_error(args, net, k, work),
                                          range(1, args.scenarios + 1)))
    shutil.rmtree(work)
    return curves


def error_row(net, wname, e):
    q = lambda p: e[min(len(e) - 1, int(p * len(e)))]
    within = sum(1 for v in e if abs(v) <= 0.1) / len(e)
    exact = sum(1 for v in e if abs(v) <= 1e-6) / len(e)
    return (f"| {net} | {wname} | {len(e)} | {q(0.5):+.1%} | {q(0.1):+.1%} | {q(0.9):+.1%} "
            f"| {exact:.1%} | {within:.1%} |")


def accuracy(args):
    flows = ["--generator", "flows", "--flow-sizes", "datamining", "--flow-load", "0.5",
             "--flows", str(args.flows), "--seed", "1", *cluster(10)]
    trace = os.path.join(ROOT, "..", "shared", "traces", "FB2010-1Hr-150-0.txt")
    jobs = ["--trace", args.trace or trace, "--seed", "1"]
    cases = [(n, "flows", flows) for n in ["fcfs", "fair", "las", "srpt"]]
    cases += [(n, "FB jobs", jobs) for n in ["coflow-fifo", "aalo", "tcf"]]
    lines = ["NEAT+'s predicted completion of each transfer it places (objective = own) against "
             "the simulated one: relative error (predicted − simulated) / simulated. *Random "
             f"states*: {args.scenarios} random link states per policy on 8 servers, one new "
             "transfer, nothing arriving after it. *flows* / *FB jobs*: every transfer NEAT+ "
             "placed in a whole run (data-mining flows at load 0.5 on the 160-host cluster; the FB "
             "trace as jobs on 50 × 4 slots), later arrivals included.", "",
             "| network | scenarios | transfers | median | p10 | p90 | exact | within ±10 % |",
             "|---|---|---|---|---|---|---|---|"]
    curves = {}
    for net, e in accuracy_static(args).items():
        lines.append(error_row(net, "random states", e))
        curves[f"{net}, random states"] = e
    for net, wname, wl in cases:
        e = sorted(accuracy_run(args, net, wl, os.path.join(args.out, net)))
        if not e:
            sys.exit(f"neat: no predicted transfers under {net}")
        lines.append(error_row(net, wname, e))
        curves[f"{net}, {wname}"] = e
    write_table(args.out, lines)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 2, figsize=(12, 4), sharey=True)
    for label, e in curves.items():
        ax = axes[0] if "random" in label else axes[1]
        ax.plot([max(-1, min(2, v)) for v in e], [(i + 1) / len(e) for i in range(len(e))],
                label=label)
    for ax in axes:
        ax.set_xlabel("(predicted − simulated) / simulated, clipped to [−1, 2]")
        ax.axvline(0, color="k", lw=0.8)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    axes[0].set_ylabel("CDF of transfers")
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "accuracy.png"), dpi=110)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("experiment", choices=["loads-datamining", "loads-websearch", "fig3",
                                               "accuracy"])
    parser.add_argument("--out")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--threads", type=int)
    parser.add_argument("--flows", type=int, default=20000, help="flows per run")
    parser.add_argument("--scenarios", type=int, default=300,
                        help="accuracy: random link states per policy")
    parser.add_argument("--trace", help="the FB trace, if not at ../shared/traces/")
    parser.add_argument("--slotflow", default="./build/slotflow")
    parser.add_argument("--table-from", metavar="FILE",
                        help="run and write nothing: print the tables of this results.csv")
    args = parser.parse_args()
    if args.table_from:
        if args.experiment.startswith("loads"):
            lines = loads_table(loads_data(args.table_from))
        elif args.experiment == "fig3":
            lines = fig3_table(fig3_data(args.table_from))
        else:
            parser.error("--table-from: loads-datamining, loads-websearch or fig3")
        print("\n".join(lines).rstrip("\n"))
        return
    args.out = args.out or os.path.join("out", "neat", args.experiment)
    os.makedirs(args.out, exist_ok=True)
    if args.experiment.startswith("loads"):
        loads(args, args.experiment)
    elif args.experiment == "fig3":
        fig3(args)
    else:
        accuracy(args)


if __name__ == "__main__":
    main()
