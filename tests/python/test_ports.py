"""Ports of NEAT+'s network-aware placements written in Python against the view (minDist,
loadAware by bytes, neat with the view's predictor) make exactly the built-in ones' decisions:
the same jobs.csv and tasks.csv, on workloads with reduce stages on a two-tier cluster."""
import sys
from pathlib import Path

import pytest

import slotflow

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "python"))
import load_aware  # noqa: E402,F401  (registers py-loadAware)
import min_dist  # noqa: E402,F401  (registers py-minDist)
import neat  # noqa: E402,F401  (registers py-neat)

FB_TRACE = Path(__file__).resolve().parents[3] / "shared" / "traces" / "FB2010-1Hr-150-0.txt"
TWO_TIER = {"servers": 40, "topology": "two-tier", "servers_per_rack": 8, "oversubscription": 2}
PORTS = [("minDist", "py-minDist", {}), ("loadAware", "py-loadAware", {"load": "bytes"}),
         ("loadAware", "py-loadAware", {}), ("neat", "py-neat", {})]


def same_runs(cpp_policy, py_policy, settings, **setup):
    cpp = slotflow.run(scheduler={"policy": cpp_policy, **settings}, **setup)
    py = slotflow.run(scheduler={"policy": py_policy, **settings}, **setup)
    assert (cpp.tasks.remote_bytes > 0).any() and cpp.tasks.stage.nunique() > 1, "reduce stages"
    assert py.jobs.equals(cpp.jobs)
    assert py.tasks.equals(cpp.tasks)
    return cpp


@pytest.mark.parametrize("cpp_policy,py_policy,settings", PORTS)
@pytest.mark.parametrize("network", ["fair", "tcf", "srpt"])
def test_a_port_makes_the_built_in_decisions_on_a_generated_workload(cpp_policy, py_policy,
                                                                    settings, network):
    same_runs(cpp_policy, py_policy, settings, network=network, cluster=TWO_TIER, seed=11,
              workload={"synthetic_jobs": 60, "synthetic_interarrival": "0.3s"})


@pytest.mark.parametrize("cpp_policy,py_policy,settings", PORTS)
def test_a_port_makes_the_built_in_decisions_on_fb_jobs(cpp_policy, py_policy, settings,
                                                       tmp_path):
    lines = FB_TRACE.read_text().splitlines()
    head = tmp_path / "fb-80.txt"
    head.write_text("\n".join([f"{lines[0].split()[0]} 80"] + lines[1:81]) + "\n")
    cpp = same_runs(cpp_policy, py_policy, settings, network="aalo", trace=head,
                    cluster={**TWO_TIER, "servers": 150, "servers_per_rack": 15}, seed=3)
    assert len(cpp.jobs) == 80


def test_ties_first_and_a_job_order_are_followed_too():
    same_runs("minDist", "py-minDist", {"ties": "first", "order": "sjf"}, network="fair",
              cluster=TWO_TIER, workload={"synthetic_jobs": 40})
    same_runs("neat", "py-neat", {"ties": "first", "order": "sjf"}, network="tcf",
              cluster=TWO_TIER, workload={"synthetic_jobs": 40})
