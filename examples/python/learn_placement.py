"""A placement policy that learns, on slotflow.Env (numpy only).

The policy scores each candidate (task, server) pair by a linear function of a few features
read from the observation — the server holds the task's input block, the share of the task's
input it would read over the network there, the job's size and the server's free slots — and
picks the best-scoring pair (a softmax over the scores while learning). The weights are learnt
by evolution strategies, a policy-gradient estimate from antithetic perturbations: each
iteration runs an episode at weights + sigma * eps and one at weights - sigma * eps, and moves
the weights along eps by the difference of their returns (minus the total JCT). Random
placement (a uniform draw among the candidates) is the baseline.

    python3 examples/python/learn_placement.py [--iterations N] [--jobs N] [--plot FILE]

prints the learning curve and the learnt policy against random placement and the untrained
policy (weights 0: always the first candidate, the oldest job's first ready task on the
lowest-numbered server) on 5 held-out seeds.
"""
import argparse

import numpy as np

import slotflow

FEATURES = ["local", "remote share", "job size", "free slots"]


def features(obs):
    """One row per candidate, each feature scaled to about [0, 1] within the decision."""
    table = obs["candidate_table"]
    size = obs["jobs"]["size_estimate"][table["job"]]
    free = obs["servers"]["free_slots"][table["server"]] / obs["servers"]["slots"][table["server"]]
    remote = table["remote_input"] / np.maximum(table["input"], 1.0)
    rank = np.log1p(size) / max(np.log1p(size).max(), 1e-9)
    return np.column_stack([table["local"].astype(float), remote, rank, free])


def episode(env, seed, weights=None, rng=None, temperature=0.05):
    """Minus the total JCT of one episode: weights=None places at random (rng), else by the
    weights, at the softmax's temperature when an rng is given, else greedily."""
    obs, _ = env.reset(seed=seed)
    total, done = 0.0, False
    while not done:
        pairs = obs["candidates"]
        if weights is None:
            choice = rng.integers(len(pairs))
        else:
            scores = features(obs) @ weights
            if rng is None:
                choice = int(np.argmax(scores))
            else:
                p = np.exp((scores - scores.max()) / temperature)
                choice = rng.choice(len(pairs), p=p / p.sum())
        obs, reward, terminated, truncated, _ = env.step(pairs[choice])
        total += reward
        done = terminated or truncated
    return total


def learn(env, iterations, sigma=0.5, rate=0.5, seed=0):
    """Evolution strategies: (weights, [mean return of each iteration's pair])."""
    rng = np.random.default_rng(seed)
    weights = np.zeros(len(FEATURES))
    curve = []
    for i in range(iterations):
        eps = rng.standard_normal(len(FEATURES))
        up = episode(env, 100 + i, weights + sigma * eps)
        down = episode(env, 100 + i, weights - sigma * eps)
        scale = max(abs(up), abs(down), 1e-9)
        weights = weights + rate * (up - down) / scale / (2 * sigma) * eps
        curve.append((up + down) / 2)
    return weights, curve


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=50, help="jobs of the embedded workload")
    parser.add_argument("--plot", help="write the learning curve to this PNG")
    args = parser.parse_args()
    env = slotflow.Env(network="fair", workload={"synthetic_jobs": args.jobs},
                       cluster={"servers": 20})
    weights, curve = learn(env, args.iterations)
    print("weights:", dict(zip(FEATURES, np.round(weights, 3))))
    for i, value in enumerate(curve):
        print(f"iteration {i + 1}: mean JCT {-value / args.jobs:.2f} s")
    learnt = [-episode(env, s, weights) / args.jobs for s in range(1, 6)]
    untrained = [-episode(env, s, np.zeros(len(FEATURES))) / args.jobs for s in range(1, 6)]
    rng = np.random.default_rng(1)
    random = [-episode(env, s, rng=rng) / args.jobs for s in range(1, 6)]
    for name, values in (("learnt", learnt), ("untrained (the first candidate)", untrained),
                         ("random", random)):
        print(f"{name}: mean JCT {np.mean(values):.2f} s over seeds 1-5 {np.round(values, 2)}")
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(6, 3.5))
        ax.plot(range(1, len(curve) + 1), [-c / args.jobs for c in curve], marker="o",
                label="learning (mean of the iteration's two episodes)")
        ax.axhline(np.mean(random), color="grey", linestyle="--",
                   label="random placement (seeds 1-5)")
        ax.axhline(np.mean(untrained), color="orange", linestyle="-.",
                   label="untrained: the first candidate (seeds 1-5)")
        ax.axhline(np.mean(learnt), color="green", linestyle=":",
                   label="learnt policy (seeds 1-5)")
        ax.set_yscale("log")
        ax.set_xlabel("iteration")
        ax.set_ylabel("mean JCT (s), log scale")
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(args.plot, dpi=110)
    env.close()


if __name__ == "__main__":
    main()
