"""tools/testbed_traffic.py over loopback (no testbed, no root): a sender marked with a DSCP
sends for one second into a sink, which prints a rate per interval; bad arguments are refused.
python3 testbed_traffic_test.py REPO."""
import os
import socket
import subprocess
import sys

repo = sys.argv[1]
script = os.path.join(repo, "tools", "testbed_traffic.py")
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)


# A port free on this machine now (the sink binds it a moment later).
with socket.socket() as probe:
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]

sink = subprocess.Popen([sys.executable, script, "sink", str(port), "--interval", "0.5",
                         "--bind", "127.0.0.1"],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
check("listening" in sink.stderr.readline(), "the sink says when it listens")
send = subprocess.run([sys.executable, script, "send", "127.0.0.1", str(port), "--dscp", "40",
                       "--seconds", "1"], capture_output=True, text=True, timeout=20)
check(send.returncode == 0, f"send: exit {send.returncode}: {send.stderr}")
check("with DSCP 40" in send.stderr, f"send says what it sent: {send.stderr}")
out, err = sink.communicate(timeout=20)
lines = out.splitlines()
check(sink.returncode == 0, f"sink: exit {sink.returncode}: {err}")
check(lines[:1] == [f"t_s,port{port}_mbit_s"], f"sink header: {lines[:1]}")
rows = [line.split(",") for line in lines[1:]]
check(len(rows) >= 2, f"one row per half second of a 1 s send, got {len(rows)}")
check(rows and float(rows[0][1]) > 0, f"bytes arrived in the first interval: {rows[:1]}")

for bad in (["send", "127.0.0.1", str(port), "--dscp", "64"], ["sink", str(port), "--interval", "0"]):
    r = subprocess.run([sys.executable, script, *bad], capture_output=True, text=True, timeout=20)
    check(r.returncode == 2, f"{bad}: exit 2 for a bad argument, got {r.returncode}")

for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
