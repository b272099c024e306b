"""fcfs (src/network/policies/fcfs.cc) written in Python: per-flow first come, first served;
the Q−1 oldest active flows get classes 0..Q−2, the others share class Q−1. The same classes
as the C++ policy at every step: tests/python/test_policies.py checks that both give the same
results on the FB trace in network mode.

    import slotflow, fcfs              # with examples/python on sys.path
    slotflow.run(network="py-fcfs")
"""
import bisect

import slotflow
from slotflow import Setting


@slotflow.register
class PyFcfs(slotflow.NetworkPolicy):
    """per-flow first come first served (by flow start)"""
    name = "py-fcfs"
    predictor = "fcfs"
    settings = [Setting("queues", "queues", 8, "priority classes (or unlimited)")]

    def __init__(self, args):
        super().__init__(args)
        self.queues = args.settings["queues"]  # 0: unlimited
        self.active = []  # limited queues: active flows in start (= id) order

    def on_flows_started(self, net, out, flows):
        for f in flows:
            if not net.active(f):
                continue  # already over (an empty flow)
            if self.queues == 0:
                out.set_class(f, f)
            else:
                bisect.insort(self.active, f)
                out.set_class(f, self.queues - 1)
        self.rerank(out)

    def on_flows_finished(self, net, out, flows):
        if self.queues == 0:
            return
        for f in flows:
            i = bisect.bisect_left(self.active, f)
            if i < len(self.active) and self.active[i] == f:
                del self.active[i]
        self.rerank(out)

    def rerank(self, out):
        if self.queues == 0:
            return
        for rank, f in enumerate(self.active[:self.queues - 1]):
            out.set_class(f, rank)
