#!/usr/bin/env python3
"""Checks that src/ keeps its layers: a folder includes only itself and the folders below it.

Usage: check_layering.py SRC_DIR. Prints each include that crosses a layer the wrong way and
exits 1 if there is any (so no two folders can include each other)."""
import pathlib
import re
import sys

# Each folder and the folders it may include (besides itself).
ALLOWED = {
    "common": set(),
    "engine": {"common"},
    "cluster": {"common"},
    "network": {"common", "engine", "cluster"},
    "workload": {"common", "cluster"},
    "metrics": {"common"},
    "sim": {"common", "engine", "cluster", "network", "workload", "metrics"},
    "scheduling": {"common", "cluster", "network", "sim", "workload"},
    "systems": {"common"},
    "live": {"common"},
    # Live mode's master drives the simulator's life cycle and policies from the agents'
    # reports; the agent and the testbed (live/) stay below it, knowing no scheduler.
    "master": {"common", "cluster", "network", "workload", "metrics", "sim", "live"},
    # Set-ups assembled and run: config files, compare, sweeps; no command-line code.
    "run": {"common", "cluster", "network", "workload", "metrics", "sim", "scheduling",
            "systems"},
    "cli": {"common", "engine", "cluster", "network", "workload", "metrics", "sim",
            "scheduling", "systems", "live", "master", "run"},
}
# Policies see the network only through its views (network/flow_view.h), never the solver.
POLICY_FORBIDDEN = {"network/network.h", "network/fluid_solver.h"}

INCLUDE = re.compile(r'^\s*#include\s+"([a-z_]+)/([^"]+)"', re.M)


def main(src: pathlib.Path) -> int:
    bad = []
    for path in sorted(src.rglob("*")):
        if path.suffix not in (".h", ".cc"):
            continue
        rel = path.relative_to(src)
        folder = rel.parts[0]
        if folder not in ALLOWED:
            bad.append(f"{rel}: folder '{folder}' has no layer (add it to {__file__})")
            continue
        policy = "policies" in rel.parts
        for target, header in INCLUDE.findall(path.read_text()):
            if target != folder and target not in ALLOWED[folder]:
                bad.append(f"{rel}: includes {target}/{header}, above its layer")
            if policy and f"{target}/{header}" in POLICY_FORBIDDEN:
                bad.append(f"{rel}: a policy includes {target}/{header}")
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1])))
