"""greedy (src/scheduling/policies/greedy.cc) written in Python, line by line: the same
decisions, the same random draws. tests/python/test_policies.py checks that both give the same
jobs, tasks and decision log; bench/python_policy.py times the two.

    import slotflow, greedy            # with examples/python on sys.path
    slotflow.run(scheduler="py-greedy")
"""
import slotflow
from slotflow import Decision, Setting

# greedy.cc's salt, mixed into the run's seed: "greedy" in ASCII.
GREEDY_SALT = 0x6772656564790000


@slotflow.register
class PyGreedy(slotflow.TaskScheduler):
    """any free slot; input-block readers prefer a replica holder (never reserves)"""
    name = "py-greedy"
    settings = [Setting("order", "choice", "fifo", "job order",
                        choices=["fifo", "sjf", "sjf-shuffle", "fair"])]
    calls = 0  # next() calls, over every run of this process

    def __init__(self, args):
        super().__init__(args)
        self.order = args.settings["order"]
        self.rng = slotflow.Rng(args.seed ^ GREEDY_SALT)

    def next(self, view):
        PyGreedy.calls += 1
        free = view.free_servers
        if not free:
            return None
        for j in view.ordered_jobs(self.order):
            ready = view.job(j).ready
            if not ready:
                continue
            # Prefer a task that can read locally; else the job's first ready task on a random
            # free server (the next one along that it fits).
            for t in ready:
                for r in view.task(t).replicas:
                    if view.can_host(t, r):
                        return Decision(t, r, {"rule": "local"})
            first = self.rng.uniform_int(len(free))
            for t in ready:
                for k in range(len(free)):
                    s = free[(first + k) % len(free)]
                    if view.can_host(t, s):
                        return Decision(t, s, {"rule": "random-free"})
        return None
