"""A3C on CartPole with tf.distribute's ParameterServerStrategy: asynchronous workers push
the updates of their actor-critic steps to the global network on the parameter servers.

The pattern of asynchronous advantage actor-critic (Mnih et al., 2016) in TensorFlow 2
terms: the program runs on the coordinator, which ``schedule``s a ``tf.function`` on
whichever worker is free. On a worker the function plays ``--t-max`` steps of that worker's
own CartPole-v1 (in a ``tf.py_function``, with the weights the worker just pulled from the
servers), takes the gradients of the actor-critic loss on them with a ``GradientTape`` and
applies them with the optimizer: the change goes to the parameter servers without waiting
for the other workers. The workers and the servers are Ray actors
(``flowgrad.distribute.RayClusterResolver``).

    python examples/a3c_cartpole.py [--workers 3] [--updates 1500] [--t-max 20]
                                    [--seed 0] [--address HOST:PORT]

Needs Ray and gymnasium (``pip install "flowgrad[distributed,rl]"``).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any, TextIO

import numpy as np

import flowgrad as tf

GAMMA = 0.99
HIDDEN = 64
#: Each worker process's environment and sampling state, made at its first rollout.
_WORKER_STATE: dict = {}


class ActorCritic(tf.Module):
    """Policy and value heads on one hidden layer."""

    def __init__(self, seed: int = 1):
        super().__init__(name="actor_critic")
        rng = np.random.RandomState(seed)

        def glorot(shape: tuple) -> np.ndarray:
            limit = np.sqrt(6.0 / sum(shape))
            return rng.uniform(-limit, limit, shape).astype(np.float32)
        self.w1 = tf.Variable(glorot((4, HIDDEN)), name="hidden/kernel")
        self.b1 = tf.Variable(np.zeros(HIDDEN, np.float32), name="hidden/bias")
        self.w_pi = tf.Variable(glorot((HIDDEN, 2)), name="policy/kernel")
        self.w_v = tf.Variable(glorot((HIDDEN, 1)), name="value/kernel")

    def __call__(self, obs: Any) -> tuple:
        """The policy's logits and the state values of a batch of observations."""
        h = tf.nn.relu(tf.matmul(obs, self.w1) + self.b1)
        return tf.matmul(h, self.w_pi), tf.squeeze(tf.matmul(h, self.w_v), 1)


def a3c_loss(model: ActorCritic, obs: Any, actions: Any, returns: Any) -> Any:
    """Policy gradient with the advantage, a bounded value loss and an entropy bonus."""
    logits, value = model(obs)
    advantage = tf.stop_gradient(returns - value)
    log_pi = -tf.nn.sparse_softmax_cross_entropy_with_logits(labels=actions, logits=logits)
    entropy = -tf.reduce_sum(tf.nn.softmax(logits) * tf.nn.log_softmax(logits), 1)
    value_loss = tf.compat.v1.losses.huber_loss(returns, value, delta=1.0)  # stable heads
    return -tf.reduce_mean(log_pi * advantage) + value_loss - 0.01 * tf.reduce_mean(entropy)


def rollout(model: ActorCritic, t_max: int, seed: int) -> tuple:
    """Plays up to ``t_max`` steps of this process's environment with the model's current
    weights; the observations, actions, n-step returns and the returns of the episodes
    that ended (NumPy arrays: the body of the step's ``tf.py_function``)."""
    import gymnasium as gym
    state = _WORKER_STATE
    if "env" not in state:
        worker_seed = seed * 1000 + os.getpid() % 1000
        state["env"] = gym.make("CartPole-v1")
        state["obs"], _ = state["env"].reset(seed=worker_seed)
        state["rng"] = np.random.RandomState(worker_seed)
        state["episode_return"] = 0.0
    env = state["env"]
    observations, actions, rewards, finished, done = [], [], [], [], False
    for _ in range(t_max):
        logits, _ = model(state["obs"][None].astype(np.float32))
        p = np.exp(logits.numpy()[0].astype(np.float64) - logits.numpy()[0].max())
        a = int(state["rng"].choice(2, p=p / p.sum()))
        observations.append(state["obs"])
        actions.append(a)
        state["obs"], r, terminated, truncated, _ = env.step(a)
        rewards.append(r)
        state["episode_return"] += r
        if terminated or truncated:
            finished.append(state["episode_return"])
            state["obs"], _ = env.reset()
            state["episode_return"] = 0.0
            done = terminated
            break
    ret = 0.0 if done else float(model(state["obs"][None].astype(np.float32))[1].numpy()[0])
    returns = []
    for r in reversed(rewards):
        ret = r + GAMMA * ret
        returns.append(ret)
    return (np.array(observations, np.float32), np.array(actions, np.int32),
            np.array(returns[::-1], np.float32), np.array(finished, np.float32))


def make_train_step(strategy: Any, model: ActorCritic, optimizer: Any, t_max: int,
                    seed: int) -> Any:
    """The ``tf.function`` a coordinator schedules: one rollout and one update; it returns
    the returns of the episodes that ended during the rollout."""
    @tf.function
    def train_step() -> Any:
        def replica_fn() -> Any:
            obs, actions, returns, finished = tf.py_function(
                lambda: rollout(model, t_max, seed), [],
                [tf.float32, tf.int32, tf.float32, tf.float32])
            obs.set_shape([None, 4])
            with tf.GradientTape() as tape:
                loss = a3c_loss(model, obs, actions, returns)
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            return finished
        return strategy.run(replica_fn)
    return train_step


def run(workers: int = 3, updates: int = 1500, t_max: int = 20, seed: int = 0,
        address: str | None = None, out: TextIO | None = None) -> dict:
    """Trains; prints progress and returns the mean return of the last 20 episodes, the
    episodes played and the first update count at which that mean reached 195 (None if
    it did not)."""
    from flowgrad.distribute import RayClusterResolver
    out = out or sys.stdout
    strategy = tf.distribute.experimental.ParameterServerStrategy(
        RayClusterResolver(num_workers=workers, num_ps=1, address=address))
    with strategy.scope():
        model = ActorCritic(seed=1 + seed)
        optimizer = tf.compat.v1.keras.optimizers.Adam(0.002)
    coordinator = tf.distribute.experimental.coordinator.ClusterCoordinator(strategy)
    train_step = make_train_step(strategy, model, optimizer, t_max, seed)
    episodes: list = []
    solved_at = None
    start = time.perf_counter()
    done = 0
    while done < updates:
        chunk = min(100, updates - done)
        results = [coordinator.schedule(train_step) for _ in range(chunk)]
        coordinator.join()
        for r in results:
            episodes.extend(float(e) for e in np.atleast_1d(r.fetch()))
        done += chunk
        recent = float(np.mean(episodes[-20:])) if episodes else 0.0
        if solved_at is None and len(episodes) >= 20 and recent >= 195:
            solved_at = done
        print("update %5d  episodes %4d  mean return (last 20) %6.1f  %5.1f updates/s"
              % (done, len(episodes), recent, done / (time.perf_counter() - start)), file=out)
    final = float(np.mean(episodes[-20:])) if episodes else 0.0
    print("mean return of the last 20 episodes: %.1f (random play: about 22); updates "
          "applied: %d" % (final, int(optimizer.iterations.numpy())), file=out)
    return {"final": final, "episodes": len(episodes), "solved_at": solved_at}


def main(argv: list | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--workers", type=int, default=3, help="worker actors")
    parser.add_argument("--updates", type=int, default=1500,
                        help="scheduled steps (one rollout and one update each), in all")
    parser.add_argument("--t-max", type=int, default=20, help="steps per rollout")
    parser.add_argument("--seed", type=int, default=0,
                        help="initial weights and the workers' environment seeds")
    parser.add_argument("--address", default=None,
                        help="a Ray cluster's address; None starts a local Ray instance")
    args = parser.parse_args(argv)
    run(args.workers, args.updates, args.t_max, args.seed, args.address)
    return 0


if __name__ == "__main__":
    sys.exit(main())
