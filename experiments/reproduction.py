#!/usr/bin/python3
"""The papers' headline claims against ours, as one table: docs/reproduction.md.

    experiments/reproduction.py [--papers DIR] [--out docs/reproduction.md]
    experiments/reproduction.py --check [--papers DIR]      # fails if the doc is out of date

Reads experiments/reproduction.toml. For each claim: the paper's number, checked against the
cited lines of the paper's text in DIR (default ../shared/seeds beside the repository; each
number of the `paper` field, or its `glyphs` where the text keeps digits only as font codes,
and its `quote` must be there, full-width digits read as ASCII, blanks ignored), or the run
fails; ours, computed from the committed results file by the measures below, or "no results
file yet" with the command that would write it; the verdict and its link as the TOML gives them
(a judgement). --no-papers skips the check of the papers' lines (where their texts are absent).
Every "±" is a 95 % confidence half-width over seeds, Student's t (experiments/confidence.py).
"""
import argparse
import csv
import difflib
import os
import re
import sys
import tomllib
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "duopoly"))
from confidence import mean_ci  # noqa: E402
import figure  # noqa: E402  (load, grouped: a sweep's results.csv)

VERDICTS = ("reproduced", "differs, isolated", "differs, not isolated")


# ------------------------------------------------------------------ measures over a file

def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def per_seed(rows, column, **where):
    """{seed: float(row[column])} over the rows whose columns equal `where`."""
    return {r["seed"]: float(r[column]) for r in rows
            if all(r[k] == str(v) for k, v in where.items()) and r[column] != ""}


def reduction(ours, theirs):
    """1 − ours / theirs in percent, seed by seed over the seeds both have: (mean, CI, n)."""
    seeds = sorted(set(ours) & set(theirs))
    return (*mean_ci([100 * (1 - ours[s] / theirs[s]) for s in seeds]), len(seeds))


def ratio(ours, theirs):
    """ours / theirs, seed by seed: (mean, CI, n)."""
    seeds = sorted(set(ours) & set(theirs))
    return (*mean_ci([ours[s] / theirs[s] for s in seeds]), len(seeds))


def difference(ours, theirs):
    """ours − theirs, seed by seed (paired): (mean, CI, n)."""
    seeds = sorted(set(ours) & set(theirs))
    return (*mean_ci([ours[s] - theirs[s] for s in seeds]), len(seeds))


def span(labelled):
    """The smallest and largest of [(label, (mean, CI, n))] by mean: ((label, stat), ...)."""
    ordered = sorted(labelled, key=lambda item: item[1][0])
    return ordered[0], ordered[-1]


def sweep_cells(path):
    """A sweep's results.csv as {(x label, system): {seed: row}} and its x labels."""
    rows, params = figure.load(path)
    data, xs, _ = figure.grouped(rows, params)
    return data, xs


def ratios_at_every_x(path, spec, column):
    """[(x, system, (mean, CI, n))]: each of spec's `systems` over `against`, seed by seed, at
    every x of a sweep's results.csv whose columns equal spec's `where` (x named by the other
    parameters, each by the last part of its key)."""
    rows, params = figure.load(path)
    where = {k: str(v) for k, v in spec.get("where", {}).items()}
    missing = [k for k in where if k not in rows[0]]
    if missing:
        raise ValueError(f"{path}: no column {', '.join(missing)}")
    rows = [r for r in rows if all(r[k] == v for k, v in where.items())]
    if not rows:
        raise ValueError(f"{path}: no row where {where}")
    free = [p for p in params if p not in where]
    data, xs, _ = figure.grouped(rows, free)
    out = []
    for x in xs:
        cell = data[(x, spec["against"])]
        first = next(iter(cell.values()))
        name = ", ".join(f"{p.rsplit('.', 1)[-1]} {figure.label(first[p])}" for p in free)
        base = cell_values(cell, column)
        for system in spec["systems"]:
            out.append((name or x, system, ratio(cell_values(data[(x, system)], column), base)))
    return out


def cell_values(cell, column):
    return {seed: float(r[column]) for seed, r in cell.items() if r[column] != ""}


# ------------------------------------------------------------------ formatting

def fmt(stat, unit="", digits=1, sign=False):
    m, ci, _ = stat
    text = f"{m:+.{digits}f}" if sign else f"{m:.{digits}f}"
    return (text + f" ± {ci:.{digits}f}" + unit).replace("-", "−")


def fmt_span(labelled, unit=" %", digits=1):
    (lo_label, lo), (hi_label, hi) = span(labelled)
    if len(labelled) == 1:
        return f"{fmt(lo, unit, digits)} ({lo_label})"
    return f"{fmt(lo, unit, digits)} ({lo_label}) to {fmt(hi, unit, digits)} ({hi_label})"


def seeds_of(labelled):
    counts = sorted({stat[2] for _, stat in labelled})
    return "–".join(map(str, counts))


# ------------------------------------------------------------------ one measure of the TOML

def measure(spec):
    """(text, seeds) of one `ours` measure; raises FileNotFoundError if its file is absent."""
    kind, files = spec["measure"], [os.path.join(ROOT, f) for f in spec["files"]]
    column = spec.get("column", "mean_jct_s")
    labelled = []
    if kind == "ratio_range":
        for path in files:
            tag = os.path.splitext(os.path.basename(path))[0] + " " if len(files) > 1 else ""
            for x, system, stat in ratios_at_every_x(path, spec, column):
                labelled.append((f"{tag}{system}, {x}", stat))
        return fmt_span(labelled, "×", 2), seeds_of(labelled)
    if kind in ("reduction", "ratio_systems", "ratio_x"):
        for path in files:
            data, xs = sweep_cells(path)
            tag = os.path.splitext(os.path.basename(path))[0] + " " if len(files) > 1 else ""
            if kind == "reduction":
                for x in xs:
                    stat = reduction(cell_values(data[(x, spec["system"])], column),
                                     cell_values(data[(x, spec["against"])], column))
                    labelled.append((tag + x, stat))
            elif kind == "ratio_systems":
                base = cell_values(data[(xs[0], spec["against"])], column)
                for system in spec["systems"]:
                    labelled.append((system, ratio(cell_values(data[(xs[0], system)], column),
                                                   base)))
            else:  # ratio_x: a system's value at each x of `xs` over its value at `x0`
                base = cell_values(data[(spec["x0"], spec["system"])], column)
                for x in spec["xs"]:
                    labelled.append((f"{x} over {spec['x0']}",
                                     ratio(cell_values(data[(x, spec["system"])], column), base)))
        unit = " %" if kind == "reduction" else "×"
        return fmt_span(labelled, unit, 1 if kind == "reduction" else 2), seeds_of(labelled)
    rows = [r for path in files for r in read_csv(path)]
    if kind == "paired":  # TCDS runs.csv: scheduler a − b per group, seed by seed
        for g in spec["groups"]:
            labelled.append((f"group {g}", difference(
                per_seed(rows, column, group=g, scheduler=spec["system"]),
                per_seed(rows, column, group=g, scheduler=spec["against"]))))
        digits = spec.get("digits", 2)
        return "; ".join(f"{label} {fmt(stat, spec.get('unit', ''), digits, sign=True)}"
                         for label, stat in labelled), seeds_of(labelled)
    if kind == "per_group":  # TCDS runs.csv: one scheduler's value per group
        for g in spec["groups"]:
            values = per_seed(rows, column, group=g, scheduler=spec["system"])
            labelled.append((f"group {g}", (*mean_ci(list(values.values())), len(values))))
        digits = spec.get("digits", 2)
        return "; ".join(f"{label} {fmt(stat, spec.get('unit', ''), digits)}"
                         for label, stat in labelled), seeds_of(labelled)
    if kind == "jtpw_reduction":  # JTPW runs.csv: the mean of workloads' JCTs per seed
        def mean_over(scheduler):
            per = [per_seed(rows, column, variant=spec["variant"], workload=w,
                            scheduler=scheduler) for w in spec["workloads"]]
            return {s: sum(p[s] for p in per) / len(per) for s in per[0]}
        stat = reduction(mean_over(spec["system"]), mean_over(spec["against"]))
        return fmt(stat, " %", 1, sign=True), str(stat[2])
    if kind == "live_error":  # live runs.csv: (simulated − live) / live, per seed
        errors = per_seed(rows, column, length=spec["length"], system=spec["system"])
        stat = (*[100 * v for v in mean_ci(list(errors.values()))], len(errors))
        return fmt(stat, " %", 1, sign=True), str(stat[2])
    raise ValueError(f"unknown measure {kind!r}")


def ours(claim):
    """The `ours` cell: every measure's label and text, or what is missing."""
    specs = claim["ours"] if isinstance(claim["ours"], list) else [claim["ours"]]
    missing = sorted({f for s in specs for f in s["files"] if not os.path.exists(
        os.path.join(ROOT, f))})
    if missing:
        return None, f"no results file yet: `{claim['command']}`"
    parts, seeds = [], set()
    for spec in specs:
        text, n = measure(spec)
        parts.append(f"{spec['label']}: {text}" if spec.get("label") else text)
        seeds.add(n)
    return sorted(seeds), "; ".join(parts)


# ------------------------------------------------------------------ the papers' lines

def normalised(text):
    """Full-width digits and signs as ASCII (NFKC), without blanks."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


def check_paper(claim, papers_dir, files):
    """Errors if the cited lines lack the claim's numbers, glyphs or quote."""
    path = os.path.join(papers_dir, files[claim["paper"]])
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    cited = claim["lines"] if isinstance(claim["lines"], list) else [claim["lines"]]
    first, last = cited[0], cited[-1]
    text = normalised("".join(lines[first - 1:last]))
    where = f"{claim['paper']} l. {first}–{last}"
    errors = []
    wanted = [claim["glyphs"]] if "glyphs" in claim else re.findall(r"\d+(?:\.\d+)?",
                                                                     claim["number"])
    for n in wanted + ([normalised(claim["quote"])] if "quote" in claim else []):
        if n not in text:
            errors.append(f"{claim['claim']!r}: {where} does not contain {n!r}")
    if not wanted and "quote" not in claim:
        errors.append(f"{claim['claim']!r}: neither a number nor a quote to check")
    return errors


# ------------------------------------------------------------------ the document

def location(claim):
    lines = claim["lines"] if isinstance(claim["lines"], list) else [claim["lines"]]
    where = f"{claim['paper']} {claim['section']}, l. {'–'.join(map(str, lines))}"
    if "glyphs" in claim:
        where += f" (as `{claim['glyphs']}`)"
    return where


def verdict(claim, seeds):
    if claim["verdict"] not in VERDICTS:
        raise ValueError(f"{claim['claim']!r}: verdict {claim['verdict']!r} not in {VERDICTS}")
    if claim["verdict"] == "differs, isolated" and "link" not in claim:
        raise ValueError(f"{claim['claim']!r}: an isolated difference needs a link")
    if seeds is None:
        return "— (no file to judge)"
    if "link" in claim:
        return f"[{claim['verdict']}]({claim['link']})"
    return claim["verdict"]


def document(config, papers):
    lines = [config["head"].strip(), "",
             "| claim | paper | ours | from | verdict |", "|---|---|---|---|---|"]
    for claim in config["claim"]:
        seeds, text = ours(claim)
        if seeds is not None:
            text += f" ({'/'.join(seeds)} seeds)"
        source = ", ".join(f"`{f}`" for f in sorted({f for s in (
            claim["ours"] if isinstance(claim["ours"], list) else [claim["ours"]])
            for f in s["files"]}))
        lines.append(f"| {claim['claim']} | {claim['number']}; {location(claim)} | {text} | "
                     f"{source} from `{claim['command']}` | {verdict(claim, seeds)} |")
    files = ", ".join(f"{p}: `{f}`" for p, f in config["papers"].items())
    lines += ["", config["foot"].strip().replace("{files}", files)]
    return "\n".join(lines) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--config", default=os.path.join(HERE, "reproduction.toml"))
    p.add_argument("--papers", default=os.path.join(ROOT, "..", "shared", "seeds"))
    p.add_argument("--no-papers", action="store_true", help="do not check the papers' lines")
    p.add_argument("--out", default=os.path.join(ROOT, "docs", "reproduction.md"))
    p.add_argument("--check", action="store_true", help="compare with --out, write nothing")
    a = p.parse_args()
    with open(a.config, "rb") as f:
        config = tomllib.load(f)
    errors = []
    if not a.no_papers:
        for claim in config["claim"]:
            errors += check_paper(claim, a.papers, config["papers"])
    text = document(config, config["papers"])
    if a.check:
        have = open(a.out, encoding="utf-8").read() if os.path.exists(a.out) else ""
        if have != text:
            errors.append(f"{a.out} is not what {a.config} gives (run experiments/"
                          "reproduction.py):\n" + "\n".join(difflib.unified_diff(
                              have.split("\n"), text.split("\n"), a.out, "generated",
                              lineterm="", n=0)))
    elif not errors:
        with open(a.out, "w", encoding="utf-8") as f:
            f.write(text)
    for e in errors:
        print(f"reproduction: {e}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
