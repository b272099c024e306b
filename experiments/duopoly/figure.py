#!/usr/bin/python3
"""One figure of Duopoly's evaluation (Duopoly §6): run its sweep, then plot and tabulate it.

    experiments/duopoly/figure.py fig7 [--out DIR] [--threads N] [--trace FILE] [--plot-only]
    experiments/duopoly/figure.py fig7 --ablations [--figure-out DIR] [--out DIR] [--threads N]
                                       [--trace FILE] [--plot-only]
    experiments/duopoly/figure.py fig7 --table-from experiments/duopoly/results/fig7.csv
    experiments/duopoly/figure.py fig7 --ablations --table-from FILE [--figure-table-from FILE]
    experiments/duopoly/figure.py sensitivity --readings --table-from FILE
    experiments/duopoly/figure.py summary --table-from experiments/duopoly/results
    experiments/duopoly/figure.py fig7 --isolate uncongested-maps-any [--out DIR] [--threads N]
                                       [--trace FILE] [--plot-only] [--table-from FILE]

Runs `slotflow sweep experiments/duopoly/<fig>-*.toml` (from the repository root, with
./build/slotflow) into DIR (default out/duopoly/<fig>), then writes DIR/<fig>.png (mean, p95
and p99 JCT, mean ± 95 % CI over the seeds, per system and x value) and DIR/table.md (the same
numbers and Duopoly's reductions against NEAT and Aalo, each taken seed by seed), and prints the
table and the sweep's wall time. The sweep resumes if DIR already holds part of it.

With --ablations (Figs. 7-12) it runs the same sweep with the ablations of Fig. 6 in place of
the figure's systems (duopoly-IC, -IM, -IF, -IA) into DIR (default out/duopoly/<fig>-ablations),
and writes DIR/table.md: at each x the mean JCT of every ablation, with Duopoly and Duopoly-I
from the figure's own sweep (--figure-out, default out/duopoly/<fig>, if it has run), ordered fastest first ('<'
where two neighbours' 95 % intervals do not overlap, '≈' where they do).

With --isolate NAME it runs the figure's sweep with Duopoly alone and Duopoly with one reading
changed (ISOLATIONS below), into DIR (default out/duopoly/<fig>-<NAME>), and writes DIR/table.md:
at each x both mean JCTs and the change, seed by seed (paired), with both runs' slot use and
nats' share of rounds that placed nothing.

A sweep file that lists nats' branches (`stats`) gets a second table: at each x the share of
nats' rounds taken by each branch of Alg. 3 and Alg. 4 (docs/decision-log.md names them).

`summary --table-from DIR` prints the summary of Figs. 7-12 against the paper from DIR's
fig7.csv .. fig12.csv: Duopoly's smallest and largest reduction of mean and p99 JCT against
Aalo and NEAT over each figure's x values (each reduction taken seed by seed, as in the
figure's own table).

--table-from FILE runs and writes nothing: it prints the table of a sweep's results.csv kept
elsewhere (experiments/duopoly/results/<name>.csv), as docs/results-duopoly.md shows it; with
--ablations, --figure-table-from names the figure's own results for Duopoly and Duopoly-I.
"""
import argparse
import csv
import glob
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from confidence import mean_ci  # noqa: E402


def load(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"figure: {path}: no rows")
    header = list(rows[0].keys())
    columns = header[1:header.index("variant_index")]
    # A parameter with units is followed by its value in SI units (KEY_s, KEY_bytes, KEY_bps).
    params = [c for i, c in enumerate(columns)
              if not (i > 0 and c in (columns[i - 1] + s for s in ("_s", "_bytes", "_bps")))]
    return rows, params


def label(value):
    """A parameter's value as the tables show it: numbers in their shortest form."""
    try:
        return f"{float(value):g}"
    except ValueError:
        return value


def grouped(rows, params):
    """(x label, variant) -> {seed: row}, with x labels and variants in grid order."""
    out, xs, variants = {}, [], []
    for r in rows:
        x = " ".join(label(r[p]) for p in params) if params else "base"
        if x not in xs:
            xs.append(x)
        if r["variant"] not in variants:
            variants.append(r["variant"])
        out.setdefault((x, r["variant"]), {})[r["seed"]] = r
    return out, xs, variants


def stat(cell, column):
    return mean_ci([float(r[column]) for r in cell.values() if r[column] != ""])


def reduction(cell, other, column="mean_jct_s"):
    """1 - ours/other, seed by seed, as mean ± CI in percent."""
    seeds = sorted(set(cell) & set(other))
    return mean_ci([100 * (1 - float(cell[s][column]) / float(other[s][column])) for s in seeds])


def table(data, xs, variants, params, fig):
    lines = [f"| {' '.join(params) or 'set-up'} | system | mean JCT (s) | p95 (s) | p99 (s) |",
             "|---|---|---|---|---|"]
    for x in xs:
        for v in variants:
            cells = [stat(data[(x, v)], c) for c in ("mean_jct_s", "p95_jct_s", "p99_jct_s")]
            lines.append(f"| {x} | {v} | " + " | ".join(f"{m:.1f} ± {ci:.1f}" for m, ci in cells)
                         + " |")
    ours = [v for v in variants if v not in ("neat", "aalo") and
            ("neat" in variants or "aalo" in variants)]
    if ours:
        lines += ["", "Reduction of mean / p99 JCT against NEAT and Aalo (%, seed by seed, "
                  "mean ± 95 % CI):", "",
                  f"| {' '.join(params) or 'set-up'} | system | vs NEAT mean | vs Aalo mean | "
                  "vs NEAT p99 | vs Aalo p99 |",
                  "|---|---|---|---|---|---|"]
        for x in xs:
            for v in ours:
                cols = []
                for column in ("mean_jct_s", "p99_jct_s"):
                    for other in ("neat", "aalo"):
                        if (x, other) in data:
                            m, ci = reduction(data[(x, v)], data[(x, other)], column)
                            cols.append(f"{m:.1f} ± {ci:.1f}")
                        else:
                            cols.append("")
                lines.append(f"| {x} | {v} | " + " | ".join(cols) + " |")
    lines += ["", "Slots busy, server downlinks busy and map tasks on a replica holder (%, means "
              "over the seeds):", "",
              f"| {' '.join(params) or 'set-up'} | system | slots busy | downlinks busy | "
              "local map tasks |", "|---|---|---|---|---|"]
    for x in xs:
        for v in variants:
            cells = [share(data[(x, v)], c) or "–"
                     for c in ("slot_utilisation", "downlink_utilisation", "locality")]
            lines.append(f"| {x} | {v} | " + " | ".join(cells) + " |")
    changed = [v for v in variants if v not in SYSTEMS]
    if changed and "duopoly" in variants:
        lines += ["", "Each variant's mean JCT against Duopoly's (the same seeds; %, mean ± 95 % CI of "
                  "the paired change; '≈' where the interval holds 0):", "",
                  f"| {' '.join(params) or 'set-up'} | variant | change vs duopoly |", "|---|---|---|"]
        for x in xs:
            for v in changed:
                base, other = data[(x, "duopoly")], data[(x, v)]
                m, ci = mean_ci([100 * (float(other[s]["mean_jct_s"]) /
                                        float(base[s]["mean_jct_s"]) - 1)
                                 for s in sorted(set(base) & set(other))])
                mark = "≈ " if abs(m) <= ci else ""
                lines.append(f"| {x} | {v} | {mark}{m:+.1f} ± {ci:.1f} |")
    if fig.startswith("fig6"):
        lines += ["", "Each variant's mean JCT over Duopoly (I)'s, seed by seed:", "",
                  "| system | × duopoly-I |", "|---|---|"]
        for v in variants:
            m, ci = mean_ci([float(data[("base", v)][s]["mean_jct_s"]) /
                             float(data[("base", "duopoly-I")][s]["mean_jct_s"])
                             for s in data[("base", v)]])
            lines.append(f"| {v} | {m:.3f} ± {ci:.3f} |")
        lines += ["", "Mean JCT by job size group (s; groups as in `slotflow run`'s table):", "",
                  "| system | " + " | ".join(f"g{g}" for g in range(1, 8)) + " |",
                  "|---|" + "---|" * 7]
        for v in variants:
            cells = []
            for g in range(1, 8):
                vals = [float(r[f"g{g}_mean_jct_s"]) for r in data[("base", v)].values()
                        if r[f"g{g}_mean_jct_s"] != ""]
                cells.append(f"{mean_ci(vals)[0]:.1f}" if vals else "–")
            lines.append(f"| {v} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


ABLATIONS = ["duopoly-IC", "duopoly-IM", "duopoly-IF", "duopoly-IA"]
SYSTEMS = ["duopoly", "duopoly-I", "neat", "aalo"] + ABLATIONS

# Runs that change one reading of Duopoly, to isolate its effect: name -> (what, settings).
ISOLATIONS = {
    "uncongested-maps-any": (
        "Alg. 4 l. 30 read as 'prefers': with the network not congested and no reduce task "
        "placed, a map task is placed in job order (the base: nothing is placed)",
        {"scheduler.uncongested_maps": "any"}),
}

# The sensitivity sweep's variants: (choice, our reading with its source, the alternative).
READINGS = {
    "mode-signal-first-ready": ("mode signal", "L0 = the smallest active job (§3.3)",
                                "the first job with ready tasks"),
    "mode-every-round": ("mode refresh", "every 100 ms, with the congestion flag (§5.1)",
                         "before every decision"),
    "idle-fewest-running": ("idle server", "at random (Alg. 2 l. 22)",
                            "the one with fewest running tasks"),
    "congested-maps-any": ("congested Alg. 4", "only map tasks that read locally (§5.4)",
                           "also Alg. 2's remote fallback"),
    "uncongested-maps-any": ("uncongested Alg. 4", "nothing when no reduce task fits (l. 30)",
                             "map tasks of any job, remote reads too (ours)"),
    "pair-ties-first-task": ("map-task ties", "by server over every tied task (Alg. 2 l. 5–7)",
                             "the first tied task"),
    "congestion-busy-downlinks": ("congestion flag", "mean utilisation of busy links, rack links "
                                  "too, ≥ 0.8 (ours)", "busy server downlinks only"),
    "congestion-all-downlinks": ("congestion flag", "mean utilisation of busy links, rack links "
                                 "too, ≥ 0.8 (ours)", "all server downlinks"),
    "cans-thresholds-10MiB-x10": ("cans thresholds", "10 MiB × 8 (coflows), × 4 (macroflows) "
                                  "(ours)", "10 MiB × 10 for both"),
    "block-reads-last": ("block reads", "a coflow of their own size (ours)",
                         "after every shuffle"),
    "unit-compare-by-size": ("Alg. 2 l. 16", "by cans' class (§5.2's text)",
                             "by size, as l. 16 is printed"),
    "order-sjf-shuffle": ("SJF size", "map input + shuffle (ours)", "shuffle only, as cans ranks"),
}


def readings_table(data, xs, variants):
    """The sensitivity sweep as one row per reading: Duopoly's mean JCT with the alternative,
    its change against the default and its reduction against NEAT and Aalo, seed by seed."""
    x = xs[0]
    base = data[(x, "duopoly")]

    def row(v, choice, ours, alternative):
        cell = data[(x, v)]
        m, ci = stat(cell, "mean_jct_s")
        if v == "duopoly":
            change = "—"
        else:
            cm, cci = mean_ci([100 * (float(cell[s]["mean_jct_s"]) / float(base[s]["mean_jct_s"])
                                      - 1) for s in sorted(set(cell) & set(base))])
            change = ("≈ " if abs(cm) <= cci else "") + f"{cm:+.1f} ± {cci:.1f} %"
        vs = [reduction(cell, data[(x, o)]) for o in ("neat", "aalo")]
        return (f"| {choice} | {ours} | {alternative} | {m:.1f} ± {ci:.1f} | {change} | " +
                " | ".join(f"{r:.1f} ± {h:.1f} %" for r, h in vs) + " |")

    lines = ["| choice | our reading (source) | alternative | Duopoly mean JCT (s) | "
             "change (paired) | vs NEAT | vs Aalo |", "|---|---|---|---|---|---|---|",
             row("duopoly", "all readings as stated above", "—", "—")]
    lines += [row(v, *READINGS[v]) for v in variants if v in READINGS]
    return "\n".join(lines) + "\n"


BRANCHES = ["alg3-map", "alg3-reduce", "alg3-reserve", "alg4-l0-map", "alg4-l0-reduce",
            "alg4-congested-map", "alg4-congested-none", "alg4-reduce", "alg4-map", "alg4-none"]


def share(cell, column):
    """Mean over the seeds of a share column, in percent; '' when no run has it."""
    values = [float(r[column]) for r in cell.values() if r.get(column, "") != ""]
    return f"{100 * sum(values) / len(values):.1f}" if values else ""


def branch_table(data, xs, variants, params):
    """nats' branches per x and system, or '' when the sweep kept none."""
    column = "stat.branch_share."
    shown = [v for v in variants if any(share(data[(x, v)], column + "alg4-none") != ""
                                        for x in xs)]
    if not shown:
        return ""
    lines = ["", "nats' branches (docs/decision-log.md): the share of its scheduling rounds taken "
             "by each branch of Alg. 3 / Alg. 4; congested: the share of its 100 ms monitor ticks "
             "with the congestion flag up; insufficient: the share of time in slot-insufficient "
             "mode (%, mean over the seeds):", "",
             f"| {' '.join(params) or 'set-up'} | system | " + " | ".join(BRANCHES) +
             " | congested | insufficient |", "|---" * (len(BRANCHES) + 4) + "|"]
    for x in xs:
        for v in shown:
            cells = [share(data[(x, v)], column + b) for b in BRANCHES]
            cells += [share(data[(x, v)], "congested_share"),
                      share(data[(x, v)], "insufficient_share")]
            lines.append(f"| {x} | {v} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def isolation_table(data, xs, variants, params, name):
    """Duopoly against Duopoly with one reading changed, per x, paired seed by seed."""
    other = "duopoly-" + name
    lines = [f"Changed: {ISOLATIONS[name][0]}.", "",
             f"| {' '.join(params) or 'set-up'} | duopoly mean JCT (s) | {other} (s) | "
             "change (%, paired) | slots busy (%) | rounds placing nothing (%) |",
             "|---|---|---|---|---|---|"]
    for x in xs:
        base, changed = data[(x, "duopoly")], data[(x, other)]
        seeds = sorted(set(base) & set(changed))
        m, ci = mean_ci([100 * (float(changed[s]["mean_jct_s"]) / float(base[s]["mean_jct_s"]) - 1)
                         for s in seeds])
        (bm, bci), (cm, cci) = stat(base, "mean_jct_s"), stat(changed, "mean_jct_s")
        busy = f"{share(base, 'slot_utilisation')} → {share(changed, 'slot_utilisation')}"
        idle = [share(cell, "stat.branch_share.alg4-none") or "–" for cell in (base, changed)]
        lines.append(f"| {x} | {bm:.1f} ± {bci:.1f} | {cm:.1f} ± {cci:.1f} | {m:+.1f} ± {ci:.1f} | "
                     f"{busy} | {idle[0]} → {idle[1]} |")
    return "\n".join(lines) + "\n"


def isolation_sweep(sweep, name, out):
    """The figure's sweep file with Duopoly alone and Duopoly with ISOLATIONS[name], in out."""
    text = open(sweep).read()
    text, n = re.subn(r"(?m)^systems = .*$", 'systems = ["duopoly"]', text)
    if n != 1:
        return None
    settings = ", ".join(f'"{k}" = "{v}"' for k, v in ISOLATIONS[name][1].items())
    text += (f'\n[[sweep.variant]]\nname = "duopoly-{name}"\nsystem = "duopoly"\n'
             f"set = {{ {settings} }}\n")
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, os.path.basename(sweep))
    with open(path, "w") as f:
        f.write(text)
    return path
ABLATION_ORDER = ["duopoly-I", "duopoly"] + ABLATIONS


def short(variant):
    return "D" if variant == "duopoly" else variant.replace("duopoly-", "")


def ablation_table(data, xs, variants, params):
    shown = [v for v in ABLATION_ORDER if v in variants]
    lines = [f"| {' '.join(params) or 'set-up'} | " + " | ".join(short(v) for v in shown) +
             " | fastest first |", "|---" * (len(shown) + 2) + "|"]
    for x in xs:
        stats = {v: stat(data[(x, v)], "mean_jct_s") for v in shown}
        ranked = sorted((m, ci, short(v)) for v, (m, ci) in stats.items())
        order = ranked[0][2]
        for (m0, h0, _), (m1, h1, name) in zip(ranked, ranked[1:]):
            order += (" < " if m1 - h1 > m0 + h0 else " ≈ ") + name
        lines.append(f"| {x} | " + " | ".join(f"{stats[v][0]:.1f} ± {stats[v][1]:.1f}"
                                              for v in shown) + f" | {order} |")
    return "\n".join(lines) + "\n"


def plot(data, xs, variants, params, fig, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    columns = [("mean_jct_s", "mean JCT (s)"), ("p95_jct_s", "p95 JCT (s)"),
               ("p99_jct_s", "p99 JCT (s)")]
    figure, axes = plt.subplots(1, 3, figsize=(14, 4))
    for ax, (column, label) in zip(axes, columns):
        if len(xs) == 1:
            stats = [stat(data[(xs[0], v)], column) for v in variants]
            ax.bar(range(len(variants)), [m for m, _ in stats], yerr=[ci for _, ci in stats],
                   color=[f"C{i}" for i in range(len(variants))], capsize=3)
            ax.set_xticks(range(len(variants)))
            ax.set_xticklabels(variants, rotation=30, ha="right", fontsize=8)
        else:
            for i, v in enumerate(variants):
                stats = [stat(data[(x, v)], column) for x in xs]
                ax.errorbar(range(len(xs)), [m for m, _ in stats], yerr=[ci for _, ci in stats],
                            marker="o", capsize=3, label=v, color=f"C{i}")
            ax.set_xticks(range(len(xs)))
            ax.set_xticklabels(xs, fontsize=8)
            ax.set_xlabel(" ".join(params))
        ax.set_ylabel(label)
        ax.set_ylim(bottom=0)
    if len(xs) > 1:
        axes[0].legend(fontsize=8)
    figure.suptitle(f"Duopoly {fig}: FB trace as jobs, mean ± 95 % CI over seeds", fontsize=10)
    figure.tight_layout()
    figure.savefig(out, dpi=100)
    plt.close(figure)


# The paper's bounds per figure (Duopoly §6.3; §6.1 l. 1379-1389 for the whole evaluation).
PAPER = {"fig7": ("Fig. 7 (servers)", "≥ 38.00 % / ≥ 37.30 %"),
         "fig8": ("Fig. 8 (slots)", "≥ 38.40 % / ≥ 47.05 %"),
         "fig9": ("Fig. 9 (traffic)", "≥ 43.51 % / ≥ 41.13 %"),
         "fig10": ("Fig. 10 (compute)", "≥ 37.65 % / ≥ 38.55 %"),
         "fig11": ("Fig. 11 (two-tier)", "(within 37.65–70.30 % / 37.30–76.16 %)"),
         "fig12": ("Fig. 12 (fair order)", "(within the same ranges)")}
PAPER_ALL = "37.65–70.30 % / 37.30–76.16 %; p99 45.81 % / 49.89 %"


def summary_table(directory):
    """Duopoly's reductions against Aalo and NEAT, smallest to largest over each figure's x."""
    def span(values):
        lo, hi = min(values), max(values)
        return f"{lo:.1f} %" if f"{lo:.1f}" == f"{hi:.1f}" else f"{lo:.1f} to {hi:.1f} %"
    keys = [("mean_jct_s", "aalo"), ("mean_jct_s", "neat"), ("p99_jct_s", "aalo"),
            ("p99_jct_s", "neat")]
    lines = ["| figure | paper: vs Aalo / vs NEAT | ours: vs Aalo | ours: vs NEAT | "
             "ours p99: vs Aalo / vs NEAT |", "|---|---|---|---|---|"]
    every = {k: [] for k in keys}
    for fig, (name, paper) in PAPER.items():
        rows, params = load(os.path.join(directory, fig + ".csv"))
        data, xs, _ = grouped(rows, params)
        got = {(column, other): [reduction(data[(x, "duopoly")], data[(x, other)], column)[0]
                                 for x in xs]
               for column, other in keys}
        for k in keys:
            every[k] += got[k]
        lines.append(f"| {name} | {paper} | {span(got[keys[0]])} | {span(got[keys[1]])} | "
                     f"{span(got[keys[2]])} / {span(got[keys[3]])} |")
    lines.append(f"| all | {PAPER_ALL} | {span(every[keys[0]])} | {span(every[keys[1]])} | "
                 f"{span(every[keys[2]])} / {span(every[keys[3]])} |")
    return "\n".join(lines) + "\n"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("fig", help="fig6 .. fig12, sensitivity or map-sizes")
    parser.add_argument("--out", help="directory (default out/duopoly/FIG)")
    parser.add_argument("--threads", help="parallel runs (default: one per core)")
    parser.add_argument("--trace", help="the FB trace, if not at ../shared/traces/")
    parser.add_argument("--slotflow", default="./build/slotflow")
    parser.add_argument("--plot-only", action="store_true", help="do not run the sweep")
    parser.add_argument("--ablations", action="store_true",
                        help="run the figure's sweep with Fig. 6's ablations instead")
    parser.add_argument("--figure-out", help="with --ablations: the figure's own sweep, for "
                        "Duopoly and Duopoly-I (default out/duopoly/FIG)")
    parser.add_argument("--isolate", choices=sorted(ISOLATIONS),
                        help="run Duopoly beside Duopoly with this reading changed")
    parser.add_argument("--readings", action="store_true",
                        help="with sensitivity --table-from: one row per reading")
    parser.add_argument("--table-from", metavar="FILE",
                        help="run and write nothing: print the table of this results.csv")
    parser.add_argument("--figure-table-from", metavar="FILE",
                        help="with --ablations --table-from: the figure's own results.csv")
    args = parser.parse_args()
    if args.fig == "summary":
        if not args.table_from or not os.path.isdir(args.table_from):
            print("figure: summary needs --table-from DIR (the results files' directory)",
                  file=sys.stderr)
            return 2
        print(summary_table(args.table_from), end="")
        return 0
    if args.table_from:
        rows, params = load(args.table_from)
        if args.ablations and args.figure_table_from:
            rows += [r for r in load(args.figure_table_from)[0]
                     if r["variant"] in ("duopoly", "duopoly-I")]
        data, xs, variants = grouped(rows, params)
        if args.readings:
            print(readings_table(data, xs, variants), end="")
        elif args.isolate:
            print(isolation_table(data, xs, variants, params, args.isolate), end="")
        elif args.ablations:
            print(ablation_table(data, xs, variants, params), end="")
        else:
            print(table(data, xs, variants, params, args.fig) +
                  branch_table(data, xs, variants, params), end="")
        return 0
    files = glob.glob(os.path.join(here, args.fig + "-*.toml")) + glob.glob(
        os.path.join(here, args.fig + ".toml"))
    if len(files) != 1:
        print(f"figure: no sweep file for '{args.fig}' in {here}", file=sys.stderr)
        return 2
    sweep = files[0]
    out = args.out or os.path.join("out", "duopoly", args.fig)
    if args.isolate:
        out = args.out or os.path.join("out", "duopoly", f"{args.fig}-{args.isolate}")
        sweep = isolation_sweep(sweep, args.isolate, out)
        if sweep is None:
            print(f"figure: {files[0]} has no systems line", file=sys.stderr)
            return 2
    elif args.ablations:
        if args.fig == "fig6":
            print("figure: fig6 is the ablations already", file=sys.stderr)
            return 2
        text = open(sweep).read()
        text, n = re.subn(r"(?m)^systems = .*$",
                          "systems = [" + ", ".join(f'"{a}"' for a in ABLATIONS) + "]", text)
        if n != 1:
            print(f"figure: {sweep} has no systems line", file=sys.stderr)
            return 2
        figure_out = args.figure_out or out
        out = args.out or os.path.join("out", "duopoly", args.fig + "-ablations")
        os.makedirs(out, exist_ok=True)
        sweep = os.path.join(out, os.path.basename(files[0]))
        with open(sweep, "w") as f:
            f.write(text)
    if not args.plot_only:
        command = [args.slotflow, "sweep", sweep, "--out", out]
        if args.threads:
            command += ["--threads", args.threads]
        if args.trace:
            command += ["--trace", args.trace]
        start = time.time()
        code = subprocess.call(command)
        print(f"sweep wall time: {time.time() - start:.0f} s")
        if code != 0:
            return code
    if args.ablations:
        rows, params = load(os.path.join(out, "results.csv"))
        theirs = os.path.join(figure_out, "results.csv")
        if os.path.exists(theirs):
            rows += [r for r in load(theirs)[0] if r["variant"] in ("duopoly", "duopoly-I")]
        data, xs, variants = grouped(rows, params)
        text = ablation_table(data, xs, variants, params)
        with open(os.path.join(out, "table.md"), "w") as f:
            f.write(text)
        print(text)
        return 0
    rows, params = load(os.path.join(out, "results.csv"))
    data, xs, variants = grouped(rows, params)
    if args.isolate:
        text = isolation_table(data, xs, variants, params, args.isolate)
        with open(os.path.join(out, "table.md"), "w") as f:
            f.write(text)
        print(text)
        return 0
    text = table(data, xs, variants, params, args.fig) + branch_table(data, xs, variants, params)
    with open(os.path.join(out, "table.md"), "w") as f:
        f.write(text)
    plot(data, xs, variants, params, args.fig, os.path.join(out, args.fig + ".png"))
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
