"""Eager (GradientTape) and tf.function training speed against hand-written NumPy.

Run:  python benchmarks/bench_eager.py [--repeat N]

One epoch (550 steps of 100) of the seed's MNIST softmax regression, written with
``tf.GradientTape`` on the TF2 face: run eagerly, and as a ``tf.function`` step.
"""
from __future__ import annotations

import argparse
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matmuls: threads only add noise

import numpy as np  # noqa: E402
from bench_session import (best_of, mnist_batches, numpy_softmax_epoch,  # noqa: E402
                           print_table)

import flowgrad as tf  # noqa: E402

LR = 0.01


def make_step() -> tuple:
    W = tf.Variable(tf.zeros([784, 10]))
    b = tf.Variable(tf.zeros([10]))

    def step(x: tf.Tensor, y: tf.Tensor) -> tf.Tensor:
        with tf.GradientTape() as tape:
            pred = tf.nn.softmax(tf.matmul(x, W) + b)
            cost = tf.reduce_mean(-tf.reduce_sum(y * tf.math.log(pred), axis=1))
        gW, gb = tape.gradient(cost, [W, b])
        W.assign_sub(LR * gW)
        b.assign_sub(LR * gb)
        return cost
    return W, b, step


def eager_epochs(batches: list, repeat: int) -> tuple[float, float]:
    batches = [(bx, by.astype(np.float32)) for bx, by in batches]
    W, b, step = make_step()
    compiled = tf.function(step)

    def run(fn: object) -> None:
        W.assign(np.zeros((784, 10), np.float32))
        b.assign(np.zeros(10, np.float32))
        for bx, by in batches:
            fn(bx, by)
    return best_of(lambda: run(step), repeat), best_of(lambda: run(compiled), repeat)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="rounds; the best is reported")
    args = ap.parse_args()
    batches = mnist_batches()
    eager, compiled = eager_epochs(batches, args.repeat)
    base = best_of(lambda: numpy_softmax_epoch(batches, LR), args.repeat)
    print_table([("MNIST softmax epoch, GradientTape (eager)", eager, base, "s"),
                 ("MNIST softmax epoch, GradientTape in tf.function", compiled, base, "s")])


if __name__ == "__main__":
    main()
