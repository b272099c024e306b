"""neat (src/scheduling/policies/neat.cc, NEAT+ §IV-V) in Python, with the completion times
from the view's predictor (view.predict: NEAT+'s objective (2) under the network policy in
force) and everything else from the view: a task reading a block whose holder has a free slot
goes there; otherwise the job's largest ready task goes to the candidate with the smallest
prediction, the candidates being the preferred hosts (the downlink idle, or every flow on it
with at least the task's bytes left; or all of its input there) or, with none, the servers with
the most free slots. Ties: fewer running tasks, then drawn as the built-in draws them. It makes
exactly the built-in's decisions (tests/python/test_ports.py).

    import slotflow, neat              # with examples/python on sys.path
    slotflow.run(scheduler="py-neat", network="tcf")
"""
import numpy as np

import slotflow
from slotflow import Decision, Setting

NEAT_SALT = 0x6e6561742b000000  # neat.cc's salt: "neat+"
REL_TOLERANCE = 1e-9            # api/tolerance.h: what counts as a floating-point tie
ORDERS = ["fifo", "sjf", "sjf-shuffle", "fair"]


def clearly_less(a, b):
    return a < b - REL_TOLERANCE * max(1.0, abs(b))


@slotflow.register
class PyNeat(slotflow.TaskScheduler):
    """NEAT+: each task on the free server minimising objective (2)"""
    name = "py-neat"
    settings = [Setting("order", "choice", "fifo", "job order", choices=ORDERS),
                Setting("ties", "choice", "random", "equal servers: random or first",
                        choices=["random", "first"])]

    def __init__(self, args):
        super().__init__(args)
        self.order = args.settings["order"]
        self.tie = slotflow.TieBreak(args.seed ^ NEAT_SALT, args.settings["ties"])

    def next(self, view):
        if not view.free_servers:
            return None
        for j in view.ordered_jobs(self.order):
            ready = view.job(j).ready
            if not ready:
                continue
            local = self.local_read(view, ready)
            if local is not None:
                return local
            inputs = [view.task(t).input for t in ready]
            largest = ready[int(np.argmax(inputs))]  # the first of the largest
            decision = self.best_server(view, largest)
            if decision is not None:
                return decision
        return None

    @staticmethod
    def local_read(view, ready):
        """The first ready task with a replica holder that can host it: the holder running
        fewest tasks, then the lowest id."""
        for t in ready:
            holders = [r for r in view.task(t).replicas if view.can_host(t, r)]
            if holders:
                best = min(holders, key=lambda r: (view.server(r).running, r))
                return Decision(t, best, {"rule": "local-read"})
        return None

    def best_server(self, view, t):
        hosts = np.asarray(view.hosts(t))
        if len(hosts) == 0:
            return None
        servers = view.server_table("running", "free_slots", "flows_leaving")
        task = view.task(t)
        if task.root:  # read from the replica holder with the fewest outgoing flows
            if task.replicas:
                leaving = servers["flows_leaving"][task.replicas]
                sources = np.array([task.replicas[int(np.argmin(leaving))]])
                size = np.array([task.input])
            else:
                sources, size = np.zeros(0, dtype=np.int64), np.zeros(0)
        else:
            sources, size = view.input_sources(t)
        total = 0.0
        for b in size:
            total += b
        there = np.zeros(view.servers)  # the task's input bytes already on each server
        there[sources] = size
        if task.root:
            there[task.replicas] = total
        # NEAT+ §V-A1's preferred hosts, from the flows in flight: the smallest remaining bytes
        # of the flows into each server.
        flows = view.flow_table()
        remote = flows["src"] != flows["dst"]
        least = np.full(view.servers, np.inf)
        np.minimum.at(least, flows["dst"][remote], flows["remaining"][remote])
        preferred = (total - there[hosts] <= 0) | (least[hosts] >= total)
        if preferred.any():
            candidates = hosts[preferred]
        else:
            free = servers["free_slots"][hosts]
            candidates = hosts[free == free.max()]
        times = view.predict(t, candidates)
        running = servers["running"]
        best, best_time = None, np.inf
        self.tie.start()
        for d, time in zip(candidates, times):
            if best is None or clearly_less(time, best_time) or \
                    (not clearly_less(best_time, time) and running[d] < running[best]):
                self.tie.better()
            elif clearly_less(best_time, time) or running[d] > running[best] or \
                    not self.tie.equal():
                continue
            best, best_time = d, time
        return Decision(t, int(best), {"rule": "predicted", "predicted_s": float(best_time)})
