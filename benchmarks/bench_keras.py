"""tf.keras training speed against the same training steps hand-written in NumPy.

Run:  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python benchmarks/bench_keras.py
          [--repeat N] [--tensorflow PY]

A 784-512-512-10 ReLU MLP with softmax cross-entropy and Adam, 100 steps of 128 MNIST
images in file order, trained four ways by flowgrad: ``model.fit`` of flowgrad's own Keras
(``tf.compat.v1.keras``; each step in a tf.function), the same ``model.fit`` of the real
Keras 3 (``tf.keras``) hosted on flowgrad (the keras
extra; a child ``python -m flowgrad``), a hand-written ``GradientTape`` loop in
``tf.function``, and the same loop run eagerly. The NumPy baseline (and a TF1 Session
row for reference) come from ``bench_training.mlp_adam``, timed in the same run.

With TensorFlow installed for the Python ``PY`` (default /work/venv-tf/bin/python, skipped
when absent), the real Keras 3 ``fit`` runs on TensorFlow too: the same script as the
Keras-on-flowgrad row, in a child process, with ``TF_NUM_INTRAOP_THREADS=1`` (one thread
per kernel, as flowgrad's BLAS pool here; both keep their inter-op threads: TensorFlow's
pool, flowgrad's worker).
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matmuls: threads only add noise

import numpy as np  # noqa: E402
from bench_session import best_of, mnist_batches, print_table  # noqa: E402
from bench_training import mlp_adam  # noqa: E402

import flowgrad as tf  # noqa: E402
from flowgrad.compat.v1 import keras  # noqa: E402 - flowgrad's own Keras (the TF1 face's)


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


_REAL_KERAS_FIT = """
import sys, time
import numpy as np
import keras
data = np.load(sys.argv[1])
layers = keras.layers
model = keras.Sequential([keras.Input((784,)), layers.Dense(512, activation="relu"),
                          layers.Dense(512, activation="relu"), layers.Dense(10)])
model.compile(keras.optimizers.Adam(0.001),
              keras.losses.CategoricalCrossentropy(from_logits=True))
best = float("inf")
for _ in range(int(sys.argv[2])):
    t0 = time.perf_counter()
    model.fit(data["x"], data["y"], batch_size=int(sys.argv[3]), epochs=1, shuffle=False,
              verbose=0)
    best = min(best, time.perf_counter() - t0)
print(best)
"""


def real_keras_fit(batches: list, repeat: int, python: str | None = None) -> float | None:
    """The same ``model.fit`` with the real Keras 3 (the keras extra) hosted on flowgrad,
    in a child ``python -m flowgrad`` (Keras picks its backend once per process); None
    without the extra. With ``python`` (one with TensorFlow and Keras), the same script
    on TensorFlow instead (None where that Python is missing)."""
    if importlib.util.find_spec("keras") is None if python is None else \
            not os.path.exists(python):
        return None
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "batches.npz")
        np.savez(path, x=np.concatenate([b[0] for b in batches]),
                 y=np.concatenate([b[1] for b in batches]).astype(np.float32))
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env = dict(os.environ, KERAS_BACKEND="tensorflow",
                   PYTHONPATH=os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]))
        cmd = [sys.executable, "-m", "flowgrad"]
        if python is not None:
            env.update(TF_CPP_MIN_LOG_LEVEL="3", TF_NUM_INTRAOP_THREADS="1")
            env.pop("PYTHONPATH")
            cmd = [python]
        out = subprocess.run(cmd + ["-c", _REAL_KERAS_FIT, path, str(repeat),
                                    str(len(batches[0][0]))], env=env, check=True,
                             capture_output=True, text=True)
    return float(out.stdout.split()[-1])


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
    ap.add_argument("--repeat", type=int, default=3, help="rounds; the best is reported")
    ap.add_argument("--tensorflow", default="/work/venv-tf/bin/python",
                    help="a Python with TensorFlow to time the real Keras fit in ('' to skip)")
    args = ap.parse_args()
    batches = mnist_batches(128, 100)
    tf.compat.v1.disable_v2_behavior()
    session, numpy_time = mlp_adam(batches, args.repeat)
    tf.compat.v1.enable_v2_behavior()
    rows = [
        ("MLP, Adam, 100x128: TF1-face keras Model.fit", keras_fit(batches, args.repeat),
         numpy_time, "s"),
    ]
    real = real_keras_fit(batches, args.repeat)
    if real is not None:
        rows.append(("MLP, Adam, 100x128: real Keras 3 Model.fit", real, numpy_time, "s"))
    on_tf = real_keras_fit(batches, args.repeat, args.tensorflow) if args.tensorflow else None
    if on_tf is not None:
        rows.append(("MLP, Adam, 100x128: Keras 3 fit on TensorFlow", on_tf, numpy_time, "s"))
    rows += [
        ("MLP, Adam, 100x128: GradientTape in tf.function",
         tape_loop(batches, args.repeat, True), numpy_time, "s"),
        ("MLP, Adam, 100x128: eager GradientTape", tape_loop(batches, args.repeat, False),
         numpy_time, "s"),
        ("MLP, Adam, 100x128: TF1 Session (reference)", session, numpy_time, "s"),
    ]
    print_table(rows)
    if real is not None and on_tf is not None:
        print("real Keras 3 fit: on flowgrad / on TensorFlow (%s) = %.2fx"
              % (args.tensorflow, real / on_tf))
    print("load average %.1f" % os.getloadavg()[0])


if __name__ == "__main__":
    main()
