#!/usr/bin/python3
"""Samples the testbed switch's byte counters toward each host while a live run goes.

    sudo experiments/live/port_bytes.py --prefix sfcx --hosts 4 --out ports.csv &
    sudo ./build/slotflow live --testbed-prefix sfcx --hosts 4 ...

Waits for the switch namespace PREFIXsw to appear, then every --interval seconds reads
`tc -s qdisc show dev portI` (bytes sent toward host I, Ethernet frames) for each port and
writes `t_s,port0,...` (t from the first sample); stops when the namespace goes away or after
--timeout seconds. Then prints each port's mean Mbit/s over [--from, --to] of its clock.

Bad flags exit with status 2 and a message naming the flag.
"""
import argparse
import re
import subprocess
import sys
import time


def sent_bytes(switch, port):
    out = subprocess.run(["tc", "-s", "-n", switch, "qdisc", "show", "dev", port],
                         capture_output=True, text=True).stdout
    m = re.search(r"Sent (\d+) bytes", out)
    return int(m.group(1)) if m else None


def switch_up(switch):
    out = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    return any(line.split()[0] == switch for line in out.splitlines() if line.strip())


def sample(switch, hosts, interval, timeout):
    """Rows (t, [bytes per port]) from the switch's appearance to its removal."""
    rows, t0, end = [], None, time.time() + timeout
    while time.time() < end:
        if not switch_up(switch):
            if t0 is not None:
                break
            time.sleep(0.05)
            continue
        counts = [sent_bytes(switch, f"port{i}") for i in range(hosts)]
        now = time.time()
        if None not in counts:
            t0 = now if t0 is None else t0
            rows.append((now - t0, counts))
        time.sleep(interval)
    return rows


def mean_rates(rows, start, stop):
    inside = [r for r in rows if start <= r[0] <= stop]
    if len(inside) < 2:
        return None
    (ta, a), (tb, b) = inside[0], inside[-1]
    return [8 * (y - x) / (tb - ta) / 1e6 for x, y in zip(a, b)]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--prefix", default="sf")
    p.add_argument("--hosts", type=int, required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--interval", type=float, default=0.1)
    p.add_argument("--timeout", type=float, default=300)
    p.add_argument("--from", dest="start", type=float, default=0)
    p.add_argument("--to", dest="stop", type=float, default=float("inf"))
    a = p.parse_args()
    if not 1 <= a.hosts <= 254:
        print("port_bytes: error: --hosts: expected 1..254", file=sys.stderr)
        sys.exit(2)
    if not a.interval > 0:
        print("port_bytes: error: --interval: must be positive", file=sys.stderr)
        sys.exit(2)
    rows = sample(a.prefix + "sw", a.hosts, a.interval, a.timeout)
    try:
        with open(a.out, "w") as f:
            f.write("t_s," + ",".join(f"port{i}" for i in range(a.hosts)) + "\n")
            for t, counts in rows:
                f.write(f"{t:.3f}," + ",".join(map(str, counts)) + "\n")
    except OSError as e:
        print(f"port_bytes: error: --out: cannot write {a.out}: {e.strerror}", file=sys.stderr)
        sys.exit(2)
    rates = mean_rates(rows, a.start, a.stop)
    if rates:
        print("mean Mbit/s toward each host: " + " ".join(f"{r:.1f}" for r in rates))


if __name__ == "__main__":
    main()
