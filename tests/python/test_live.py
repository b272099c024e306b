"""slotflow.live(): a Python scheduler driving live mode's testbed (root only, where `ip netns`
works; skipped elsewhere), and live()'s bad input raising InputError before any testbed is up."""
import inspect
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import slotflow
from slotflow import _slotflow

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "examples" / "python"))
import greedy  # noqa: E402  (registers py-greedy)

PREFIX = "sfy"  # a testbed of this test's own, never one a user or another test has up


def namespaces():
    done = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True)
    return [line.split()[0] for line in done.stdout.splitlines() if line.strip()]


def why_no_testbed():
    if os.geteuid() != 0:
        return "needs root (network namespaces, veth, tc)"
    probe = subprocess.run(["ip", "netns", "add", PREFIX + "probe"], capture_output=True,
                           text=True)
    if probe.returncode != 0:
        return "ip netns does not work here: " + probe.stderr
    subprocess.run(["ip", "netns", "del", PREFIX + "probe"], check=True)
    return ""


SMALL = dict(hosts=3, rate="100mbit", workload={"synthetic_jobs": 5},
             cluster={"slot_rate": "20MB/s", "replicas": 1},
             set={"workload.traffic_scale": 0.05}, deadline="90s", testbed_prefix=PREFIX)


def test_a_python_scheduler_runs_on_the_testbed(tmp_path):
    if why := why_no_testbed():
        pytest.skip(why)
    calls = greedy.PyGreedy.calls
    r = slotflow.live(scheduler="py-greedy", network="cans", log=True, out=tmp_path / "out",
                      **SMALL)
    assert not [ns for ns in namespaces() if ns.startswith(PREFIX)], "the run left its testbed"
    assert r.summary["scheduler"] == "py-greedy" and r.summary["network"] == "cans"
    assert r.summary["unfinished_jobs"] == 0 and len(r.jobs) == 5
    assert greedy.PyGreedy.calls > calls
    places = [e for e in r.log if e["event"] == "place"]
    assert len(places) == len(r.tasks)
    assert {e["why"]["rule"] for e in places} <= {"local", "random-free"}
    assert sum(e["event"] == "flow_start" for e in r.log) > 0
    assert pd.read_csv(tmp_path / "out" / "jobs.csv").equals(r.jobs)


@pytest.mark.parametrize("kwargs, field", [
    (dict(hosts=300), "hosts"),
    (dict(hosts=0), "hosts"),
    (dict(hosts="three"), "hosts"),
    (dict(agent="/nonexistent/slotflow"), "agent"),
    (dict(agent="/bin/true"), "agent"),
])
def test_bad_live_settings_name_their_keyword(kwargs, field):
    with pytest.raises(slotflow.InputError) as e:
        slotflow.live(system="duopoly", **kwargs)
    assert e.value.field == field


def test_bad_block_reads_and_modelled_costs_are_refused_before_the_testbed():
    if os.geteuid() != 0:
        pytest.skip("live() refuses to start without root before it reads its settings")
    with pytest.raises(slotflow.InputError) as e:
        slotflow.live(system="duopoly", block_reads="disk", testbed_prefix=PREFIX)
    assert e.value.field == "block_reads"
    with pytest.raises(slotflow.InputError) as e:
        slotflow.live(system="duopoly", cluster={"payload_efficiency": 0.95},
                      testbed_prefix=PREFIX)
    assert e.value.field == "cluster.payload_efficiency"
    assert not [ns for ns in namespaces() if ns.startswith(PREFIX)]


def test_bad_deadline_is_refused_before_the_testbed(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("live() refuses to start without root before it reads the deadline")
    with pytest.raises(slotflow.InputError) as e:
        slotflow.live(system="duopoly", deadline="soon", testbed_prefix=PREFIX)
    assert e.value.field == "deadline"
    assert not [ns for ns in namespaces() if ns.startswith(PREFIX)]


def test_live_takes_a_keyword_for_each_declared_setting_of_live_runs():
    """The keywords beyond run()'s are the settings of live runs as declared once (run/live.h),
    which `slotflow live`'s flags are made from too."""
    run_keywords = set(inspect.signature(slotflow.run).parameters)
    live_keywords = set(inspect.signature(slotflow.live).parameters) - run_keywords
    assert live_keywords == set(_slotflow.live_settings())
