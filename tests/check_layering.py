#!/usr/bin/env python3
"""Checks the include rules of slotflow's sources.

Usage: check_layering.py ROOT, where ROOT holds src/, tests/, bench/ and fuzz/. Prints every
include that breaks a rule, naming the rule, and exits 1 if there is any.

A quoted include is looked up as the compiler does: beside the including file, then in its
tree's own folder (tests/, bench/ or fuzz/), then in src/. The rules:

  layers       A folder of src/ includes only itself and the folders below it (LAYERS), so no
               two folders include each other. The policy API (src/api/) is the lowest and
               includes nothing else.
  rates        The rate allocator (src/rates/) has one public header, rates/fluid_solver.h,
               which includes none of its other headers (its parts stay out of what its users
               include). Outside src/rates/, that is the only one of its headers included,
               but for the parts' own tests (tests/rates/), which call each part directly.
  scheduling   Task schedulers (src/scheduling/policies/) include only the policy API (src/api/)
               and the scheduling helpers beside them (src/scheduling/*.h); the helpers include
               only the API and each other.
  network      Network policies (src/network/policies/) include only the policy API and the
               policy helpers (src/network/policy_helpers/); the helpers include the same, less
               the policies.
  python       The Python module's policy bindings (python/ but module.cc, the front end of
               runs) include only the policy API and each other.
  sealed       Nothing a policy, a helper or a binding includes, directly or through other
               headers, lies outside the policy API and the helpers; a network policy or helper
               reaches nothing of the API that only task schedulers read (SCHEDULER_ONLY).
  policies     A policies/ folder holds policies only: each file in it is a .cc that registers
               one (SLOTFLOW_REGISTER_TASK_SCHEDULER... or SLOTFLOW_REGISTER_NETWORK_POLICY...);
               the helper files register none.
  exists       Every quoted include names a file that exists. tests/, bench/ and fuzz/ may
               include any header of src/ (but of the rate allocator the public one only, but
               in tests/rates/) and their own files.
"""
import pathlib
import re
import sys

# Each folder of src/ and the folders it may include (besides itself and the policy API).
LAYERS = {
    # The policy API: what a scheduler, a network policy, a plugin or a Python policy codes
    # against. The lowest layer.
    "api": set(),
    "common": set(),
    "engine": {"common"},
    "cluster": {"common"},
    # The rate allocator: below the network, which alone uses it.
    "rates": {"common"},
    "network": {"common", "engine", "cluster", "rates"},
    "workload": {"common", "cluster"},
    "metrics": {"common"},
    "sim": {"common", "engine", "cluster", "network", "workload", "metrics"},
    "scheduling": {"common", "cluster", "network", "sim", "workload"},
    "systems": {"common"},
    "live": {"common"},
    # Live mode's master drives the simulator's life cycle and policies from the agents'
    # reports; the agent and the testbed (live/) stay below it, knowing no scheduler.
    "master": {"common", "cluster", "network", "workload", "metrics", "sim", "live"},
    # Set-ups assembled and run: config files, compare, sweeps, live runs; no command-line code.
    "run": {"common", "cluster", "network", "workload", "metrics", "sim", "scheduling",
            "systems", "live", "master"},
    "cli": {"common", "engine", "cluster", "network", "workload", "metrics", "sim",
            "scheduling", "systems", "live", "master", "run"},
}
for _folder, _below in LAYERS.items():
    if _folder != "api":
        _below.add("api")
# The trees outside src/ whose includes are checked, each also searched for its own files.
OTHER_TREES = ("tests", "bench", "fuzz", "python")
# The Python module's front end of runs, which may include any header; python/'s other files
# are the policy bindings.
PYTHON_FRONT_END = "python/module.cc"

RATES_PUBLIC = "rates/fluid_solver.h"
# The tests of the rate allocator's parts, which may include every header of src/rates/.
RATES_TESTS = "tests/rates"

API = re.compile(r"api/[a-z_0-9]+\.h$")
SCHEDULING_HELPER = re.compile(r"scheduling/[a-z_0-9]+\.h$")
NETWORK_HELPER = re.compile(r"network/policy_helpers/[a-z_0-9]+\.h$")
# The part of the API only task schedulers read: their view, their interface and helpers.
SCHEDULER_ONLY = {"api/state.h", "api/task_scheduler.h", "api/first_fit.h", "api/job_order.h",
                  "api/neat_score.h", "api/neat_predictor.h", "api/neat_daemons.h"}


def scheduling_may(header):
    return bool(API.match(header) or SCHEDULING_HELPER.match(header))


def network_may(header):
    return bool(API.match(header) or NETWORK_HELPER.match(header)) and header not in SCHEDULER_ONLY


REGISTERS = {
    "scheduling": re.compile(r"\bSLOTFLOW_REGISTER_TASK_SCHEDULER(_WITH)?\s*\("),
    "network": re.compile(r"\bSLOTFLOW_REGISTER_NETWORK_POLICY(_WITH)?\s*\("),
}
ANY_REGISTER = re.compile(r"\bSLOTFLOW_REGISTER_(TASK_SCHEDULER|NETWORK_POLICY)(_WITH)?\s*\(")

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def kind_of(rel):
    """What a file of src/ (or python/) is, for the per-file rules: (area, role) or None."""
    parts = rel.parts
    if parts[0] == "scheduling":
        return ("scheduling", "policy" if parts[1:2] == ("policies",) else "helper")
    if parts[0] == "network" and parts[1:2] == ("policies",):
        return ("network", "policy")
    if parts[0] == "network" and parts[1:2] == ("policy_helpers",):
        return ("network", "helper")
    if parts[0] == "python" and rel.as_posix() != PYTHON_FRONT_END:
        return ("python", "binding")
    return None


class Tree:
    def __init__(self, root):
        self.root = root
        self.src = root / "src"
        self.text = {}

    def read(self, path):
        if path not in self.text:
            self.text[path] = path.read_text(errors="replace")
        return self.text[path]

    def resolve(self, path, name):
        """The file an include of `name` in `path` finds, or None."""
        tree = path.relative_to(self.root).parts[0]
        bases = [path.parent]
        if tree in OTHER_TREES:
            bases.append(self.root / tree)
        bases.append(self.src)
        for base in bases:
            candidate = base / name
            if candidate.is_file():
                return candidate.resolve()
        return None

    def src_name(self, target):
        """A resolved file's name as included from src/ ("rates/groups.h"), or None."""
        try:
            return target.relative_to(self.src.resolve()).as_posix()
        except ValueError:
            return None

    def includes(self, path):
        """(written name, resolved file or None) for each quoted include of path."""
        return [(name, self.resolve(path, name)) for name in INCLUDE.findall(self.read(path))]

    def closure(self, path):
        """Every src/ header that path includes, directly or through others, by name."""
        seen, stack = set(), [path]
        while stack:
            for _, target in self.includes(stack.pop()):
                name = target and self.src_name(target)
                if name and name not in seen:
                    seen.add(name)
                    stack.append(target)
        return seen


def check(root):
    tree = Tree(root)
    bad = []
    sources = [p for p in sorted(tree.src.rglob("*")) if p.suffix in (".h", ".cc")]
    for tree_name in OTHER_TREES:
        if (root / tree_name).is_dir():
            sources += [p for p in sorted((root / tree_name).rglob("*")) if p.suffix in (".h", ".cc")]

    for path in sources:
        rel_root = path.relative_to(root)
        in_src = rel_root.parts[0] == "src"
        rel = path.relative_to(tree.src) if in_src else None
        folder = rel.parts[0] if in_src else None
        if in_src and (len(rel.parts) < 2 or folder not in LAYERS):
            bad.append(f"{rel_root}: [layers] folder '{folder}' has no layer (add it to LAYERS)")
            continue
        kind = kind_of(rel) if in_src else None
        if rel_root.parts[0] == "python":
            kind = kind_of(rel_root)

        for name, target in tree.includes(path):
            if target is None:
                bad.append(f"{rel_root}: [exists] includes {name}, which does not exist")
                continue
            header = tree.src_name(target)
            if header is None:
                continue  # a file of tests/, bench/ or fuzz/ itself
            target_folder = header.split("/")[0]
            if in_src and target_folder != folder and target_folder not in LAYERS[folder]:
                bad.append(f"{rel_root}: [layers] includes {header}, above its layer")
            parts_test = rel_root.parent.as_posix() == RATES_TESTS
            if (target_folder == "rates" and header != RATES_PUBLIC and folder != "rates" and
                    not parts_test):
                bad.append(f"{rel_root}: [rates] includes {header}, not the rate allocator's "
                           f"public header {RATES_PUBLIC}")
            if in_src and rel.as_posix() == RATES_PUBLIC and target_folder == "rates":
                bad.append(f"{rel_root}: [rates] the public header includes {header}, one of "
                           f"the rate allocator's parts")
            if kind and kind[0] == "scheduling" and not scheduling_may(header):
                bad.append(f"{rel_root}: [scheduling] a task scheduler"
                           f"{'' if kind[1] == 'policy' else ' helper'} includes {header}")
            if kind and kind[0] == "network" and not network_may(header):
                bad.append(f"{rel_root}: [network] a network policy"
                           f"{'' if kind[1] == 'policy' else ' helper'} includes {header}")
            if kind == ("python", "binding") and not API.match(header):
                bad.append(f"{rel_root}: [python] a policy binding includes {header}")

        if kind is None:
            continue
        area, role = kind
        allowed = network_may if area == "network" else scheduling_may
        for header in sorted(tree.closure(path)):
            if not allowed(header):
                bad.append(f"{rel_root}: [sealed] a {area} {role} reaches {header}")
        if area == "python":
            continue
        registers = ANY_REGISTER.search(tree.read(path))
        if role == "policy":
            if path.suffix != ".cc":
                bad.append(f"{rel_root}: [policies] a header in policies/ (helpers go beside it)")
            elif not REGISTERS[area].search(tree.read(path)):
                bad.append(f"{rel_root}: [policies] registers no policy (a helper: move it out of "
                           f"policies/)")
        elif registers:
            bad.append(f"{rel_root}: [policies] a helper registers a policy (move it to policies/)")
    return bad


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    bad = check(pathlib.Path(argv[1]).resolve())
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
