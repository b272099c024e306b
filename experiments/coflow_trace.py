"""The coflow benchmark's trace (FB2010-1Hr-150-0.txt) as the experiment scripts read it."""

MIB = 1 << 20


def reducer_bytes(path):
    """Per coflow line, its reducers' bytes (the trace gives MiB, read as slotflow reads them:
    docs/readings.md)."""
    with open(path) as f:
        next(f)  # ports and coflow count
        for line in f:
            t = line.split()
            if not t:
                continue
            m = int(t[2])
            r = int(t[3 + m])
            yield [float(x.split(":")[1]) * MIB for x in t[4 + m:4 + m + r]]
