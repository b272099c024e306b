#!/usr/bin/env python3
"""Tests of check_layering.py: a small tree that keeps every rule passes, and each rule fails on
a tree with one deliberate violation of it, naming the rule and the file."""
import pathlib
import shutil
import subprocess
import sys
import tempfile
import unittest

CHECKER = pathlib.Path(__file__).resolve().parent / "check_layering.py"

# A tree that keeps every rule: one file or a few per folder, each including what the real
# ones may.
CLEAN = {
    "src/api/ids.h": "",
    "src/api/registry.h": '#include "api/ids.h"\n',
    "src/engine/engine.h": '#include "api/ids.h"\n',
    "src/api/cluster.h": '#include "api/ids.h"\n',
    "src/rates/fluid_solver.h": '#include "api/ids.h"\n',
    "src/rates/fluid_solver.cc": '#include "rates/fluid_solver.h"\n#include "rates/groups.h"\n',
    "src/rates/groups.h": '#include "api/ids.h"\n',
    "src/rates/groups.cc": '#include "rates/groups.h"\n',
    "src/api/flow.h": '#include "api/ids.h"\n',
    "src/api/flow_view.h": '#include "api/flow.h"\n',
    "src/api/network_policy.h": '#include "api/registry.h"\n#include "api/flow_view.h"\n',
    "src/network/network.h": ('#include "engine/engine.h"\n#include "api/network_policy.h"\n'
                              '#include "rates/fluid_solver.h"\n'),
    "src/network/policy_helpers/tracker.h": '#include "api/network_policy.h"\n',
    "src/network/policy_helpers/tracker.cc": '#include "network/policy_helpers/tracker.h"\n',
    "src/network/policies/fair.cc": ('#include "network/policy_helpers/tracker.h"\n'
                                     'SLOTFLOW_REGISTER_NETWORK_POLICY("fair", "", {}, Fair);\n'),
    "src/api/job.h": '#include "api/cluster.h"\n',
    "src/metrics/report.h": '#include "api/ids.h"\n',
    "src/api/state.h": ('#include "api/cluster.h"\n#include "api/flow_view.h"\n'
                        '#include "api/job.h"\n'),
    "src/api/task_scheduler.h": '#include "api/registry.h"\n#include "api/state.h"\n',
    "src/sim/lifecycle.h": '#include "network/network.h"\n#include "api/state.h"\n',
    "src/sim/simulator.h": '#include "metrics/report.h"\n#include "sim/lifecycle.h"\n',
    "src/api/job_order.h": '#include "api/state.h"\n',
    "src/scheduling/predictor.h": ('#include "api/cluster.h"\n'
                                   '#include "api/flow_view.h"\n'),
    "src/scheduling/policies/fifo.cc": ('#include "api/job_order.h"\n'
                                        '#include "api/task_scheduler.h"\n'
                                        'SLOTFLOW_REGISTER_TASK_SCHEDULER("fifo", "", {}, Fifo);\n'),
    "tests/rates/solver_runs.h": '#include "rates/fluid_solver.h"\n',
    "tests/rates/solver_test.cc": '#include "rates/solver_runs.h"\n#include "sim/simulator.h"\n',
    "tests/rates/groups_test.cc": '#include "rates/groups.h"\n',
    "tests/network/network_test.cc": '#include "network/network.h"\n',
    "bench/mid_run.h": '#include "sim/lifecycle.h"\n',
    "bench/solver_bench.cc": '#include "mid_run.h"\n#include "rates/fluid_solver.h"\n',
    "fuzz/job_fuzzer.cc": '#include "api/job.h"\n',
    "python/view.h": '#include "api/state.h"\n',
    "python/view.cc": '#include "view.h"\n#include "api/job_order.h"\n',
    "python/module.cc": '#include "sim/simulator.h"\n#include "view.h"\n',
}

# One violation per case: (rule, the file it is reported in, the files changed).
VIOLATIONS = {
    "a folder includes one above it": (
        "layers", "src/api/ids.h", {"src/api/ids.h": '#include "engine/engine.h"\n'}),
    "a folder without a layer": (
        "layers", "src/gadgets/gadget.h", {"src/gadgets/gadget.h": ""}),
    "the network includes an internal header of the rate allocator": (
        "rates", "src/network/network.h",
        {"src/network/network.h": '#include "rates/groups.h"\n'}),
    "a benchmark includes an internal header of the rate allocator": (
        "rates", "bench/solver_bench.cc", {"bench/solver_bench.cc": '#include "rates/groups.h"\n'}),
    "a test outside the parts' tests includes an internal header of the rate allocator": (
        "rates", "tests/network/network_test.cc",
        {"tests/network/network_test.cc": '#include "rates/groups.h"\n'}),
    "a test in a folder below the parts' tests includes an internal header": (
        "rates", "tests/rates/more/solver_test.cc",
        {"tests/rates/more/solver_test.cc": '#include "rates/groups.h"\n'}),
    "the rate allocator's public header includes one of its parts": (
        "rates", "src/rates/fluid_solver.h",
        {"src/rates/fluid_solver.h": '#include "rates/groups.h"\n'}),
    "a task scheduler includes the task life cycle": (
        "scheduling", "src/scheduling/policies/fifo.cc",
        {"src/scheduling/policies/fifo.cc": ('#include "sim/lifecycle.h"\n'
                                             'SLOTFLOW_REGISTER_TASK_SCHEDULER("f", "", {}, F);\n')}),
    "a task scheduler includes the simulator": (
        "scheduling", "src/scheduling/policies/fifo.cc",
        {"src/scheduling/policies/fifo.cc": ('#include "sim/simulator.h"\n'
                                             'SLOTFLOW_REGISTER_TASK_SCHEDULER("f", "", {}, F);\n')}),
    "a task scheduler includes the network": (
        "scheduling", "src/scheduling/policies/fifo.cc",
        {"src/scheduling/policies/fifo.cc": ('#include "network/network.h"\n'
                                             'SLOTFLOW_REGISTER_TASK_SCHEDULER("f", "", {}, F);\n')}),
    "a task scheduler includes the rate allocator": (
        "scheduling", "src/scheduling/policies/fifo.cc",
        {"src/scheduling/policies/fifo.cc": ('#include "rates/fluid_solver.h"\n'
                                             'SLOTFLOW_REGISTER_TASK_SCHEDULER("f", "", {}, F);\n')}),
    "a task scheduler includes the simulator's internals through a helper": (
        "sealed", "src/scheduling/policies/fifo.cc",
        {"src/scheduling/predictor.h": '#include "sim/simulator.h"\n',
         "src/scheduling/policies/fifo.cc": ('#include "scheduling/predictor.h"\n'
                                             'SLOTFLOW_REGISTER_TASK_SCHEDULER("f", "", {}, F);\n')}),
    "a policy binding of the Python module includes the simulator": (
        "python", "python/view.cc", {"python/view.cc": '#include "sim/simulator.h"\n'}),
    "a policy binding reaches the simulator through a header of its own": (
        "python", "python/view.h", {"python/view.h": '#include "sim/lifecycle.h"\n'}),
    "the policy API includes a folder above it": (
        "layers", "src/api/state.h", {"src/api/state.h": '#include "sim/lifecycle.h"\n'}),
    "a scheduling helper includes the task life cycle": (
        "scheduling", "src/scheduling/predictor.h",
        {"src/scheduling/predictor.h": '#include "sim/lifecycle.h"\n'}),
    "a network policy includes the network": (
        "network", "src/network/policies/fair.cc",
        {"src/network/policies/fair.cc": ('#include "network/network.h"\n'
                                          'SLOTFLOW_REGISTER_NETWORK_POLICY("f", "", {}, F);\n')}),
    "a network policy includes the rate allocator": (
        "network", "src/network/policies/fair.cc",
        {"src/network/policies/fair.cc": ('#include "rates/fluid_solver.h"\n'
                                          'SLOTFLOW_REGISTER_NETWORK_POLICY("f", "", {}, F);\n')}),
    "a network policy includes the scheduler's state": (
        "network", "src/network/policies/fair.cc",
        {"src/network/policies/fair.cc": ('#include "api/state.h"\n'
                                          'SLOTFLOW_REGISTER_NETWORK_POLICY("f", "", {}, F);\n')}),
    "a network policy helper includes the network": (
        "network", "src/network/policy_helpers/tracker.h",
        {"src/network/policy_helpers/tracker.h": '#include "network/network.h"\n'}),
    "the flow view includes the network, which policies then reach": (
        "sealed", "src/network/policies/fair.cc",
        {"src/api/flow_view.h": '#include "network/network.h"\n'}),
    "the state view includes the task life cycle, which schedulers then reach": (
        "sealed", "src/scheduling/policies/fifo.cc",
        {"src/api/state.h": '#include "sim/lifecycle.h"\n'}),
    "a header in a policies folder": (
        "policies", "src/network/policies/fair.h", {"src/network/policies/fair.h": ""}),
    "a file in a policies folder that registers no policy": (
        "policies", "src/scheduling/policies/walk.cc",
        {"src/scheduling/policies/walk.cc": '#include "api/job_order.h"\n'}),
    "a helper that registers a policy": (
        "policies", "src/network/policy_helpers/tracker.cc",
        {"src/network/policy_helpers/tracker.cc": (
            '#include "network/policy_helpers/tracker.h"\n'
            'SLOTFLOW_REGISTER_NETWORK_POLICY("t", "", {}, T);\n')}),
    "a source includes a header that does not exist": (
        "exists", "src/api/state.h", {"src/api/state.h": '#include "sim/gone.h"\n'}),
    "a fuzzer includes a header that does not exist": (
        "exists", "fuzz/job_fuzzer.cc", {"fuzz/job_fuzzer.cc": '#include "cli/run_spec.h"\n'}),
    "a benchmark includes a file of its own that does not exist": (
        "exists", "bench/solver_bench.cc", {"bench/solver_bench.cc": '#include "mid_run_gone.h"\n'}),
}


def write(root, files):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def run_checker(root):
    return subprocess.run([sys.executable, str(CHECKER), str(root)], capture_output=True,
                          text=True)


class CheckLayering(unittest.TestCase):
    def setUp(self):
        self.dir = pathlib.Path(tempfile.mkdtemp())
        write(self.dir, CLEAN)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_a_tree_that_keeps_every_rule_passes(self):
        result = run_checker(self.dir)
        self.assertEqual(result.returncode, 0, result.stdout)
        self.assertEqual(result.stdout, "")

    def test_each_rule_fails_on_a_violation(self):
        for case, (rule, where, changes) in VIOLATIONS.items():
            with self.subTest(case):
                root = self.dir / case.replace(" ", "-")
                write(root, CLEAN)
                write(root, changes)
                result = run_checker(root)
                self.assertEqual(result.returncode, 1, result.stdout)
                self.assertIn(f"{where}: [{rule}]", result.stdout)

    def test_every_rule_has_a_case(self):
        rules = {rule for rule, _, _ in VIOLATIONS.values()}
        self.assertEqual(rules, {"layers", "rates", "scheduling", "network", "python", "sealed", "policies",
                                 "exists"})

    def test_without_a_root_it_prints_its_usage(self):
        result = subprocess.run([sys.executable, str(CHECKER)], capture_output=True, text=True)
        self.assertEqual(result.returncode, 2)
        self.assertIn("Usage", result.stderr)


if __name__ == "__main__":
    unittest.main()
