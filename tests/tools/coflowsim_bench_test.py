"""bench/coflowsim.py refuses to run without CoflowSim, and tabulates a stand-in's output.

    python3 coflowsim_bench_test.py SLOTFLOW REPO

Without --classes, or with a directory that holds no CoflowSim classes, the script exits 2 with
a message naming --classes (the test machine has no JDK). With a stand-in `java` that prints
what CoflowSim prints (one `JOB-...` line per coflow, its duration in ms 8th, then their sum),
it runs slotflow on examples/tiny.trace and prints one row per pair with the stand-in's mean.
"""
import os
import subprocess
import sys
import tempfile

slotflow, repo = os.path.abspath(sys.argv[1]), sys.argv[2]
script = os.path.join(repo, "bench", "coflowsim.py")
trace = os.path.join(repo, "examples", "tiny.trace")
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)


def run(*args):
    return subprocess.run([sys.executable, script, "--slotflow", slotflow, "--trace", trace,
                           *args], capture_output=True, text=True)


with tempfile.TemporaryDirectory() as tmp:
    done = run()
    check(done.returncode == 2, f"no --classes: exit {done.returncode}, want 2")
    check("--classes" in done.stderr and "javac" in done.stderr,
          f"no --classes: the message names neither the flag nor the build: {done.stderr!r}")

    empty = os.path.join(tmp, "empty")
    os.mkdir(empty)
    done = run("--classes", empty)
    check(done.returncode == 2, f"--classes EMPTY: exit {done.returncode}, want 2")
    check(f"--classes {empty}" in done.stderr and "CoflowSim.class" in done.stderr,
          f"--classes EMPTY: the message names neither the flag nor the class: {done.stderr!r}")
    check(done.stdout == "", f"--classes EMPTY printed a table: {done.stdout!r}")

    classes = os.path.join(tmp, "classes")
    for name in ("CoflowSim", "simulators/FlowSimulator", "simulators/CoflowSimulator",
                 "simulators/CoflowSimulatorDark", "traceproducers/CoflowBenchmarkTraceProducer"):
        path = os.path.join(classes, "coflowsim", name + ".class")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        open(path, "w").close()
    java = os.path.join(tmp, "java")
    with open(java, "w") as f:  # CoflowSim's printStats for tiny.trace's 3 coflows: 1, 2, 6 s
        f.write("#!/bin/sh\n"
                "echo 'Timestep      0: Running:   1 Started:     1' >&2\n"
                "echo 'JOB-1 0.0 1000.0 2 2 3.1E7 2.1E7 1000.0 -1 1500.0'\n"
                "echo 'JOB-2 0.0 2000.0 1 1 4194304.0 4194304.0 2000.0 -1 2000.0'\n"
                "echo 'JOB-3 0.0 6000.0 3 2 3.5E7 3.1E7 6000.0 -1 7000.0'\n"
                "echo '9000.0'\n")
    os.chmod(java, 0o755)
    done = run("--classes", classes, "--java", java, "--pairs", "SEBF")
    check(done.returncode == 0, f"stand-in java: exit {done.returncode}: {done.stderr}")
    rows = [line for line in done.stdout.splitlines() if line.startswith("| SEBF / varys |")]
    check(len(rows) == 1, f"stand-in java: want one SEBF / varys row: {done.stdout!r}")
    if rows:
        cells = [c.strip() for c in rows[0].strip("|").split("|")]
        check(cells[2] == "3.00 s", f"stand-in java: CoflowSim's mean CCT {cells[2]}, want 3.00 s")
        check(len(cells) == 9 and all(c.endswith(" s") for c in cells[1:7]),
              f"stand-in java: malformed row {rows[0]!r}")

    done = run("--classes", classes, "--java", java, "--pairs", "SEBF,NCF")
    check(done.returncode == 2 and "--pairs" in done.stderr,
          f"--pairs NCF: exit {done.returncode}, {done.stderr!r}")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("ok")
