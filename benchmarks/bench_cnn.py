"""CNN training speed: the W5 MNIST CNN in flowgrad graph mode against a hand-written NumPy
im2col version of the same training step.

Run:  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python benchmarks/bench_cnn.py
          [--steps N] [--repeat N] [--threads 1,2] [--kernels] [--markdown] [--tensorflow PY]

With TensorFlow installed for the Python ``PY`` (default /work/venv-tf/bin/python, skipped
when absent), the same training step (``tf.compat.v1`` graph mode, the same weights, batches
and Adam) is timed there too, in a child process that runs one round whenever this one
has run its flowgrad and NumPy rounds (so that all three see the same machine load).

Threads: the three are compared at equal thread budgets, each thread count of
``--threads`` in turn. With T threads, TensorFlow's Session has
``intra_op_parallelism_threads`` and ``inter_op_parallelism_threads`` T, flowgrad's
``tf.config.threading`` intra-op threads and its Session's inter-op threads are T, and
NumPy's BLAS pool has T threads (threadpoolctl). T = 1 compares the kernels (one thread
each, the least sensitive to other processes on a shared machine); T = the number of cores
compares what each does with the whole machine (TensorFlow's default). flowgrad's thread
budget may use fewer BLAS threads than T while other processes keep cores busy; neither
TensorFlow nor the NumPy version does. Do not set ``OPENBLAS_NUM_THREADS``: it caps
flowgrad's budget (and the NumPy version's pool) below T.

The model: conv 5x5x32 SAME + ReLU + 2x2 max-pool, conv 5x5x64 SAME + ReLU + 2x2 max-pool,
dense 1024 + ReLU, dense 10, softmax cross-entropy, Adam(1e-4), batches of 64 MNIST images,
built with ``tf.nn.conv2d``/``max_pool``, ``tf.Variable`` and ``tf.train.AdamOptimizer``.
The NumPy version is the textbook one: im2col as a strided window view copied by
``reshape``, one GEMM per convolution, the columns kept from the forward pass for the
filter gradient, col2im by adding the 25 taps back, max-pool and its gradient by
reshaping into 2x2 blocks (the gradient to the first maximum of a window, as
TensorFlow's), TensorFlow's Adam formula. Both start from the same weights
and the script checks that they end with the same weights.

How flowgrad's convolution kernels were chosen (``--kernels`` re-measures: the median
thread CPU time of 9 interleaved calls with one BLAS thread, float32, batch 64; conv2 is
14x14x32 -> 64 channels, conv1 28x28x1 -> 32; on the shared 2-core AMD EPYC (AVX2)
machine at load average 14, where every figure is about twice an idle machine's):

  ============================================  =======  =======
  kernel                                          conv2    conv1
  ============================================  =======  =======
  forward: im2col into a reused buffer + GEMM      39.6      7.2
  forward: the same in 2 MB batch chunks           35.8      6.7
  forward: im2col by reshape (new array) + GEMM    47.0      7.3
  forward: sliding_window_view + GEMM              67.5      7.2
  forward: np.tensordot on the window view         46.8      7.9
  forward: np.einsum(optimize=True)                67.0      9.3
  forward: one GEMM per tap, accumulated           90.2    143.5
  input grad: GEMM to columns + col2im             90.3     17.9
  input grad: one GEMM per tap, added in place     69.6     22.2
  input grad: the same in batch chunks             44.7     10.9
  filter grad: columns.T @ dy (one GEMM)           38.7      7.4
  filter grad: the same in 2 MB batch chunks       38.1      7.6
  filter grad: transposed columns @ dy             65.8      5.3
  filter grad: one GEMM per tap                    70.1     13.3
  ============================================  =======  =======

So all three kernels run in batch chunks whose work arrays stay in the cache (about
2 MB: the chunk's columns are still there when its GEMM reads them); Conv2D is im2col +
one GEMM per chunk with the column matrix in a reused per-thread buffer (a fresh 40 MB
array costs page faults every step); Conv2DBackpropInput is one GEMM per tap added into
the padded gradient when C > 1 (no 40 MB column matrix to write and scatter), GEMM +
col2im when C = 1; Conv2DBackpropFilter is columns.T @ dy, summed over the chunks, when
C >= 8 and one GEMM on transposed columns (a long inner dimension) below. The chunks
depend on the shapes only, not on the BLAS threads, so a busy machine computes the same
values as an idle one. An earlier AVX-512 machine favoured one GEMM per tap for the
filter gradient too (20 ms against 24 ms); here it is 1.8x the columns' time, and 25
small GEMMs keep two BLAS threads waiting for each other 25 times.
Padding writes into a reused buffer (0.09 ms against 0.18 ms for ``np.pad``).
"""
from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Any

import numpy as np
from bench_session import best_of, mnist_batches  # noqa: E402
from numpy.lib.stride_tricks import as_strided, sliding_window_view
from tf_child import TensorFlowChild, serve  # noqa: E402

import flowgrad.compat.v1 as tf

LR, B1, B2, EPS = 1e-4, 0.9, 0.999, 1e-8
SHAPES = [(5, 5, 1, 32), (32,), (5, 5, 32, 64), (64,), (3136, 1024), (1024,), (1024, 10), (10,)]


def initial_weights(seed: int = 0) -> list:
    """Truncated-normal(0.1) kernels and 0.1 biases, as the Deep MNIST tutorial."""
    rng = np.random.RandomState(seed)
    out = []
    for s in SHAPES:
        if len(s) == 1:
            out.append(np.full(s, 0.1, np.float32))
        else:
            v = rng.normal(0, 0.1, s)
            while np.any(np.abs(v) > 0.2):
                bad = np.abs(v) > 0.2
                v[bad] = rng.normal(0, 0.1, bad.sum())
            out.append(v.astype(np.float32))
    return out


def image_batches(steps: int) -> list:
    return [(bx.reshape(-1, 28, 28, 1), by.astype(np.float32))
            for bx, by in mnist_batches(64, steps)]


# --------------------------------------------------------------------------------------
# flowgrad


def flowgrad_model(weights: list) -> tuple:
    x = tf.placeholder(tf.float32, [None, 28, 28, 1])
    y = tf.placeholder(tf.float32, [None, 10])
    w1, b1, w2, b2, w3, b3, w4, b4 = [tf.Variable(v) for v in weights]
    h = tf.nn.relu(tf.nn.conv2d(x, w1, [1, 1, 1, 1], "SAME") + b1)
    h = tf.nn.max_pool(h, [1, 2, 2, 1], [1, 2, 2, 1], "SAME")
    h = tf.nn.relu(tf.nn.conv2d(h, w2, [1, 1, 1, 1], "SAME") + b2)
    h = tf.nn.max_pool(h, [1, 2, 2, 1], [1, 2, 2, 1], "SAME")
    h = tf.nn.relu(tf.matmul(tf.reshape(h, [-1, 7 * 7 * 64]), w3) + b3)
    logits = tf.matmul(h, w4) + b4
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=logits))
    train = tf.train.AdamOptimizer(LR, B1, B2, EPS).minimize(loss)
    return x, y, loss, train, [w1, b1, w2, b2, w3, b3, w4, b4]


# --------------------------------------------------------------------------------------
# NumPy by hand


def _im2col(x: np.ndarray, k: int) -> np.ndarray:
    """(N*H*W, k*k*C) columns of a SAME k x k convolution with stride 1."""
    p = k // 2
    xp = np.pad(x, ((0, 0), (p, p), (p, p), (0, 0)))
    n, h, w, c = x.shape
    s = xp.strides
    win = as_strided(xp, (n, h, w, k, k, c), (s[0], s[1], s[2], s[1], s[2], s[3]))
    return win.reshape(n * h * w, k * k * c)


def _col2im(dcols: np.ndarray, shape: tuple, k: int) -> np.ndarray:
    n, h, w, c = shape
    p = k // 2
    dxp = np.zeros((n, h + 2 * p, w + 2 * p, c), dcols.dtype)
    d = dcols.reshape(n, h, w, k, k, c)
    for i in range(k):
        for j in range(k):
            dxp[:, i:i + h, j:j + w] += d[:, :, :, i, j]
    return dxp[:, p:p + h, p:p + w]


def _pool(x: np.ndarray) -> tuple:
    """2x2 max-pool and the index of each window's first maximum (where its gradient goes)."""
    n, h, w, c = x.shape
    blocks = x.reshape(n, h // 2, 2, w // 2, 2, c).transpose(0, 1, 3, 5, 2, 4)
    blocks = blocks.reshape(n, h // 2, w // 2, c, 4)
    arg = blocks.argmax(axis=-1)[..., None]
    return np.take_along_axis(blocks, arg, axis=-1)[..., 0], arg


def _unpool(d: np.ndarray, arg: np.ndarray) -> np.ndarray:
    n, h, w, c = d.shape
    out = np.zeros((n, h, w, c, 4), d.dtype)
    np.put_along_axis(out, arg, d[..., None], axis=-1)
    return out.reshape(n, h, w, c, 2, 2).transpose(0, 1, 4, 2, 5, 3).reshape(n, 2 * h, 2 * w, c)


class NumpyCNN:
    """The same training step, forward and backward written out by hand."""

    def __init__(self, weights: list):
        self.p = [v.copy() for v in weights]
        self.m = [np.zeros_like(v) for v in weights]
        self.v = [np.zeros_like(v) for v in weights]
        self.t = 0

    def step(self, x: np.ndarray, y: np.ndarray) -> float:
        w1, b1, w2, b2, w3, b3, w4, b4 = self.p
        n = len(x)
        c1 = _im2col(x, 5)
        a1 = (c1 @ w1.reshape(25, 32)).reshape(n, 28, 28, 32) + b1
        p1, m1 = _pool(np.maximum(a1, 0))
        c2 = _im2col(p1, 5)
        a2 = (c2 @ w2.reshape(800, 64)).reshape(n, 14, 14, 64) + b2
        p2, m2 = _pool(np.maximum(a2, 0))
        f = p2.reshape(n, 3136)
        a3 = f @ w3 + b3
        h3 = np.maximum(a3, 0)
        logits = h3 @ w4 + b4
        z = logits - logits.max(axis=1, keepdims=True)
        e = np.exp(z)
        s = e.sum(axis=1, keepdims=True)
        loss = float(np.mean(np.log(s)[:, 0] - (y * z).sum(axis=1)))
        d4 = (e / s - y) / np.float32(n)
        d3 = (d4 @ w4.T) * (a3 > 0)
        d2 = _unpool((d3 @ w3.T).reshape(n, 7, 7, 64), m2) * (a2 > 0)
        d2r = d2.reshape(-1, 64)
        dp1 = _col2im(d2r @ w2.reshape(800, 64).T, (n, 14, 14, 32), 5)
        d1 = (_unpool(dp1, m1) * (a1 > 0)).reshape(-1, 32)
        grads = [(c1.T @ d1).reshape(w1.shape), d1.sum(0), (c2.T @ d2r).reshape(w2.shape),
                 d2r.sum(0), f.T @ d3, d3.sum(0), h3.T @ d4, d4.sum(0)]
        self.t += 1
        lr_t = np.float32(LR * np.sqrt(1 - B2 ** self.t) / (1 - B1 ** self.t))
        for i, g in enumerate(grads):
            self.m[i] += (g - self.m[i]) * np.float32(1 - B1)
            self.v[i] += (g * g - self.v[i]) * np.float32(1 - B2)
            self.p[i] -= lr_t * self.m[i] / (np.sqrt(self.v[i]) + np.float32(EPS))
        return loss


# --------------------------------------------------------------------------------------


def training_rounds(batches: list, rounds: int, thread_counts: list,
                    tf_python: str | None) -> tuple:
    """Seconds per training step, per thread count: lists of ``rounds`` samples for
    flowgrad, NumPy and TensorFlow (None where TensorFlow is not there), the three run one
    after another within each round so that all see the same machine load; and the largest
    difference between flowgrad's and NumPy's weights after one round.

    With T threads: flowgrad's intra-op threads (``tf.config.threading``) and its Session's
    ``inter_op_parallelism_threads`` are T, NumPy's BLAS pool has T threads
    (threadpoolctl), and TensorFlow's Session config has ``intra_op_parallelism_threads``
    and ``inter_op_parallelism_threads`` T. flowgrad's budget may use fewer BLAS threads
    when other processes keep cores busy (``flowgrad.framework.threads``)."""
    import threadpoolctl

    from flowgrad.framework import threads as fg_threads
    weights = initial_weights()
    out = {}
    diff = 0.0
    for t in thread_counts:
        fg_threads.set_intra_op_threads(t)
        with tf.Graph().as_default():
            x, y, loss, train, variables = flowgrad_model(weights)
            sess = tf.Session(config=tf.ConfigProto(inter_op_parallelism_threads=t))
            init = tf.global_variables_initializer()
            sess.run(init)
            sess.run(train, {x: batches[0][0], y: batches[0][1]})     # compile the plan

            def ours() -> None:
                sess.run(init)
                for bx, by in batches:
                    sess.run([train, loss], {x: bx, y: by})

            model = None

            def theirs() -> None:
                nonlocal model
                model = NumpyCNN(weights)
                with threadpoolctl.threadpool_limits(t, "blas"):
                    for bx, by in batches:
                        model.step(bx, by)

            child = TensorFlowChild(tf_python, __file__, {
                "x": np.stack([b[0] for b in batches]), "y": np.stack([b[1] for b in batches])},
                ["--threads", t]) if tf_python else None
            samples: tuple = ([], [], [])
            try:
                for _ in range(rounds):
                    samples[0].append(best_of(ours, 1) / len(batches))
                    samples[1].append(best_of(theirs, 1) / len(batches))
                    if child is not None and child.alive:
                        samples[2].append(child.round())
            finally:
                if child is not None:
                    child.close()
            final = sess.run(variables)
            sess.close()
        diff = max([diff] + [float(np.max(np.abs(a - b))) for a, b in zip(final, model.p)])
        out[t] = samples
    fg_threads.set_intra_op_threads(0)
    return out, diff


def kernel_alternatives(rounds: int = 9) -> None:
    """Times the convolution kernel variants the module docstring compares: the median
    thread CPU time (``time.thread_time``, less sensitive to other processes than the wall
    clock) of ``rounds`` calls, interleaved, with one BLAS thread."""
    import threadpoolctl
    rng = np.random.default_rng(0)
    with threadpoolctl.threadpool_limits(1, "blas"):
        for shape in (("conv2", (64, 14, 32, 64, 5)), ("conv1", (64, 28, 1, 32, 5))):
            _kernel_rows(rng, rounds, *shape)
        for shape in ((64, 16, 128, 128), (64, 8, 256, 256), (32, 28, 128, 128),
                      (64, 16, 64, 128), (64, 14, 32, 64)):
            _winograd_rows(rng, rounds, shape)


def _winograd_rows(rng: Any, rounds: int, shape: tuple) -> None:
    """3x3 SAME stride-1 convolutions (VGG/ResNet layers), float32: Conv2D and
    Conv2DBackpropInput through the direct kernels (im2col + GEMM, one GEMM per tap) and
    through Winograd F(2x2, 3x3), whatever ``conv_winograd.applies`` says."""
    from flowgrad.ops import conv_ops, conv_winograd
    n, h, c, o = shape
    x = rng.standard_normal((n, h, h, c)).astype(np.float32)
    w = rng.standard_normal((3, 3, c, o)).astype(np.float32)
    dy = rng.standard_normal((n, h, h, o)).astype(np.float32)
    attrs = dict(strides=[1, 1, 1, 1], dilations=[1, 1, 1, 1], padding="SAME",
                 data_format="NHWC", explicit_paddings=[])

    def direct(fn: Any) -> Any:
        def run() -> None:
            saved = conv_winograd.MIN_CHANNELS
            conv_winograd.MIN_CHANNELS = 1 << 30
            try:
                fn()
            finally:
                conv_winograd.MIN_CHANNELS = saved
        return run

    def winograd(fn: Any) -> Any:
        def run() -> None:
            saved = conv_winograd.MIN_CHANNELS
            conv_winograd.MIN_CHANNELS = 1
            try:
                fn()
            finally:
                conv_winograd.MIN_CHANNELS = saved
        return run
    fwd = lambda: conv_ops._conv2d_kernel(x, w, **attrs)    # noqa: E731
    bwd = lambda: conv_ops._conv2d_backprop_input_kernel(x.shape, w, dy, **attrs)  # noqa: E731
    rows = [("forward: direct (im2col + GEMM)", direct(fwd)),
            ("forward: Winograd F(2x2, 3x3)", winograd(fwd)),
            ("input grad: direct (one GEMM per tap)", direct(bwd)),
            ("input grad: Winograd F(2x2, 3x3)", winograd(bwd))]
    samples: dict = {label: [] for label, _ in rows}
    for _ in range(rounds):
        for label, fn in rows:
            t0 = time.thread_time()
            fn()
            samples[label].append(time.thread_time() - t0)
    print("3x3 SAME (N=%d, %dx%dx%d -> %d; Winograd by default: %s):"
          % (n, h, h, c, o, conv_winograd.applies(w.shape, w.dtype, (1, 1), (1, 1))))
    for label, _ in rows:
        print("  %-48s %7.1f ms" % (label, 1e3 * statistics.median(samples[label])))


def _chunked(n: int, per_example: int, fn: Any) -> Any:
    """``fn(batch slice)`` over chunks of about 2 MB of columns (conv_ops' cached chunks)."""
    step = max(1, (1 << 19) // per_example)
    return lambda: [fn(slice(b, b + step)) for b in range(0, n, step)]


def _kernel_rows(rng: Any, rounds: int, name: str, shape: tuple) -> None:
    n, h, c, o, k = shape
    p = k // 2
    x = rng.standard_normal((n, h, h, c)).astype(np.float32)
    w = rng.standard_normal((k, k, c, o)).astype(np.float32)
    dy = rng.standard_normal((n, h, h, o)).astype(np.float32).reshape(-1, o)
    xp = np.pad(x, ((0, 0), (p, p), (p, p), (0, 0)))
    s = xp.strides
    win = as_strided(xp, (n, h, h, k, k, c), (s[0], s[1], s[2], s[1], s[2], s[3]))
    swv = sliding_window_view(xp, (k, k), axis=(1, 2))
    wc = w.transpose(2, 0, 1, 3).reshape(-1, o).copy()
    w2 = w.reshape(-1, o)
    buf = np.empty(win.shape, np.float32)
    buf_t = np.empty((k, k, c, n, h, h), np.float32)
    m, per = n * h * h, h * h * k * k * c
    taps = [(i, j) for i in range(k) for j in range(k)]
    rows_of = h * h                     # rows of the column matrix per example

    def fwd_buffer() -> None:
        np.copyto(buf, win)
        buf.reshape(m, -1) @ w2

    def fwd_chunk(b: slice) -> None:
        np.copyto(buf[b], win[b])
        buf[b].reshape(-1, k * k * c) @ w2

    def fwd_taps() -> None:
        out = np.zeros((m, o), np.float32)
        for i, j in taps:
            out += np.ascontiguousarray(xp[:, i:i + h, j:j + h]).reshape(-1, c) @ w[i, j]

    def in_col2im() -> None:
        _col2im(dy @ w2.T, x.shape, k)

    def in_taps() -> None:
        dxp = np.zeros(xp.shape, np.float32)
        for i, j in taps:
            dxp[:, i:i + h, j:j + h] += (dy @ w[i, j].T).reshape(n, h, h, c)

    def in_taps_chunk(b: slice) -> None:
        dxp = np.zeros(xp[b].shape, np.float32)
        d = dy[b.start * rows_of:b.stop * rows_of]
        for i, j in taps:
            dxp[:, i:i + h, j:j + h] += (d @ w[i, j].T).reshape(-1, h, h, c)

    def filt_cols() -> None:
        np.copyto(buf, win)
        buf.reshape(m, -1).T @ dy

    def filt_cols_chunk(b: slice) -> None:
        np.copyto(buf[b], win[b])
        buf[b].reshape(-1, k * k * c).T @ dy[b.start * rows_of:b.stop * rows_of]

    def filt_cols_t() -> None:
        np.copyto(buf_t, win.transpose(3, 4, 5, 0, 1, 2))
        buf_t.reshape(-1, m) @ dy

    def filt_taps() -> None:
        for i, j in taps:
            np.ascontiguousarray(xp[:, i:i + h, j:j + h]).reshape(-1, c).T @ dy

    rows = [
        ("forward: im2col into a reused buffer + GEMM", fwd_buffer),
        ("forward: the same in 2 MB batch chunks", _chunked(n, per, fwd_chunk)),
        ("forward: im2col by reshape (new array) + GEMM", lambda: win.reshape(m, -1) @ w2),
        ("forward: sliding_window_view + GEMM", lambda: swv.reshape(m, -1) @ wc),
        ("forward: np.tensordot on the window view",
         lambda: np.tensordot(win, w, axes=([3, 4, 5], [0, 1, 2]))),
        ("forward: np.einsum(optimize=True)",
         lambda: np.einsum("nhwijc,ijco->nhwo", win, w, optimize=True)),
        ("forward: one GEMM per tap, accumulated", fwd_taps),
        ("input grad: GEMM to columns + col2im", in_col2im),
        ("input grad: one GEMM per tap, added in place", in_taps),
        ("input grad: the same in batch chunks", _chunked(n, h * h * (c + o), in_taps_chunk)),
        ("filter grad: columns.T @ dy (one GEMM)", filt_cols),
        ("filter grad: the same in 2 MB batch chunks", _chunked(n, per, filt_cols_chunk)),
        ("filter grad: transposed columns @ dy", filt_cols_t),
        ("filter grad: one GEMM per tap", filt_taps),
    ]
    samples: dict = {label: [] for label, _ in rows}
    for _ in range(rounds):
        for label, fn in rows:
            t0 = time.thread_time()
            fn()
            samples[label].append(time.thread_time() - t0)
    print("%s (N=%d, %dx%dx%d -> %d, %dx%d):" % (name, n, h, h, c, o, k, k))
    for label, _ in rows:
        print("  %-48s %7.1f ms" % (label, 1e3 * statistics.median(samples[label])))


def tensorflow_session(batches: list, threads: int) -> Any:
    """The same training step in TensorFlow (``tf.compat.v1`` graph mode, the same weights
    and batches, ``threads`` intra- and inter-op threads): a function running one round and
    returning seconds per step. Runs in the child process (``--as-tensorflow``)."""
    import tensorflow.compat.v1 as tft
    tft.disable_v2_behavior()
    weights = initial_weights()
    x = tft.placeholder(tft.float32, [None, 28, 28, 1])
    y = tft.placeholder(tft.float32, [None, 10])
    w1, b1, w2, b2, w3, b3, w4, b4 = [tft.Variable(v) for v in weights]
    h = tft.nn.relu(tft.nn.conv2d(x, w1, [1, 1, 1, 1], "SAME") + b1)
    h = tft.nn.max_pool(h, [1, 2, 2, 1], [1, 2, 2, 1], "SAME")
    h = tft.nn.relu(tft.nn.conv2d(h, w2, [1, 1, 1, 1], "SAME") + b2)
    h = tft.nn.max_pool(h, [1, 2, 2, 1], [1, 2, 2, 1], "SAME")
    h = tft.nn.relu(tft.matmul(tft.reshape(h, [-1, 7 * 7 * 64]), w3) + b3)
    logits = tft.matmul(h, w4) + b4
    loss = tft.reduce_mean(tft.nn.softmax_cross_entropy_with_logits_v2(labels=y,
                                                                       logits=logits))
    train = tft.train.AdamOptimizer(LR, B1, B2, EPS).minimize(loss)
    sess = tft.Session(config=tft.ConfigProto(intra_op_parallelism_threads=threads,
                                              inter_op_parallelism_threads=threads))
    init = tft.global_variables_initializer()
    sess.run(init)
    sess.run(train, {x: batches[0][0], y: batches[0][1]})

    def one_round() -> float:
        sess.run(init)
        t0 = time.perf_counter()
        for bx, by in batches:
            sess.run([train, loss], {x: bx, y: by})
        return (time.perf_counter() - t0) / len(batches)
    return one_round


def serve_tensorflow(npz: str, threads: int) -> None:
    """The child's side: one round of the training step per "run" line on stdin."""
    data = np.load(npz)
    serve({"run": tensorflow_session(list(zip(data["x"], data["y"])), threads)})


def _median(samples: list) -> float:
    return statistics.median(samples) if samples else float("nan")


def print_comparison(results: dict, markdown: bool) -> None:
    """The table: per thread count, the medians of flowgrad, NumPy and TensorFlow, and
    flowgrad's ratios to the other two."""
    head = ("threads", "flowgrad", "NumPy", "TensorFlow", "flowgrad/NumPy", "flowgrad/TF")
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
    else:
        print("%-8s %10s %10s %11s %15s %12s" % head)
    for t, (ours, numpy_, tf_) in results.items():
        a, b, c = _median(ours), _median(numpy_), _median(tf_)
        cells = (str(t), "%.0f ms" % (1e3 * a), "%.0f ms" % (1e3 * b),
                 "%.0f ms" % (1e3 * c) if tf_ else "-", "%.2fx" % (a / b),
                 "%.2fx" % (a / c) if tf_ else "-")
        if markdown:
            print("| " + " | ".join(cells) + " |")
        else:
            print("%-8s %10s %10s %11s %15s %12s" % cells)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=10, help="training steps per round")
    ap.add_argument("--repeat", type=int, default=5, help="rounds; the medians are reported")
    ap.add_argument("--threads", default="1,2",
                    help="comma-separated thread counts to compare at (default 1,2)")
    ap.add_argument("--kernels", action="store_true",
                    help="also time the convolution kernel alternatives")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    ap.add_argument("--tensorflow", default="/work/venv-tf/bin/python",
                    help="a Python with TensorFlow to time the same step in ('' to skip)")
    ap.add_argument("--as-tensorflow", metavar="NPZ", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.as_tensorflow:
        serve_tensorflow(args.as_tensorflow, int(args.threads))
        return
    tf.disable_v2_behavior()
    if args.kernels:
        kernel_alternatives()
    t0 = time.perf_counter()
    load = os.getloadavg()[0]
    batches = image_batches(args.steps)
    results, diff = training_rounds(batches, args.repeat,
                                    [int(t) for t in args.threads.split(",")],
                                    args.tensorflow or None)
    print("W5 CNN training step, Adam, batch 64: medians of %d rounds of %d steps"
          % (args.repeat, args.steps))
    print_comparison(results, args.markdown)
    print("BLAS: %s; TensorFlow: %s" % (_blas_threads(), args.tensorflow or "skipped"))
    print("largest weight difference flowgrad - NumPy after %d steps: %.2e" % (args.steps, diff))
    print("load average %.1f at the start, %.1f at the end (%.0f s in all)"
          % (load, os.getloadavg()[0], time.perf_counter() - t0))


def _blas_threads() -> str:
    try:
        import threadpoolctl
    except ImportError:
        return "threadpoolctl not installed"
    return ", ".join("%s %s %s: %d" % (i["internal_api"], i["version"], i.get("architecture"),
                                       i["num_threads"])
                     for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas")


if __name__ == "__main__":
    main()
