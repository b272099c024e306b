"""slotflow.Env: the simulator one placement at a time, for schedulers that learn.

It follows Gymnasium's reset/step convention (Gymnasium itself is not needed):

    env = slotflow.Env(network="fair", workload={"synthetic_jobs": 50})
    obs, info = env.reset(seed=1)
    done = False
    while not done:
        action = obs["candidates"][0]          # any (task, server) row of candidates, or None
        obs, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    info["result"].jobs                        # the episode's jobs.csv, as run() gives it

The same simulator runs as under run(): the environment is the task scheduler (named "env"),
asked at every point where a built-in one would be asked for a placement and something can be
placed. A step places the chosen pair and runs to the next such point; None places nothing
until the next event. The default reward is minus the job-seconds elapsed since the last step
(the integral of the number of jobs submitted and not finished), so an episode's return is
minus the total JCT.
"""
from __future__ import annotations

import atexit
import queue
import threading
import weakref

import numpy as np

# The package's own names: this module is imported at the end of slotflow/__init__.py, once
# they are defined.
from . import Decision, RunError, TaskScheduler, _input_error, register, run

_local = threading.local()
_open_envs: "weakref.WeakSet[Env]" = weakref.WeakSet()

# What an observation may hold (Env's `observe`), each read from the view by one call.
_OBSERVED = {
    "servers": lambda view: view.server_table(),
    "tasks": lambda view: view.ready_table(),
    "jobs": lambda view: view.job_table(),
    "flows": lambda view: view.flow_table(),
    "links": lambda view: view.link_table(),
    "candidate_table": lambda view: view.candidate_table(),
}


class _Abort(BaseException):
    """Ends an episode's simulation from inside its scheduler (reset or close mid-episode)."""


class _Channel:
    """The hand-over between the episode's simulation thread and the caller's."""

    def __init__(self):
        self.to_env: queue.Queue = queue.Queue()
        self.to_sim: queue.Queue = queue.Queue()

    def decide(self, view):
        """In the simulation thread: hands the decision point over and waits for the action."""
        candidates = view.candidates()
        if len(candidates) == 0:
            return None
        self.to_env.put(("decide", view, candidates))
        action = self.to_sim.get()
        if action is _Abort:
            raise _Abort()
        if action is None:
            return None
        return Decision(int(action[0]), int(action[1]), {"rule": "env"})


@register
class EnvScheduler(TaskScheduler):
    """placements chosen step by step by slotflow.Env"""
    name = "env"

    def __init__(self, args):
        super().__init__(args)
        self.channel = getattr(_local, "channel", None)
        if self.channel is None:
            raise RuntimeError("the 'env' scheduler runs only under slotflow.Env")

    def next(self, view):
        return self.channel.decide(view)


def _episode(channel: _Channel, setup: dict):
    _local.channel = channel
    try:
        result = run(scheduler="env", **setup)
        channel.to_env.put(("done", result))
    except _Abort:
        channel.to_env.put(("aborted", None))
    except RunError as e:
        channel.to_env.put(("failed", e))
    except BaseException as e:  # noqa: BLE001 (handed to the caller's thread)
        channel.to_env.put(("error", e))


def _job_seconds(submit, finish, since: float, until: float) -> float:
    """Job-seconds between `since` and `until` of jobs submitted at `submit` that finish at
    `finish` (inf: not yet)."""
    start = np.maximum(submit, since)
    end = np.minimum(finish, until)
    return float(np.clip(end - start, 0, None).sum())


class Env:
    """The simulator as an environment. Its arguments are run()'s set-up (system, network,
    cluster, workload, trace, jobs, seed, set, config) except `scheduler`: the environment is
    the scheduler.

    reset(seed=None) -> (observation, info); step(action) -> (observation, reward, terminated,
    truncated, info). The observation is a dict: `now`, `candidates` (an (n, 2) int array of the
    (task, server) pairs that may be placed now) and, as dicts of numpy arrays, the tables of
    the view named in `observe`: servers, tasks (the ready ones), jobs (all), flows (in
    flight), links, candidate_table (per candidate: its task's job and input, whether the
    server holds its block, the bytes it would read over the network there). info["view"] is
    the live View (slotflow.View), valid until the next step. At the end the observation's
    candidates are empty, and info["result"] is the episode's Result.

    An episode that cannot go on (no event left and jobs unfinished: every action was None) is
    truncated, with reward 0 for its last step: info["error"] says why and info["result"] holds
    what it produced.
    """

    def __init__(self, system=None, *, observe=("servers", "tasks", "jobs", "candidate_table"),
                 **setup):
        source = "slotflow.Env()"
        allowed = {"network", "cluster", "workload", "trace", "jobs", "seed", "set", "config"}
        for key in setup:
            if key == "scheduler":
                raise _input_error(source, key, "the environment is the scheduler; give "
                                                "network, cluster and workload only")
            if key not in allowed:
                raise _input_error(source, key, "not an argument of Env (known: system, " +
                                   ", ".join(sorted(allowed)) + ", observe)")
        for name in observe:
            if name not in _OBSERVED:
                raise _input_error(source, "observe", f"unknown table '{name}' (known: " +
                                   ", ".join(_OBSERVED) + ")")
        self._setup = dict(setup, system=system)
        self._observe = tuple(observe)
        self._channel = None
        self._thread = None
        self._view = None
        self._candidates = None
        self._last = 0.0
        _open_envs.add(self)

    # --- Gymnasium's calls ---

    def reset(self, seed=None, options=None):
        """Starts an episode (ending any still running) and returns (observation, info) at its
        first decision point. seed: the run's seed (default: the set-up's)."""
        self.close()
        setup = dict(self._setup)
        if seed is not None:
            setup["seed"] = seed
        self._channel = _Channel()
        self._thread = threading.Thread(target=_episode, args=(self._channel, setup),
                                        name="slotflow-env", daemon=True)
        self._last = 0.0
        self._thread.start()
        observation, _, terminated, truncated, info = self._wait()
        return observation, info

    def step(self, action):
        """Places `action` (a (task, server) pair of the observation's candidates, or None for
        nothing until the next event) and runs to the next decision point."""
        if self._candidates is None:
            raise RuntimeError("no episode running: call reset() first")
        if action is not None:
            try:
                pair = (int(action[0]), int(action[1]))
                if len(action) != 2:
                    raise ValueError
            except (TypeError, ValueError, IndexError):
                raise _input_error("slotflow.Env.step()", "action",
                                   f"expected a (task, server) pair or None, not {action!r}") \
                    from None
            rows = self._candidates
            if not ((rows[:, 0] == pair[0]) & (rows[:, 1] == pair[1])).any():
                raise _input_error("slotflow.Env.step()", "action",
                                   f"(task {pair[0]}, server {pair[1]}) is not among the "
                                   f"{len(rows)} candidates (a ready task and a server that "
                                   "can host it now)")
            action = pair
        self._candidates = None
        self._view = None
        self._channel.to_sim.put(action)
        return self._wait()

    def close(self):
        """Ends the episode still running, if any."""
        if self._thread is not None and self._thread.is_alive():
            if self._candidates is not None:
                self._channel.to_sim.put(_Abort)
            self._thread.join()
        self._thread = None
        self._candidates = None
        self._view = None

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001 (interpreter shutting down)
            pass

    # --- the rest ---

    def _wait(self):
        kind, *rest = self._channel.to_env.get()
        if kind == "decide":
            view, candidates = rest
            self._view, self._candidates = view, candidates
            observation = {"now": view.now, "candidates": candidates}
            for name in self._observe:
                observation[name] = _OBSERVED[name](view)
            jobs = observation["jobs"] if "jobs" in observation else view.job_table()
            finish = np.where(jobs["finished"], jobs["finish"], np.inf)
            reward = -_job_seconds(jobs["submit"], finish, self._last, view.now)
            self._last = view.now
            return observation, reward, False, False, {"view": view}
        self._thread.join()
        self._thread = None
        if kind == "error":
            raise rest[0]
        if kind == "aborted":
            raise RuntimeError("the episode was ended")
        truncated = kind == "failed"
        info = {"result": rest[0].result if truncated else rest[0]}
        reward = 0.0
        if truncated:
            info["error"] = str(rest[0])
        else:
            jobs = info["result"].jobs
            reward = -_job_seconds(jobs.submit_s.to_numpy(dtype=float),
                                   jobs.finish_s.to_numpy(dtype=float), self._last, np.inf)
        observation = {"now": self._last, "candidates": np.zeros((0, 2), dtype=np.int64)}
        return observation, reward, not truncated, truncated, info


@atexit.register
def _close_all():
    for env in list(_open_envs):
        try:
            env.close()
        except Exception:  # noqa: BLE001
            pass

