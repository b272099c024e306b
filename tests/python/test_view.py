"""A Python task scheduler's view offers what a C++ scheduler reads — flows in flight, links,
servers and racks, hops and paths, where a task's input is, the stage DAG, coflows, NEAT+'s
prediction and the network policy's expected class — as numpy arrays for bulk reads; and
nothing a view hands out can crash the interpreter once its call has ended."""
import math

import numpy as np
import pytest

import slotflow
from slotflow import Decision

TWO_TIER = {"servers": 12, "topology": "two-tier", "servers_per_rack": 4}


def greedy_first(view):
    """The first candidate: enough to keep a run going."""
    pairs = view.candidates()
    return Decision(int(pairs[0][0]), int(pairs[0][1])) if len(pairs) else None


def register_probe(name, probe):
    """A scheduler that calls probe(view) at every decision, then places the first candidate."""
    class Probe(slotflow.TaskScheduler):
        def next(self, view):
            probe(view)
            return greedy_first(view)
    Probe.name = name
    return slotflow.register(Probe)


def test_servers_racks_hops_and_paths_come_from_the_cluster():
    seen = {}

    def probe(view):
        if seen:
            return
        servers = view.server_table()
        seen.update(racks=view.racks, topology=view.topology, rack=servers["rack"],
                    slots=servers["slots"], nic=servers["nic"],
                    hops=view.hops(np.arange(12), np.arange(12)), one=view.hops(0, 5),
                    row=view.hops(0, [0, 1, 4]), path=view.path(0, 5),
                    names=[view.link_name(l) for l in view.path(0, 5)],
                    links=view.link_table(), up=view.uplink(5), down=view.downlink(5))

    register_probe("py-probe-cluster", probe)
    slotflow.run(scheduler="py-probe-cluster", cluster={**TWO_TIER, "slots": 3, "nic": "1Gbps"},
                 workload={"synthetic_jobs": 2})
    assert seen["racks"] == 3 and seen["topology"] == "two-tier"
    assert list(seen["rack"]) == [0] * 4 + [1] * 4 + [2] * 4
    assert (seen["slots"] == 3).all() and (seen["nic"] == 1e9 / 8).all()
    hops = seen["hops"]
    assert hops.shape == (12, 12) and (np.diag(hops) == 0).all()
    assert hops[0, 1] == 2 and hops[0, 4] == 4 and seen["one"] == 4
    assert list(seen["row"]) == [0, 2, 4]
    # Server 0's uplink, its rack's uplink, rack 1's downlink, server 5's downlink.
    assert len(seen["path"]) == 4 and seen["path"][-1] == seen["down"] and seen["up"] == 10
    assert len(seen["links"]["capacity"]) == len(seen["links"]["load"]) >= 24 + 6


def test_flows_links_and_server_traffic_agree_with_each_other():
    checks = []

    def probe(view):
        flows = view.flow_table()
        if len(flows["id"]) < 3 or len(checks) >= 20:
            return
        servers = view.server_table("bytes_arriving", "bytes_leaving", "flows_arriving")
        remote = flows["src"] != flows["dst"]
        arriving = np.bincount(flows["dst"][remote], weights=flows["remaining"][remote],
                               minlength=view.servers)
        leaving = np.bincount(flows["src"][remote], weights=flows["remaining"][remote],
                              minlength=view.servers)
        load = np.zeros(len(view.link_table()["load"]))
        for row, rate in zip(flows["links"], flows["rate"]):
            load[row[row >= 0]] += rate
        f = view.flow(int(flows["id"][0]))
        checks.append((np.allclose(servers["bytes_arriving"], arriving),
                       np.allclose(servers["bytes_leaving"], leaving),
                       np.allclose(view.link_table()["load"], load, rtol=1e-9, atol=1e-3),
                       servers["flows_arriving"].sum() == len(flows["id"]),
                       f.src == flows["src"][0] and f.remaining == flows["remaining"][0] and
                       f.rate == flows["rate"][0] and list(f.links) == [
                           l for l in flows["links"][0] if l >= 0],
                       (flows["remaining"] <= flows["size"]).all(),
                       view.link(int(f.links[0])).capacity > 0 if len(f.links) else True))

    register_probe("py-probe-flows", probe)
    slotflow.run(scheduler="py-probe-flows", network="fair", cluster=TWO_TIER,
                 workload={"synthetic_jobs": 30})
    assert len(checks) == 20 and all(all(c) for c in checks)


def test_input_sources_the_stage_dag_and_coflows():
    seen = []

    def probe(view):
        for j in view.active_jobs:
            job = view.job(j)
            for t in job.ready:
                task = view.task(t)
                if task.root or len(seen) >= 10:
                    continue
                sources, size = view.input_sources(t)
                stage = job.stages[task.stage]
                parents = [job.stages[p] for p in stage.parents]
                coflow = view.coflow(stage.coflow)
                holders = {view.task(p.first_task + i).server
                           for p in parents for i in range(p.tasks)}
                seen.append((set(sources.tolist()) <= holders,
                             math.isclose(size.sum(), task.input, rel_tol=1e-9),
                             all(p.unfinished_tasks == 0 for p in parents),
                             all(task.stage in p.children for p in parents),
                             coflow["job"] == j and coflow["stage"] == task.stage,
                             coflow["total_bytes"] >= task.input,
                             stage.first_task <= t < stage.first_task + stage.tasks))

    register_probe("py-probe-dag", probe)
    slotflow.run(scheduler="py-probe-dag", workload={"synthetic_jobs": 20})
    assert len(seen) == 10 and all(all(s) for s in seen)


def test_a_task_not_ready_has_no_input_sources_yet():
    errors = []

    def probe(view):
        for j in view.active_jobs:
            for s in view.job(j).stages:
                if s.unfinished_parents and not errors:
                    with pytest.raises(ValueError, match="waiting for its parent stages"):
                        view.input_sources(s.first_task)
                    errors.append(s.first_task)

    register_probe("py-probe-waiting", probe)
    slotflow.run(scheduler="py-probe-waiting", workload={"synthetic_jobs": 5})
    assert errors


def test_predict_and_expected_class_follow_the_network_policy_in_force():
    @slotflow.register
    class ByJob(slotflow.NetworkPolicy):
        """each job's flows in a class of its job's index mod 3"""
        name = "py-by-job"
        predictor = "srpt"

        def on_flows_started(self, net, out, flows):
            for f in flows:
                out.set_class(f, net.flow(f).job % 3)

        def expected_class(self, net, unit):
            return unit["job"] % 3

    seen = []

    def probe(view):
        ready = view.ready_table()
        if len(ready["task"]) == 0 or len(seen) >= 10:
            return
        t = int(ready["task"][0])
        times = view.predict(t, np.arange(view.servers))
        own = view.predict(t, np.arange(view.servers), objective="own")
        seen.append((view.network_policy, view.predictor, view.expected_class(t) ==
                     view.task(t).job % 3, (times >= own - 1e-12).all(),
                     times[3] == view.predict(t, 3)))

    register_probe("py-probe-predict", probe)
    slotflow.run(scheduler="py-probe-predict", network="py-by-job", workload={"synthetic_jobs": 10})
    assert len(seen) == 10
    assert all(s[:2] == ("py-by-job", "srpt") and all(s[2:]) for s in seen)


def test_every_object_a_view_hands_out_raises_after_its_call():
    kept = {}

    def probe(view):
        flows = view.flow_table()
        ready = view.ready_table()
        if kept or len(flows["id"]) == 0 or len(ready["task"]) == 0:
            return
        j = int(ready["job"][0])
        kept.update(view=view, task=view.task(int(ready["task"][0])), job=view.job(j),
                    stage=view.job(j).stages[0], server=view.server(0),
                    flow=view.flow(int(flows["id"][0])), link=view.link(0))

    register_probe("py-probe-keep", probe)
    slotflow.run(scheduler="py-probe-keep", workload={"synthetic_jobs": 10})
    reads = {"view": lambda o: o.free_servers, "task": lambda o: o.input,
             "job": lambda o: o.ready, "stage": lambda o: o.tasks,
             "server": lambda o: o.free_slots, "flow": lambda o: o.size,
             "link": lambda o: o.capacity}
    for name, read in reads.items():
        with pytest.raises(RuntimeError, match="only during the call"):
            read(kept[name])


def test_a_network_policys_flows_and_links_raise_after_its_call():
    kept = []

    @slotflow.register
    class Keep(slotflow.NetworkPolicy):
        name = "py-keep-flow"
        predictor = "fair"

        def on_flows_started(self, net, out, flows):
            if not kept:
                kept.extend([net.flow(flows[0]), net.link(0), net])

    slotflow.run(network="py-keep-flow", workload={"synthetic_jobs": 3})
    for obj, read in zip(kept, [lambda f: f.src, lambda l: l.load, lambda n: n.flow_table()]):
        with pytest.raises(RuntimeError, match="only during the call"):
            read(obj)


def test_a_reclassify_time_that_never_moves_the_clock_is_an_error():
    @slotflow.register
    class Stuck(slotflow.NetworkPolicy):
        name = "py-stuck"
        predictor = "fair"

        def next_reclassify_time(self, net):
            return net.now

    with pytest.raises(ValueError, match="py-stuck.*returned now.*cannot move forward"):
        slotflow.run(network="py-stuck", workload={"synthetic_jobs": 3})


@pytest.mark.parametrize("answer,field", [
    (lambda t, s: (t, s), "decision"),
    (lambda t, s: Decision(float(t), s), "task"),
    (lambda t, s: Decision(t, 1.5), "server"),
    (lambda t, s: Decision(t, True), "server"),
    (lambda t, s: Decision(t, s, "local"), "why"),
    (lambda t, s: Decision(t, s, {"rule": {"nested": 1}}), "why.rule"),
    (lambda t, s: Decision(t, s, {"ids": [1, 2]}), "why.ids"),
])
def test_a_decision_of_the_wrong_type_names_the_policy_and_the_field(answer, field):
    @slotflow.register
    class Wrong(slotflow.TaskScheduler):
        name = "py-wrong-type"

        def next(self, view):
            pairs = view.candidates()
            return answer(int(pairs[0][0]), int(pairs[0][1])) if len(pairs) else None

    with pytest.raises(slotflow.InputError) as caught:
        slotflow.run(scheduler="py-wrong-type", workload={"synthetic_jobs": 2})
    assert caught.value.file == "scheduler 'py-wrong-type'" and caught.value.field == field


def test_numpy_ids_and_numbers_are_accepted_in_a_decision():
    @slotflow.register
    class Numpy(slotflow.TaskScheduler):
        name = "py-numpy-ids"

        def next(self, view):
            pairs = view.candidates()
            if not len(pairs):
                return None
            return Decision(pairs[0][0], pairs[0][1], {"free": np.float64(view.free_slots)})

    r = slotflow.run(scheduler="py-numpy-ids", workload={"synthetic_jobs": 5}, log=True)
    assert any(e["event"] == "place" and "free" in e["why"] for e in r.log)


def test_an_explicit_rate_is_a_floor_topped_up_from_what_the_classes_leave():
    jobs = [{"name": "one", "stage": [
        {"name": "src", "tasks": 1, "input": 0, "servers": [0]},
        {"name": "dst", "parents": ["src"], "tasks": 1, "input": "125MB", "servers": [1]}]}]
    rates = {}

    @slotflow.register
    class Floor(slotflow.NetworkPolicy):
        name = "py-floor"
        predictor = "fair"

        def on_flows_started(self, net, out, flows):
            for f in flows:
                out.set_rate(f, rates["asked"])

    cluster = {"servers": 2, "slots": 1, "nic": "1Gbps", "slot_rate": "1000GB/s"}
    for asked in (1e6, 1e12):
        rates["asked"] = asked
        r = slotflow.run(network="py-floor", jobs=jobs, cluster=cluster)
        rates[asked] = r.jobs.jct_s[0]
    # 125 MB over 1 Gbps: 1 s whether the floor is far below the link (topped up) or far above
    # it (scaled down to what the link has).
    assert rates[1e6] == pytest.approx(1.0, rel=1e-3)
    assert rates[1e12] == pytest.approx(1.0, rel=1e-3)
