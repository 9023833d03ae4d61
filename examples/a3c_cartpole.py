"""A3C on CartPole: several actors push the gradients of their local net to a global net.

The pattern of asynchronous advantage actor-critic (Mnih et al., 2016) in TF1 terms: each
worker copies the global network, plays ``--t-max`` steps of its own CartPole-v1, takes
``compute_gradients`` of its actor-critic loss on them and hands them to the global
network's ``apply_gradients`` without waiting for the others. Here the workers are Ray
actors (flowgrad.distribute's asynchronous parameter servers), each with its own graph,
Session and environment; the parameter server applies every push as it arrives.

    python examples/a3c_cartpole.py [--workers 3] [--updates 500] [--t-max 20]
                                    [--max-staleness K] [--address HOST:PORT]

Needs Ray and gymnasium (``pip install "flowgrad[distributed,rl]"``).
"""
from __future__ import annotations

import argparse
import sys
import time
from typing import TextIO

import numpy as np

import flowgrad.compat.v1 as tf
from flowgrad.distribute import ReplicaContext

GAMMA = 0.99
HIDDEN = 64


def model_fn() -> dict:
    """Policy and value heads on one hidden layer; the loss of A3C on one rollout."""
    obs = tf.placeholder(tf.float32, [None, 4], name="obs")
    actions = tf.placeholder(tf.int32, [None], name="actions")
    returns = tf.placeholder(tf.float32, [None], name="returns")
    init = tf.glorot_uniform_initializer(seed=1)
    w1 = tf.get_variable("hidden/kernel", [4, HIDDEN], initializer=init)
    b1 = tf.get_variable("hidden/bias", [HIDDEN], initializer=tf.zeros_initializer())
    w_pi = tf.get_variable("policy/kernel", [HIDDEN, 2], initializer=init)
    w_v = tf.get_variable("value/kernel", [HIDDEN, 1], initializer=init)
    h = tf.nn.relu(tf.matmul(obs, w1) + b1)
    logits = tf.matmul(h, w_pi)
    probs = tf.nn.softmax(logits)
    value = tf.squeeze(tf.matmul(h, w_v), 1)
    advantage = tf.stop_gradient(returns - value)
    log_pi = -tf.nn.sparse_softmax_cross_entropy_with_logits(labels=actions, logits=logits)
    entropy = -tf.reduce_sum(probs * tf.nn.log_softmax(logits), 1)
    value_loss = tf.losses.huber_loss(returns, value, delta=1.0)   # bounded: stable heads
    loss = -tf.reduce_mean(log_pi * advantage) + value_loss - 0.01 * tf.reduce_mean(entropy)
    return {"loss": loss, "obs": obs, "actions": actions, "returns": returns, "probs": probs,
            "value": value}


def optimizer_fn() -> tf.train.Optimizer:
    return tf.train.AdamOptimizer(0.002)


def rollout(ctx: ReplicaContext, t_max: int) -> dict:
    """Plays up to ``t_max`` steps with the freshly pulled weights; the n-step returns."""
    import gymnasium as gym
    state = ctx.state
    if "env" not in state:
        state["env"] = gym.make("CartPole-v1")
        state["obs"], _ = state["env"].reset(seed=ctx.replica_id)
        state["rng"] = np.random.RandomState(ctx.replica_id)
        state["episode_return"] = 0.0
    env, t = state["env"], ctx.tensors
    observations, actions, rewards, done = [], [], [], False
    for _ in range(t_max):
        p = ctx.session.run(t["probs"], {t["obs"]: state["obs"][None]})[0].astype(np.float64)
        a = int(state["rng"].choice(2, p=p / p.sum()))
        observations.append(state["obs"])
        actions.append(a)
        state["obs"], r, terminated, truncated, _ = env.step(a)
        rewards.append(r)
        state["episode_return"] += r
        if terminated or truncated:
            ctx.metrics.setdefault("episodes", []).append(state["episode_return"])
            state["obs"], _ = env.reset()
            state["episode_return"] = 0.0
            done = terminated
            break
    ret = 0.0 if done else float(ctx.session.run(t["value"], {t["obs"]: state["obs"][None]})[0])
    returns = []
    for r in reversed(rewards):
        ret = r + GAMMA * ret
        returns.append(ret)
    return {"obs": np.array(observations, np.float32), "actions": np.array(actions, np.int32),
            "returns": np.array(returns[::-1], np.float32)}


def run(workers: int = 3, updates: int = 500, t_max: int = 20, max_staleness: int | None = None,
        address: str | None = None, out: TextIO | None = None) -> float:
    """Trains; prints progress and returns the mean return of the last 20 episodes."""
    from flowgrad.distribute import ParameterServerStrategy
    out = out or sys.stdout
    strategy = ParameterServerStrategy(num_replicas=workers, num_ps=1, address=address)
    episodes: list = []
    start = time.perf_counter()
    done_updates = [0]

    def progress(worker: int, step: int, result: dict) -> None:
        episodes.extend(result["metrics"].get("episodes", []))
        done_updates[0] += 1
        if done_updates[0] % 100 == 0:
            recent = np.mean(episodes[-20:]) if episodes else 0.0
            print("update %5d  episodes %4d  mean return (last 20) %6.1f  %5.1f updates/s"
                  % (done_updates[0], len(episodes), recent,
                     done_updates[0] / (time.perf_counter() - start)), file=out)

    with strategy.asynchronous(model_fn, optimizer_fn, lambda ctx: rollout(ctx, t_max),
                               max_staleness=max_staleness) as trainer:
        trainer.run(updates, callback=progress)
        print("pushes dropped as stale: %d, lost with a dead worker: %d"
              % (trainer.dropped, trainer.lost), file=out)
    final = float(np.mean(episodes[-20:])) if episodes else 0.0
    print("mean return of the last 20 episodes: %.1f (random play: about 22)" % final, file=out)
    return final


def main(argv: list | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--workers", type=int, default=3, help="worker actors")
    parser.add_argument("--updates", type=int, default=500, help="pushes per worker")
    parser.add_argument("--t-max", type=int, default=20, help="steps per rollout")
    parser.add_argument("--max-staleness", type=int, default=None,
                        help="drop pushes more than this many updates old; None keeps all")
    parser.add_argument("--address", default=None,
                        help="a Ray cluster's address; None starts a local Ray instance")
    args = parser.parse_args(argv)
    tf.disable_v2_behavior()
    run(args.workers, args.updates, args.t_max, args.max_staleness, args.address)
    return 0


if __name__ == "__main__":
    sys.exit(main())
