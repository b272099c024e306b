#!/usr/bin/python3
"""CoflowSim and slotflow side by side on the FB coflow trace: CPU time and mean CCT.

    bench/coflowsim.py --classes DIR [--java java] [--slotflow ./build/slotflow]
                       [--trace FB2010-1Hr-150-0.txt] [--pairs FAIR,PFP,SCF,SEBF,DARK]
                       [--coflows N]

Runs, one at a time, each of CoflowSim's FAIR, PFP, SCF, SEBF and DARK schedulers on the trace
(`java -cp DIR coflowsim.CoflowSim ALGO COFLOW-BENCHMARK TRACE`) and slotflow's matching network
policy in network mode (`slotflow run --trace TRACE --mode network --network POLICY --nic
125MiB/s`), exact and with `--time-step 8ms`, CoflowSim's own time step. Prints a Markdown
table: each side's CPU time and mean coflow completion time (CCT), and CoflowSim's CPU over
slotflow's. --coflows N runs the trace's first N coflows only; --pairs a subset of the pairs.

CoflowSim is the simulator of the Varys and Aalo papers (github.com/coflow/coflowsim, Java, no
dependencies). DIR holds its compiled classes; without Maven, with Debian's default-jdk(-headless):

    git clone https://github.com/coflow/coflowsim && cd coflowsim
    javac -d /tmp/coflowsim-classes $(find src -name '*.java')
    bench/coflowsim.py --classes /tmp/coflowsim-classes      # from slotflow's root

(Maven's `mvn package` builds the same classes into a jar; `--classes` wants the directory.)

CPU: user + system time of the child process (os.wait4's rusage), start-up and output
included; for CoflowSim that is the whole JVM (its JIT compiler and garbage collector threads
too), run with no options. Its per-second progress lines on stderr are discarded.

The pairs, from CoflowSim's source (paths under src/main/java/coflowsim/):

- FAIR -> fair. simulators/FlowSimulator.java, fairShare: every 8 ms each flow moves
  min(port / flows at its receiver, port / flows at its sender): per-flow fair sharing, but not
  max-min (what a flow cannot use at one end is not given to the others). slotflow's fair is
  exact per-flow max-min.
- PFP -> srpt. utils/Constants.java calls PFP "per-flow SRTF priority"; FlowSimulator keeps
  each receiver's flows in ascending order of size (addAscending, against the bytes the flows
  already there have left), and every 8 ms each receiver sends its first flow whose sender is
  not yet busy, at the full port rate (proceedFlowsInAllRacksInSortedOrder). That is shortest
  remaining first per flow (not least attained service, las, nor arrival order, fcfs).
  slotflow's srpt ranks by bytes left in 8 classes (10 MiB x 10), max-min within a class.
- SCF -> scf. simulators/CoflowSimulator.java, SCFComparator: coflows by maxShuffleBytes /
  numMappers, the largest flow (the busiest receiver's bytes over the mapper ports), fixed at
  arrival; slotflow's scf ranks by the largest flow too, in 8 classes (10 MiB x 10).
- SEBF -> varys. CoflowSimulator's SEBFComparator orders by Job.alpha (datastructures/Job.java,
  calcAlphaDeadline: the most bytes any one sender or receiver port of the coflow carries, fixed
  at arrival); rates are MADD (updateRatesDynamicAlphaOneJob: each flow its bytes over the
  coflow's bottleneck time), then what is left goes to flows in arrival order. slotflow's
  varys: SEBF, MADD rates, max-min backfill.
- DARK -> aalo. simulators/CoflowSimulatorDark.java: 10 queues by bytes the coflow has sent
  (the first up to 10 MiB, each next 10 times wider), strict priority between queues, FIFO
  within one; slotflow's aalo with its defaults has the same 10 queues, 10 MiB and x 10.

How each side measures a CCT, and what differs besides the policies:

- slotflow: the coflow's last flow's end minus its arrival (summary.json's mean_jct_s; in
  network mode nothing computes, so a job's completion time is its coflow's).
- CoflowSim: the last reducer's end minus the first reducer's start (Job.getSimulatedDuration),
  printed per coflow (the 8th field of each `JOB-...` line, in ms), their sum last; the mean is
  taken here over the printed coflows. Coflows without mappers are skipped (Simulator's
  ignoreThisJob; the FB trace has none).
- Time: CoflowSim moves in 8 ms steps (Constants.SIMULATION_QUANTA) within 10.24 s epochs
  (CoflowSim.java: simulationTimestep = 10 * SIMULATION_SECOND_MILLIS). Simulator.simulate admits
  every coflow arriving within the next epoch at the epoch's start, up to 10.24 s before its
  arrival, and starts its clock there (Task.startTask); a reducer ends at the end of the step
  in which its last byte moved. SCF, SEBF and DARK recompute rates and DARK's queues only at
  admissions and coflow completions, not when a coflow crosses a queue's limit.
- Link rate: CoflowSim's port is Constants.RACK_BITS_PER_SEC = 2^30 bit/s, 128 MiB per
  SIMULATION_SECOND_MILLIS = 1024 ms, i.e. 1 MiB per 8 ms step: 125 MiB/s (1.049 Gbps) in the
  trace's milliseconds. It is a compile-time constant, so slotflow is set to it (--nic
  125MiB/s; slotflow's default is 1 Gbps, 125 MB/s).
- Coflows: CoflowSim merges a coflow's mappers and its reducers per port (Job.coalesceMappers,
  coalesceReducers), rounds each receiver's bytes up to a whole MiB per mapper port
  (ReduceTask.roundToNearestNMB) and makes one flow per (mapper port, reducer port) of at least
  1 MiB (ReduceTask.createFlows); a flow from a port to itself uses that port's links.
  slotflow keeps every mapper and reducer of the trace (one flow per mapper x reducer, the
  reducer's bytes split evenly), and a flow within a port is local, off the network. Both read
  the trace's MB as MiB.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TRACE = os.path.join(os.path.dirname(ROOT), "shared", "traces", "FB2010-1Hr-150-0.txt")
PAIRS = {"FAIR": "fair", "PFP": "srpt", "SCF": "scf", "SEBF": "varys", "DARK": "aalo"}
NIC = "125MiB/s"  # CoflowSim's Constants.RACK_BYTES_PER_SEC in the trace's milliseconds
STEP = "8ms"  # CoflowSim's Constants.SIMULATION_QUANTA
BUILD = ("git clone https://github.com/coflow/coflowsim && cd coflowsim && "
         "javac -d /tmp/coflowsim-classes $(find src -name '*.java')")
NEEDED = ["coflowsim/CoflowSim.class", "coflowsim/simulators/FlowSimulator.class",
          "coflowsim/simulators/CoflowSimulator.class",
          "coflowsim/simulators/CoflowSimulatorDark.class",
          "coflowsim/traceproducers/CoflowBenchmarkTraceProducer.class"]


def bad_input(message):
    print(f"coflowsim.py: {message}", file=sys.stderr)
    sys.exit(2)


def run_child(cmd, stdout):
    """Exit code, CPU seconds (user + system) and stderr of CMD, its stdout to the file STDOUT."""
    with open(stdout, "w") as out:
        child = subprocess.Popen(cmd, stdout=out, stderr=subprocess.PIPE)
        err = child.stderr.read()  # CoflowSim's progress lines, or an error message
        child.stderr.close()
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
    return child.returncode, usage.ru_utime + usage.ru_stime, err.decode(errors="replace")


def coflowsim(java, classes, algo, trace, scratch):
    """CPU seconds, mean CCT (s) and coflow count of one CoflowSim run."""
    out = os.path.join(scratch, f"coflowsim-{algo}.txt")
    cmd = [java, "-cp", classes, "coflowsim.CoflowSim", algo, "COFLOW-BENCHMARK", trace]
    code, cpu, err = run_child(cmd, out)
    if code != 0:
        sys.exit(f"coflowsim.py: `{' '.join(cmd)}` exited {code}:\n{err[-2000:]}")
    durations = []
    total = None
    for number, line in enumerate(open(out), 1):
        fields = line.split()
        if fields and fields[0].startswith("JOB-") and len(fields) >= 8:
            durations.append(float(fields[7]))
        elif len(fields) == 1:
            total = float(fields[0])
    if not durations or total is None:
        sys.exit(f"coflowsim.py: {out}: no `JOB-...` lines and total in CoflowSim's output")
    if min(durations) < 0:  # Constants.VALUE_UNKNOWN: a coflow that did not finish
        sys.exit(f"coflowsim.py: {out}: {sum(d < 0 for d in durations)} coflows unfinished")
    if abs(sum(durations) - total) > 1e-6 * max(1.0, total):
        sys.exit(f"coflowsim.py: {out}: the coflows' durations sum to {sum(durations)}, "
                 f"CoflowSim's total says {total}")
    return cpu, sum(durations) / len(durations) / 1000.0, len(durations)


def slotflow(binary, policy, trace, step, scratch):
    """CPU seconds, mean CCT (s) and coflow count of one slotflow run."""
    out = os.path.join(scratch, f"slotflow-{policy}-{step or 'exact'}")
    cmd = [binary, "run", "--trace", trace, "--mode", "network", "--network", policy, "--nic",
           NIC, "--quiet", "--out", out] + (["--time-step", step] if step else [])
    code, cpu, err = run_child(cmd, os.devnull)
    if code != 0:
        sys.exit(f"coflowsim.py: `{' '.join(cmd)}` exited {code}:\n{err[-2000:]}")
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)
    if summary["unfinished_jobs"]:
        sys.exit(f"coflowsim.py: {out}: {summary['unfinished_jobs']} coflows unfinished")
    return cpu, summary["mean_jct_s"], summary["jobs"]


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--classes", metavar="DIR", help="CoflowSim's compiled classes")
    ap.add_argument("--java", default="java", help="the java launcher (default: java)")
    ap.add_argument("--slotflow", default=os.path.join(ROOT, "build", "slotflow"))
    ap.add_argument("--trace", default=TRACE)
    ap.add_argument("--pairs", default=",".join(PAIRS),
                    help=f"CoflowSim schedulers to run, of {','.join(PAIRS)}")
    ap.add_argument("--coflows", type=int, help="only the trace's first N coflows")
    a = ap.parse_args()
    if not a.classes:
        bad_input(f"--classes DIR is required: CoflowSim's compiled classes, built with `{BUILD}`")
    missing = [c for c in NEEDED if not os.path.isfile(os.path.join(a.classes, c))]
    if missing:
        bad_input(f"--classes {a.classes}: no {missing[0]} there (not CoflowSim's compiled "
                  f"classes); build them with `{BUILD}`")
    if shutil.which(a.java) is None:
        bad_input(f"--java {a.java}: not found (apt-get install default-jdk-headless)")
    if not os.access(a.slotflow, os.X_OK):
        bad_input(f"--slotflow {a.slotflow}: no slotflow binary there")
    if not os.path.isfile(a.trace):
        bad_input(f"--trace {a.trace}: no such file")
    a.pairs = [p.strip().upper() for p in a.pairs.split(",")]
    unknown = [p for p in a.pairs if p not in PAIRS]
    if unknown:
        bad_input(f"--pairs: unknown scheduler {unknown[0]}; known: {','.join(PAIRS)}")
    if a.coflows is not None and a.coflows < 1:
        bad_input(f"--coflows {a.coflows}: must be at least 1")
    return a


def first_coflows(trace, n, scratch):
    """The trace's first N coflows as a trace of their own (the header's count set to N)."""
    with open(trace) as f:
        lines = f.read().splitlines()
    ports, total = lines[0].split()[:2]
    if n > int(total):
        bad_input(f"--coflows {n}: the trace has {total}")
    path = os.path.join(scratch, f"first-{n}.txt")
    with open(path, "w") as g:
        g.write(f"{ports} {n}\n" + "\n".join(lines[1:n + 1]) + "\n")
    return path


def main():
    a = parse_args()
    scratch = tempfile.mkdtemp(prefix="coflowsim-bench-")
    trace = first_coflows(a.trace, a.coflows, scratch) if a.coflows else os.path.abspath(a.trace)
    print("| pair | CoflowSim CPU | CoflowSim mean CCT | slotflow exact CPU | exact mean CCT | "
          "slotflow 8 ms CPU | 8 ms mean CCT | CPU CoflowSim / exact | CPU CoflowSim / 8 ms |")
    print("|---|---|---|---|---|---|---|---|---|")
    for algo in a.pairs:
        policy = PAIRS[algo]
        started = time.time()
        c_cpu, c_cct, c_n = coflowsim(a.java, os.path.abspath(a.classes), algo, trace, scratch)
        e_cpu, e_cct, e_n = slotflow(a.slotflow, policy, trace, None, scratch)
        s_cpu, s_cct, s_n = slotflow(a.slotflow, policy, trace, STEP, scratch)
        if not c_n == e_n == s_n:
            sys.exit(f"coflowsim.py: {algo}: CoflowSim finished {c_n} coflows, slotflow "
                     f"{e_n} and {s_n}")
        print(f"| {algo} / {policy} | {c_cpu:.2f} s | {c_cct:.2f} s | {e_cpu:.2f} s | "
              f"{e_cct:.2f} s | {s_cpu:.2f} s | {s_cct:.2f} s | {c_cpu / e_cpu:.1f} | "
              f"{c_cpu / s_cpu:.1f} |", flush=True)
        print(f"coflowsim.py: {algo} / {policy} done in {time.time() - started:.0f} s wall",
              file=sys.stderr, flush=True)
    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
