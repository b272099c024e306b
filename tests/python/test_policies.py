"""Task schedulers written in Python run wherever a built-in one does, and a port of a built-in
scheduler makes the same decisions as its C++ original."""
import sys
from pathlib import Path

import pandas as pd
import pytest

import slotflow
from slotflow import Decision

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "python"))
from greedy import PyGreedy  # noqa: E402  (registers py-greedy)


@pytest.mark.parametrize("order", ["fifo", "sjf"])
def test_the_python_greedy_makes_the_c_plus_plus_greedys_decisions(order):
    setup = dict(network="fair", seed=4, log=True, set={"scheduler.order": order})
    cpp = slotflow.run(scheduler="greedy", **setup)
    py = slotflow.run(scheduler="py-greedy", **setup)
    assert py.jobs.equals(cpp.jobs)
    assert py.tasks.equals(cpp.tasks)
    assert py.log == cpp.log  # every event, with the policy's own reasons
    assert py.summary["scheduler"] == "py-greedy"
    assert py.summary["settings"]["scheduler.order"] == order


FB_TRACE = Path(__file__).resolve().parents[3] / "shared" / "traces" / "FB2010-1Hr-150-0.txt"


def test_the_python_greedy_makes_the_same_decisions_on_the_fb_trace_as_jobs():
    """The whole FB trace as jobs on the default cluster, 50 servers x 4 slots."""
    cpp = slotflow.run(scheduler="greedy", trace=FB_TRACE)
    py = slotflow.run(scheduler="py-greedy", trace=FB_TRACE)
    assert len(py.jobs) == 526
    assert py.jobs.equals(cpp.jobs) and py.tasks.equals(cpp.tasks)


def test_a_python_scheduler_in_compare_and_sweep():
    runs = slotflow.compare([{"label": "greedy", "scheduler": "greedy"},
                             {"label": "py", "scheduler": "py-greedy"}], seeds=3,
                            cluster={"servers": 20}, threads=2)
    timeless = [c for c in runs.columns if c not in ("variant", "wall_s", "events")]
    cpp = runs[runs.variant == "greedy"].reset_index(drop=True)[timeless]
    py = runs[runs.variant == "py"].reset_index(drop=True)[timeless]
    pd.testing.assert_frame_equal(cpp, py)
    results = slotflow.sweep({"cluster": {"servers": 10}, "workload": {"synthetic_jobs": 20},
                              "sweep": {"seeds": 2,
                                        "variant": [{"name": "py",
                                                     "set": {"scheduler.policy": "py-greedy"}}],
                                        "parameter": [
                                  {"key": "scheduler.order", "values": ["fifo", "sjf"]}]}})
    assert len(results) == 4 and results.unfinished_jobs.eq(0).all()
    assert list(results["scheduler.order"]) == ["fifo", "fifo", "sjf", "sjf"]


def test_its_settings_are_checked_like_a_built_in_ones():
    with pytest.raises(slotflow.InputError) as caught:
        slotflow.run(scheduler={"policy": "py-greedy", "order": "random"})
    assert caught.value.field == "scheduler.order" and "fifo" in caught.value.message
    with pytest.raises(slotflow.InputError) as caught:
        slotflow.run(scheduler={"policy": "py-greedy", "queues": 3})
    assert caught.value.field == "scheduler.queues"


def test_a_bad_decision_is_an_error_naming_the_scheduler():
    @slotflow.register
    class Stubborn(slotflow.TaskScheduler):
        name = "py-stubborn"

        def next(self, view):
            if not view.active_jobs:
                return None
            # Every slot of server 0, then one more: the last cannot start.
            return Decision(view.job(view.active_jobs[0]).ready[0], 0) if view.ready_tasks \
                else None

    with pytest.raises(ValueError, match="py-stubborn.*cannot start on server 0"):
        slotflow.run(scheduler="py-stubborn", cluster={"servers": 2, "slots": 1},
                     workload={"synthetic_jobs": 3})


def test_an_exception_in_the_policy_reaches_the_caller():
    @slotflow.register
    class Broken(slotflow.TaskScheduler):
        name = "py-broken"

        def next(self, view):
            raise KeyError("my bug")

    with pytest.raises(KeyError, match="my bug"):
        slotflow.run(scheduler="py-broken")
    with pytest.raises(KeyError, match="my bug"):
        slotflow.compare([{"label": "g", "scheduler": "greedy"},
                          {"label": "b", "scheduler": "py-broken"}], seeds=2, threads=2)
    with pytest.raises(slotflow.InputError) as caught:
        slotflow.compare(["greedy"])
    assert caught.value.file == "slotflow.compare() entry 'greedy'"
    assert caught.value.field == "system" and "unknown system" in caught.value.message


def test_the_view_is_valid_only_during_the_call():
    kept = []

    @slotflow.register
    class Keeper(PyGreedy):
        name = "py-keeper"

        def next(self, view):
            kept.append(view)
            return super().next(view)

    slotflow.run(scheduler="py-keeper", workload={"synthetic_jobs": 2})
    with pytest.raises(RuntimeError, match="only during the call"):
        kept[0].free_servers


def test_a_built_in_name_is_refused():
    class Fake(slotflow.TaskScheduler):
        name = "greedy"

    with pytest.raises(ValueError, match="built-in"):
        slotflow.register(Fake)
