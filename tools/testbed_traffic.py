#!/usr/bin/env python3
"""TCP traffic for measuring the testbed (docs/testbed.md): a sink that times what it receives,
and a sender that marks its packets with a DSCP.

  testbed_traffic.py sink PORT [PORT ...] [--interval S] [--bind ADDRESS]
      Listens on each port (of every address of its host unless --bind; says so on stderr),
      takes one connection per port, and when every connection has closed prints one line per
      interval: the time since the first connection and the Mbit/s received on each port then.
  testbed_traffic.py send HOST PORT [--dscp D] [--seconds S] [--delay S] [--cc NAME]
      Waits --delay seconds, connects, and sends as fast as TCP lets it for --seconds with
      IP_TOS = D << 2 (DSCP D; default 0), with congestion control NAME if given (cubic, bbr,
      ...; the system's default otherwise).

Run each under `ip netns exec sfhI` to place it on host I. Only the standard library."""
import argparse
import selectors
import socket
import sys
import time

CHUNK = 1 << 16


def sink(ports, interval, bind):
    sel = selectors.DefaultSelector()
    for port in ports:
        listener = socket.create_server((bind, port))
        sel.register(listener, selectors.EVENT_READ, ("listen", port))
    print("sink: listening on " + ", ".join(map(str, ports)), file=sys.stderr, flush=True)
    done, start = 0, None
    received = {}  # (interval index, port) -> bytes
    while done < len(ports):
        for key, _ in sel.select():
            kind, port = key.data
            now = time.monotonic()
            if kind == "listen":
                conn, _ = key.fileobj.accept()
                sel.unregister(key.fileobj)
                key.fileobj.close()
                sel.register(conn, selectors.EVENT_READ, ("data", port))
                start = now if start is None else start
                continue
            data = key.fileobj.recv(CHUNK * 4)
            if not data:
                sel.unregister(key.fileobj)
                key.fileobj.close()
                done += 1
                continue
            slot = int((now - start) / interval)
            received[(slot, port)] = received.get((slot, port), 0) + len(data)
    last = max((slot for slot, _ in received), default=-1)
    print("t_s," + ",".join(f"port{p}_mbit_s" for p in ports))
    for slot in range(last + 1):
        rates = [received.get((slot, p), 0) * 8 / interval / 1e6 for p in ports]
        print(f"{slot * interval:.1f}," + ",".join(f"{r:.1f}" for r in rates))


def send(host, port, dscp, seconds, delay, cc):
    time.sleep(delay)
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, dscp << 2)
    if cc:
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, cc.encode())
    s.connect((host, port))
    payload = b"\0" * CHUNK
    end = time.monotonic() + seconds
    sent = 0
    while time.monotonic() < end:
        sent += s.send(payload)
    s.close()
    print(f"sent {sent} bytes to {host}:{port} with DSCP {dscp} in {seconds} s", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_sink = sub.add_parser("sink", help="receive on ports and print Mbit/s per interval")
    p_sink.add_argument("ports", type=int, nargs="+")
    p_sink.add_argument("--interval", type=float, default=1.0)
    p_sink.add_argument("--bind", default="", help="listen on this address only")
    p_send = sub.add_parser("send", help="send to HOST:PORT with a DSCP")
    p_send.add_argument("host")
    p_send.add_argument("port", type=int)
    p_send.add_argument("--dscp", type=int, default=0, choices=range(64), metavar="0..63")
    p_send.add_argument("--seconds", type=float, default=10.0)
    p_send.add_argument("--delay", type=float, default=0.0)
    p_send.add_argument("--cc", default="", help="TCP congestion control, e.g. cubic")
    args = parser.parse_args()
    if args.command == "sink":
        if args.interval <= 0:
            parser.error("--interval must be positive")
        sink(args.ports, args.interval, args.bind)
    else:
        send(args.host, args.port, args.dscp, args.seconds, args.delay, args.cc)


if __name__ == "__main__":
    main()
