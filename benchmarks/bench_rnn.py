"""LSTM speed: forward + backward of 28 steps (batch 64, 128 units, 28 inputs: MNIST rows)
against the same LSTM hand-written in NumPy (forward, then backpropagation through time)
and TensorFlow 2.21, timed in the same run at equal thread budgets.

Run:  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python benchmarks/bench_rnn.py
          [--repeat N] [--threads 1,2] [--markdown] [--tensorflow PY]

Rows (each computes the gradients of sum(h_T * R) w.r.t. the kernel and the bias):
  * ``tf.nn.dynamic_rnn`` + ``BasicLSTMCell``, ``tf.gradients``, Session (one While op);
  * ``tf.nn.static_rnn`` (the same cell unrolled into 28 copies in the graph);
  * ``keras.layers.LSTM`` with ``GradientTape`` inside a ``tf.function`` (While op);
  * ``keras.layers.LSTM`` with ``GradientTape``, eager (a Python loop over time);
  * 20 training steps (``dynamic_rnn``, GradientDescent on the kernel and bias) against the
    NumPy BPTT with the same update;
  * ``keras.layers.GRU`` (Keras 3's, ``reset_after=True``) with ``GradientTape`` inside a
    ``tf.function``, against a hand-written NumPy GRU BPTT of the same formula and
    TensorFlow's Keras GRU (gradients of sum(h_T * R) w.r.t. its kernel, recurrent kernel
    and bias).
The gradients are checked against NumPy's before timing. With TensorFlow installed for
``PY`` (default /work/venv-tf/bin/python, skipped when absent), its Keras LSTM is timed in a
``tf.function`` (forward + backward, and the 20 steps in one ``tf.function``; TensorFlow 2.21
with Keras 3 has no BasicLSTMCell, the Keras layer runs the same GEMMs and gates) in a
child process that runs one round right after each round of flowgrad's and NumPy's rows.

Threads: with T threads (each count of ``--threads`` in turn) flowgrad's intra-op threads
(``tf.config.threading``) and its Sessions' inter-op threads are T, NumPy's BLAS pool has
T threads (threadpoolctl), and TensorFlow's ``tf.config.threading`` intra- and inter-op
threads are T. Do not set ``OPENBLAS_NUM_THREADS``: it caps flowgrad's budget and NumPy's
pool below T. Each figure is the median over ``--repeat`` rounds of the best of three
calls (one call for the 20 steps) in that round.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Callable

import numpy as np
from tf_child import TensorFlowChild, serve

import flowgrad
import flowgrad.compat.v1 as tf

BATCH, STEPS, DEPTH, UNITS = 64, 28, 28, 128
TRAIN_STEPS = 20


def fastest(fn: Callable[[], object], calls: int) -> float:
    """The shortest wall time of ``calls`` calls of fn (already warmed up)."""
    best = float("inf")
    for _ in range(calls):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-x))


def numpy_lstm_grads(x: np.ndarray, kernel: np.ndarray, bias: np.ndarray,
                     r: np.ndarray) -> tuple:
    """d sum(h_T * r) / d (kernel, bias) of TF's BasicLSTMCell (gates i, j, f, o)."""
    n = UNITS
    h = np.zeros((BATCH, n), np.float32)
    c = np.zeros((BATCH, n), np.float32)
    cache = []
    for t in range(STEPS):
        xh = np.concatenate([x[:, t], h], 1)
        z = xh @ kernel + bias
        si, tj = _sigmoid(z[:, :n]), np.tanh(z[:, n:2 * n])
        sf, so = _sigmoid(z[:, 2 * n:3 * n] + 1.0), _sigmoid(z[:, 3 * n:])
        c_prev = c
        c = c * sf + si * tj
        tc = np.tanh(c)
        h = tc * so
        cache.append((xh, si, tj, sf, so, c_prev, tc))
    dk = np.zeros_like(kernel)
    db = np.zeros_like(bias)
    dh, dc = r, np.zeros_like(c)
    for xh, si, tj, sf, so, c_prev, tc in reversed(cache):
        do = dh * tc
        dc = dc + dh * so * (1 - tc * tc)
        dz = np.concatenate([dc * tj * si * (1 - si), dc * si * (1 - tj * tj),
                             dc * c_prev * sf * (1 - sf), do * so * (1 - so)], 1)
        dk += xh.T @ dz
        db += dz.sum(0)
        dh = (dz @ kernel.T)[:, DEPTH:]
        dc = dc * sf
    return dk, db


def numpy_gru_grads(x: np.ndarray, kernel: np.ndarray, rkernel: np.ndarray, bias: np.ndarray,
                    r: np.ndarray) -> tuple:
    """d sum(h_T * r) / d (kernel, recurrent kernel, bias) of Keras 3's GRU (gates z, r, h;
    ``reset_after=True``: bias[0] is the input bias, bias[1] the recurrent one)."""
    n = UNITS
    h = np.zeros((BATCH, n), np.float32)
    cache = []
    for t in range(STEPS):
        xt = x[:, t]
        mx = xt @ kernel + bias[0]
        mi = h @ rkernel + bias[1]
        z = _sigmoid(mx[:, :n] + mi[:, :n])
        rr = _sigmoid(mx[:, n:2 * n] + mi[:, n:2 * n])
        hh = np.tanh(mx[:, 2 * n:] + rr * mi[:, 2 * n:])
        cache.append((xt, h, z, rr, hh, mi[:, 2 * n:]))
        h = z * h + (1 - z) * hh
    dk, drk, db = np.zeros_like(kernel), np.zeros_like(rkernel), np.zeros_like(bias)
    dh = r
    for xt, h_prev, z, rr, hh, rh in reversed(cache):
        da_h = dh * (1 - z) * (1 - hh * hh)
        da_z = dh * (h_prev - hh) * z * (1 - z)
        da_r = da_h * rh * rr * (1 - rr)
        dmx = np.concatenate([da_z, da_r, da_h], 1)
        dmi = np.concatenate([da_z, da_r, da_h * rr], 1)
        dk += xt.T @ dmx
        drk += h_prev.T @ dmi
        db[0] += dmx.sum(0)
        db[1] += dmi.sum(0)
        dh = dh * z + dmi @ rkernel.T
    return dk, drk, db


def keras_gru(layer_module: object, gru_weights: list, x: np.ndarray,
              r: np.ndarray) -> Callable[[], list]:
    """Forward + backward of a Keras GRU(UNITS) in a ``tf.function`` of ``layer_module``
    (flowgrad, or TensorFlow in the child)."""
    tfm = layer_module
    layer = tfm.keras.layers.GRU(UNITS)
    layer(x[:1])
    layer.set_weights(gru_weights)
    xt, rt = tfm.constant(x), tfm.constant(r)

    @tfm.function
    def grads() -> list:
        with tfm.GradientTape() as tape:
            loss = tfm.reduce_sum(layer(xt) * rt)
        return tape.gradient(loss, layer.trainable_variables)
    return lambda: [g.numpy() for g in grads()]


def make_data() -> dict:
    """The inputs, the LSTM's kernel and bias, R, and the GRU's weights (seeded)."""
    rng = np.random.RandomState(0)
    x = rng.rand(BATCH, STEPS, DEPTH).astype(np.float32)
    lim = np.sqrt(6 / (DEPTH + UNITS + 4 * UNITS))
    kernel = rng.uniform(-lim, lim, (DEPTH + UNITS, 4 * UNITS)).astype(np.float32)
    bias = (rng.randn(4 * UNITS) * 0.1).astype(np.float32)
    r = rng.randn(BATCH, UNITS).astype(np.float32)
    lim = np.sqrt(6 / (DEPTH + 3 * UNITS))
    return {"x": x, "kernel": kernel, "bias": bias, "r": r,
            "gru_kernel": rng.uniform(-lim, lim, (DEPTH, 3 * UNITS)).astype(np.float32),
            "gru_rkernel": (rng.randn(UNITS, 3 * UNITS) * 0.08).astype(np.float32),
            "gru_bias": (rng.randn(2, 3 * UNITS) * 0.1).astype(np.float32)}


def gru_weights(data: dict) -> list:
    return [data["gru_kernel"], data["gru_rkernel"], data["gru_bias"]]


def tf1_lstm(x: np.ndarray, kernel: np.ndarray, bias: np.ndarray, r: np.ndarray,
             static: bool, threads: int = 0) -> tuple[Callable[[], list], list]:
    g = tf.Graph()
    with g.as_default():
        inputs = tf.placeholder(tf.float32, [BATCH, STEPS, DEPTH])
        cell = tf.nn.rnn_cell.BasicLSTMCell(UNITS)
        if static:
            _, state = tf.nn.static_rnn(cell, tf.unstack(inputs, axis=1), dtype=tf.float32)
        else:
            _, state = tf.nn.dynamic_rnn(cell, inputs, dtype=tf.float32)
        loss = tf.reduce_sum(state.h * r)
        variables = tf.trainable_variables()
        grads = tf.gradients(loss, variables)
        sess = tf.Session(config=tf.ConfigProto(inter_op_parallelism_threads=threads))
        for v, value in zip(variables, (kernel, bias)):
            v.load(value, sess)
    return lambda: sess.run(grads, {inputs: x}), variables


def tf1_training(x: np.ndarray, kernel: np.ndarray, bias: np.ndarray, r: np.ndarray,
                 threads: int = 0) -> Callable[[], None]:
    """20 GradientDescent steps of the ``dynamic_rnn`` LSTM on sum(h_T * r)."""
    tfm = tf
    g = tfm.Graph()
    with g.as_default():
        inputs = tfm.placeholder(tfm.float32, [BATCH, STEPS, DEPTH])
        cell = tfm.nn.rnn_cell.BasicLSTMCell(UNITS)
        _, state = tfm.nn.dynamic_rnn(cell, inputs, dtype=tfm.float32)
        loss = tfm.reduce_sum(state.h * r)
        train = tfm.train.GradientDescentOptimizer(1e-4).minimize(loss)
        sess = tfm.Session(config=tfm.ConfigProto(inter_op_parallelism_threads=threads))
        sess.run(tfm.global_variables_initializer())
        for v, value in zip(tfm.trainable_variables(), (kernel, bias)):
            v.load(value, sess)

    def run() -> None:
        for _ in range(TRAIN_STEPS):
            sess.run(train, {inputs: x})
    return run


def numpy_training(x: np.ndarray, kernel: np.ndarray, bias: np.ndarray,
                   r: np.ndarray) -> None:
    """The same 20 GradientDescent steps in NumPy (BPTT)."""
    kernel, bias = kernel.copy(), bias.copy()
    for _ in range(TRAIN_STEPS):
        dk, db = numpy_lstm_grads(x, kernel, bias, r)
        kernel -= np.float32(1e-4) * dk
        bias -= np.float32(1e-4) * db


def tensorflow_rounds(x: np.ndarray, kernel: np.ndarray, bias: np.ndarray, r: np.ndarray,
                      threads: int, gru_weights: list) -> dict:
    """TensorFlow's Keras LSTM in a ``tf.function`` (TF 2.21 with Keras 3 has no
    BasicLSTMCell; the Keras layer runs the same GEMMs and gates), ``threads`` intra- and
    inter-op threads: {"pass": seconds of the best of three forward+backward passes,
    "train": seconds of 20 GradientDescent steps, "gru": the best of three passes of the
    Keras GRU}. Runs in the child process."""
    import tensorflow as tft
    tft.config.threading.set_intra_op_parallelism_threads(threads)
    tft.config.threading.set_inter_op_parallelism_threads(threads)
    layer = tft.keras.layers.LSTM(UNITS)
    layer(x[:1])
    layer.set_weights([kernel[:DEPTH], kernel[DEPTH:], bias])
    xt, rt = tft.constant(x), tft.constant(r)

    @tft.function
    def grads() -> list:
        with tft.GradientTape() as tape:
            loss = tft.reduce_sum(layer(xt) * rt)
        return tape.gradient(loss, layer.trainable_variables)

    @tft.function
    def train() -> None:
        for _ in tft.range(TRAIN_STEPS):
            for v, g in zip(layer.trainable_variables, grads()):
                v.assign_sub(1e-4 * g)
    grads()
    train()         # traced and warmed up
    gru = keras_gru(tft, gru_weights, x, r)
    gru()
    return {"pass": lambda: fastest(lambda: [g.numpy() for g in grads()], 3),
            "train": lambda: fastest(train, 1), "gru": lambda: fastest(gru, 3)}


def keras_lstm(x: np.ndarray, kernel: np.ndarray, bias: np.ndarray, r: np.ndarray,
               compiled: bool) -> Callable[[], list]:
    """Keras's LSTM with TF's gate order mapped (i, j, f, o -> i, f, c, o; forget bias + 1)."""
    flowgrad.compat.v1.enable_v2_behavior()
    layer = flowgrad.keras.layers.LSTM(UNITS, unit_forget_bias=False)
    layer(x[:1])
    n = UNITS
    i, j, f, o = (slice(k * n, (k + 1) * n) for k in range(4))
    k_ifco = np.concatenate([kernel[:, i], kernel[:, f], kernel[:, j], kernel[:, o]], 1)
    b_ifco = np.concatenate([bias[i], bias[f] + 1.0, bias[j], bias[o]])
    layer.set_weights([k_ifco[:DEPTH], k_ifco[DEPTH:], b_ifco])
    xt, rt = flowgrad.constant(x), flowgrad.constant(r)

    def step(inp: object) -> list:
        with flowgrad.GradientTape() as tape:
            loss = flowgrad.reduce_sum(layer(inp) * rt)
        return tape.gradient(loss, layer.trainable_variables)
    fn = flowgrad.function(step) if compiled else step
    return lambda: [g.numpy() for g in fn(xt)]


def _median(samples: list) -> float:
    return statistics.median(samples) if samples else float("nan")


def rounds_at(threads: int, args: argparse.Namespace, data: dict, want: tuple) -> list:
    """(row name, flowgrad samples, NumPy samples, TensorFlow samples) at ``threads``
    threads for all contestants, interleaved round by round."""
    import threadpoolctl

    from flowgrad.framework import threads as fg_threads
    fg_threads.set_intra_op_threads(threads)
    x, kernel, bias, r = data["x"], data["kernel"], data["bias"], data["r"]
    fns = []
    for name, static in (("dynamic_rnn + tf.gradients (Session)", False),
                         ("static_rnn (unrolled) + tf.gradients", True)):
        run, _ = tf1_lstm(x, kernel, bias, r, static, threads)
        for got, ref in zip(run(), want):
            np.testing.assert_allclose(got, ref, rtol=2e-3, atol=2e-4)
        fns.append((name, run))
    for name, compiled in (("keras LSTM, GradientTape in tf.function", True),
                           ("keras LSTM, GradientTape, eager", False)):
        run = keras_lstm(x, kernel, bias, r, compiled)
        dk, _, db = run()
        np.testing.assert_allclose(np.concatenate([dk, _], 0)[:, :UNITS], want[0][:, :UNITS],
                                   rtol=2e-3, atol=2e-4)
        np.testing.assert_allclose(db[:UNITS], want[1][:UNITS], rtol=2e-3, atol=2e-4)
        fns.append((name, run))
    train = tf1_training(x, kernel, bias, r, threads)
    train()
    gru = keras_gru(flowgrad, gru_weights(data), x, r)
    for got, ref in zip(gru(), numpy_gru_grads(x, *gru_weights(data), r)):
        np.testing.assert_allclose(got, ref, rtol=2e-3, atol=2e-4)
    child = TensorFlowChild(args.tensorflow, __file__, data, ["--threads", threads]) \
        if args.tensorflow else None
    rows = [(name, [], [], []) for name, _ in fns] + \
        [("keras GRU, GradientTape in tf.function", [], [], []),
         ("dynamic_rnn, %d GradientDescent steps" % TRAIN_STEPS, [], [], [])]
    try:
        for _ in range(args.repeat):
            for row, (_, run) in zip(rows, fns):
                row[1].append(fastest(run, 3))
            rows[-2][1].append(fastest(gru, 3))
            rows[-1][1].append(fastest(train, 1))
            with threadpoolctl.threadpool_limits(threads, "blas"):
                t_pass = fastest(lambda: numpy_lstm_grads(x, kernel, bias, r), 3)
                rows[-2][2].append(fastest(lambda: numpy_gru_grads(
                    x, *gru_weights(data), r), 3))
                t_train = fastest(lambda: numpy_training(x, kernel, bias, r), 1)
            for row in rows[:-2]:
                row[2].append(t_pass)
            rows[-1][2].append(t_train)
            if child is not None and child.alive:
                t_tf = child.round("pass")
                for row in rows[:-2]:
                    row[3].append(t_tf)
                rows[-2][3].append(child.round("gru"))
                rows[-1][3].append(child.round("train"))
    finally:
        if child is not None:
            child.close()
        fg_threads.set_intra_op_threads(0)
    return rows


def print_table(results: dict, markdown: bool) -> None:
    """Per thread count and row: the medians of flowgrad, NumPy and TensorFlow, and
    flowgrad's ratios to the other two."""
    head = ("threads", "row", "flowgrad", "NumPy", "TensorFlow", "flowgrad/NumPy",
            "flowgrad/TF")
    fmt = "%-7s %-42s %10s %10s %10s %14s %11s"
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
    else:
        print(fmt % head)
    for t, rows in results.items():
        for name, ours, theirs, tfs in rows:
            a, b, c = _median(ours), _median(theirs), _median(tfs)
            cells = (str(t), name, "%.1f ms" % (1e3 * a), "%.1f ms" % (1e3 * b),
                     "%.1f ms" % (1e3 * c) if tfs else "-", "%.2fx" % (a / b),
                     "%.2fx" % (a / c) if tfs else "-")
            print("| " + " | ".join(cells) + " |" if markdown else fmt % cells)


def main() -> None:
    parser = argparse.ArgumentParser(description="LSTM forward+backward vs NumPy and TF")
    parser.add_argument("--repeat", type=int, default=5, help="rounds; medians reported")
    parser.add_argument("--threads", default="1,2",
                        help="comma-separated thread counts to compare at (default 1,2)")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    parser.add_argument("--tensorflow", default="/work/venv-tf/bin/python",
                        help="a Python with TensorFlow to time its LSTM in ('' to skip)")
    parser.add_argument("--as-tensorflow", metavar="NPZ", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.as_tensorflow:
        data = np.load(args.as_tensorflow)
        serve(tensorflow_rounds(data["x"], data["kernel"], data["bias"], data["r"],
                                int(args.threads), gru_weights(data)))
        return
    t0 = time.perf_counter()
    load = os.getloadavg()[0]
    data = make_data()
    want = numpy_lstm_grads(data["x"], data["kernel"], data["bias"], data["r"])
    results = {t: rounds_at(t, args, data, want) for t in
               [int(t) for t in args.threads.split(",")]}
    print("LSTM forward+backward: batch %d, %d units, %d steps of %d inputs; medians of %d "
          "rounds" % (BATCH, UNITS, STEPS, DEPTH, args.repeat))
    print_table(results, args.markdown)
    print("TensorFlow: %s; load average %.1f at the start, %.1f at the end (%.0f s in all)"
          % (args.tensorflow or "skipped", load, os.getloadavg()[0], time.perf_counter() - t0))


if __name__ == "__main__":
    main()
