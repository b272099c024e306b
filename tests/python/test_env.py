"""slotflow.Env runs the simulator one placement at a time (Gymnasium's reset/step): an episode
whose actions are greedy's decisions gives greedy's jobs and tasks exactly, its return is minus
the total JCT, and a wrong action is an error naming it."""
import numpy as np
import pytest

import slotflow

SETUP = dict(network="fair", cluster={"servers": 20, "slots": 2},
             workload={"synthetic_jobs": 40})


def play(env, seed, choose):
    obs, info = env.reset(seed=seed)
    total, steps, done = 0.0, 0, False
    while not done:
        obs, reward, terminated, truncated, info = env.step(choose(obs, steps))
        total += reward
        steps += 1
        done = terminated or truncated
    return total, steps, terminated, truncated, info


def test_an_episode_of_greedys_decisions_gives_greedys_jobs_and_tasks():
    cpp = slotflow.run(scheduler="greedy", log=True, seed=5, **SETUP)
    places = [(e["task"], e["server"]) for e in cpp.log if e["event"] == "place"]

    def replay(obs, step):
        pair = places[step]
        assert ((obs["candidates"][:, 0] == pair[0]) & (obs["candidates"][:, 1] == pair[1])).any()
        return pair

    env = slotflow.Env(**SETUP)
    total, steps, terminated, truncated, info = play(env, 5, replay)
    assert terminated and not truncated and steps == len(places)
    result = info["result"]
    assert result.jobs.equals(cpp.jobs) and result.tasks.equals(cpp.tasks)
    assert result.summary["scheduler"] == "env"
    assert total == pytest.approx(-cpp.jobs.jct_s.sum(), rel=1e-6)


def test_the_observation_holds_the_candidates_and_the_view_as_arrays():
    env = slotflow.Env(**SETUP, observe=("servers", "tasks", "jobs", "flows", "links",
                                          "candidate_table"))
    obs, info = env.reset(seed=2)
    pairs = obs["candidates"]
    assert pairs.ndim == 2 and pairs.shape[1] == 2 and len(pairs) > 0
    assert len(obs["servers"]["free_slots"]) == 20 and len(obs["jobs"]["submit"]) == 40
    table = obs["candidate_table"]
    assert (table["task"] == pairs[:, 0]).all() and (table["server"] == pairs[:, 1]).all()
    assert set(obs["tasks"]["task"]) == set(pairs[:, 0])
    view = info["view"]  # live until the next step
    assert all(view.can_host(int(t), int(s)) for t, s in pairs[:10])
    obs, reward, terminated, truncated, info = env.step(pairs[0])
    assert reward <= 0 and not terminated
    with pytest.raises(RuntimeError, match="only during the call"):
        view.free_servers
    env.close()


def test_a_wrong_action_is_an_error_naming_it():
    env = slotflow.Env(**SETUP)
    obs, _ = env.reset(seed=1)
    for action, match in [((10**6, 0), r"task 1000000, server 0\) is not among"),
                          ("ab", "expected a \\(task, server\\) pair"),
                          ((1, 2, 3), "expected a \\(task, server\\) pair")]:
        with pytest.raises(slotflow.InputError, match=match) as caught:
            env.step(action)
        assert caught.value.field == "action"
    obs, *_ = env.step(obs["candidates"][0])  # the episode goes on
    assert len(obs["candidates"]) >= 0
    env.close()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(None)


def test_reset_mid_episode_starts_over_and_seeds_repeat_episodes():
    env = slotflow.Env(**SETUP)
    env.reset(seed=3)
    first = play(env, 3, lambda obs, step: obs["candidates"][-1])
    again = play(env, 3, lambda obs, step: obs["candidates"][-1])
    assert first[:2] == again[:2]
    assert first[4]["result"].jobs.equals(again[4]["result"].jobs)


def test_placing_nothing_forever_truncates_the_episode():
    env = slotflow.Env(**SETUP)
    total, steps, terminated, truncated, info = play(env, 1, lambda obs, step: None)
    assert truncated and not terminated and "never finished" in info["error"]


def test_the_environment_is_the_scheduler():
    with pytest.raises(slotflow.InputError, match="the environment is the scheduler"):
        slotflow.Env(scheduler="greedy")
    with pytest.raises(slotflow.InputError) as caught:
        slotflow.Env(observe=("flows", "weather"))
    assert caught.value.field == "observe"


def test_the_learning_example_runs_and_beats_random_placement(tmp_path):
    import subprocess
    import sys
    from pathlib import Path
    script = Path(__file__).resolve().parents[2] / "examples" / "python" / "learn_placement.py"
    out = subprocess.run([sys.executable, str(script), "--iterations", "6", "--jobs", "30",
                          "--plot", str(tmp_path / "curve.png")],
                         capture_output=True, text=True, check=True).stdout
    means = {line.split(":")[0]: float(line.split("mean JCT ")[1].split(" s")[0])
             for line in out.splitlines() if "over seeds 1-5" in line}
    assert means["learnt"] < means["random"]
    assert (tmp_path / "curve.png").stat().st_size > 0
