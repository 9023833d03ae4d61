"""tf.train training speed against the same training step hand-written in NumPy.

Run:  python benchmarks/bench_training.py [--repeat N]

  * one epoch of the seed's MNIST softmax regression with
    ``GradientDescentOptimizer(0.01).minimize`` (550 steps of 100);
  * a 784-512-512-10 ReLU MLP with softmax cross-entropy and ``AdamOptimizer``
    (100 steps of 128).
"""
from __future__ import annotations

import argparse
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matmuls: threads only add noise

import numpy as np  # noqa: E402
from bench_session import (best_of, mnist_batches, numpy_softmax_epoch,  # noqa: E402
                           print_table, softmax_model)

import flowgrad.compat.v1 as tf  # noqa: E402


def softmax_minimize_epoch(batches: list, repeat: int) -> tuple[float, float]:
    lr = 0.01
    with tf.Graph().as_default():
        x, y, _, _, cost = softmax_model()
        train = tf.train.GradientDescentOptimizer(lr).minimize(cost)
        sess = tf.Session()
        init = tf.global_variables_initializer()

        def epoch() -> None:
            sess.run(init)
            for bx, by in batches:
                sess.run([train, cost], feed_dict={x: bx, y: by})
        ours = best_of(epoch, repeat)

    return ours, best_of(lambda: numpy_softmax_epoch(batches, lr), repeat)


def _init_params(rng: np.random.RandomState) -> list:
    sizes = [784, 512, 512, 10]
    params = []
    for i in range(3):
        lim = np.sqrt(6.0 / (sizes[i] + sizes[i + 1]))
        params.append(rng.uniform(-lim, lim, (sizes[i], sizes[i + 1])).astype(np.float32))
        params.append(np.zeros(sizes[i + 1], np.float32))
    return params


def numpy_mlp_adam(batches: list, init_vals: list | None = None) -> None:
    """The MLP's training (Adam, TensorFlow's formula) hand-written in NumPy, from
    ``init_vals`` (default: ``_init_params`` of seed 0)."""
    lr, b1, b2, eps = 0.001, 0.9, 0.999, 1e-8
    if init_vals is None:
        init_vals = _init_params(np.random.RandomState(0))
    p = [v.copy() for v in init_vals]
    m = [np.zeros_like(v) for v in p]
    v2 = [np.zeros_like(v) for v in p]
    for t, (bx, by) in enumerate(batches, 1):
        by = by.astype(np.float32)
        a1 = bx @ p[0] + p[1]
        h1 = np.maximum(a1, 0)
        a2 = h1 @ p[2] + p[3]
        h2 = np.maximum(a2, 0)
        logits = h2 @ p[4] + p[5]
        z = logits - logits.max(axis=1, keepdims=True)
        e = np.exp(z)
        s = e.sum(axis=1, keepdims=True)
        np.mean(np.log(s)[:, 0] - (by * z).sum(axis=1))
        d3 = (e / s - by) / np.float32(len(bx))
        d2 = (d3 @ p[4].T) * (a2 > 0)
        d1 = (d2 @ p[2].T) * (a1 > 0)
        grads = [bx.T @ d1, d1.sum(0), h1.T @ d2, d2.sum(0), h2.T @ d3, d3.sum(0)]
        lr_t = np.float32(lr * np.sqrt(1 - b2 ** t) / (1 - b1 ** t))
        for i, g in enumerate(grads):
            m[i] = m[i] + (g - m[i]) * np.float32(1 - b1)
            v2[i] = v2[i] + (g * g - v2[i]) * np.float32(1 - b2)
            p[i] = p[i] - lr_t * m[i] / (np.sqrt(v2[i]) + np.float32(eps))


def session_mlp(init_vals: list, lr: float, b1: float, b2: float, eps: float) -> tuple:
    """The MLP and its Adam ``minimize`` in the default graph: placeholders x and y, the
    loss and the train op."""
    x = tf.placeholder(tf.float32, [None, 784])
    y = tf.placeholder(tf.float32, [None, 10])
    ps = [tf.Variable(v) for v in init_vals]
    h = tf.nn.relu(tf.matmul(x, ps[0]) + ps[1])
    h = tf.nn.relu(tf.matmul(h, ps[2]) + ps[3])
    logits = tf.matmul(h, ps[4]) + ps[5]
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=logits))
    return x, y, loss, tf.train.AdamOptimizer(lr, b1, b2, eps).minimize(loss)


def mlp_adam(batches: list, repeat: int) -> tuple[float, float]:
    lr, b1, b2, eps = 0.001, 0.9, 0.999, 1e-8
    init_vals = _init_params(np.random.RandomState(0))
    with tf.Graph().as_default():
        x, y, loss, train = session_mlp(init_vals, lr, b1, b2, eps)
        sess = tf.Session()
        init = tf.global_variables_initializer()

        def run() -> None:
            sess.run(init)
            for bx, by in batches:
                sess.run([train, loss], feed_dict={x: bx, y: by})
        ours = best_of(run, repeat)

    return ours, best_of(lambda: numpy_mlp_adam(batches, init_vals), repeat)


JAX_PYTHON = "/work/venv-jax/bin/python"


def jax_python() -> str | None:
    """The Python with JAX for ``jax_mlp.py``: ``FLOWGRAD_JAX_PYTHON`` if set, else
    ``JAX_PYTHON``; None where that file is not there."""
    python = os.environ.get("FLOWGRAD_JAX_PYTHON", JAX_PYTHON)
    return python if python and os.path.exists(python) else None


def mlp_adam_rounds(batches: list, rounds: int, thread_counts: list,
                    jax_py: str | None) -> dict:
    """Seconds of the MLP + Adam's ``batches`` per thread count: lists of ``rounds``
    samples for flowgrad's Session, NumPy (``numpy_mlp_adam``) and JAX's jit
    (``jax_mlp.py`` run by ``jax_py`` in a child process; an empty list where ``jax_py``
    is None or the child failed), the three run one after another within each round.

    With T threads flowgrad's intra-op threads and its Session's inter-op threads are T,
    NumPy's BLAS pool has T threads (threadpoolctl), and with T = 1 JAX's XLA runs one
    thread (``XLA_FLAGS=--xla_cpu_multi_thread_eigen=false
    intra_op_parallelism_threads=1``)."""
    import threadpoolctl
    from tf_child import TensorFlowChild

    from flowgrad.framework import threads as fg_threads
    init_vals = _init_params(np.random.RandomState(0))
    arrays = {"p%d" % i: v for i, v in enumerate(init_vals)}
    arrays.update(x=np.stack([b[0] for b in batches]),
                  y=np.stack([b[1] for b in batches]).astype(np.float32))
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "jax_mlp.py")
    out = {}
    for t in thread_counts:
        fg_threads.set_intra_op_threads(t)
        with tf.Graph().as_default():
            x, y, loss, train = session_mlp(init_vals, 0.001, 0.9, 0.999, 1e-8)
            sess = tf.Session(config=tf.ConfigProto(inter_op_parallelism_threads=t))
            init = tf.global_variables_initializer()
            sess.run(init)
            sess.run(train, {x: batches[0][0], y: batches[0][1]})     # compile the plan

            def ours() -> None:
                sess.run(init)
                for bx, by in batches:
                    sess.run([train, loss], feed_dict={x: bx, y: by})

            def by_hand() -> None:
                with threadpoolctl.threadpool_limits(t, "blas"):
                    numpy_mlp_adam(batches, init_vals)

            env = ({"XLA_FLAGS": "--xla_cpu_multi_thread_eigen=false "
                                 "intra_op_parallelism_threads=1"} if t == 1 else {})
            child = TensorFlowChild(jax_py, script, arrays, env=env,
                                    label="JAX") if jax_py else None
            samples: tuple = ([], [], [])
            try:
                for _ in range(rounds):
                    samples[0].append(best_of(ours, 1))
                    samples[1].append(best_of(by_hand, 1))
                    if child is not None and child.alive:
                        samples[2].append(child.round())
            finally:
                if child is not None:
                    child.close()
            sess.close()
        out[t] = samples
    fg_threads.set_intra_op_threads(0)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="rounds; the best is reported")
    args = ap.parse_args()
    tf.disable_v2_behavior()
    rows = []
    ours, theirs = softmax_minimize_epoch(mnist_batches(), args.repeat)
    rows.append(("MNIST softmax epoch, GradientDescent.minimize", ours, theirs, "s"))
    ours, theirs = mlp_adam(mnist_batches(128, 100), args.repeat)
    rows.append(("MLP 784-512-512-10, Adam, 100 steps of 128", ours, theirs, "s"))
    print_table(rows)


if __name__ == "__main__":
    main()
