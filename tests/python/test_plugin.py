"""A C++ policy outside the tree: examples/plugin built against an installed slotflow with
find_package(slotflow), loaded with `--plugin` and slotflow.load_plugin(); what a plugin that
is not one, was built against another slotflow, or takes a built-in's name gets instead."""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import slotflow

REPO = Path(__file__).resolve().parents[2]
BUILD = Path(slotflow.__file__).resolve().parents[2]

# Four one-second tasks on three servers of two slots.
JOBS = """
[cluster]
servers = 3
slots = 2
[[job]]
name = "four"
  [[job.stage]]
  name = "only"
  tasks = 4
  compute = "1s"
"""

# A plugin registering a name the core has.
CLASH = """
#include "api/plugin.h"
#include "api/task_scheduler.h"
SLOTFLOW_PLUGIN();
namespace {
struct Clash : slotflow::TaskScheduler {
  explicit Clash(const slotflow::PolicyArgs&) {}
  slotflow::Decision Next(const slotflow::SimState&) override { return {}; }
};
}  // namespace
SLOTFLOW_REGISTER_TASK_SCHEDULER("greedy", "a second greedy", {}, Clash);
SLOTFLOW_REGISTER_TASK_SCHEDULER("clash-only", "registered beside it", {}, Clash);
"""


def run(*args, **kwargs):
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, **kwargs)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """slotflow installed into a prefix, and examples/plugin built against it."""
    prefix = tmp_path_factory.mktemp("prefix")
    done = run("cmake", "--install", BUILD, "--prefix", prefix)
    assert done.returncode == 0, done.stderr
    build = tmp_path_factory.mktemp("plugin-build")
    done = run("cmake", "-S", REPO / "examples" / "plugin", "-B", build, "-G", "Ninja",
               f"-DCMAKE_PREFIX_PATH={prefix}")
    assert done.returncode == 0, done.stdout + done.stderr
    done = run("cmake", "--build", build)
    assert done.returncode == 0, done.stdout + done.stderr
    return prefix, build / "libspread.so"


def compile_plugin(prefix, source, out, build_id):
    """`source` compiled as a plugin by hand, claiming to be built against `build_id`."""
    path = out.with_suffix(".cc")
    path.write_text(source)
    done = run("c++", "-std=c++20", "-shared", "-fPIC", f"-I{prefix}/include/slotflow",
               f'-DSLOTFLOW_BUILD_ID="{build_id}"', path, "-o", out, f"-L{prefix}/lib",
               "-lslotflow")
    assert done.returncode == 0, done.stderr
    return out


def test_the_example_plugin_runs_from_the_command_line(installed, tmp_path):
    prefix, plugin = installed
    (tmp_path / "jobs.toml").write_text(JOBS)
    slotflow_bin = prefix / "bin" / "slotflow"
    done = run(slotflow_bin, "run", "--plugin", plugin, "--scheduler", "spread", "--jobs",
               tmp_path / "jobs.toml", "--quiet", "--log", tmp_path / "log", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    places = [json.loads(line) for line in (tmp_path / "log").read_text().splitlines()]
    places = [p for p in places if p["event"] == "place"]
    # The fewest running tasks, ties to the lowest id: 0, 1, 2, then 0 again.
    assert [p["server"] for p in places] == [0, 1, 2, 0]
    assert {p["why"]["rule"] for p in places} == {"least-loaded"}
    listed = run(slotflow_bin, "policies", "--plugin", plugin, "spread")
    assert listed.returncode == 0 and "scheduler.prefer_local" in listed.stdout
    # Without the plugin the name is unknown.
    assert run(slotflow_bin, "run", "--scheduler", "spread", "--quiet").returncode == 2


def test_the_example_plugin_runs_from_python_as_the_doc_shows(installed, tmp_path):
    prefix, plugin = installed
    site = next(prefix.glob("lib/python3*/dist-packages"))
    (tmp_path / "plugin-build").symlink_to(plugin.parent)
    block = re.search(r"^```python\n(.*?)^```", (REPO / "docs" / "plugins.md").read_text(),
                      flags=re.S | re.M).group(1)
    code = ("import slotflow\n" + block.replace("slotflow.compare(", "frame = slotflow.compare(") +
            "print(sorted(frame.variant.unique()), len(frame))\n"
            "r = slotflow.run(scheduler={'policy': 'spread', 'prefer_local': 'yes'}, log=True)\n"
            "print(sorted({e['why']['rule'] for e in r.log if e['event'] == 'place'}))\n")
    done = run(sys.executable, "-c", code, env={**os.environ, "PYTHONPATH": str(site)},
               cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["['duopoly', 'spread'] 10", "['least-loaded', 'local']"]


def test_what_is_not_a_plugin_of_this_build_is_refused(installed, tmp_path):
    prefix, plugin = installed
    slotflow_bin = prefix / "bin" / "slotflow"
    this_build = run(slotflow_bin, "--version").stdout.strip().removeprefix("slotflow ")
    other = compile_plugin(prefix, (REPO / "examples" / "plugin" / "spread.cc").read_text(),
                           tmp_path / "other.so", "0.0.1 (commit 123)")
    clash = compile_plugin(prefix, CLASH, tmp_path / "clash.so", this_build)
    not_one = tmp_path / "empty.so"
    (tmp_path / "empty.cc").write_text("int nothing_here() { return 0; }\n")
    assert run("c++", "-shared", "-fPIC", tmp_path / "empty.cc", "-o", not_one).returncode == 0
    for path, says in [(other, "was built against slotflow 0.0.1 (commit 123)"),
                       (clash, "registers names already taken: task scheduler 'greedy'"),
                       (not_one, "is not a slotflow plugin"),
                       (tmp_path / "missing.so", "cannot open")]:
        done = run(slotflow_bin, "run", "--plugin", path, "--quiet")
        assert done.returncode == 2, done.stderr
        assert "'--plugin'" in done.stderr and says in done.stderr, done.stderr
    # From Python the same; and a refused plugin leaves none of its policies registered, so
    # the built-in greedy still runs and the clash's other name is unknown.
    with pytest.raises(slotflow.InputError) as e:
        slotflow.load_plugin(clash)
    assert e.value.field == "plugin" and "'greedy'" in e.value.message
    with pytest.raises(slotflow.InputError) as again:  # and again: it stays refused
        slotflow.load_plugin(clash)
    assert again.value.message == e.value.message
    assert len(slotflow.run(scheduler="greedy", workload={"synthetic_jobs": 5}).jobs) == 5
    with pytest.raises(slotflow.InputError):
        slotflow.run(scheduler="clash-only")
