#!/usr/bin/python3
"""Gantt charts of a slotflow run from its tasks.csv.

    tools/timeline.py RUN_DIR_OR_TASKS_CSV [--out PREFIX] [--servers A-B] [--jobs N]

(--servers: only those servers in the slot chart; --jobs: the first N jobs in the job chart)

writes PREFIX-servers.png (each server's slots over time, one lane per slot, tasks coloured by
job: pale while reading input, solid while computing, dark while writing output; tasks pinned
by a job file hold no slot and get a lane of their own) and PREFIX-jobs.png (each job's stages
over time: pale from the first task ready to the first placed, solid from then to the last
task done). PREFIX defaults to RUN_DIR/timeline. Slot lanes are assigned from the tasks'
placed and finish times (a slot freed at t can take a task placed at t), so the chart shows
the same occupancy as the run, not which physical slot the simulator used (it does not track
one).

Bad input (a missing file, a wrong header, a malformed value) exits with status 2 and a message
naming the file, line and column.
"""
import argparse
import csv
import os
import sys

COLUMNS = ["job", "stage", "task", "server", "pinned", "locality", "ready_s", "placed_s",
           "read_done_s", "compute_done_s", "output_written_s", "finish_s", "input_bytes",
           "remote_bytes"]
TIMES = ["ready_s", "placed_s", "read_done_s", "compute_done_s", "output_written_s", "finish_s"]


class InputError(Exception):
    pass


def read_tasks(path):
    try:
        handle = open(path, newline="", encoding="utf-8")
    except OSError as e:
        raise InputError(f"{path}: cannot read the file: {e.strerror}")
    tasks = []
    with handle:
        reader = csv.reader(handle)
        try:
            header = next(reader, None)
            if header != COLUMNS:
                raise InputError(f"{path}:1: header: expected {','.join(COLUMNS)}")
            for row in reader:
                line = reader.line_num
                if len(row) != len(COLUMNS):
                    raise InputError(f"{path}:{line}: expected {len(COLUMNS)} fields, got {len(row)}")
                task = dict(zip(COLUMNS, row))
                for name in ["task", "server", "pinned"] + TIMES:
                    try:
                        task[name] = float(task[name]) if name in TIMES else int(task[name])
                    except ValueError:
                        raise InputError(f"{path}:{line}: {name}: not a number: {task[name]!r}")
                tasks.append(task)
        except csv.Error as e:
            raise InputError(f"{path}:{reader.line_num}: {e}")
    return tasks


def parse_range(text):
    try:
        lo, _, hi = text.partition("-")
        lo, hi = int(lo), int(hi or lo)
    except ValueError:
        raise InputError(f"--servers: expected A-B, got {text!r}")
    if lo < 0 or hi < lo:
        raise InputError(f"--servers: expected 0 <= A <= B, got {text!r}")
    return lo, hi


def slot_lanes(tasks):
    """Per server, lanes of (task) with no overlap: greedy interval packing by placed time."""
    by_server = {}
    for t in tasks:
        if t["placed_s"] < 0 or t["finish_s"] < 0:
            continue  # never ran (the run stopped early)
        by_server.setdefault(t["server"], []).append(t)
    lanes = {}
    for server, ts in by_server.items():
        slot_ends, pinned = [], []
        rows = {}
        for t in sorted(ts, key=lambda t: (t["placed_s"], t["finish_s"])):
            if t["pinned"]:
                pinned.append(t)
                continue
            for k, end in enumerate(slot_ends):
                if end <= t["placed_s"]:
                    slot_ends[k] = t["finish_s"]
                    rows.setdefault(k, []).append(t)
                    break
            else:
                slot_ends.append(t["finish_s"])
                rows.setdefault(len(slot_ends) - 1, []).append(t)
        lanes[server] = ([rows[k] for k in sorted(rows)], pinned)
    return lanes


def job_colours(tasks):
    import matplotlib
    cmap = matplotlib.colormaps["tab10"]
    order = []
    for t in tasks:
        if t["job"] not in order:
            order.append(t["job"])
    return {job: cmap(i % 10) for i, job in enumerate(order)}, order


def shade(colour, factor):
    r, g, b, _ = colour
    if factor >= 1:  # towards white
        f = factor - 1
        return (r + (1 - r) * f, g + (1 - g) * f, b + (1 - b) * f)
    return (r * factor, g * factor, b * factor)


def add_bars(ax, bars):
    """bars: (start, end, y, colour); one PolyCollection, fast for many thousands of bars."""
    from matplotlib.collections import PolyCollection
    bars = [b for b in bars if b[1] > b[0] >= 0]
    if not bars:
        return
    boxes = [[(s, y - 0.4), (e, y - 0.4), (e, y + 0.4), (s, y + 0.4)] for s, e, y, _ in bars]
    ax.add_collection(PolyCollection(boxes, facecolors=[c for *_, c in bars],
                                     edgecolors="black", linewidths=0.3 if len(bars) < 2000 else 0))
    ax.set_xlim(0, max(e for _, e, _, _ in bars) * 1.02)
    ax.set_ylim(-0.6, max(y for _, _, y, _ in bars) + 0.6)


def draw_servers(tasks, servers, out):
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch
    colours, order = job_colours(tasks)
    lanes = slot_lanes(tasks)
    rows = []  # (label, tasks)
    for server in sorted(lanes):
        if servers and not servers[0] <= server <= servers[1]:
            continue
        slots, pinned = lanes[server]
        for k, ts in enumerate(slots):
            rows.append((f"server {server} slot {k}", ts))
        if pinned:
            rows.append((f"server {server} pinned", pinned))
    height = min(max(2.0, 0.3 * len(rows) + 1.2), 120.0)
    fig, ax = plt.subplots(figsize=(11, height))
    end_time = max((t["finish_s"] for _, ts in rows for t in ts), default=0)
    bars = []
    for y, (_, ts) in enumerate(rows):
        for t in ts:
            c = colours[t["job"]]
            bars += [(t["placed_s"], t["read_done_s"], y, shade(c, 1.6)),
                     (t["read_done_s"], t["compute_done_s"], y, c),
                     (t["compute_done_s"], t["output_written_s"], y, shade(c, 0.6))]
            # A label where it fits: few lanes, and a bar of at least 4 % of the run.
            if len(rows) <= 40 and t["finish_s"] - t["placed_s"] >= 0.04 * end_time:
                ax.text((t["placed_s"] + t["finish_s"]) / 2, y, f"{t['stage']}{t['task']}",
                        ha="center", va="center", fontsize=7)
    add_bars(ax, bars)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([label for label, _ in rows], fontsize=7 if len(rows) <= 60 else 4)
    ax.invert_yaxis()
    ax.set_xlabel("time (s)")
    ax.set_title("slots over time (pale: reading input, solid: computing, dark: writing output)",
                 fontsize=9)
    if len(order) <= 10:
        ax.legend(handles=[Patch(color=colours[j], label=j) for j in order], fontsize=7,
                  loc="upper left", bbox_to_anchor=(1.0, 1.0), title="job")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def draw_jobs(tasks, max_jobs, out):
    import matplotlib.pyplot as plt
    colours, order = job_colours(tasks)
    order = order[:max_jobs]
    stages = {}  # (job, stage) -> [first ready, first placed, last finish]
    for t in tasks:
        if t["job"] not in colours or t["placed_s"] < 0 or t["finish_s"] < 0:
            continue
        s = stages.setdefault((t["job"], t["stage"]), [t["ready_s"], t["placed_s"], t["finish_s"]])
        s[0] = min(s[0], t["ready_s"])
        s[1] = min(s[1], t["placed_s"])
        s[2] = max(s[2], t["finish_s"])
    rows = [(job, stage) for job in order for (j, stage) in stages if j == job]
    height = min(max(2.0, 0.3 * len(rows) + 1.2), 120.0)
    fig, ax = plt.subplots(figsize=(11, height))
    bars = []
    for y, key in enumerate(rows):
        ready, placed, finish = stages[key]
        c = colours[key[0]]
        bars += [(ready, placed, y, shade(c, 1.7)), (placed, finish, y, c)]
    add_bars(ax, bars)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([f"{job} {stage}" for job, stage in rows],
                       fontsize=7 if len(rows) <= 60 else 4)
    ax.invert_yaxis()
    ax.set_xlabel("time (s)")
    ax.set_title("stages over time (pale: ready, waiting for a slot; solid: running)", fontsize=9)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", help="a run's --out directory, or its tasks.csv")
    parser.add_argument("--out", help="prefix of the PNG files (default: DIR/timeline)")
    parser.add_argument("--servers", help="only servers A to B (e.g. 0-9)")
    parser.add_argument("--jobs", type=int, default=200, help="the job chart shows the first N jobs (default 200)")
    args = parser.parse_args(argv)
    try:
        path = os.path.join(args.source, "tasks.csv") if os.path.isdir(args.source) else args.source
        servers = parse_range(args.servers) if args.servers else None
        if args.jobs < 1:
            raise InputError(f"--jobs: must be at least 1, got {args.jobs}")
        tasks = read_tasks(path)
        if not tasks:
            raise InputError(f"{path}: no tasks")
        prefix = args.out or os.path.join(os.path.dirname(path) or ".", "timeline")
        import matplotlib
        matplotlib.use("Agg")
        draw_servers(tasks, servers, prefix + "-servers.png")
        draw_jobs(tasks, args.jobs, prefix + "-jobs.png")
    except InputError as e:
        print(f"timeline: error: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"timeline: error: --out: cannot write {e.filename}: {e.strerror}", file=sys.stderr)
        return 2
    except ImportError as e:
        print(f"timeline: error: {e} (./dev installs python3-matplotlib)", file=sys.stderr)
        return 2
    print(prefix + "-servers.png")
    print(prefix + "-jobs.png")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
