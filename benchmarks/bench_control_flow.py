"""tf.while_loop speed against the same loop hand-written in NumPy.

Run:  python benchmarks/bench_control_flow.py [--repeat N] [--steps T]

Prints a table of flowgrad's time, the hand-written NumPy time measured in the
same run, their ratio and flowgrad's extra time per iteration, for:
  * a counter loop (``i + 1`` while ``i < T``): the bare per-iteration cost;
  * T steps of ``h = tanh(h @ W + b)`` (h: 1x32, W: 32x32) forward;
  * the same loop forward and backward (``tf.gradients`` w.r.t. W, b and h0),
    against a hand-written NumPy backward pass through time;
  * T writes of ``tanh(x[i])`` (x: T x 256) into a ``tf.TensorArray`` and its ``stack()``,
    against NumPy rows written into a preallocated array.
"""
from __future__ import annotations

import argparse
import os
import time
from typing import Callable

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matmuls: threads only add noise

import numpy as np  # noqa: E402

import flowgrad.compat.v1 as tf  # noqa: E402

N = 32


def best_of(fn: Callable[[], object], repeat: int) -> float:
    """Best wall time of one call of fn over ``repeat`` rounds."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def numpy_counter(steps: int) -> int:
    i = 0
    while i < steps:
        i = i + 1
    return i


def numpy_forward(w: np.ndarray, b: np.ndarray, h0: np.ndarray, steps: int) -> np.ndarray:
    h = h0
    for _ in range(steps):
        h = np.tanh(h @ w + b)
    return h


def numpy_forward_backward(w: np.ndarray, b: np.ndarray, h0: np.ndarray, steps: int) -> tuple:
    """Gradients of sum(h_T) w.r.t. (w, b, h0), backpropagation through time by hand."""
    hs = [h0]
    for _ in range(steps):
        hs.append(np.tanh(hs[-1] @ w + b))
    dw, db = np.zeros_like(w), np.zeros_like(b)
    dh = np.ones_like(h0)
    for t in range(steps, 0, -1):
        dz = dh * (1 - hs[t] * hs[t])
        dw += hs[t - 1].T @ dz
        db += dz[0]
        dh = dz @ w.T
    return dw, db, dh


def numpy_rows(x: np.ndarray) -> np.ndarray:
    out = np.zeros_like(x)
    for i in range(len(x)):
        out[i] = np.tanh(x[i])
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--steps", type=int, default=1000)
    args = ap.parse_args()
    steps, repeat = args.steps, args.repeat
    rng = np.random.RandomState(0)
    wv = (rng.randn(N, N) / np.sqrt(N)).astype(np.float32)
    bv = rng.randn(N).astype(np.float32) * 0.1
    hv = rng.randn(1, N).astype(np.float32)
    rows = []
    def rnn(w: object, b: object, h0: object) -> object:
        return tf.while_loop(lambda i, h: i < steps,
                             lambda i, h: (i + 1, tf.tanh(tf.matmul(h, w) + b)), [0, h0])[1]

    def placeholders() -> tuple:
        return (tf.placeholder(tf.float32, [N, N]), tf.placeholder(tf.float32, [N]),
                tf.placeholder(tf.float32, [1, N]))
    with tf.Graph().as_default():          # forward only: no history is recorded
        counter = tf.while_loop(lambda i: i < steps, lambda i: i + 1, [tf.constant(0)])
        w, b, h0 = placeholders()
        h = rnn(w, b, h0)
        sess = tf.Session()
        feed = {w: wv, b: bv, h0: hv}
        np.testing.assert_allclose(sess.run(h, feed), numpy_forward(wv, bv, hv, steps),
                                   rtol=1e-4, atol=1e-5)
        rows.append(("counter loop (i + 1)", best_of(lambda: sess.run(counter), repeat),
                     best_of(lambda: numpy_counter(steps), repeat)))
        rows.append(("tanh(h W + b) forward", best_of(lambda: sess.run(h, feed), repeat),
                     best_of(lambda: numpy_forward(wv, bv, hv, steps), repeat)))
    with tf.Graph().as_default():
        w, b, h0 = placeholders()
        grads = tf.gradients(tf.reduce_sum(rnn(w, b, h0)), [w, b, h0])
        sess = tf.Session()
        feed = {w: wv, b: bv, h0: hv}
        for a, r in zip(sess.run(grads, feed), numpy_forward_backward(wv, bv, hv, steps)):
            np.testing.assert_allclose(a, r, rtol=2e-3, atol=1e-4)
        rows.append(("tanh(h W + b) forward + backward",
                     best_of(lambda: sess.run(grads, feed), repeat),
                     best_of(lambda: numpy_forward_backward(wv, bv, hv, steps), repeat)))
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [steps, 256])
        ta = tf.TensorArray(tf.float32, size=steps)
        _, ta = tf.while_loop(lambda i, ta: i < steps,
                              lambda i, ta: (i + 1, ta.write(i, tf.tanh(x[i]))), [0, ta])
        stacked = ta.stack()
        sess = tf.Session()
        xv = rng.randn(steps, 256).astype(np.float32)
        np.testing.assert_allclose(sess.run(stacked, {x: xv}), numpy_rows(xv), rtol=1e-6)
        rows.append(("TensorArray write of a row, stack",
                     best_of(lambda: sess.run(stacked, {x: xv}), repeat),
                     best_of(lambda: numpy_rows(xv), repeat)))
    print("tf.while_loop, %d iterations (best of %d)" % (steps, repeat))
    print("%-36s %11s %11s %7s %16s" % ("benchmark", "flowgrad", "NumPy", "ratio",
                                        "extra/iteration"))
    for name, a, b_ in rows:
        print("%-36s %8.2f ms %8.2f ms %6.2fx %13.2f us" % (name, a * 1e3, b_ * 1e3, a / b_,
                                                             (a - b_) / steps * 1e6))


if __name__ == "__main__":
    main()
