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


from fcfs import PyFcfs  # noqa: E402  (registers py-fcfs)


def fb_head(tmp_path, coflows):
    lines = FB_TRACE.read_text().splitlines()
    head = tmp_path / f"fb-{coflows}.txt"
    head.write_text("\n".join([f"{lines[0].split()[0]} {coflows}"] + lines[1:coflows + 1]) +
                    "\n")
    return head


def test_the_python_fcfs_gives_the_c_plus_plus_fcfs_classes_in_network_mode(tmp_path):
    trace = fb_head(tmp_path, 60)
    for queues in (8, 2):
        setup = dict(trace=trace, workload={"mode": "network"}, log=True)
        cpp = slotflow.run(network={"policy": "fcfs", "queues": queues}, **setup)
        py = slotflow.run(network={"policy": "py-fcfs", "queues": queues}, **setup)
        assert py.jobs.equals(cpp.jobs), queues
        assert py.log == cpp.log, queues  # every class change at the same moment
        assert py.summary["settings"]["network.queues"] == str(queues)
    # Unlimited queues (each flow its own class) on a small workload: the FB trace's flows each
    # in a class of their own are slow to solve in C++ and in Python alike.
    setup = dict(network={"queues": "unlimited"}, workload={"synthetic_jobs": 30}, log=True)
    cpp = slotflow.run(**{**setup, "network": {"policy": "fcfs", "queues": "unlimited"}})
    py = slotflow.run(**{**setup, "network": {"policy": "py-fcfs", "queues": "unlimited"}})
    assert py.jobs.equals(cpp.jobs) and py.log == cpp.log


def test_the_python_fcfs_on_the_fb_trace_as_jobs():
    cpp = slotflow.run(network="fcfs", trace=FB_TRACE)
    py = slotflow.run(network="py-fcfs", trace=FB_TRACE)
    assert len(py.jobs) == 526 and py.jobs.equals(cpp.jobs)


def test_neat_predicts_a_python_policy_by_the_predictor_it_names():
    cpp = slotflow.run(scheduler="neat", network="fcfs", cluster={"servers": 20})
    py = slotflow.run(scheduler="neat", network="py-fcfs", cluster={"servers": 20})
    assert py.jobs.equals(cpp.jobs)
    assert py.summary["settings"]["scheduler.predictor"] == "auto"
    # On two threads, in a comparison.
    runs = slotflow.compare([{"label": "cpp", "network": "fcfs"},
                             {"label": "py", "network": "py-fcfs"}], scheduler="neat",
                            seeds=2, threads=2, cluster={"servers": 20})
    same = [c for c in runs.columns if c not in ("variant", "wall_s")]
    pd.testing.assert_frame_equal(runs[runs.variant == "cpp"][same].reset_index(drop=True),
                                  runs[runs.variant == "py"][same].reset_index(drop=True))


def test_a_network_policy_must_name_its_predictor_and_a_real_flow():
    class NoPredictor(slotflow.NetworkPolicy):
        name = "py-no-predictor"

    with pytest.raises(ValueError, match="predictor"):
        slotflow.register(NoPredictor)

    class BadPredictor(slotflow.NetworkPolicy):
        name = "py-bad-predictor"
        predictor = "telepathy"

    with pytest.raises(ValueError, match="telepathy"):
        slotflow.register(BadPredictor)

    @slotflow.register
    class WrongFlow(slotflow.NetworkPolicy):
        name = "py-wrong-flow"
        predictor = "fair"

        def on_flows_started(self, net, out, flows):
            out.set_class(net.flow_count + 5, 0)

    with pytest.raises(IndexError, match="flow .* out of range"):
        slotflow.run(network="py-wrong-flow", workload={"synthetic_jobs": 3})


def test_a_network_policys_reasons_reach_the_decision_log():
    @slotflow.register
    class Stragglers(slotflow.NetworkPolicy):
        """a coflow's flows go first once one of its flows has ended"""
        name = "py-stragglers"
        predictor = "coflow-fair"

        def on_flows_started(self, net, out, flows):
            for f in flows:
                out.set_class(f, 1)

        def on_flows_finished(self, net, out, flows):
            ended = {net.flow(f).coflow for f in flows}
            for f in net.active_flows:
                if net.flow(f).coflow in ended and net.flow_class(f) != 0:
                    out.set_class(f, 0, why={"rule": "sibling-ended", "coflow": net.flow(f).coflow})

    r = slotflow.run(network="py-stragglers", workload={"synthetic_jobs": 10}, log=True)
    changes = [line for line in r.log if line["event"] == "class"]
    assert changes and all(c["why"]["rule"] == "sibling-ended" and c["to"] == 0
                           for c in changes)


def test_a_flow_that_ended_at_an_earlier_step_is_let_go():
    seen = {}

    @slotflow.register
    class Remember(slotflow.NetworkPolicy):
        """reads the first flow to end again at every later end, until it is gone"""
        name = "py-remember"
        predictor = "fair"

        def on_flows_finished(self, net, out, flows):
            if "first" not in seen:
                seen["first"] = flows[0]
                seen["size"] = net.flow(flows[0]).size  # readable in the hook that reports it
                return
            if "error" in seen:
                return
            seen["active"] = net.active(seen["first"])
            try:
                net.flow(seen["first"])
            except IndexError as e:
                seen["error"] = str(e)

    r = slotflow.run(network="py-remember", workload={"synthetic_jobs": 200})
    assert r.summary["flows"] > 10000  # more than a chunk of records
    assert seen["size"] > 0 and seen["active"] is False
    assert "finished at an earlier step" in seen["error"]
