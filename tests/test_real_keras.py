"""The real Keras 3 (the ``keras`` extra) runs on flowgrad as its TensorFlow: ``import keras``
under ``python -m flowgrad`` with Keras's TensorFlow backend. Each case runs a program in a
subprocess (Keras picks its backend once per process)."""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

# not imported here: Keras would import TensorFlow in this process
if importlib.util.find_spec("keras") is None or importlib.util.find_spec("optree") is None:
    pytest.skip("needs the keras extra: pip install flowgrad[keras]", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[1]

PRELUDE = """
import numpy as np
import keras
from flowgrad.runtime.function import Function
keras.config.disable_traceback_filtering()
traces = []
_trace = Function._trace_locked
def counting(self, *a, **k):
    traces.append(self._name)
    return _trace(self, *a, **k)
Function._trace_locked = counting
rng = np.random.default_rng(0)
centers = rng.normal(size=(4, 20)).astype("float32") * 3
y = rng.integers(0, 4, 2000)
x = (centers[y] + rng.normal(size=(2000, 20))).astype("float32")
"""


def run_program(code: str, tmp_path: Path) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT), KERAS_BACKEND="tensorflow")
    out = subprocess.run([sys.executable, "-m", "flowgrad", "-c", PRELUDE + textwrap.dedent(code)],
                         capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600)
    assert out.returncode == 0, out.stderr[-4000:]
    return out.stdout


def test_sequential_mlp_compile_fit_evaluate_predict_through_tf_function(tmp_path):
    out = run_program("""
        model = keras.Sequential([keras.Input((20,)), keras.layers.Dense(32, activation="relu"),
                                  keras.layers.Dense(4, activation="softmax")])
        model.compile("adam", "sparse_categorical_crossentropy", metrics=["accuracy"])
        hist = model.fit(x, y, batch_size=50, epochs=3, verbose=0)
        loss, acc = model.evaluate(x, y, verbose=0)
        pred = model.predict(x[:5], verbose=0)
        print("acc", acc, "losses", hist.history["loss"])
        print("pred", pred.shape, np.allclose(pred.sum(1), 1, atol=1e-5))
        print("traces", traces.count("one_step_on_data"), "steps", 3 * 2000 // 50)
        """, tmp_path)
    lines = dict(line.split(" ", 1) for line in out.splitlines())
    acc = float(lines["acc"].split()[0])
    losses = eval(lines["acc"].split("losses ")[1])
    assert acc > 0.95 and losses[0] > losses[-1]
    assert lines["pred"] == "(5, 4) True"
    # fit/evaluate/predict each trace their step once: the 120 training steps run the
    # compiled plan, not op by op
    assert int(lines["traces"].split()[0]) <= 3


def test_cnn_subclassed_train_step_and_functional_saving(tmp_path):
    out = run_program("""
        import tensorflow as tf
        imgs = np.zeros((400, 8, 8, 1), "float32")
        lab = rng.integers(0, 2, 400)
        imgs[lab == 1, 2:6, 2:6, 0] = 1.0                     # a square: class 1
        imgs += rng.normal(scale=0.3, size=imgs.shape).astype("float32")
        L = keras.layers
        cnn = keras.Sequential([keras.Input((8, 8, 1)), L.Conv2D(4, 3, activation="relu"),
                                L.MaxPooling2D(), L.Flatten(), L.Dropout(0.25),
                                L.Dense(2, activation="softmax")])
        cnn.compile(keras.optimizers.Adam(0.01), "sparse_categorical_crossentropy",
                    metrics=["accuracy"])
        cnn.fit(imgs, lab, batch_size=40, epochs=5, verbose=0)
        print("cnn", cnn.evaluate(imgs, lab, verbose=0)[1])

        class Custom(keras.Model):
            def __init__(self):
                super().__init__()
                self.d1 = keras.layers.Dense(16, activation="relu")
                self.d2 = keras.layers.Dense(4)
                self.steps = 0

            def call(self, x):
                return self.d2(self.d1(x))

            def train_step(self, data):
                x, y = data
                self.steps += 1                    # Python: runs once per trace
                with tf.GradientTape() as tape:
                    loss = self.compute_loss(x=x, y=y, y_pred=self(x, training=True))
                grads = tape.gradient(loss, self.trainable_variables)
                self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
                return {"loss": loss}
        c = Custom()
        c.compile(optimizer=keras.optimizers.Adam(0.01),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        c.fit(x, y, batch_size=100, epochs=3, verbose=0)
        print("custom", (c.predict(x, verbose=0).argmax(1) == y).mean() > 0.95, c.steps)

        inp = keras.Input((20,))
        f = keras.Model(inp, keras.layers.Dense(4, activation="softmax")(
            keras.layers.Dense(8, activation="relu")(inp)))
        f.compile("adam", "sparse_categorical_crossentropy")
        f.fit(x, y, epochs=1, verbose=0)
        p0 = f.predict(x[:5], verbose=0)
        f.save("m.keras")
        g = keras.models.load_model("m.keras")
        f.save_weights("m.weights.h5")
        f2 = keras.models.clone_model(f)
        f2.load_weights("m.weights.h5")
        print("saved", np.allclose(p0, g.predict(x[:5], verbose=0)),
              np.allclose(p0, f2.predict(x[:5], verbose=0)), type(g).__name__)
        """, tmp_path)
    lines = dict(line.split(" ", 1) for line in out.splitlines())
    assert float(lines["cnn"]) > 0.9
    assert lines["custom"] == "True 1"         # the custom train_step ran in one trace
    assert lines["saved"] == "True True Functional"


def test_files_saved_by_tensorflow_load_and_predict_the_same(tmp_path):
    """tests/data/keras was written by TensorFlow 2.21 + Keras 3.15.1
    (tools/tf_reference/keras_files.py record); TensorFlow reads flowgrad's files too
    (the script's write/check halves)."""
    data = ROOT / "tests" / "data" / "keras"
    out = run_program("""
        ref = np.load(%r)
        m = keras.models.load_model(%r)
        print("keras", np.abs(m.predict(ref["x"], verbose=0) - ref["probs"]).max() < 1e-5,
              int(m.optimizer.iterations.numpy()))
        fresh = keras.models.clone_model(m)
        fresh.load_weights(%r)
        print("weights", np.abs(fresh.predict(ref["x"], verbose=0) - ref["probs"]).max() < 1e-5)
        """ % (str(data / "tf_predictions.npz"), str(data / "tf_model.keras"),
               str(data / "tf_model.weights.h5")), tmp_path)
    lines = dict(line.split(" ", 1) for line in out.splitlines())
    assert lines["keras"] == "True 8" and lines["weights"] == "True"


def test_tf_keras_is_the_real_keras_under_the_drop_in(tmp_path):
    out = run_program("""
        import tensorflow as tf
        from tensorflow import keras as tk
        from tensorflow.keras import layers
        import tensorflow.keras.backend as K
        print("same", tf.keras is tk, tk.__name__, layers.Dense is keras.layers.Dense,
              K.epsilon())
        m = tf.keras.Sequential([tf.keras.Input((20,)), layers.Dense(4)])
        m.compile("adam", tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        m.fit(x, y, epochs=1, verbose=0)
        print("model", isinstance(m, keras.Model))
        """, tmp_path)
    lines = dict(line.split(" ", 1) for line in out.splitlines())
    assert lines["same"] == "True keras._tf_keras.keras True 1e-07"
    assert lines["model"] == "True"
    # without the drop-in: `import flowgrad as tf; tf.keras` is the same Keras 3, and its
    # first use registers flowgrad as `tensorflow` (Keras imports it)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    plain = subprocess.run([sys.executable, "-c", textwrap.dedent("""
        import sys
        import flowgrad as tf
        print("tensorflow" in sys.modules)
        from flowgrad import keras
        import flowgrad.keras.layers as layers
        print(keras.__name__, layers is tf.keras.layers, sys.modules["tensorflow"] is tf,
              tf.losses is keras.losses, tf.compat.v1.keras.__name__)
        """)], capture_output=True, text=True, env=env, timeout=300)
    assert plain.returncode == 0, plain.stderr[-3000:]
    assert plain.stdout.split() == ["False", "keras._tf_keras.keras", "True", "True", "True",
                                    "flowgrad.legacy_keras"]


def test_keras_suite_fast_subset_keeps_passing():
    """tools/keras_suite.py --fast: Keras's own tests of a fixed subset, on flowgrad, pass at
    least as often as recorded there."""
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "keras_suite.py"), "--fast"],
                         capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stdout + out.stderr[-2000:]
    assert "losses/losses_test.py" in out.stdout
