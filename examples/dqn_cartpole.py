"""DQN with a target network on CartPole-v1, in TF1 graph style on flowgrad.compat.v1.

The Bellman target ``r + gamma * (1 - done) * max_a' Q_target(s', a')`` must not send
gradient into the target network. Two ways, as the TF1 tutorials write it:

- ``--target-mode stop_gradient`` (default): the target is computed in the same graph
  and cut off with ``tf.stop_gradient``; one ``sess.run`` per training step.
- ``--target-mode placeholder``: the target is computed by its own ``sess.run`` and fed
  back through a placeholder, so the loss never sees the target network.

Both give the same gradients for the main network. The target network is a lagging copy of
the main one, refreshed by a group of assign ops every ``--target-update`` steps.

Needs gymnasium (``pip install "flowgrad[rl]"``); ``--plot`` also needs matplotlib.

    python examples/dqn_cartpole.py --seed 0 --plot docs/dqn_learning_curve.png
"""
from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import flowgrad.compat.v1 as tf

INSTALL_HINT = ('this example needs gymnasium for CartPole-v1: pip install "flowgrad[rl]" '
                "(or pip install gymnasium)")
SOLVED_RETURN = 195.0   # CartPole's classic criterion: mean return over 100 episodes
SOLVED_WINDOW = 100


def build_network(x: Any, layer_sizes: tuple) -> Any:
    """An MLP with ReLU hidden layers; its variables live in the current variable_scope."""
    h = x
    for i, n_out in enumerate(layer_sizes):
        n_in = h.get_shape().as_list()[-1]
        w = tf.get_variable("w%d" % i, [n_in, n_out],
                            initializer=tf.glorot_uniform_initializer())
        b = tf.get_variable("b%d" % i, [n_out], initializer=tf.zeros_initializer())
        h = tf.matmul(h, w) + b
        if i < len(layer_sizes) - 1:
            h = tf.nn.relu(h)
    return h


def td_loss(q_a: Any, target: Any, huber: bool = False) -> Any:
    """Mean squared TD error, or the mean Huber loss (delta 1) of the TD error."""
    if not huber:
        return tf.reduce_mean(tf.squared_difference(q_a, target))
    err = tf.abs(q_a - target)
    quadratic = tf.minimum(err, 1.0)
    return tf.reduce_mean(0.5 * tf.square(quadratic) + (err - quadratic))


class DQNGraph:
    """The DQN graph: main and target Q networks, TD loss, train op and target sync op."""

    def __init__(self, obs_dim: int, n_actions: int, hidden: tuple = (64, 64),
                 gamma: float = 0.99, lr: float = 1e-3, target_mode: str = "stop_gradient",
                 huber: bool = False, optimizer: str = "adam"):
        if target_mode not in ("stop_gradient", "placeholder"):
            raise ValueError("target_mode must be 'stop_gradient' or 'placeholder', got %r"
                             % (target_mode,))
        self.target_mode = target_mode
        self.o = tf.placeholder(tf.float32, [None, obs_dim], name="o")
        self.a = tf.placeholder(tf.int32, [None], name="a")
        self.r = tf.placeholder(tf.float32, [None], name="r")
        self.o2 = tf.placeholder(tf.float32, [None, obs_dim], name="o2")
        self.done = tf.placeholder(tf.float32, [None], name="done")
        sizes = tuple(hidden) + (n_actions,)
        with tf.variable_scope("main"):
            self.q = build_network(self.o, sizes)            # b x n_actions
        with tf.variable_scope("target"):
            self.q_targ = build_network(self.o2, sizes)      # b x n_actions
        self.q_a = tf.reduce_sum(self.q * tf.one_hot(self.a, n_actions), 1)   # b
        target = self.r + gamma * (1.0 - self.done) * tf.reduce_max(self.q_targ, 1)
        if target_mode == "stop_gradient":
            self.target = tf.stop_gradient(target)
            self.target_ph = None
            y = self.target
        else:
            self.target = target      # evaluated by its own sess.run, fed back as a constant
            self.target_ph = tf.placeholder(tf.float32, [None], name="target")
            y = self.target_ph
        self.loss = td_loss(self.q_a, y, huber)
        self.main_vars = tf.trainable_variables(scope="main")
        self.target_vars = tf.trainable_variables(scope="target")
        if optimizer == "adam":
            opt = tf.train.AdamOptimizer(lr)
        elif optimizer == "rmsprop":
            opt = tf.train.RMSPropOptimizer(lr)
        else:
            raise ValueError("optimizer must be 'adam' or 'rmsprop', got %r" % (optimizer,))
        self.train_op = opt.minimize(self.loss, var_list=self.main_vars)
        self.sync_op = tf.group(*[tf.assign(t, m)
                                  for t, m in zip(self.target_vars, self.main_vars)])

    def loss_feed(self, sess: Any, batch: dict) -> dict:
        """The feed_dict for ``loss``/``train_op``; the placeholder mode runs the target first."""
        feed = {self.o: batch["o"], self.a: batch["a"]}
        target_feed = {self.r: batch["r"], self.o2: batch["o2"], self.done: batch["done"]}
        if self.target_ph is None:
            feed.update(target_feed)
        else:
            feed[self.target_ph] = sess.run(self.target, target_feed)
        return feed

    def train_step(self, sess: Any, batch: dict) -> float:
        """One optimizer step on a replay batch; returns the loss before the step."""
        _, loss = sess.run([self.train_op, self.loss], self.loss_feed(sess, batch))
        return float(loss)

    def greedy_action(self, sess: Any, obs: np.ndarray) -> int:
        """argmax_a Q(obs, a) of the main network for one observation."""
        return int(np.argmax(sess.run(self.q, {self.o: obs[None]})[0]))


class ReplayBuffer:
    """A fixed-capacity ring buffer of transitions in preallocated NumPy arrays."""

    def __init__(self, capacity: int, obs_dim: int):
        self.o = np.zeros((capacity, obs_dim), np.float32)
        self.o2 = np.zeros((capacity, obs_dim), np.float32)
        self.a = np.zeros(capacity, np.int32)
        self.r = np.zeros(capacity, np.float32)
        self.done = np.zeros(capacity, np.float32)
        self.capacity, self.size, self.next = capacity, 0, 0

    def add(self, o: Any, a: int, r: float, o2: Any, done: bool) -> None:
        i = self.next
        self.o[i], self.a[i], self.r[i], self.o2[i], self.done[i] = o, a, r, o2, done
        self.next = (i + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def sample(self, batch_size: int, rng: np.random.Generator) -> dict:
        idx = rng.integers(0, self.size, batch_size)
        return {"o": self.o[idx], "a": self.a[idx], "r": self.r[idx], "o2": self.o2[idx],
                "done": self.done[idx]}


@dataclasses.dataclass
class Config:
    """Hyperparameters of a run (the command-line flags)."""

    seed: int = 0
    max_steps: int = 100_000
    target_mode: str = "stop_gradient"
    optimizer: str = "adam"
    huber: bool = False
    lr: float = 1e-3
    gamma: float = 0.99
    hidden: tuple = (64, 64)
    batch_size: int = 64
    buffer_size: int = 50_000
    learning_starts: int = 1_000
    train_every: int = 1
    target_update: int = 100
    eps_start: float = 1.0
    eps_end: float = 0.02
    eps_decay_steps: int = 5_000
    stop_when_solved: bool = True
    eval_episodes: int = 0
    log_every: int = 10


@dataclasses.dataclass
class Result:
    """What a run did: per-episode returns, when it solved CartPole, greedy evaluation."""

    returns: list
    episode_end_steps: list
    steps: int
    seconds: float
    solved_at_step: int | None = None
    solved_at_episode: int | None = None
    eval_returns: list = dataclasses.field(default_factory=list)


def epsilon(cfg: Config, step: int) -> float:
    """Linear decay from eps_start to eps_end over eps_decay_steps, then constant."""
    frac = min(step / cfg.eps_decay_steps, 1.0)
    return cfg.eps_start + frac * (cfg.eps_end - cfg.eps_start)


def make_env() -> Any:
    """CartPole-v1 from gymnasium (an optional dependency)."""
    try:
        import gymnasium
    except ImportError:
        raise SystemExit("dqn_cartpole: " + INSTALL_HINT) from None
    return gymnasium.make("CartPole-v1")


def evaluate(sess: Any, dqn: DQNGraph, env: Any, episodes: int, seed: int) -> list:
    """Returns of ``episodes`` greedy (epsilon 0) episodes, seeded seed, seed+1, ..."""
    returns = []
    for k in range(episodes):
        obs, _ = env.reset(seed=seed + k)
        total, over = 0.0, False
        while not over:
            obs, r, terminated, truncated, _ = env.step(dqn.greedy_action(sess, obs))
            total += r
            over = terminated or truncated
        returns.append(total)
    return returns


def train(cfg: Config, log: Callable[[str], None] = print) -> Result:
    """Trains a DQN on CartPole-v1 for at most ``cfg.max_steps`` environment steps."""
    env = make_env()
    obs_dim, n_actions = env.observation_space.shape[0], int(env.action_space.n)
    rng = np.random.default_rng(cfg.seed)
    graph = tf.Graph()
    with graph.as_default():
        tf.set_random_seed(cfg.seed)
        dqn = DQNGraph(obs_dim, n_actions, cfg.hidden, cfg.gamma, cfg.lr, cfg.target_mode,
                       cfg.huber, cfg.optimizer)
        init = tf.global_variables_initializer()
    buffer = ReplayBuffer(cfg.buffer_size, obs_dim)
    result = Result(returns=[], episode_end_steps=[], steps=0, seconds=0.0)
    start = time.perf_counter()
    with tf.Session(graph=graph) as sess:
        sess.run(init)
        sess.run(dqn.sync_op)
        obs, _ = env.reset(seed=cfg.seed)
        episode_return, loss, step = 0.0, float("nan"), 0
        for step in range(1, cfg.max_steps + 1):
            eps = epsilon(cfg, step)
            if rng.random() < eps:
                action = int(rng.integers(n_actions))
            else:
                action = dqn.greedy_action(sess, obs)
            obs2, reward, terminated, truncated, _ = env.step(action)
            # A time-limit truncation is not a terminal state: keep bootstrapping from it.
            buffer.add(obs, action, reward, obs2, terminated)
            obs, episode_return = obs2, episode_return + reward
            if step >= cfg.learning_starts and step % cfg.train_every == 0:
                loss = dqn.train_step(sess, buffer.sample(cfg.batch_size, rng))
            if step % cfg.target_update == 0:
                sess.run(dqn.sync_op)
            if terminated or truncated:
                result.returns.append(episode_return)
                result.episode_end_steps.append(step)
                mean100 = float(np.mean(result.returns[-SOLVED_WINDOW:]))
                episode = len(result.returns)
                if cfg.log_every and episode % cfg.log_every == 0:
                    # before the first training step there is no loss to show
                    shown = "%8.4f" % loss if not np.isnan(loss) else "       -"
                    log("episode %4d  step %6d  return %5.0f  mean100 %6.1f  eps %.3f  "
                        "loss %s  %6.1fs" % (episode, step, episode_return, mean100, eps,
                                             shown, time.perf_counter() - start))
                if (result.solved_at_step is None and episode >= SOLVED_WINDOW
                        and mean100 >= SOLVED_RETURN):
                    result.solved_at_step, result.solved_at_episode = step, episode
                    log("solved at episode %d, step %d: mean return %.1f over the last %d "
                        "episodes (%.1fs)" % (episode, step, mean100, SOLVED_WINDOW,
                                              time.perf_counter() - start))
                    if cfg.stop_when_solved:
                        break
                obs, _ = env.reset()
                episode_return = 0.0
        result.steps = step
        result.seconds = time.perf_counter() - start
        if cfg.eval_episodes:
            result.eval_returns = evaluate(sess, dqn, env, cfg.eval_episodes, cfg.seed + 10_000)
    env.close()
    return result


def plot_learning_curve(result: Result, path: str, title: str = "DQN on CartPole-v1") -> None:
    """Saves episode returns and their 100-episode running mean against environment steps."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SystemExit('dqn_cartpole: --plot needs matplotlib: pip install "flowgrad[rl]" '
                         "(or pip install matplotlib)") from None
    returns = np.asarray(result.returns)
    running = np.array([returns[max(0, i - SOLVED_WINDOW + 1):i + 1].mean()
                        for i in range(len(returns))])
    fig, ax = plt.subplots(figsize=(7, 3.6), dpi=100)
    ax.plot(result.episode_end_steps, returns, lw=0.6, alpha=0.5, label="episode return")
    ax.plot(result.episode_end_steps, running, lw=1.8, label="mean of last 100")
    ax.axhline(SOLVED_RETURN, color="gray", ls="--", lw=1, label="solved (195)")
    if result.solved_at_step is not None:
        ax.axvline(result.solved_at_step, color="green", ls=":", lw=1)
    ax.set_xlabel("environment steps")
    ax.set_ylabel("return")
    ax.set_title(title)
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def parse_args(argv: list | None = None) -> tuple[Config, argparse.Namespace]:
    """The run's Config and the raw flags (``--plot``) from the command line."""
    d = Config()
    p = argparse.ArgumentParser(description="DQN with a target network on CartPole-v1 "
                                            "(flowgrad.compat.v1).",
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--seed", type=int, default=d.seed,
                   help="seed of the environment, the graph and the replay sampling")
    p.add_argument("--max-steps", type=int, default=d.max_steps,
                   help="environment steps at most")
    p.add_argument("--target-mode", choices=("stop_gradient", "placeholder"),
                   default=d.target_mode,
                   help="cut the target's gradient with tf.stop_gradient, or compute the "
                        "target in its own sess.run and feed it through a placeholder")
    p.add_argument("--optimizer", choices=("adam", "rmsprop"), default=d.optimizer,
                   help="tf.train optimizer of the main network")
    p.add_argument("--huber", action="store_true", help="Huber loss instead of squared error")
    p.add_argument("--lr", type=float, default=d.lr, help="learning rate")
    p.add_argument("--gamma", type=float, default=d.gamma, help="discount factor")
    p.add_argument("--hidden", type=int, nargs="+", default=list(d.hidden),
                   help="units of the hidden layers of the Q network")
    p.add_argument("--batch-size", type=int, default=d.batch_size,
                   help="transitions per training step")
    p.add_argument("--buffer-size", type=int, default=d.buffer_size,
                   help="capacity of the replay buffer")
    p.add_argument("--learning-starts", type=int, default=d.learning_starts,
                   help="environment steps before the first training step")
    p.add_argument("--train-every", type=int, default=d.train_every,
                   help="environment steps between training steps")
    p.add_argument("--target-update", type=int, default=d.target_update,
                   help="copy main into target every N environment steps")
    p.add_argument("--eps-start", type=float, default=d.eps_start,
                   help="exploration rate at the start")
    p.add_argument("--eps-end", type=float, default=d.eps_end,
                   help="exploration rate after the decay")
    p.add_argument("--eps-decay-steps", type=int, default=d.eps_decay_steps,
                   help="environment steps of the linear epsilon decay")
    p.add_argument("--keep-training", action="store_true",
                   help="run all --max-steps even after solving")
    p.add_argument("--eval-episodes", type=int, default=d.eval_episodes,
                   help="greedy episodes to run after training")
    p.add_argument("--log-every", type=int, default=d.log_every, help="episodes between logs")
    p.add_argument("--plot", metavar="PATH",
                   help="save the learning curve (with a legend) as a PNG")
    args = p.parse_args(argv)
    cfg = Config(seed=args.seed, max_steps=args.max_steps, target_mode=args.target_mode,
                 optimizer=args.optimizer, huber=args.huber, lr=args.lr, gamma=args.gamma,
                 hidden=tuple(args.hidden), batch_size=args.batch_size,
                 buffer_size=args.buffer_size, learning_starts=args.learning_starts,
                 train_every=args.train_every, target_update=args.target_update,
                 eps_start=args.eps_start, eps_end=args.eps_end,
                 eps_decay_steps=args.eps_decay_steps, stop_when_solved=not args.keep_training,
                 eval_episodes=args.eval_episodes, log_every=args.log_every)
    return cfg, args


def main(argv: list | None = None) -> int:
    """Trains, reports, optionally plots; exit status 0 if CartPole was solved."""
    cfg, args = parse_args(argv)
    tf.disable_v2_behavior()
    result = train(cfg)
    print("%d episodes, %d steps in %.1fs (%.0f steps/s)"
          % (len(result.returns), result.steps, result.seconds, result.steps / result.seconds))
    if result.eval_returns:
        print("greedy evaluation over %d episodes: mean return %.1f"
              % (len(result.eval_returns), np.mean(result.eval_returns)))
    if args.plot:
        plot_learning_curve(result, args.plot, "DQN on CartPole-v1 (seed %d, %s)"
                            % (cfg.seed, cfg.target_mode))
        print("learning curve saved to", args.plot)
    if result.solved_at_step is None:
        print("not solved within %d steps" % cfg.max_steps)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
