"""Training steps on a busy machine: how much slower flowgrad runs while another process
keeps one core busy, with flowgrad's thread budget and without it ("before": NumPy's BLAS
pool left at its size, as flowgrad did before issue 24).

Run:  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python benchmarks/bench_busy.py

Do not set OPENBLAS_NUM_THREADS and the like: they cap the pool the budget sizes. The
busy process is a spinning Python subprocess this script starts and stops. Rows (graph
mode, one Session each, ``sess.run`` of the train op):

  * the MNIST demo step (softmax regression 784-10, GradientDescent, batch 100, 50 steps);
  * an MLP step (784-512-512-10, ReLU, Adam, batch 128, 10 steps);
  * an LSTM step (``dynamic_rnn`` + BasicLSTMCell, 28 steps x 128 units, batch 64, Adam,
    2 steps).

Each cell is the median of ``--rounds`` rounds; the modes alternate within a round.
Beside the wall time, the process's CPU time per loop (all its threads) says where a
slowdown comes from: CPU time that stays the same is the busy process's share of the
cores (the scheduler's), CPU time that grows is work flowgrad adds (threads spinning or
waiting on each other, caches shared with the busy process).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from typing import Callable

import numpy as np
import threadpoolctl

import flowgrad.compat.v1 as tf
from flowgrad.framework import threads


def softmax_step() -> Callable[[], None]:
    rng = np.random.RandomState(0)
    bx, by = rng.rand(100, 784).astype(np.float32), np.eye(10, dtype=np.float32)[
        rng.randint(0, 10, 100)]
    g = tf.Graph()
    with g.as_default():
        x, y = tf.placeholder(tf.float32, [None, 784]), tf.placeholder(tf.float32, [None, 10])
        w, b = tf.Variable(tf.zeros([784, 10])), tf.Variable(tf.zeros([10]))
        pred = tf.nn.softmax(tf.matmul(x, w) + b)
        cost = tf.reduce_mean(-tf.reduce_sum(y * tf.log(pred + 1e-9), 1))
        train = tf.train.GradientDescentOptimizer(0.01).minimize(cost)
        sess = tf.Session()
        sess.run(tf.global_variables_initializer())

    def run() -> None:
        for _ in range(50):
            sess.run([train, cost], {x: bx, y: by})
    return run


def mlp_step() -> Callable[[], None]:
    rng = np.random.RandomState(0)
    bx, by = rng.rand(128, 784).astype(np.float32), np.eye(10, dtype=np.float32)[
        rng.randint(0, 10, 128)]
    g = tf.Graph()
    with g.as_default():
        x, y = tf.placeholder(tf.float32, [None, 784]), tf.placeholder(tf.float32, [None, 10])
        h = x
        for m, n in ((784, 512), (512, 512), (512, 10)):
            w = tf.Variable(rng.uniform(-0.05, 0.05, (m, n)).astype(np.float32))
            h = tf.matmul(h, w) + tf.Variable(np.zeros(n, np.float32))
            h = tf.nn.relu(h) if n != 10 else h
        loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=h))
        train = tf.train.AdamOptimizer(1e-3).minimize(loss)
        sess = tf.Session()
        sess.run(tf.global_variables_initializer())

    def run() -> None:
        for _ in range(10):
            sess.run(train, {x: bx, y: by})
    return run


def lstm_step() -> Callable[[], None]:
    rng = np.random.RandomState(0)
    bx = rng.rand(64, 28, 28).astype(np.float32)
    by = np.eye(10, dtype=np.float32)[rng.randint(0, 10, 64)]
    g = tf.Graph()
    with g.as_default():
        x, y = tf.placeholder(tf.float32, [None, 28, 28]), tf.placeholder(tf.float32, [None, 10])
        _, state = tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicLSTMCell(128), x, dtype=tf.float32)
        logits = tf.layers.dense(state.h, 10)
        loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y,
                                                                          logits=logits))
        train = tf.train.AdamOptimizer(1e-3).minimize(loss)
        sess = tf.Session()
        sess.run(tf.global_variables_initializer())

    def run() -> None:
        for _ in range(2):
            sess.run(train, {x: bx, y: by})
    return run


def set_mode(budget: bool, pool: int) -> None:
    """With the budget: flowgrad sizes the BLAS pool. Before: the pool at its own size and
    no looks at the load (as flowgrad ran before issue 24)."""
    threadpoolctl.threadpool_limits(pool, user_api="blas")
    threads._b.blas_threads = 0
    threads._b.next_check = 0.0 if budget else float("inf")


def timed(fn: Callable[[], None]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) of one call of ``fn``."""
    t0, c0 = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - t0, time.process_time() - c0


def measure(rounds: int, cpu: dict | None = None) -> dict:
    """{(row name, busy, budget): median seconds} over ``rounds`` rounds (and in ``cpu``,
    if given, the median CPU seconds of the same keys), the modes
    alternating within each round (``busy``: a spinning process beside flowgrad; ``budget``:
    flowgrad's thread budget, else NumPy's BLAS pool left at its size)."""
    pool = threadpoolctl.threadpool_info()[0]["num_threads"]
    rows = [("MNIST demo step (softmax, SGD) x50", softmax_step()),
            ("MLP 784-512-512-10 Adam step x10", mlp_step()),
            ("LSTM 28x128 dynamic_rnn Adam step x2", lstm_step())]
    times: dict = {(name, busy, budget): [] for name, _ in rows for busy in (False, True)
                   for budget in (False, True)}
    for _, fn in rows:
        for budget in (False, True):
            set_mode(budget, pool)
            fn()                                            # warm-up (plans, pool size)
    for _ in range(rounds):
        for busy in (False, True):                          # side by side in each round
            spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"]) \
                if busy else None
            try:
                time.sleep(0.3 if busy else 0.0)
                for name, fn in rows:
                    for budget in (False, True):
                        set_mode(budget, pool)
                        times[name, busy, budget].append(timed(fn))
            finally:
                if spinner is not None:
                    spinner.terminate()
                    spinner.wait()
    set_mode(True, pool)
    if cpu is not None:
        cpu.update({k: statistics.median(c for _, c in v) for k, v in times.items()})
    return {k: statistics.median(w for w, _ in v) for k, v in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    if any(os.environ.get(n) for n in threads._ENV_THREADS):
        sys.exit("unset %s: they cap the BLAS pool" % ", ".join(threads._ENV_THREADS))
    print("BLAS:", ", ".join("%s %s (%s), %d threads" % (i["internal_api"], i["version"],
                                                       i.get("architecture"), i["num_threads"])
                             for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"))
    print("usable cores %d; load average %s" % (threads.usable_cores(),
                                                 " ".join("%.1f" % v for v in os.getloadavg())))
    cpu: dict = {}
    results = measure(args.rounds, cpu)
    print("load average after: %s" % " ".join("%.1f" % v for v in os.getloadavg()))
    print("medians of %d rounds; busy: a spinning process beside flowgrad" % args.rounds)
    print("%-38s %9s %9s %7s | %9s %9s %7s | %s" % ("", "before", "busy", "slower",
                                                    "budget", "busy", "slower",
                                                    "CPU time with the budget, idle / busy"))
    for name in dict.fromkeys(k[0] for k in results):
        b0, b1 = results[name, False, False], results[name, True, False]
        a0, a1 = results[name, False, True], results[name, True, True]
        c0, c1 = cpu[name, False, True], cpu[name, True, True]
        print("%-38s %7.0f ms %7.0f ms %6.2fx | %7.0f ms %7.0f ms %6.2fx | %.0f / %.0f ms "
              "(%.2fx)" % (name, b0 * 1e3, b1 * 1e3, b1 / b0, a0 * 1e3, a1 * 1e3, a1 / a0,
                           c0 * 1e3, c1 * 1e3, c1 / c0))


if __name__ == "__main__":
    main()
