"""slotflow from Python: runs, comparisons and sweeps, with results as pandas DataFrames.

A set-up is given with the keys of a config file (docs/sweeps.md, `slotflow run --config`):

    import slotflow
    r = slotflow.run(system="duopoly", cluster={"servers": 20}, seed=3)
    r.jobs            # jobs.csv as a DataFrame (one row per job)
    r.tasks           # tasks.csv
    r.summary         # summary.json as a dict
    slotflow.compare(["duopoly", "neat", "aalo"], seeds=5)   # one row per system and seed

`scheduler` and `network` take a policy's name or a dict of its settings ({"policy": "nats",
"order": "sjf"}); `set` takes dotted keys as `--set` does ({"scheduler.order": "sjf"});
`config` names a config file the other arguments override. Bad input raises InputError (a
ValueError) with the same `file`, `line`, `field` and `message` as the command line's errors;
a run whose jobs did not all finish raises RunError, which keeps the result.

A task scheduler or network policy written in Python subclasses TaskScheduler or NetworkPolicy
and is registered by name; it then runs wherever a built-in one does (docs/python.md, "Policies
in Python").
"""
from __future__ import annotations

import atexit
import io
import json
import operator
import os
import subprocess
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Iterable

import pandas as pd

from . import _slotflow
from ._slotflow import (ClassSink, Flow, FlowNet, InputError, Job, Link, Rng, Server, Stage, Task,
                        TieBreak, View)

__all__ = ["run", "live", "compare", "load_plugin", "sweep", "Result", "InputError", "RunError", "TaskScheduler",
           "NetworkPolicy", "Decision", "Setting", "PolicyArgs", "register", "View", "FlowNet",
           "ClassSink", "Rng", "TieBreak", "Env", "Task", "Job", "Stage", "Server", "Flow",
           "Link"]


class RunError(RuntimeError):
    """Some jobs never finished; `result` holds what the run produced."""

    def __init__(self, message: str, result=None):
        super().__init__(message)
        self.result = result


@dataclass
class Result:
    """One run: its files as the command line writes them, read by pandas."""
    jobs: pd.DataFrame
    tasks: pd.DataFrame
    utilisation: pd.DataFrame
    summary: dict
    log: list | None = field(default=None, repr=False)  # decision log lines, with log=True


def _input_error(source: str, key: str, message: str) -> InputError:
    err = InputError(f"{source}: field '{key}': {message}")
    err.file, err.line, err.field, err.message = source, 0, key, message
    return err


def _policy(value, source: str, key: str) -> dict:
    if isinstance(value, str):
        return {"policy": value}
    if isinstance(value, dict):
        return dict(value)
    raise _input_error(source, key, f"expected a policy name or a dict of settings, "
                                    f"not {type(value).__name__}")


def _setup(source: str, *, system=None, scheduler=None, network=None, cluster=None,
           workload=None, trace=None, jobs=None, seed=None, set=None, jobs_dir=None) -> dict:
    """The config-file dict the arguments describe."""
    setup: dict = {}
    if system is not None:
        setup["system"] = system
    if seed is not None:
        # An integer, as every number of a set-up is (a string is refused here as in
        # cluster.servers); one above 2^63 travels as text, as a saved set-up writes it.
        try:
            if isinstance(seed, bool):
                raise TypeError
            seed = operator.index(seed)
        except TypeError:
            raise _input_error(source, "seed", f"expected an integer, not {type(seed).__name__} "
                                               f"{seed!r}") from None
        setup["seed"] = seed if seed < 2**63 else str(seed)
    for key, value in (("cluster", cluster), ("workload", workload)):
        if value is not None:
            if not isinstance(value, dict):
                raise _input_error(source, key, f"expected a dict, not {type(value).__name__}")
            setup[key] = dict(value)
    for key, value in (("scheduler", scheduler), ("network", network)):
        if value is not None:
            setup[key] = _policy(value, source, key)
    if trace is not None:
        if not isinstance(trace, (str, os.PathLike)):
            raise _input_error(source, "trace", f"expected a path, not {type(trace).__name__}")
        setup.setdefault("workload", {})["trace"] = os.fspath(trace)
    if jobs is not None:
        setup.setdefault("workload", {})["jobs"] = _jobs_file(jobs, source, jobs_dir)
    for dotted, value in (set or {}).items():
        table, _, key = str(dotted).partition(".")
        if table not in ("cluster", "workload", "scheduler", "network", "rates") or not key:
            raise _input_error(source, f"set {dotted}",
                               "expected cluster.KEY, workload.KEY, scheduler.KEY, network.KEY "
                               "or rates.KEY")
        setup.setdefault(table, {})[key] = value
    return setup


def _jobs_file(jobs, source: str, directory) -> str:
    """A job file's path: `jobs` itself, or the jobs given as dicts written as one into
    `directory` (the run's out, so that the set-up it writes names a file that stays; else a
    scratch directory that lives as long as the call)."""
    if isinstance(jobs, (str, os.PathLike)):
        return os.fspath(jobs)
    if isinstance(jobs, dict):  # a whole job file: {"cluster": {...}, "job": [...]}
        content = jobs
    elif isinstance(jobs, (list, tuple)):
        content = {"job": list(jobs)}
    else:
        raise _input_error(source, "jobs", "expected a job file's path, a list of jobs or a "
                                           f"job file as a dict, not {type(jobs).__name__}")
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as e:
        raise _input_error(source, "out", f"cannot create {os.fspath(directory)}: "
                                          f"{e.strerror}") from None
    path = os.path.join(directory, "jobs.toml")
    with open(path, "w") as f:
        f.write(_slotflow.toml_text(content, f"{source} jobs"))
    return path


def _call(name: str, args: dict) -> str:
    shown = ", ".join(f"{k}={v!r}" for k, v in args.items() if v is not None)
    return f"slotflow.{name}({shown})"


def _frame(text: str) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(text))


def run(system=None, *, scheduler=None, network=None, cluster=None, workload=None, trace=None,
        jobs=None, seed=None, set=None, config=None, log=False, utilisation=False,
        out=None) -> Result:
    """Runs one simulation and returns its Result.

    jobs: a job file's path, or the jobs as dicts in a job file's form (docs/job-file.md), or a
    whole job file as a dict. log=True keeps the decision log (docs/decision-log.md) as a list
    of dicts; utilisation=True samples utilisation.csv; out=DIR also writes the run's files
    there, as `slotflow run --out DIR` does.
    """
    setup = dict(system=system, scheduler=scheduler, network=network, cluster=cluster,
                 workload=workload, trace=trace, jobs=jobs, seed=seed, set=set)
    files = _execute("run", setup, config, out, {},
                     lambda table, path, source, line, into: _slotflow.run(
                         table, path, source, line, bool(log), bool(utilisation), into))
    return _result(files, log)


def _execute(name: str, setup: dict, config, out, shown: dict, call) -> dict:
    """The files of one run of `setup` (run()'s set-up arguments) by `call(setup dict, config
    path, source, command line, out)`, with jobs given as dicts written where they last as long
    as the call; `shown`: further arguments the command line in summary.json shows."""
    source = f"slotflow.{name}()"
    with tempfile.TemporaryDirectory(prefix="slotflow-") as scratch:
        table = _setup(source, **setup, jobs_dir=out or scratch)
        return call(table, os.fspath(config) if config else "", source,
                    _call(name, {**setup, "config": config, **shown}),
                    os.fspath(out) if out else "")


def _result(files: dict, log: bool) -> Result:
    """A run's Result from the files' text; RunError if some jobs never finished."""
    result = Result(jobs=_frame(files["jobs"]), tasks=_frame(files["tasks"]),
                    utilisation=_frame(files["utilisation"]),
                    summary=json.loads(files["summary"]),
                    log=[json.loads(line) for line in files["log"].splitlines()] if log else None)
    if files["unfinished_jobs"]:
        raise RunError(f"{files['unfinished_jobs']} jobs never finished", result)
    return result


def _agent_program(source: str) -> str:
    """The slotflow executable of this package's build: build/slotflow beside build/python in
    the build tree, PREFIX/bin/slotflow once installed; checked to be the same version."""
    here = Path(__file__).resolve().parent
    candidates = [here.parents[1] / "slotflow"]
    if len(here.parents) > 3:
        candidates.append(here.parents[3] / "bin" / "slotflow")
    for candidate in candidates:
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    raise _input_error(source, "agent", "no slotflow executable beside this package (looked "
                                        f"for {', '.join(map(str, candidates))}); give agent=")


def load_plugin(path) -> None:
    """Loads a plugin: a shared object of C++ policies built against this slotflow's installed
    package (docs/plugins.md), as `--plugin FILE.so` does; its policies then run wherever a
    built-in one does. InputError (field "plugin") when it cannot be loaded."""
    _slotflow.load_plugin(os.fspath(path))


def live(system=None, *, scheduler=None, network=None, cluster=None, workload=None, trace=None,
         jobs=None, seed=None, set=None, config=None, log=False, out=None, hosts=None,
         rate=None, deadline=None, agent_timeout=None, journal=None, keep_testbed=None,
         testbed_prefix=None, block_reads=None, agent=None) -> Result:
    """Runs the set-up on live mode's testbed (docs/live.md; needs root) and returns its
    measured Result, as `slotflow live` does: the scheduler and network policy, Python ones
    included, run in this process as the master; one agent per host moves real TCP bytes.

    The set-up's arguments are run()'s; hosts, rate, deadline, agent_timeout, journal,
    keep_testbed, testbed_prefix and block_reads are `slotflow live`'s flags (None: their
    declared default, `slotflow live --help`). agent: the slotflow executable the agents run
    (default: the one built or installed with this package).
    """
    source = "slotflow.live()"
    program = os.fspath(agent) if agent is not None else _agent_program(source)
    try:
        version = subprocess.run([program, "--version"], capture_output=True, text=True)
    except OSError as e:
        raise _input_error(source, "agent", f"cannot run {program}: {e.strerror}") from None
    if version.returncode != 0 or version.stdout.strip() != _slotflow.version():
        raise _input_error(source, "agent", f"{program} is not this package's slotflow "
                                            f"({_slotflow.version()}): "
                                            f"{(version.stdout or version.stderr).strip()}")
    settings = dict(hosts=hosts, rate=rate, deadline=deadline, agent_timeout=agent_timeout,
                    journal=os.fspath(journal) if journal is not None else None,
                    keep_testbed=keep_testbed, testbed_prefix=testbed_prefix,
                    block_reads=block_reads, agent=program)
    setup = dict(system=system, scheduler=scheduler, network=network, cluster=cluster,
                 workload=workload, trace=trace, jobs=jobs, seed=seed, set=set)
    files = _execute("live", setup, config, out, dict(hosts=hosts, rate=rate),
                     lambda table, path, source, line, into: _slotflow.live(
                         table, path, source, line, bool(log), into, settings))
    return _result(files, log)


def _seed_list(seeds) -> list:
    if isinstance(seeds, int) and not isinstance(seeds, bool):
        if seeds < 1:
            raise _input_error("slotflow.compare()", "seeds", "expected at least 1 seed")
        return list(range(1, seeds + 1))
    return [int(s) for s in seeds]


# What an entry of compare() may set (over the base set-up), besides its label.
_ENTRY_KEYS = {"system", "scheduler", "network", "cluster", "workload", "trace", "jobs", "set"}


def compare(entries: Iterable, *, seeds=1, threads=0, out=None, system=None, scheduler=None,
            network=None, cluster=None, workload=None, trace=None, jobs=None, set=None,
            config=None) -> pd.DataFrame:
    """Runs every entry at every seed on one workload; one row per entry and seed.

    entries: system names ("duopoly"), or dicts of set-up keys with an optional "label"
    ({"label": "nats-fifo", "system": "duopoly", "set": {"scheduler.order": "fifo"}}).
    seeds: N (seeds 1..N) or a list. threads: parallel runs (0: one per core). The returned
    frame is compare.csv; its attrs["summary"] is compare_summary.csv (mean and 95 % CI per
    entry). out=DIR writes the files of `slotflow compare --out DIR`. Runs whose jobs did not
    all finish raise RunError, whose `result` is the frame.
    """
    source = "slotflow.compare()"
    if isinstance(entries, (str, dict)):  # one entry, not a sequence of them
        entries = [entries]
    args = dict(entries=list(entries), seeds=seeds, system=system, scheduler=scheduler,
                network=network, cluster=cluster, workload=workload, trace=trace, jobs=jobs,
                set=set, config=config)
    with tempfile.TemporaryDirectory(prefix="slotflow-") as scratch:
        base = _setup(source, system=system, scheduler=scheduler, network=network,
                      cluster=cluster, workload=workload, trace=trace, jobs=jobs, set=set,
                      jobs_dir=out or scratch)
        pairs = []
        for entry in args["entries"]:
            if isinstance(entry, str):
                pairs.append((entry, {"system": entry}))
                continue
            if not isinstance(entry, dict):
                raise _input_error(source, "entries", f"expected a system name or a dict, "
                                                      f"not {type(entry).__name__}")
            entry = dict(entry)
            label = entry.pop("label", None) or entry.get("system")
            if not label:
                raise _input_error(source, "entries",
                                   f"an entry without a system needs a label: {entry!r}")
            where = f"{source} entry '{label}'"
            for key in entry:
                if key not in _ENTRY_KEYS:
                    raise _input_error(where, key, "unknown key (known: label, " +
                                       ", ".join(sorted(_ENTRY_KEYS)) + ")")
            pairs.append((str(label), _setup(where, jobs_dir=scratch, **entry)))
        labels = [label for label, _ in pairs]
        for label in labels:
            if labels.count(label) > 1:
                raise _input_error(source, "entries", f"'{label}' is listed twice")
        files = _slotflow.compare(base, os.fspath(config) if config else "", source,
                                  _call("compare", args), pairs, _seed_list(seeds), int(threads),
                                  os.fspath(out) if out else "")
    runs = _frame(files["runs"])
    runs.attrs["summary"] = _frame(files["summary"])
    unfinished = runs[runs.unfinished_jobs > 0]
    if len(unfinished):
        raise RunError(f"{int(unfinished.unfinished_jobs.sum())} jobs never finished in "
                       f"{len(unfinished)} runs", runs)
    return runs


def sweep(sweep, *, out=None, trace=None, threads=0, shard="1/1", executor=None,
          shards=16) -> pd.DataFrame:
    """Runs a sweep (a sweep file's path, or its content as a dict: docs/sweeps.md) and returns
    results.csv as a DataFrame. out=DIR keeps the files (and resumes a sweep stopped there);
    without it they go to a temporary directory.

    executor: any concurrent.futures.Executor (a dask.distributed Client's get_executor(), a
    ProcessPoolExecutor, ...): the sweep is cut into `shards` shards (`slotflow sweep --shard
    I/N`; at most one per run), each run by the executor on one thread, and the shards' results
    merged as `slotflow merge` merges them: the same rows as a sweep on one machine. Every
    worker must see the sweep's trace or job file at the path the sweep gives (relative to its
    working directory).
    """
    source = "slotflow.sweep()"
    if isinstance(sweep, dict):
        text = _slotflow.toml_text(sweep, source)
    else:
        try:
            with open(os.fspath(sweep)) as f:
                text = f.read()
        except OSError as e:
            raise _input_error(source, "sweep", f"cannot read {os.fspath(sweep)}: "
                                                f"{e.strerror}") from None
    with tempfile.TemporaryDirectory(prefix="slotflow-sweep-") as work:
        path = os.path.join(work, "sweep.toml")
        if isinstance(sweep, dict):
            with open(path, "w") as f:
                f.write(text)
        else:
            path = os.fspath(sweep)
        target = os.fspath(out) if out else os.path.join(work, "out")
        trace = os.fspath(trace) if trace else ""
        if executor is None:
            index, _, count = str(shard).partition("/")
            if not (index.isdigit() and count.isdigit()):
                raise _input_error(source, "shard", f"expected I/N, not {shard!r}")
            code = _slotflow.sweep(path, target, trace, int(threads), int(index), int(count))
        else:
            if not (isinstance(shards, int) and shards >= 1):
                raise _input_error(source, "shards", f"expected a count >= 1, not {shards!r}")
            shards = min(shards, _slotflow.sweep_runs(path, trace))  # the file checked here first
            futures = [executor.submit(_sweep_shard, text, trace, i, shards)
                       for i in range(1, shards + 1)]
            inputs, code = [], 0
            for i, future in enumerate(futures, 1):
                shard_code, results, manifest = future.result()
                code = code or shard_code
                directory = os.path.join(work, f"shard-{i}")
                os.makedirs(directory)
                for name, content in (("results.csv", results), ("shard.json", manifest)):
                    with open(os.path.join(directory, name), "w") as f:
                        f.write(content)
                inputs.append(os.path.join(directory, "results.csv"))
            shard_file = os.path.join(work, "sweep-for-merge.toml")
            with open(shard_file, "w") as f:
                f.write(text)
            try:
                os.makedirs(target, exist_ok=True)
            except OSError as e:
                raise _input_error(source, "out", f"cannot create {target}: {e.strerror}") from None
            _slotflow.merge(inputs, os.path.join(target, "results.csv"), shard_file)
        results = pd.read_csv(os.path.join(target, "results.csv"))
    if code != 0:
        raise RunError("some runs left jobs unfinished", results)
    return results


def _sweep_shard(text: str, trace: str, shard: int, shards: int):
    """One shard of a sweep, where an executor runs it: (exit code, results.csv, shard.json)."""
    work = tempfile.mkdtemp(prefix="slotflow-shard-")
    try:
        path = os.path.join(work, "sweep.toml")
        with open(path, "w") as f:
            f.write(text)
        out = os.path.join(work, "out")
        code = _slotflow.sweep(path, out, trace, 1, shard, shards)
        with open(os.path.join(out, "results.csv")) as f:
            results = f.read()
        with open(os.path.join(out, "shard.json")) as f:
            manifest = f.read()
        return code, results, manifest
    finally:
        import shutil
        shutil.rmtree(work, ignore_errors=True)


@dataclass
class Decision:
    """Run `task` on `server`; `why` is what the decision log shows of the reasons (a few
    names with numbers or words)."""
    task: int
    server: int
    why: dict | None = None


@dataclass
class Setting:
    """A setting a policy declares: kind is integer, number, bytes, seconds, rate or choice;
    the default is written as a config file would write it ("64MiB", "fifo", 3)."""
    name: str
    kind: str
    default: object
    meaning: str = ""
    min: float | None = None
    max: float | None = None
    choices: list = field(default_factory=list)


@dataclass
class PolicyArgs:
    settings: dict  # each declared setting's value in force (bytes, seconds, rates as numbers)
    seed: int       # the run's seed
    network: str    # the network policy in force


class TaskScheduler:
    """A task scheduler in Python (api/task_scheduler.h's contract). Subclass it, give it a
    `name` (and a `description` and `settings`), define next(view), and register() it.

    next(view) is asked after every step in which something changed, one decision at a time,
    until it returns None; slots still free then stay empty until the next change. The view is
    the simulator's state, read-only and valid only during the call. Optional: `heartbeat` > 0
    offers each server's free slots at its heartbeat through offer(view, server) instead;
    `tick` > 0 calls on_tick(view) (returning a dict of what changed, or None) that often;
    mode(view) -> "sufficient" / "insufficient" / None tells compute-aware network policies the
    slot mode; stats() -> dict adds to summary.json's scheduler_stats.
    """
    name = ""
    description = ""
    settings: list = []
    heartbeat = 0.0
    tick = 0.0

    def __init__(self, args: PolicyArgs):
        self.args = args

    def next(self, view: View):
        raise NotImplementedError(f"{type(self).__name__} defines no next(view)")

    def offer(self, view: View, server: int):
        return None

    def on_tick(self, view: View):
        return None


class NetworkPolicy:
    """A network policy in Python (api/network_policy.h's contract): it sets each flow's
    priority class (0 highest; strict priority across classes, max-min within one) and may set
    explicit rates. Subclass it, give it a `name`, `description`, `settings` and `predictor`
    (the NEAT+ predictor closest to its rule: fcfs, fair, las, srpt, coflow-fcfs, coflow-fair,
    coflow-las or tcf), define the hooks it needs, and register() it. A hook it does not
    define costs nothing.

    on_flows_started(net, out, flows) and on_flows_finished(net, out, flows) get the ids of the
    flows that just started or ended; before_solve(net, out) is called whenever something
    changed, just before rates are solved; next_reclassify_time(net) returns the absolute time
    at which classes must be revisited (math.inf: never on their own); on_slot_mode(net, out,
    mode) hears the task scheduler's slot mode ("sufficient" or "insufficient"). `net` is a
    read-only FlowNet and `out` a ClassSink (set_class, set_rate, set_mark, clear_mark,
    take_marked), both valid only during the call.
    """
    name = ""
    description = ""
    settings: list = []
    predictor = ""

    def __init__(self, args: PolicyArgs):
        self.args = args


def register(cls):
    """Registers a TaskScheduler or NetworkPolicy subclass under its `name` (usable as a
    decorator); a later registration of the same name replaces it. A built-in name is
    refused."""
    is_scheduler = isinstance(cls, type) and issubclass(cls, TaskScheduler)
    if not (is_scheduler or (isinstance(cls, type) and issubclass(cls, NetworkPolicy))):
        raise TypeError("register() takes a subclass of slotflow.TaskScheduler or "
                        "slotflow.NetworkPolicy")
    if not cls.name:
        raise ValueError(f"{cls.__name__} has no name")
    settings = [asdict(s) for s in cls.settings]
    make = lambda values, seed, network: cls(PolicyArgs(dict(values), seed, network))  # noqa: E731
    description = cls.description or (cls.__doc__ or "").strip().split("\n")[0]
    if is_scheduler:
        _slotflow._register_scheduler(cls.name, description, settings, make)
    else:
        if not cls.predictor:
            raise ValueError(f"{cls.__name__} names no NEAT+ predictor (predictor = ...)")
        _slotflow._register_network_policy(cls.name, description, cls.predictor, settings, make)
    return cls


# Policies registered from Python leave the (C++) registry before the interpreter goes.
atexit.register(_slotflow._unregister_all)

from .env import Env  # noqa: E402  (registers the "env" scheduler, which needs the above)
