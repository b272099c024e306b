"""loadAware (src/scheduling/policies/load_aware.cc) in Python: each task goes to the free
server with the least load, the tasks running there (load = tasks) or the bytes still to arrive
on its downlink, then the tasks running (load = bytes), read from the view's server table in one
call per decision. Ties are drawn as the built-in draws them, so it makes exactly its decisions
(tests/python/test_ports.py).

    import slotflow, load_aware        # with examples/python on sys.path
    slotflow.run(scheduler={"policy": "py-loadAware", "load": "bytes"})
"""
import numpy as np

import slotflow
from slotflow import Decision, Setting

LOADAWARE_SALT = 0x6c6f616461776172  # load_aware.cc's salt: "loadawar"
ORDERS = ["fifo", "sjf", "sjf-shuffle", "fair"]


@slotflow.register
class PyLoadAware(slotflow.TaskScheduler):
    """the free server with the least load (no locality)"""
    name = "py-loadAware"
    settings = [Setting("order", "choice", "fifo", "job order", choices=ORDERS),
                Setting("ties", "choice", "random", "equally loaded servers: random or first",
                        choices=["random", "first"]),
                Setting("load", "choice", "tasks", "tasks running, or bytes arriving",
                        choices=["tasks", "bytes"])]

    def __init__(self, args):
        super().__init__(args)
        self.order = args.settings["order"]
        self.bytes = args.settings["load"] == "bytes"
        self.tie = slotflow.TieBreak(args.seed ^ LOADAWARE_SALT, args.settings["ties"])

    def next(self, view):
        if not view.free_servers:
            return None
        servers = view.server_table("running", "bytes_arriving") if self.bytes \
            else view.server_table("running")
        for j in view.ordered_jobs(self.order):
            for t in view.job(j).ready:
                hosts = np.asarray(view.hosts(t))
                if len(hosts) == 0:
                    continue
                running = servers["running"][hosts]
                if self.bytes:
                    arriving = servers["bytes_arriving"][hosts]
                    best = self.tie.smallest(arriving, running)
                    return Decision(t, int(hosts[best]), {"rule": "fewest-bytes-arriving",
                                                          "incoming_bytes": float(arriving[best])})
                best = self.tie.smallest(running)
                return Decision(t, int(hosts[best]), {"rule": "fewest-tasks",
                                                      "running_tasks": int(running[best])})
        return None
