"""slotflow from Python: runs, comparisons and sweeps give the command line's results, and bad
input raises InputError with the command line's source, field and message."""
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pandas as pd
import pytest

import slotflow

REPO = Path(__file__).resolve().parents[2]
# The build tree's slotflow beside the package it imported (build/python/slotflow/).
CLI = Path(slotflow.__file__).resolve().parents[2] / "slotflow"


def cli(*args, cwd=REPO):
    return subprocess.run([str(CLI), *map(str, args)], cwd=cwd, capture_output=True, text=True)


def read(path):
    return Path(path).read_text()


def test_run_gives_the_command_lines_files(tmp_path):
    out = tmp_path / "cli"
    assert cli("run", "--system", "duopoly", "--seed", 3, "--quiet", "--out", out).returncode == 0
    r = slotflow.run(system="duopoly", seed=3)
    assert r.jobs.to_csv(index=False) == pd.read_csv(out / "jobs.csv").to_csv(index=False)
    assert r.tasks.equals(pd.read_csv(out / "tasks.csv"))
    cli_summary = json.loads(read(out / "summary.json"))
    for key in ("mean_jct_s", "p99_jct_s", "makespan_s", "jobs", "scheduler", "network", "seed"):
        assert r.summary[key] == cli_summary[key], key
    assert r.summary["setup"] == cli_summary["setup"]
    assert r.log is None
    assert r.utilisation.empty and list(r.utilisation.columns)[:2] == ["t_s", "server"]


def test_out_writes_the_files_run_out_writes(tmp_path):
    assert cli("run", "--scheduler", "nats", "--network", "cans", "--utilisation", "--quiet",
               "--out", tmp_path / "cli").returncode == 0
    slotflow.run(scheduler="nats", network="cans", utilisation=True, out=tmp_path / "py")
    for name in ("jobs.csv", "tasks.csv", "utilisation.csv", "setup.toml"):
        assert read(tmp_path / "py" / name) == read(tmp_path / "cli" / name), name


def test_settings_policies_and_set_are_the_config_files_keys():
    by_dict = slotflow.run(scheduler={"policy": "nats", "order": "sjf"}, network="cans",
                           cluster={"servers": 12, "slots": 2}, seed=2)
    by_set = slotflow.run(scheduler="nats", network="cans", seed=2,
                          set={"scheduler.order": "sjf", "cluster.servers": 12,
                               "cluster.slots": 2})
    assert by_dict.jobs.equals(by_set.jobs)
    assert by_dict.summary["settings"]["scheduler.order"] == "sjf"
    assert by_dict.summary["setup"]["cluster"]["class"][0]["count"] == 12
    fifo = slotflow.run(scheduler="nats", network="cans", seed=2,
                        cluster={"servers": 12, "slots": 2})
    assert fifo.summary["settings"]["scheduler.order"] == "fifo"
    assert not fifo.jobs.equals(by_dict.jobs)  # the order setting took effect


def test_a_time_step_is_set_as_on_the_command_line(tmp_path):
    out = tmp_path / "cli"
    assert cli("run", "--system", "duopoly", "--seed", 3, "--time-step", "8ms", "--quiet",
               "--out", out).returncode == 0
    r = slotflow.run(system="duopoly", seed=3, set={"rates.time_step": "8ms"})
    assert r.jobs.to_csv(index=False) == pd.read_csv(out / "jobs.csv").to_csv(index=False)
    assert r.summary["setup"]["rates"]["time_step"] == 0.008
    assert "rates" not in slotflow.run(system="duopoly", seed=3).summary["setup"]
    with pytest.raises(slotflow.InputError, match="rates.time_step"):
        slotflow.run(set={"rates.time_step": "-1s"})


def test_a_config_file_under_the_arguments(tmp_path):
    config = tmp_path / "c.toml"
    config.write_text('system = "aalo"\nseed = 4\n[cluster]\nservers = 10\n')
    r = slotflow.run(config=config, cluster={"slots": 3})
    assert r.summary["system"] == "aalo" and r.summary["seed"] == 4
    assert r.summary["setup"]["cluster"]["class"][0]["count"] == 10
    assert r.summary["setup"]["cluster"]["class"][0]["slots"] == 3


def test_jobs_built_in_python_run_as_their_job_file():
    path = REPO / "examples" / "duopoly-fig1.toml"
    from_file = slotflow.run(jobs=path, scheduler="nats", network="cans")
    content = tomllib.loads(path.read_text())
    from_dict = slotflow.run(jobs=content, scheduler="nats", network="cans")
    assert from_dict.jobs.equals(from_file.jobs)
    # The jobs alone, with the cluster given separately.
    only_jobs = slotflow.run(jobs=content["job"], cluster=content["cluster"], scheduler="nats",
                             network="cans")
    assert only_jobs.jobs.equals(from_file.jobs)


def test_the_decision_log_on_request():
    r = slotflow.run(scheduler="nats", network="cans", log=True, cluster={"servers": 8},
                     workload={"synthetic_jobs": 5})
    events = {line["event"] for line in r.log}
    assert {"place", "flow_start", "job_done"} <= events
    assert sum(line["event"] == "job_done" for line in r.log) == len(r.jobs) == 5


@pytest.mark.parametrize("kwargs, source, field, words", [
    (dict(cluster={"servers": -1}), "slotflow.run()", "cluster.servers", "[1, 100000]"),
    (dict(scheduler="nope"), "slotflow.run()", "scheduler.policy", "unknown name 'nope'"),
    (dict(system="nope"), "slotflow.run()", "system", "nope"),
    (dict(cluster={"servers": {1, 2}}), "slotflow.run()", "cluster.servers", "not set"),
    (dict(cluster={"severs": 3}), "slotflow.run()", "cluster.severs", "unknown"),
    (dict(set={"order": "sjf"}), "slotflow.run()", "set order", "scheduler.KEY"),
    (dict(scheduler=3), "slotflow.run()", "scheduler", "policy name"),
    (dict(trace="/nonexistent/fb.txt"), "slotflow.run()", "workload.trace", "nonexistent"),
    (dict(seed=-1), "slotflow.run()", "seed", "seed"),
    (dict(cluster={"servers": 2**70}), "slotflow.run()", "cluster.servers", "out of range"),
])
def test_bad_input_raises_input_error_naming_source_and_field(kwargs, source, field, words):
    with pytest.raises(slotflow.InputError) as caught:
        slotflow.run(**kwargs)
    err = caught.value
    assert isinstance(err, ValueError)
    assert err.file == source and err.field == field, (err.file, err.field, str(err))
    assert words in str(err)


def test_a_config_files_error_names_its_line(tmp_path):
    config = tmp_path / "bad.toml"
    config.write_text("seed = 1\n[cluster]\nservers = 0\n")
    with pytest.raises(slotflow.InputError) as caught:
        slotflow.run(config=config)
    assert (caught.value.file, caught.value.line, caught.value.field) == \
        (str(config), 3, "cluster.servers")
    # The same message as the command line's.
    assert cli("run", "--config", config).stderr.strip().endswith(str(caught.value))


def test_jobs_that_never_finish_raise_run_error_with_the_result():
    with pytest.raises(slotflow.RunError) as caught:
        slotflow.run(workload={"synthetic_jobs": 5}, cluster={"nic": 1e-300})
    assert caught.value.result.summary["unfinished_jobs"] > 0
    with pytest.raises(slotflow.RunError) as caught:
        slotflow.compare([{"label": "greedy", "scheduler": "greedy"}, "aalo"],
                         workload={"synthetic_jobs": 5}, cluster={"nic": 1e-300})
    assert (caught.value.result.unfinished_jobs > 0).all()


def test_an_unwritable_out_is_an_input_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(slotflow.InputError) as caught:
        slotflow.run(out=blocker / "sub")
    assert caught.value.field == "out"


def test_compare_is_one_row_per_entry_and_seed_as_the_command_line_writes(tmp_path):
    assert cli("compare", "--system", "duopoly,neat", "--seeds", 2, "--quiet", "--out",
               tmp_path).returncode == 0
    runs = slotflow.compare(["duopoly", "neat"], seeds=2)
    expected = pd.read_csv(tmp_path / "compare.csv")
    assert list(runs.columns) == list(expected.columns)
    assert list(zip(runs.variant, runs.seed)) == [("duopoly", 1), ("duopoly", 2), ("neat", 1),
                                                  ("neat", 2)]
    timeless = [c for c in runs.columns if c != "wall_s"]
    assert runs[timeless].equals(expected[timeless])
    summary = runs.attrs["summary"]
    assert list(summary.variant) == ["duopoly", "neat"]
    # Each row is the run of that entry at that seed.
    alone = slotflow.run(system="neat", seed=2)
    assert runs.mean_jct_s[3] == pytest.approx(alone.summary["mean_jct_s"], rel=1e-12)


def test_compare_entries_as_dicts_and_threads_do_not_change_results():
    entries = ["duopoly", {"label": "duopoly-fifo", "system": "duopoly",
                           "set": {"scheduler.order": "fifo"}},
               {"label": "greedy-fair", "scheduler": "greedy", "network": "fair"}]
    one = slotflow.compare(entries, seeds=[1, 5], threads=1, cluster={"servers": 16})
    two = slotflow.compare(entries, seeds=[1, 5], threads=2, cluster={"servers": 16})
    timeless = [c for c in one.columns if c != "wall_s"]
    assert one[timeless].equals(two[timeless])
    assert list(one.variant.unique()) == ["duopoly", "duopoly-fifo", "greedy-fair"]
    assert one[one.variant == "duopoly"].mean_jct_s.tolist() != \
        one[one.variant == "duopoly-fifo"].mean_jct_s.tolist()
    with pytest.raises(slotflow.InputError, match="listed twice"):
        slotflow.compare(["neat", "neat"])
    with pytest.raises(slotflow.InputError) as caught:
        slotflow.compare([{"label": "x", "sytem": "neat"}])
    assert caught.value.field == "sytem" and "unknown key" in caught.value.message


def test_sweep_from_a_dict_gives_the_sweep_files_results(tmp_path):
    spec = {"cluster": {"servers": 10},
            "workload": {"synthetic_jobs": 20},
            "sweep": {"seeds": 2, "systems": ["duopoly", "aalo"],
                      "parameter": [{"key": "cluster.slots", "values": [2, 4]}]}}
    results = slotflow.sweep(spec, out=tmp_path / "py")
    assert len(results) == 2 * 2 * 2
    (tmp_path / "s.toml").write_text(
        '[cluster]\nservers = 10\n[workload]\nsynthetic_jobs = 20\n[sweep]\nseeds = 2\n'
        'systems = ["duopoly", "aalo"]\n[[sweep.parameter]]\nkey = "cluster.slots"\n'
        'values = [2, 4]\n')
    assert cli("sweep", tmp_path / "s.toml", "--out", tmp_path / "cli", "--quiet").returncode == 0
    expected = pd.read_csv(tmp_path / "cli" / "results.csv")
    timeless = [c for c in expected.columns if c not in ("wall_s", "setup_sha256")]
    assert results[timeless].equals(expected[timeless])
    with pytest.raises(slotflow.InputError) as caught:
        slotflow.sweep({"sweep": {"seeds": 0}})
    assert "seeds" in caught.value.field


def test_cmake_install_gives_an_importable_package(tmp_path):
    build = CLI.parent
    done = subprocess.run(["cmake", "--install", str(build), "--prefix", str(tmp_path)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    site = next(tmp_path.glob("lib/python3*/dist-packages"))
    code = ("import slotflow; r = slotflow.run(cluster={'servers': 6}, "
            "workload={'synthetic_jobs': 4}); print(slotflow.__file__, len(r.jobs))")
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(site)}, cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.startswith(str(site)) and ran.stdout.split()[-1] == "4"
    assert (tmp_path / "bin" / "slotflow").exists()


SWEEP = {"cluster": {"servers": 10}, "workload": {"synthetic_jobs": 20},
         "sweep": {"seeds": 2, "systems": ["duopoly", "aalo"],
                   "parameter": [{"key": "cluster.slots", "values": [2, 4]}]}}


def test_a_sweep_on_an_executor_gives_the_local_sweeps_rows():
    from concurrent.futures import ProcessPoolExecutor
    local = slotflow.sweep(SWEEP)
    timeless = [c for c in local.columns if c != "wall_s"]
    with ProcessPoolExecutor(2) as pool:
        spread = slotflow.sweep(SWEEP, executor=pool, shards=3)
        assert spread[timeless].equals(local[timeless])
        # More shards than runs: one run each.
        assert slotflow.sweep(SWEEP, executor=pool, shards=100)[timeless].equals(local[timeless])
        with pytest.raises(slotflow.InputError) as caught:
            slotflow.sweep({**SWEEP, "sweep": {**SWEEP["sweep"], "seeds": 0}}, executor=pool)
        assert "seeds" in caught.value.field


def test_a_sweep_on_a_local_dask_cluster_of_two_workers(tmp_path):
    import distributed
    local = slotflow.sweep(SWEEP)
    timeless = [c for c in local.columns if c != "wall_s"]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        spread = slotflow.sweep(SWEEP, executor=client.get_executor(), shards=4,
                                out=tmp_path / "dask")
        workers = client.run(os.getpid)
    assert len(workers) == 2
    assert spread[timeless].equals(local[timeless])
    assert pd.read_csv(tmp_path / "dask" / "results.csv")[timeless].equals(local[timeless])


def test_arguments_of_the_wrong_type_are_input_errors_everywhere():
    cases = [(dict(seed="3"), "seed"), (dict(seed=3.5), "seed"), (dict(seed=True), "seed"),
             (dict(set={"cluster.servers": "3"}), "cluster.servers"),
             (dict(cluster={"servers": "3"}), "cluster.servers"),
             (dict(trace=123), "trace"), (dict(jobs=5), "jobs")]
    for kwargs, field in cases:
        with pytest.raises(slotflow.InputError) as caught:
            slotflow.run(workload={"synthetic_jobs": 2}, **kwargs)
        assert caught.value.field == field, kwargs
    # A seed past 2^63 is an integer still (travelling as text, as a saved set-up writes it).
    r = slotflow.run(workload={"synthetic_jobs": 2}, seed=2**64 - 1)
    assert r.summary["setup"]["seed"] == str(2**64 - 1)


def test_compare_takes_one_entry_as_a_string():
    runs = slotflow.compare("duopoly", cluster={"servers": 10}, workload={"synthetic_jobs": 5})
    assert list(runs.variant) == ["duopoly"]


def test_a_rate_without_a_unit_is_bytes_per_second():
    r = slotflow.run(cluster={"nic": 1e9}, workload={"synthetic_jobs": 2})
    assert r.summary["setup"]["cluster"]["class"][0]["nic"] == 1e9  # bytes/s: 8 Gbps
    with pytest.raises(slotflow.InputError, match="bytes/s"):
        slotflow.run(cluster={"nic": -5})


def test_replay_by_name_gives_a_recorded_run_back(tmp_path):
    """The scheduler replay needs nothing of its own from Python: a run's out= directory as
    its `from` setting replays it (same network policy, cluster and seed) to the same files."""
    recorded = slotflow.run(system="duopoly", seed=3, out=tmp_path / "a")
    again = slotflow.run(system="duopoly", seed=3, scheduler="replay",
                         set={"scheduler.from": str(tmp_path / "a")}, out=tmp_path / "b")
    assert again.jobs.equals(recorded.jobs)
    assert again.tasks.equals(recorded.tasks)
    for name in ("jobs.csv", "tasks.csv", "modes.csv"):
        assert read(tmp_path / "b" / name) == read(tmp_path / "a" / name), name
    with pytest.raises(slotflow.InputError) as caught:
        slotflow.run(scheduler="replay", set={"scheduler.from": str(tmp_path / "none")})
    assert caught.value.field == "scheduler.from"
    assert caught.value.file.endswith("tasks.csv")
