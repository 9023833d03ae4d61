"""Session overhead and graph-mode training speed against hand-written NumPy.

Run:  python benchmarks/bench_session.py [--repeat N]

Prints a table of flowgrad's time, the hand-written NumPy time measured in the
same run, and their ratio, for:
  * one ``sess.run`` of ``tf.gradients(y, [w, x])`` for ``y = w * x`` (scalar variables);
  * one epoch (550 steps of 100) of the seed's MNIST softmax regression trained with
    ``tf.gradients`` + ``assign``.
"""
from __future__ import annotations

import argparse
import os
import time
from typing import Callable

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matmuls: threads only add noise

import numpy as np  # noqa: E402

import flowgrad.compat.v1 as tf  # noqa: E402
from flowgrad.datasets import mnist  # noqa: E402


def print_table(rows: list) -> None:
    """Prints (name, flowgrad, numpy, unit) rows with their ratio."""
    print("%-46s %12s %12s %7s" % ("benchmark", "flowgrad", "NumPy", "ratio"))
    for name, a, b, unit in rows:
        print("%-46s %9.3f %-2s %9.3f %-2s %6.2fx" % (name, a, unit, b, unit, a / b))


def best_of(fn: Callable[[], object], repeat: int, number: int = 1) -> float:
    """Best wall time of ``number`` calls of fn, over ``repeat`` rounds, per call."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - t0) / number)
    return best


def tiny_gradients(repeat: int) -> tuple[float, float]:
    """Seconds per run: flowgrad Session vs NumPy, for the gradients of y = w * x."""
    with tf.Graph().as_default():
        x = tf.Variable(50.0)
        w = tf.Variable(10.0)
        y = w * x
        grads = tf.gradients(y, [w, x])
        sess = tf.Session()
        sess.run(tf.global_variables_initializer())
        ours = best_of(lambda: sess.run(grads), repeat, 20000)
    state = {"w": np.float32(10.0), "x": np.float32(50.0)}

    def numpy_step() -> list:
        wv, xv = state["w"], state["x"]
        gy = np.float32(1.0)
        return [gy * xv, gy * wv]
    theirs = best_of(numpy_step, repeat, 20000)
    return ours, theirs


def mnist_batches(batch_size: int = 100, steps: int = 550) -> list:
    """The first ``steps`` MNIST training batches in file order."""
    data = mnist.read_data_sets(None, one_hot=True)
    return [data.train.next_batch(batch_size, shuffle=False) for _ in range(steps)]


def numpy_softmax_epoch(batches: list, lr: float) -> None:
    """One epoch of the seed's softmax regression, forward and backward by hand in NumPy."""
    Wv = np.zeros((784, 10), np.float32)
    bv = np.zeros(10, np.float32)
    for bx, by in batches:
        by = by.astype(np.float32)
        logits = bx @ Wv + bv
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        p = e / e.sum(axis=1, keepdims=True)
        np.mean(-np.sum(by * np.log(p), axis=1))
        d = (p - by) / np.float32(len(bx))
        Wv = Wv - lr * (bx.T @ d)
        bv = bv - lr * d.sum(axis=0)


def softmax_model() -> tuple:
    """The seed's softmax regression graph: (x, y, W, b, cost) in the default graph."""
    x = tf.placeholder(tf.float32, [None, 784])
    y = tf.placeholder(tf.float32, [None, 10])
    W = tf.Variable(tf.zeros([784, 10]))
    b = tf.Variable(tf.zeros([10]))
    pred = tf.nn.softmax(tf.matmul(x, W) + b)
    cost = tf.reduce_mean(-tf.reduce_sum(y * tf.log(pred), reduction_indices=1))
    return x, y, W, b, cost


def mnist_gradients_epoch(batches: list, repeat: int) -> tuple[float, float]:
    """Seconds per epoch: the seed's tf.gradients + assign training vs NumPy."""
    lr = 0.01
    with tf.Graph().as_default():
        x, y, W, b, cost = softmax_model()
        grad_W, grad_b = tf.gradients(xs=[W, b], ys=cost)
        new_W = W.assign(W - lr * grad_W)
        new_b = b.assign(b - lr * grad_b)
        sess = tf.Session()
        fetches = [new_W, new_b, cost]

        def epoch() -> None:
            sess.run(tf.global_variables_initializer())
            for bx, by in batches:
                sess.run(fetches, feed_dict={x: bx, y: by})
        ours = best_of(epoch, repeat)

    return ours, best_of(lambda: numpy_softmax_epoch(batches, lr), repeat)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5, help="rounds; the best is reported")
    args = ap.parse_args()
    tf.disable_v2_behavior()
    rows = []
    ours, theirs = tiny_gradients(args.repeat)
    rows.append(("sess.run(tf.gradients(w*x, [w, x]))", ours * 1e6, theirs * 1e6, "us"))
    batches = mnist_batches()
    ours, theirs = mnist_gradients_epoch(batches, args.repeat)
    rows.append(("MNIST softmax epoch, tf.gradients+assign", ours, theirs, "s"))
    print_table(rows)


if __name__ == "__main__":
    main()
