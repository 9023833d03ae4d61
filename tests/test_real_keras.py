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
from flowgrad.function import Function
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
