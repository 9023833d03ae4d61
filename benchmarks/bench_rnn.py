"""LSTM speed: forward + backward of 28 steps (batch 64, 128 units, 28 inputs: MNIST rows)
against the same LSTM hand-written in NumPy (forward, then backpropagation through time),
timed in the same run.

Run:  python benchmarks/bench_rnn.py [--repeat N] [--tensorflow PY]

Rows (each computes the gradients of sum(h_T * R) w.r.t. the kernel and the bias):
  * ``tf.nn.dynamic_rnn`` + ``BasicLSTMCell``, ``tf.gradients``, Session (one While op);
  * ``tf.nn.static_rnn`` (the same cell unrolled into 28 copies in the graph);
  * ``keras.layers.LSTM`` with ``GradientTape`` inside a ``tf.function`` (While op);
  * ``keras.layers.LSTM`` with ``GradientTape``, eager (a Python loop over time).
The gradients are checked against NumPy's before timing. A last row times 20 training
steps (``dynamic_rnn``, GradientDescent on the kernel and bias) against the NumPy BPTT with
the same update; with TensorFlow installed for ``PY`` (default /work/venv-tf/bin/python,
skipped when absent) its Keras LSTM is timed in a ``tf.function`` there too (the same GEMMs
and gates; TensorFlow 2.21 with Keras 3 has no BasicLSTMCell), in a child process.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import tempfile
import time
from typing import Callable

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matmuls: threads only add noise

import numpy as np  # noqa: E402

import flowgrad  # noqa: E402
import flowgrad.compat.v1 as tf  # noqa: E402

BATCH, STEPS, DEPTH, UNITS = 64, 28, 28, 128
TRAIN_STEPS = 20


def best_of(fn: Callable[[], object], repeat: int) -> float:
    """Best wall time of one call of fn over ``repeat`` rounds (after one warm-up call)."""
    fn()
    best = float("inf")
    for _ in range(repeat):
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


def tf1_lstm(x: np.ndarray, kernel: np.ndarray, bias: np.ndarray, r: np.ndarray,
             static: bool) -> tuple[Callable[[], list], list]:
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
        sess = tf.Session()
        for v, value in zip(variables, (kernel, bias)):
            v.load(value, sess)
    return lambda: sess.run(grads, {inputs: x}), variables


def tf1_training(x: np.ndarray, kernel: np.ndarray, bias: np.ndarray, r: np.ndarray,
                 tfm: object = tf) -> Callable[[], None]:
    """20 GradientDescent steps of the ``dynamic_rnn`` LSTM on sum(h_T * r), in the TF1 API
    of ``tfm`` (flowgrad's, or TensorFlow's in the child process)."""
    g = tfm.Graph()
    with g.as_default():
        inputs = tfm.placeholder(tfm.float32, [BATCH, STEPS, DEPTH])
        cell = tfm.nn.rnn_cell.BasicLSTMCell(UNITS)
        _, state = tfm.nn.dynamic_rnn(cell, inputs, dtype=tfm.float32)
        loss = tfm.reduce_sum(state.h * r)
        train = tfm.train.GradientDescentOptimizer(1e-4).minimize(loss)
        sess = tfm.Session()
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


def tensorflow_rows(x: np.ndarray, kernel: np.ndarray, bias: np.ndarray, r: np.ndarray,
                    repeat: int) -> list:
    """(forward+backward, 20 training steps) seconds of TensorFlow's Keras LSTM (TF 2.21
    with Keras 3 has no BasicLSTMCell) in a ``tf.function``: the same GEMMs and gates."""
    import tensorflow as tft
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
    return [best_of(lambda: [g.numpy() for g in grads()], repeat),
            best_of(lambda: train(), repeat)]


def tensorflow_in_child(python: str, arrays: dict, repeat: int) -> list | None:
    """``tensorflow_rows`` run by ``python`` in a child process; None where it is missing."""
    if not os.path.exists(python):
        return None
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "lstm.npz")
        np.savez(path, **arrays)
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3",
                   PYTHONPATH=os.pathsep.join([os.path.dirname(os.path.dirname(
                       os.path.abspath(__file__))), os.environ.get("PYTHONPATH", "")]))
        done = subprocess.run([python, os.path.abspath(__file__), "--as-tensorflow", path,
                               "--repeat", str(repeat)], capture_output=True, text=True,
                              env=env)
    if done.returncode:
        print("TensorFlow skipped: %s" % (done.stderr.strip().splitlines() or ["?"])[-1])
        return None
    return [float(v) for v in done.stdout.split()[-2:]]


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


def main() -> None:
    parser = argparse.ArgumentParser(description="LSTM forward+backward vs NumPy")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--tensorflow", default="/work/venv-tf/bin/python",
                        help="a Python with TensorFlow to time its LSTM in ('' to skip)")
    parser.add_argument("--as-tensorflow", metavar="NPZ", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.as_tensorflow:
        data = np.load(args.as_tensorflow)
        print(*tensorflow_rows(data["x"], data["kernel"], data["bias"], data["r"], args.repeat))
        return
    rng = np.random.RandomState(0)
    x = rng.rand(BATCH, STEPS, DEPTH).astype(np.float32)
    lim = np.sqrt(6 / (DEPTH + UNITS + 4 * UNITS))
    kernel = rng.uniform(-lim, lim, (DEPTH + UNITS, 4 * UNITS)).astype(np.float32)
    bias = (rng.randn(4 * UNITS) * 0.1).astype(np.float32)
    r = rng.randn(BATCH, UNITS).astype(np.float32)
    want = numpy_lstm_grads(x, kernel, bias, r)
    t_numpy = best_of(lambda: numpy_lstm_grads(x, kernel, bias, r), args.repeat)

    rows = []
    for name, static in (("dynamic_rnn + tf.gradients (Session)", False),
                         ("static_rnn (unrolled) + tf.gradients", True)):
        run, _ = tf1_lstm(x, kernel, bias, r, static)
        for got, ref in zip(run(), want):
            np.testing.assert_allclose(got, ref, rtol=2e-3, atol=2e-4)
        rows.append((name, best_of(run, args.repeat)))
    for name, compiled in (("keras LSTM, GradientTape in tf.function", True),
                           ("keras LSTM, GradientTape, eager", False)):
        run = keras_lstm(x, kernel, bias, r, compiled)
        dk, _, db = run()
        np.testing.assert_allclose(np.concatenate([dk, _], 0)[:, :UNITS], want[0][:, :UNITS],
                                   rtol=2e-3, atol=2e-4)
        np.testing.assert_allclose(db[:UNITS], want[1][:UNITS], rtol=2e-3, atol=2e-4)
        rows.append((name, best_of(run, args.repeat)))

    t_train = best_of(tf1_training(x, kernel, bias, r), args.repeat)
    t_numpy_train = best_of(lambda: numpy_training(x, kernel, bias, r), args.repeat)
    t_tf = tensorflow_in_child(args.tensorflow, {"x": x, "kernel": kernel, "bias": bias,
                                                 "r": r}, args.repeat) \
        if args.tensorflow else None

    print("LSTM forward+backward: batch %d, %d units, %d steps of %d inputs; best of %d"
          % (BATCH, UNITS, STEPS, DEPTH, args.repeat))
    print("%-44s %11s %11s %7s %14s" % ("", "flowgrad", "NumPy", "ratio", "extra/step"))
    for name, t in rows:
        print("%-44s %8.2f ms %8.2f ms %6.2fx %11.0f us"
              % (name, t * 1e3, t_numpy * 1e3, t / t_numpy, (t - t_numpy) / STEPS * 1e6))
    name = "dynamic_rnn, %d GradientDescent steps" % TRAIN_STEPS
    print("%-44s %8.2f ms %8.2f ms %6.2fx" % (name, t_train * 1e3, t_numpy_train * 1e3,
                                              t_train / t_numpy_train))
    if t_tf is not None:
        print("TensorFlow Keras LSTM in tf.function (%s): forward+backward %.2f ms "
              "(flowgrad %.2fx), %d steps %.2f ms (flowgrad %.2fx)"
              % (args.tensorflow, t_tf[0] * 1e3, rows[0][1] / t_tf[0], TRAIN_STEPS,
                 t_tf[1] * 1e3, t_train / t_tf[1]))


if __name__ == "__main__":
    main()
