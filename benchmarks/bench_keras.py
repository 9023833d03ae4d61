"""tf.keras training speed against the same training steps hand-written in NumPy, and the
real Keras 3 ``fit`` on flowgrad against the same ``fit`` on TensorFlow 2.21.

Run:  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python benchmarks/bench_keras.py
          [--repeat N] [--threads 1,2] [--cnn-steps N] [--markdown] [--tensorflow PY]

First table: a 784-512-512-10 ReLU MLP with softmax cross-entropy and Adam, 100 steps of
128 MNIST images in file order, trained by flowgrad with ``model.fit`` of its own Keras
(``tf.compat.v1.keras``; each step in a tf.function), a hand-written ``GradientTape`` loop
in ``tf.function``, and the same loop run eagerly; the NumPy baseline (and a TF1 Session
row for reference) come from ``bench_training``, timed in the same run (best of
``--repeat``).

Second table: ``model.fit`` of the real Keras 3 (``import keras``, one epoch, no shuffling)
on the MLP and on the W5 CNN of ``bench_cnn.py`` (conv 5x5x32, pool, conv 5x5x64, pool,
dense 1024, dense 10, Adam(1e-4), batches of 64, ``--cnn-steps`` steps), the same script in
two persistent child processes: one ``python -m flowgrad`` (Keras hosted on flowgrad), one
TensorFlow's Python ``PY`` (default /work/venv-tf/bin/python; skipped when absent). Each
round times one ``fit`` in each child and the NumPy version of the same training in this
process, one after another, so all see the same load; the table gives medians. With T
threads (each count of ``--threads``), both children set ``tf.config.threading``'s intra-
and inter-op threads to T and NumPy's BLAS pool has T threads (threadpoolctl).
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys
import time
from typing import Any, Callable

import numpy as np
from bench_cnn import NumpyCNN, image_batches, initial_weights
from bench_session import best_of, mnist_batches, print_table
from bench_training import _init_params, mlp_adam, numpy_mlp_adam
from tf_child import TensorFlowChild, serve

import flowgrad as tf
from flowgrad.compat.v1 import keras  # flowgrad's own Keras (the TF1 face's)


def _model() -> keras.Model:
    layers = keras.layers
    return keras.Sequential([keras.Input((784,)), layers.Dense(512, activation="relu"),
                             layers.Dense(512, activation="relu"), layers.Dense(10)])


def keras_fit(batches: list, repeat: int) -> float:
    x = np.concatenate([b[0] for b in batches])
    y = np.concatenate([b[1] for b in batches]).astype(np.float32)
    model = _model()
    model.compile(keras.optimizers.Adam(0.001),
                  keras.losses.CategoricalCrossentropy(from_logits=True))
    return best_of(lambda: model.fit(x, y, batch_size=len(batches[0][0]), epochs=1,
                                     shuffle=False, verbose=0), repeat)


def keras3_rounds(data: Any, threads: int) -> dict:
    """The real Keras 3 ``fit`` of the MLP and of the W5 CNN on this process's TensorFlow
    (TensorFlow's, or flowgrad under ``python -m flowgrad``), ``threads`` intra- and inter-op
    threads: {"mlp": seconds of one epoch, "cnn": the same}. Runs in the child processes."""
    import keras
    import tensorflow as tft
    tft.config.threading.set_intra_op_parallelism_threads(threads)
    tft.config.threading.set_inter_op_parallelism_threads(threads)
    layers = keras.layers
    mlp = keras.Sequential([keras.Input((784,)), layers.Dense(512, activation="relu"),
                            layers.Dense(512, activation="relu"), layers.Dense(10)])
    mlp.set_weights([data["mlp_%d" % i] for i in range(6)])
    mlp.compile(keras.optimizers.Adam(0.001),
                keras.losses.CategoricalCrossentropy(from_logits=True))
    cnn = keras.Sequential([
        keras.Input((28, 28, 1)), layers.Conv2D(32, 5, padding="same", activation="relu"),
        layers.MaxPooling2D(2, padding="same"),
        layers.Conv2D(64, 5, padding="same", activation="relu"),
        layers.MaxPooling2D(2, padding="same"), layers.Flatten(),
        layers.Dense(1024, activation="relu"), layers.Dense(10)])
    cnn.set_weights([data["cnn_%d" % i] for i in range(8)])
    cnn.compile(keras.optimizers.Adam(1e-4, epsilon=1e-8),
                keras.losses.CategoricalCrossentropy(from_logits=True))

    def fit(model: Any, x: np.ndarray, y: np.ndarray, batch: int) -> Callable[[], float]:
        def run() -> float:
            t0 = time.perf_counter()
            model.fit(x, y, batch_size=batch, epochs=1, shuffle=False, verbose=0)
            return time.perf_counter() - t0
        run()       # traced, warmed up
        return run
    return {"mlp": fit(mlp, data["mlp_x"], data["mlp_y"], 128),
            "cnn": fit(cnn, data["cnn_x"], data["cnn_y"], 64)}


def keras3_comparison(mlp: list, cnn: list, threads: int, repeat: int,
                      tf_python: str | None) -> dict:
    """{workload: (Keras on flowgrad, Keras on TensorFlow, NumPy) samples} at ``threads``
    threads, interleaved round by round; {} without the keras extra."""
    import threadpoolctl
    if importlib.util.find_spec("keras") is None:
        return {}
    init_mlp, init_cnn = _init_params(np.random.RandomState(0)), initial_weights()
    arrays = {"mlp_x": np.concatenate([b[0] for b in mlp]),
              "mlp_y": np.concatenate([b[1] for b in mlp]).astype(np.float32),
              "cnn_x": np.concatenate([b[0] for b in cnn]),
              "cnn_y": np.concatenate([b[1] for b in cnn])}
    arrays.update({"mlp_%d" % i: v for i, v in enumerate(init_mlp)})
    arrays.update({"cnn_%d" % i: v for i, v in enumerate(init_cnn)})
    env = {"KERAS_BACKEND": "tensorflow"}
    ours = TensorFlowChild(sys.executable, __file__, arrays, ["--threads", threads],
                           runner=["-m", "flowgrad"], env=env)
    theirs = TensorFlowChild(tf_python, __file__, arrays, ["--threads", threads], env=env) \
        if tf_python else None

    def numpy_cnn() -> None:
        model = NumpyCNN(init_cnn)
        for bx, by in cnn:
            model.step(bx, by)
    out: dict = {"mlp": ([], [], []), "cnn": ([], [], [])}
    try:
        for _ in range(repeat):
            for name, by_hand in (("mlp", lambda: numpy_mlp_adam(mlp, init_mlp)),
                                  ("cnn", numpy_cnn)):
                samples = out[name]
                samples[0].append(ours.round(name))
                if theirs is not None and theirs.alive:
                    samples[1].append(theirs.round(name))
                with threadpoolctl.threadpool_limits(threads, "blas"):
                    samples[2].append(best_of(by_hand, 1))
    finally:
        ours.close()
        if theirs is not None:
            theirs.close()
    return out


def print_keras3(results: dict, markdown: bool, cnn_steps: int) -> None:
    """The second table: medians and ratios per thread count and workload."""
    head = ("threads", "Keras 3 fit", "on flowgrad", "on TensorFlow", "NumPy",
            "flowgrad/TF", "flowgrad/NumPy")
    fmt = "%-7s %-28s %11s %13s %9s %11s %14s"
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
    else:
        print(fmt % head)
    names = {"mlp": "MLP, Adam, 100 x 128", "cnn": "W5 CNN, Adam, %d x 64" % cnn_steps}
    for t, rows in results.items():
        for name, (a, b, c) in rows.items():
            ma, mb, mc = (statistics.median(v) if v else float("nan") for v in (a, b, c))
            cells = (str(t), names[name], "%.2f s" % ma, "%.2f s" % mb if b else "-",
                     "%.2f s" % mc, "%.2fx" % (ma / mb) if b else "-", "%.2fx" % (ma / mc))
            print("| " + " | ".join(cells) + " |" if markdown else fmt % cells)


def tape_loop(batches: list, repeat: int, compiled: bool) -> float:
    model = _model()
    opt = keras.optimizers.Adam(0.001)
    loss_fn = keras.losses.CategoricalCrossentropy(from_logits=True)

    def step(bx: np.ndarray, by: np.ndarray) -> tf.Tensor:
        with tf.GradientTape() as tape:
            loss = loss_fn(by, model(bx, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss
    if compiled:
        step = tf.function(step)
    data = [(bx, by.astype(np.float32)) for bx, by in batches]

    def run() -> None:
        for bx, by in data:
            step(bx, by)
    return best_of(run, repeat)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="rounds")
    ap.add_argument("--threads", default="1,2",
                    help="comma-separated thread counts for the Keras 3 table (default 1,2)")
    ap.add_argument("--cnn-steps", type=int, default=10, help="CNN steps per fit")
    ap.add_argument("--markdown", action="store_true", help="print the Keras 3 table as Markdown")
    ap.add_argument("--tensorflow", default="/work/venv-tf/bin/python",
                    help="a Python with TensorFlow to time the real Keras fit in ('' to skip)")
    ap.add_argument("--as-tensorflow", metavar="NPZ", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.as_tensorflow:
        serve(keras3_rounds(np.load(args.as_tensorflow), int(args.threads)))
        return
    t0 = time.perf_counter()
    load = os.getloadavg()[0]
    batches = mnist_batches(128, 100)
    tf.compat.v1.disable_v2_behavior()
    session, numpy_time = mlp_adam(batches, args.repeat)
    tf.compat.v1.enable_v2_behavior()
    rows = [
        ("MLP, Adam, 100x128: TF1-face keras Model.fit", keras_fit(batches, args.repeat),
         numpy_time, "s"),
        ("MLP, Adam, 100x128: GradientTape in tf.function",
         tape_loop(batches, args.repeat, True), numpy_time, "s"),
        ("MLP, Adam, 100x128: eager GradientTape", tape_loop(batches, args.repeat, False),
         numpy_time, "s"),
        ("MLP, Adam, 100x128: TF1 Session (reference)", session, numpy_time, "s"),
    ]
    print_table(rows)
    cnn = image_batches(args.cnn_steps)
    mlp = [(bx, by.astype(np.float32)) for bx, by in batches]
    results = {t: keras3_comparison(mlp, cnn, t, args.repeat, args.tensorflow or None)
               for t in (int(t) for t in args.threads.split(","))}
    if any(results.values()):
        print("Keras 3 model.fit, one epoch; medians of %d rounds" % args.repeat)
        print_keras3(results, args.markdown, args.cnn_steps)
    print("TensorFlow: %s; load average %.1f at the start, %.1f at the end (%.0f s in all)"
          % (args.tensorflow or "skipped", load, os.getloadavg()[0], time.perf_counter() - t0))


if __name__ == "__main__":
    main()
