"""minDist (src/scheduling/policies/min_dist.cc) in Python: each task goes to the free server
nearest its input, the least bytes x hops, with the topology and the input's whereabouts read
from the view (nothing about the cluster is repeated as a setting). Ties are drawn as the
built-in draws them, so it makes exactly its decisions (tests/python/test_ports.py).

    import slotflow, min_dist          # with examples/python on sys.path
    slotflow.run(scheduler="py-minDist", cluster={"topology": "two-tier"})
"""
import numpy as np

import slotflow
from slotflow import Decision, Setting

MINDIST_SALT = 0x6d696e6469737400  # min_dist.cc's salt, mixed into the run's seed: "mindist"
ORDERS = ["fifo", "sjf", "sjf-shuffle", "fair"]


@slotflow.register
class PyMinDist(slotflow.TaskScheduler):
    """the free server nearest the task's input (least bytes x hops)"""
    name = "py-minDist"
    settings = [Setting("order", "choice", "fifo", "job order", choices=ORDERS),
                Setting("ties", "choice", "random", "equally near servers: random or first",
                        choices=["random", "first"])]

    def __init__(self, args):
        super().__init__(args)
        self.order = args.settings["order"]
        self.tie = slotflow.TieBreak(args.seed ^ MINDIST_SALT, args.settings["ties"])

    def next(self, view):
        if not view.free_servers:
            return None
        for j in view.ordered_jobs(self.order):
            for t in view.job(j).ready:
                hosts = np.asarray(view.hosts(t))
                if len(hosts) == 0:
                    continue
                cost = self.byte_hops(view, t, hosts)
                best = self.tie.smallest(cost)
                return Decision(t, int(hosts[best]),
                                {"rule": "nearest-input", "byte_hops": float(cost[best])})
        return None

    @staticmethod
    def byte_hops(view, t, hosts):
        """Sum of bytes x hops of task t's input if it ran on each of `hosts`."""
        task = view.task(t)
        if task.root:  # a block, read from its nearest replica
            if not task.replicas:
                return np.zeros(len(hosts))
            return task.input * view.hops(task.replicas, hosts).min(axis=0)
        sources, size = view.input_sources(t)
        if len(sources) == 0:
            return np.zeros(len(hosts))
        # Summed source by source, in the C++ order (a cumulative sum adds in sequence).
        return (size[:, None] * view.hops(sources, hosts)).cumsum(axis=0)[-1]
