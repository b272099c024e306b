#!/usr/bin/python3
"""The simulator against the testbed: one slice of the FB trace run live and simulated.

    sudo experiments/live/compare.py [--seeds 5] [--lengths 0.25,1,4] [--out DIR]
    experiments/live/compare.py --table {jct,errors,replay} [--out DIR]

First `slotflow testbed calibrate` measures the testbed (task launch and flow start latencies,
TCP's payload efficiency) into calibration.toml. Then for each job length, system (duopoly,
aalo, fair = greedy scheduler + fair network) and seed, runs `slotflow live` on a testbed of its
own (namespace prefix --testbed-prefix) and `slotflow run` twice with the same flags: `sim`
with the calibration (`--config calibration.toml`: the testbed's rate, efficiency and
latencies) and `sim-plain` with only `--nic` at the testbed's rate; and compares their job
completion times with tools/compare_jct.py's functions. With --replay TIMING, also `sim-replay`:
`sim` with the live run's own placements (`--scheduler replay --set scheduler.from=` the live
run's directory, `scheduler.timing=TIMING`: `order` keeps each task's server and each server's
order, `recorded` also the live placement times), so that its error is the model's alone, not
that of placements that differ. A job length L stretches the slice:
bytes × (--traffic-scale × L) and arrivals × (--time-scale × L), so the jobs are L times as long
and overlap as much. Writes, under --out:

  calibration.toml   the testbed's measured costs (and, in comments, what was measured)
  slice-L.txt        the workload at length L: the first --coflows coflows of the trace
  L/SYSTEM/sN/live|sim|sim-plain|sim-disk|sim-replay/   each run's summary.json, jobs.csv,
                     tasks.csv
  runs.csv           one line per length, system and seed: mean and p95 JCT of each run, the
                     errors, and the machine's load average as the live run started and ended
  phases.csv         per length, system and run kind: task time summed over tasks and averaged
                     over seeds, by phase (waiting for a slot, map read+compute, shuffle, ...)
  table.md           per length, mean ± 95 % CI over seeds, per system; then the errors by
                     job length

and the CDF figure (--figure) of the longest length. A run whose jobs.csv is already there is
reused (--fresh reruns everything). Every live run is bounded by --deadline × L, and the
testbed is taken down at the end, also when a run fails or the script is interrupted.

--table runs nothing (and needs no root): it prints one of docs/results-live.md's tables from
an existing OUT/runs.csv (jct: the longest length's JCTs and errors beside the paper's; errors:
the errors by job length; replay: the errors with and without the live placements, from a
--replay run).

Bad input (a missing trace, a malformed trace header, a bad flag) exits with status 2 and a
message naming its source.
"""
import argparse
import csv
import json
import math
import os
import re
import signal
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "tools"))
import compare_jct  # noqa: E402  (read_jobs, stats)

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from confidence import mean_ci  # noqa: E402

SYSTEMS = {
    "duopoly": ["--system", "duopoly"],
    "aalo": ["--system", "aalo"],
    "fair": ["--scheduler", "greedy", "--network", "fair"],
}


class BadInput(Exception):
    pass


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--trace", default=os.path.join(REPO, "..", "shared", "traces",
                                                   "FB2010-1Hr-150-0.txt"))
    p.add_argument("--coflows", type=int, default=11, help="first N coflows of the trace")
    p.add_argument("--time-scale", type=float, default=0.25, help="arrival times multiplied by (and by each length)")
    p.add_argument("--traffic-scale", default="0.01",
                   help="bytes multiplied by (and by each length)")
    p.add_argument("--map-input-ratio", default="1")
    p.add_argument("--slot-rate", default="20MB/s")
    p.add_argument("--hosts", type=int, default=4)
    p.add_argument("--rate", default="100mbit", help="testbed link rate (tc units)")
    p.add_argument("--nic", default="100Mbps", help="the same rate in the simulator's units")
    p.add_argument("--lengths", default="1",
                   help="job lengths, comma separated: bytes and arrivals stretched by each")
    p.add_argument("--disk", default="",
                   help="also simulate with the calibration and --disk RATE (another column), "
                        "e.g. 400MB/s")
    p.add_argument("--replay", choices=["order", "recorded"], default="",
                   help="also simulate each live run's placements (scheduler replay) with this "
                        "timing, another column")
    p.add_argument("--systems", default="duopoly,aalo,fair")
    p.add_argument("--seeds", type=int, default=5)
    p.add_argument("--deadline", default="120s")
    p.add_argument("--testbed-prefix", default="sfcx")
    p.add_argument("--slotflow", default=os.path.join(REPO, "build", "slotflow"))
    p.add_argument("--out", default=os.path.join(REPO, "experiments", "live", "results"))
    p.add_argument("--figure", default=os.path.join(REPO, "docs", "img", "live-vs-sim-cdf.png"))
    p.add_argument("--fresh", action="store_true", help="rerun runs whose outputs exist")
    p.add_argument("--table", choices=["jct", "errors", "replay"],
                   help="run nothing: print this table of docs/results-live.md from OUT/runs.csv")
    return p.parse_args()


def check_args(a):
    if a.coflows < 1:
        raise BadInput("--coflows: must be at least 1")
    if not (a.time_scale > 0 and math.isfinite(a.time_scale)):
        raise BadInput("--time-scale: must be positive")
    if a.seeds < 1:
        raise BadInput("--seeds: must be at least 1")
    try:
        a.length_list = [float(x) for x in a.lengths.split(",")]
    except ValueError:
        raise BadInput(f"--lengths: expected numbers separated by commas, got {a.lengths!r}")
    if not all(x > 0 and math.isfinite(x) for x in a.length_list):
        raise BadInput("--lengths: every length must be positive")
    unknown = [s for s in a.systems.split(",") if s not in SYSTEMS]
    if unknown:
        raise BadInput(f"--systems: unknown {', '.join(unknown)} (known: {', '.join(SYSTEMS)})")
    if not re.fullmatch(r"[a-z][a-z0-9]{0,7}", a.testbed_prefix):
        raise BadInput("--testbed-prefix: expected 1-8 lower-case letters and digits")
    if not os.access(a.slotflow, os.X_OK):
        raise BadInput(f"--slotflow: {a.slotflow} is not an executable (build it first)")


# ---------------------------------------------------------------- workload

def write_slice(trace, coflows, time_scale, out):
    """The first `coflows` lines of the FB trace, arrival ms × time_scale, as a trace file."""
    try:
        with open(trace) as f:
            lines = [line.rstrip("\n") for line in f]
    except OSError as e:
        raise BadInput(f"{trace}: cannot read: {e.strerror}")
    header = lines[0].split() if lines else []
    if len(header) != 2 or not all(h.isdigit() for h in header):
        raise BadInput(f"{trace}:1: header: expected '<ports> <coflows>'")
    body = [line for line in lines[1:] if line.strip()]
    if len(body) < coflows:
        raise BadInput(f"{trace}: --coflows {coflows}: the trace has {len(body)}")
    rows = []
    for n, line in enumerate(body[:coflows], start=2):
        fields = line.split()
        if len(fields) < 3 or not fields[1].isdigit():
            raise BadInput(f"{trace}:{n}: arrival: expected whole milliseconds")
        fields[1] = str(round(int(fields[1]) * time_scale))
        rows.append(" ".join(fields))
    with open(out, "w") as f:
        f.write(f"{header[0]} {len(rows)}\n" + "\n".join(rows) + "\n")


def workload_flags(a, slice_path, seed, length):
    return ["--trace", slice_path, "--traffic-scale", f"{float(a.traffic_scale) * length:g}",
            "--map-input-ratio", a.map_input_ratio, "--slot-rate", a.slot_rate, "--seed",
            str(seed), "--quiet"]


def length_name(length):
    return f"{length:g}"


def calibrate(a):
    """The testbed's costs, measured once per results directory (--fresh measures again)."""
    path = os.path.join(a.out, "calibration.toml")
    if a.fresh or not os.path.exists(path):
        run_logged([a.slotflow, "testbed", "calibrate", "--hosts", str(a.hosts), "--rate", a.rate,
                    "--testbed-prefix", a.testbed_prefix, "--out", path],
                   os.path.join(a.out, "calibration"), 300)
    return path


# ---------------------------------------------------------------- running

def testbed_namespaces(prefix):
    out = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    names = [line.split()[0] for line in out.splitlines() if line.strip()]
    return [n for n in names if re.fullmatch(rf"{re.escape(prefix)}(sw|h\d+)", n)]


def teardown(prefix):
    """Removes this experiment's namespaces (only those of its prefix), ending what runs in
    them first, as `slotflow testbed down` does for the default prefix."""
    names = testbed_namespaces(prefix)
    pids = []
    for n in names:
        out = subprocess.run(["ip", "netns", "pids", n], capture_output=True, text=True).stdout
        pids += [int(p) for p in out.split()]
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in pids:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        if pids and sig == signal.SIGTERM:
            time.sleep(2)
    for n in names:
        subprocess.run(["ip", "netns", "del", n], capture_output=True)
    if names:
        print(f"teardown: removed {', '.join(names)}", flush=True)


def run_logged(cmd, out_dir, timeout):
    """Runs cmd, stdout and stderr to out_dir/log.txt; on timeout SIGTERM (so `live` stops its
    agents and takes its testbed down), then SIGKILL. Raises on failure."""
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "log.txt"), "w") as log:
        log.write(" ".join(cmd) + "\n")
        log.flush()
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
        try:
            code = proc.wait(timeout=timeout)
        except BaseException:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            raise
    if code != 0:
        with open(os.path.join(out_dir, "log.txt")) as log:
            tail = log.read().strip().splitlines()[-3:]
        raise RuntimeError(f"{' '.join(cmd[:2])} exited {code} ({out_dir}): {' / '.join(tail)}")


def seconds(text):
    m = re.fullmatch(r"(\d+(?:\.\d+)?)s?", text)
    if not m:
        raise BadInput(f"--deadline: expected seconds, e.g. 120s, got {text!r}")
    return float(m.group(1))


def replay_flags(system, live_dir, timing):
    """The system's flags with its task scheduler replaced by replay of the live run in
    `live_dir` (its network policy and settings kept)."""
    flags = list(SYSTEMS[system])
    if "--scheduler" in flags:
        del flags[flags.index("--scheduler"):flags.index("--scheduler") + 2]
    return flags + ["--scheduler", "replay", "--set", f"scheduler.from={live_dir}", "--set",
                    f"scheduler.timing={timing}"]


def run_pair(a, system, seed, length, slice_path, calibration):
    """The live run and the simulated runs of one system, seed and length; returns their dirs."""
    base = os.path.join(a.out, length_name(length), system, f"s{seed}")
    flags = SYSTEMS[system] + workload_flags(a, slice_path, seed, length)
    deadline = f"{seconds(a.deadline) * max(1.0, length):g}s"
    runs = {
        "live": [a.slotflow, "live", "--hosts", str(a.hosts), "--rate", a.rate, "--deadline",
                 deadline, "--testbed-prefix", a.testbed_prefix] + flags,
        "sim": [a.slotflow, "run", "--servers", str(a.hosts), "--config", calibration] + flags,
        "sim-plain": [a.slotflow, "run", "--servers", str(a.hosts), "--nic", a.nic] + flags,
    }
    if a.disk:
        runs["sim-disk"] = runs["sim"] + ["--disk", a.disk]
    if a.replay:  # after the live run, whose directory it reads
        runs["sim-replay"] = [a.slotflow, "run", "--servers", str(a.hosts), "--config",
                              calibration] + replay_flags(system, os.path.join(base, "live"),
                                                          a.replay) + \
            workload_flags(a, slice_path, seed, length)
    dirs = {}
    for kind, cmd in runs.items():
        d = os.path.join(base, kind)
        dirs[kind] = d
        if not a.fresh and os.path.exists(os.path.join(d, "jobs.csv")):
            continue
        t0 = time.time()
        timeout = seconds(deadline) + 60 if kind == "live" else 120
        run_logged(cmd + ["--out", d], d, timeout)
        if kind == "live":
            print(f"  length {length:g} {system} seed {seed}: live {time.time() - t0:.0f} s",
                  flush=True)
    return dirs


# ---------------------------------------------------------------- analysis


def read_tasks(run_dir):
    path = os.path.join(run_dir, "tasks.csv")
    try:
        with open(path, newline="") as f:
            return list(csv.DictReader(f))
    except OSError as e:
        raise BadInput(f"{path}: cannot read: {e.strerror}")


def phases(run_dir):
    """Task seconds summed over all tasks, by phase, and the megabytes read locally by maps and
    fetched by reducers. A map's placed→compute_done covers its local block read and its
    compute (live mode records the read as done at placement)."""
    sums = {"wait": 0.0, "map_read_compute": 0.0, "map_remote_read": 0.0, "shuffle": 0.0,
            "reduce_compute": 0.0, "tasks": 0, "local_read_mb": 0.0, "shuffle_mb": 0.0}
    for r in read_tasks(run_dir):
        try:
            ready, placed, read, computed = (float(r[k]) for k in
                                             ("ready_s", "placed_s", "read_done_s",
                                              "compute_done_s"))
        except (KeyError, ValueError):
            raise BadInput(f"{run_dir}/tasks.csv: task {r.get('task')}: malformed times")
        sums["tasks"] += 1
        sums["wait"] += placed - ready
        if r["stage"] == "map":
            if r["locality"] == "node":
                sums["map_read_compute"] += computed - placed
                sums["local_read_mb"] += float(r["input_bytes"]) / 1e6
            else:
                sums["map_remote_read"] += read - placed
                sums["map_read_compute"] += computed - read
        else:
            sums["shuffle"] += read - placed
            sums["shuffle_mb"] += float(r["remote_bytes"]) / 1e6
            sums["reduce_compute"] += computed - read
    return sums


def live_load(run_dir):
    """The machine's load average as the live run started and ended (summary.json)."""
    try:
        with open(os.path.join(run_dir, "summary.json")) as f:
            load = json.load(f).get("load_average", {})
    except (OSError, ValueError) as e:
        raise BadInput(f"{run_dir}/summary.json: cannot read: {e}")
    return load.get("start", float("nan")), load.get("end", float("nan"))


def analyse(results, kinds, length):
    """results: system -> seed -> kind -> run dir. Returns per-seed rows and per-system
    summaries (mean ± CI of each statistic and error; error = (sim − live) / live)."""
    rows, summary = [], {}
    for system, seeds in results.items():
        acc = {}
        for seed, dirs in sorted(seeds.items()):
            jobs = {k: compare_jct.read_jobs(dirs[k])[1] for k in kinds}
            differ = set(jobs["live"]) ^ set(jobs["sim"])
            if differ:
                raise BadInput(f"{dirs['sim']}: job sets differ from {dirs['live']}'s")
            st = {k: compare_jct.stats(jobs[k].values()) for k in kinds}
            row = {"length": length, "system": system, "seed": seed}
            for k in kinds:
                for q in ("mean", "p95"):
                    row[f"{k}_{q}_s"] = st[k][q]
                    if k != "live":
                        row[f"{k}_{q}_err"] = (st[k][q] - st["live"][q]) / st["live"][q]
            row["load_start"], row["load_end"] = live_load(dirs["live"])
            rows.append(row)
            for key, v in row.items():
                if key not in ("length", "system", "seed"):
                    acc.setdefault(key, []).append(v)
        summary[system] = {key: mean_ci(v, single=float("nan")) for key, v in acc.items()}
    return rows, summary


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def fmt_ci(m, ci, pct=False):
    if pct:
        return f"{m:+.1%} ± {ci:.1%}" if math.isfinite(ci) else f"{m:+.1%}"
    return f"{m:.2f} ± {ci:.2f}" if math.isfinite(ci) else f"{m:.2f}"


def table(summary, kinds, seeds, length):
    sims = [k for k in kinds if k != "live"]
    head = ["system", "live mean JCT (s)"] + [f"{k} mean JCT (s)" for k in sims] + \
        [f"{k} error, mean" for k in sims] + ["live p95 JCT (s)"] + \
        [f"{k} p95 JCT (s)" for k in sims] + [f"{k} error, p95" for k in sims]
    lines = [f"Job length {length:g}:", "", "| " + " | ".join(head) + " |",
             "|" + "---|" * len(head)]
    for system, s in summary.items():
        cells = [system, fmt_ci(*s["live_mean_s"])]
        cells += [fmt_ci(*s[f"{k}_mean_s"]) for k in sims]
        cells += [fmt_ci(*s[f"{k}_mean_err"], pct=True) for k in sims]
        cells += [fmt_ci(*s["live_p95_s"])] + [fmt_ci(*s[f"{k}_p95_s"]) for k in sims]
        cells += [fmt_ci(*s[f"{k}_p95_err"], pct=True) for k in sims]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines.append(f"mean ± 95 % CI over {seeds} seeds; error = (simulated − live) / live, "
                 "per seed, then averaged")
    return "\n".join(lines) + "\n"


def length_table(summaries, kinds):
    """The errors of each simulated kind by job length: summaries is length -> system ->
    statistic -> (mean, CI)."""
    sims = [k for k in kinds if k != "live"]
    head = ["system", "job length", "live mean JCT (s)"] + \
        [f"{k} error, {q}" for k in sims for q in ("mean", "p95")] + ["load average (live)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    systems = next(iter(summaries.values())).keys()
    for system in systems:
        for length, summary in summaries.items():
            s = summary[system]
            cells = [system, f"{length:g}", fmt_ci(*s["live_mean_s"])]
            cells += [fmt_ci(*s[f"{k}_{q}_err"], pct=True) for k in sims for q in ("mean", "p95")]
            cells += [f"{s['load_start'][0]:.2f}"]
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def doc_percent(m, ci):
    """An error as docs/results-live.md writes it: "−10.7 % ± 20.0 %"."""
    return f"{m:+.1%} ± {ci:.1%}".replace("%", " %").replace("-", "−")


def doc_tables(runs_csv):
    """docs/results-live.md's tables from runs.csv: {"jct": ..., "errors": ...}."""
    with open(runs_csv, newline="") as f:
        rows = list(csv.DictReader(f))
    values = {}  # (length, system) -> column -> [per seed]
    for r in rows:
        cell = values.setdefault((float(r["length"]), r["system"]), {})
        for key, v in r.items():
            if key not in ("length", "system", "seed"):
                cell.setdefault(key, []).append(float(v))
    stat = {k: {c: mean_ci(v, single=float("nan")) for c, v in cols.items()}
            for k, cols in values.items()}
    lengths = sorted({k[0] for k in stat})
    systems = list(dict.fromkeys(k[1] for k in stat))
    longest = lengths[-1]
    jct = ["| system | live mean JCT (s) | sim | error | sim-plain | error | live p95 JCT (s) | "
           "sim | error | sim-plain | error |", "|" + "---|" * 11]
    for system in systems:
        s = stat[(longest, system)]
        cells = [system]
        for q in ("mean", "p95"):
            cells += [fmt_ci(*s[f"live_{q}_s"]), fmt_ci(*s[f"sim_{q}_s"]),
                      f"**{doc_percent(*s[f'sim_{q}_err'])}**", fmt_ci(*s[f"sim-plain_{q}_s"]),
                      doc_percent(*s[f"sim-plain_{q}_err"])]
        jct.append("| " + " | ".join(cells) + " |")
    # The paper's testbed-against-simulation errors (Duopoly §6.2, Fig. 5(a)).
    jct.append("| Duopoly §6.2 | | | 4.25 % | | | | | 6.58 % (tail) | | |")
    errors = ["| system | job length | live mean JCT (s) | sim error, mean | sim error, p95 | "
              "sim-plain error, mean | sim-plain error, p95 |", "|" + "---|" * 7]
    for system in systems:
        for length in lengths:
            s = stat[(length, system)]
            errors.append(f"| {system} | {length:g} | {fmt_ci(*s['live_mean_s'])} | " + " | ".join(
                doc_percent(*s[f"{k}_{q}_err"]) for k in ("sim", "sim-plain")
                for q in ("mean", "p95")) + " |")
    replay = ["| system | job length | live mean JCT (s) | sim error, mean | sim-replay error, mean "
              "| sim error, p95 | sim-replay error, p95 |", "|" + "---|" * 7]
    for system in systems:
        for length in lengths:
            s = stat[(length, system)]
            if "sim-replay_mean_err" not in s:
                continue
            replay.append(f"| {system} | {length:g} | {fmt_ci(*s['live_mean_s'])} | " + " | ".join(
                doc_percent(*s[f"{k}_{q}_err"]) for q in ("mean", "p95")
                for k in ("sim", "sim-replay")) + " |")
    return {"jct": "\n".join(jct) + "\n", "errors": "\n".join(errors) + "\n",
            "replay": "\n".join(replay) + "\n"}


def phase_rows(results, kinds, length):
    rows = []
    for system, seeds in results.items():
        for k in kinds:
            per = [phases(dirs[k]) for dirs in seeds.values()]
            row = {"length": length, "system": system, "run": k}
            for key in per[0]:
                row[key] = round(sum(p[key] for p in per) / len(per), 3)
            rows.append(row)
    return rows


def plot(results, kinds, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    styles = {"live": ("testbed (live)", "-"), "sim": ("simulator, calibrated", "--"),
              "sim-plain": ("simulator, uncalibrated", ":"),
              "sim-disk": ("simulator, calibrated, --disk", "-."),
              "sim-replay": ("simulator, calibrated, live placements", (0, (5, 1, 1, 1)))}
    fig, axes = plt.subplots(1, len(results), figsize=(4 * len(results), 3.6), sharey=True)
    axes = axes if len(results) > 1 else [axes]
    for ax, (system, seeds) in zip(axes, results.items()):
        for k in kinds:
            v = sorted(max(x, 1e-3) for dirs in seeds.values()
                       for x in compare_jct.read_jobs(dirs[k])[1].values())
            label, ls = styles[k]
            ax.step(v, [(i + 1) / len(v) for i in range(len(v))], where="post", ls=ls,
                    label=label)
        ax.set_xscale("log")
        ax.set_title(f"{system} ({len(seeds)} seeds pooled)")
        ax.set_xlabel("job completion time (s)")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("CDF of jobs")
    axes[0].legend(loc="lower right")
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    fig.savefig(out, dpi=110)


# ---------------------------------------------------------------- main

def run_all(a, slices, calibration):
    """length -> system -> seed -> kind -> run dir."""
    results = {x: {s: {} for s in a.systems.split(",")} for x in a.length_list}
    # Seeds outermost, so that changes in the machine's load fall on every system alike.
    for seed in range(1, a.seeds + 1):
        for length in a.length_list:
            for system in results[length]:
                results[length][system][seed] = run_pair(a, system, seed, length,
                                                         slices[length], calibration)
    return results


def main():
    # SIGTERM ends the script as Ctrl-C does, through the clean-up below.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    a = parse_args()
    if a.table:
        sys.stdout.write(doc_tables(os.path.join(a.out, "runs.csv"))[a.table])
        return
    try:
        check_args(a)
        seconds(a.deadline)
        if os.geteuid() != 0:
            raise BadInput("must run as root (slotflow live makes network namespaces)")
        os.makedirs(a.out, exist_ok=True)
        slices = {}
        for length in a.length_list:
            slices[length] = os.path.join(a.out, f"slice-{length_name(length)}.txt")
            write_slice(a.trace, a.coflows, a.time_scale * length, slices[length])
        kinds = ["live", "sim", "sim-plain"] + (["sim-disk"] if a.disk else []) + \
            (["sim-replay"] if a.replay else [])
        t0 = time.time()
        try:
            calibration = calibrate(a)
            results = run_all(a, slices, calibration)
        finally:
            teardown(a.testbed_prefix)
            teardown(a.testbed_prefix + "x")
        print(f"runs: {time.time() - t0:.0f} s", flush=True)
        rows, phase, summaries, text = [], [], {}, ""
        for length in a.length_list:
            r, summaries[length] = analyse(results[length], kinds, length)
            rows += r
            phase += phase_rows(results[length], kinds, length)
            text += table(summaries[length], kinds, a.seeds, length) + "\n"
        text += "Errors by job length:\n\n" + length_table(summaries, kinds)
        write_csv(os.path.join(a.out, "runs.csv"), rows)
        write_csv(os.path.join(a.out, "phases.csv"), phase)
        with open(os.path.join(a.out, "table.md"), "w") as f:
            f.write(text)
        print(text)
        plot(results[max(a.length_list)], kinds, a.figure)
        print(f"figure: {a.figure}")
    except (BadInput, compare_jct.BadInput) as e:
        print(f"compare: error: {e}", file=sys.stderr)
        sys.exit(2)
    except RuntimeError as e:
        print(f"compare: run failed: {e}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
