"""tools/timeline.py on a real run and on bad input: python3 timeline_test.py SLOTFLOW REPO."""
import importlib.util
import os
import subprocess
import sys
import tempfile

slotflow, repo = sys.argv[1], sys.argv[2]
script = os.path.join(repo, "tools", "timeline.py")
spec = importlib.util.spec_from_file_location("timeline", script)
timeline = importlib.util.module_from_spec(spec)
spec.loader.exec_module(timeline)
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)


def run_timeline(*args):
    return subprocess.run([sys.executable, script, *args], capture_output=True, text=True)


with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "fig2")
    subprocess.run([slotflow, "run", "--jobs", os.path.join(repo, "examples", "duopoly-fig2.toml"),
                    "--system", "duopoly", "--out", out, "--quiet"], check=True)
    tasks = timeline.read_tasks(os.path.join(out, "tasks.csv"))
    check(len(tasks) == 9, f"9 tasks read, got {len(tasks)}")
    # Two servers of two slots: packing by placed/finish never needs a third lane.
    lanes = timeline.slot_lanes(tasks)
    check(sorted(lanes) == [0, 1], f"servers 0 and 1, got {sorted(lanes)}")
    for server, (slots, pinned) in lanes.items():
        check(len(slots) == 2 and not pinned, f"server {server}: 2 slot lanes, got {len(slots)}")
        for lane in slots:
            for a, b in zip(lane, lane[1:]):
                check(a["finish_s"] <= b["placed_s"], f"server {server}: overlapping tasks")
    r = run_timeline(out)
    check(r.returncode == 0, f"timeline on a run: exit {r.returncode}: {r.stderr}")
    for name in ("timeline-servers.png", "timeline-jobs.png"):
        path = os.path.join(out, name)
        ok = os.path.exists(path) and os.path.getsize(path) > 1000
        check(ok and open(path, "rb").read(8) == b"\x89PNG\r\n\x1a\n", f"{name} is a PNG")

    # Bad input: exit 2, naming the file, line and column.
    bad = os.path.join(tmp, "bad.csv")
    with open(os.path.join(out, "tasks.csv")) as f:
        lines = f.read().splitlines()
    lines[3] = lines[3].replace(",1,1,1,0,0", ",x,1,1,0,0", 1)
    with open(bad, "w") as f:
        f.write("\n".join(lines) + "\n")
    r = run_timeline(bad)
    check(r.returncode == 2 and f"{bad}:4: compute_done_s" in r.stderr,
          f"malformed value: exit {r.returncode}, {r.stderr!r}")
    with open(bad, "w") as f:
        f.write("job,stage\nA,map\n")
    r = run_timeline(bad)
    check(r.returncode == 2 and f"{bad}:1: header" in r.stderr, f"bad header: {r.stderr!r}")
    r = run_timeline(os.path.join(tmp, "missing.csv"))
    check(r.returncode == 2 and "missing.csv: cannot read" in r.stderr, f"missing: {r.stderr!r}")
    r = run_timeline(out, "--servers", "3-1")
    check(r.returncode == 2 and "--servers" in r.stderr, f"bad range: {r.stderr!r}")
    r = run_timeline(out, "--out", os.path.join(tmp, "no", "such", "dir", "x"))
    check(r.returncode == 2 and "--out" in r.stderr, f"unwritable --out: {r.stderr!r}")

for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
