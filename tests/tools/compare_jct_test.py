"""tools/compare_jct.py on two real runs and on bad input: python3 compare_jct_test.py SLOTFLOW REPO."""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

slotflow, repo = sys.argv[1], sys.argv[2]
script = os.path.join(repo, "tools", "compare_jct.py")
spec = importlib.util.spec_from_file_location("compare_jct", script)
compare_jct = importlib.util.module_from_spec(spec)
spec.loader.exec_module(compare_jct)
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)


def run_tool(*args):
    return subprocess.run([sys.executable, script, *args], capture_output=True, text=True)


with tempfile.TemporaryDirectory() as tmp:
    runs = {}
    for system in ("duopoly", "aalo"):
        out = os.path.join(tmp, system)
        subprocess.run([slotflow, "run", "--synthetic-jobs", "40", "--system", system, "--out",
                        out, "--quiet"], check=True)
        runs[system] = out
    # The statistics agree with the run's own summary.json.
    summary = json.load(open(os.path.join(runs["duopoly"], "summary.json")))
    _, jobs = compare_jct.read_jobs(runs["duopoly"])
    s = compare_jct.stats(jobs.values())
    for key in ("mean", "p50", "p95", "p99"):
        want = summary[f"{key}_jct_s"]
        check(abs(s[key] - want) <= 1e-9 * max(1, want), f"{key}: {s[key]} vs summary {want}")
    # A run against itself: every error 0.
    rows, per_job = compare_jct.compare(jobs, jobs)
    check(all(e == 0 for _, _, e in rows.values()) and per_job == 0, f"self: {rows} {per_job}")
    # Two systems: OTHER's error is (other − reference) / reference on each statistic.
    _, other = compare_jct.read_jobs(runs["aalo"])
    rows, _ = compare_jct.compare(jobs, other)
    a, b, e = rows["mean"]
    check(abs(e - (b - a) / a) < 1e-12 and b > a, f"mean error {e} from {a}, {b}")
    png = os.path.join(tmp, "cdf.png")
    r = run_tool(runs["duopoly"], runs["aalo"], "--labels", "duopoly,aalo", "--out", png)
    check(r.returncode == 0 and "mean_s" in r.stdout and "median per-job" in r.stdout,
          f"two runs: exit {r.returncode}: {r.stdout} {r.stderr}")
    check(os.path.exists(png) and open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n", "a PNG")

    # Bad input: exit 2 with the file and line.
    bad = os.path.join(tmp, "bad.csv")
    lines = open(os.path.join(runs["duopoly"], "jobs.csv")).read().splitlines()
    header = lines[0].split(",")
    row = lines[2].split(",")
    row[header.index("jct_s")] = "x"
    with open(bad, "w") as f:
        f.write("\n".join(lines[:2] + [",".join(row)] + lines[3:]) + "\n")
    r = run_tool(runs["duopoly"], bad)
    check(r.returncode == 2 and f"{bad}:3: jct_s" in r.stderr, f"malformed: {r.stderr!r}")
    with open(bad, "w") as f:
        f.write("\n".join(lines[:-1]) + "\n")
    r = run_tool(runs["duopoly"], bad)
    check(r.returncode == 2 and "job sets differ" in r.stderr, f"fewer jobs: {r.stderr!r}")
    with open(bad, "w") as f:
        f.write("name,time\na,1\n")
    r = run_tool(bad, runs["duopoly"])
    check(r.returncode == 2 and f"{bad}:1: header" in r.stderr, f"bad header: {r.stderr!r}")
    r = run_tool(os.path.join(tmp, "missing"), runs["duopoly"])
    check(r.returncode == 2 and "cannot read" in r.stderr, f"missing: {r.stderr!r}")
    r = run_tool(runs["duopoly"], runs["aalo"], "--labels", "one")
    check(r.returncode == 2 and "--labels" in r.stderr, f"bad labels: {r.stderr!r}")

for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
