"""Keras 3's ``model.export(path)`` (``keras.export.ExportArchive``) on flowgrad writes
TensorFlow's SavedModel format (``saved_model.pb`` + ``variables/``) with the ``serve`` and
``serving_default`` endpoints, for dense and recurrent (LSTM/GRU: while loops over
TensorArrays) models; flowgrad loads it back and serves the model's predictions.
TensorFlow 2.21 serving these files is the CI's interop job
(``tools/tf_reference/keras_files.py``)."""
import importlib.util
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(importlib.util.find_spec("keras") is None,
                                reason="needs the keras extra")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PROGRAM = r'''
import os, sys, warnings
import numpy as np
import keras
import tensorflow as tf
warnings.simplefilter("error", UserWarning)       # no fallback to flowgrad's own format
out = sys.argv[1]
keras.utils.set_random_seed(2)
dense = keras.Sequential([keras.Input((4,), name="features"),
                          keras.layers.Dense(3, activation="relu"), keras.layers.Dense(2)])
rnn = keras.Sequential([keras.Input((5, 3), name="features"),
                        keras.layers.SimpleRNN(4, return_sequences=True),
                        keras.layers.LSTM(3, return_sequences=True), keras.layers.GRU(2),
                        keras.layers.Dense(2)])
rng = np.random.default_rng(0)
for name, model, x in (("dense", dense, rng.standard_normal((3, 4)).astype("float32")),
                       ("rnn", rnn, rng.standard_normal((2, 5, 3)).astype("float32"))):
    path = os.path.join(out, name)
    want = model.predict(x, verbose=0)
    model.export(path, verbose=False)
    assert {"saved_model.pb", "variables"} <= set(os.listdir(path))
    loaded = tf.saved_model.load(path)
    sig = loaded.signatures["serving_default"]
    got = sig(features=tf.constant(x))["output_0"].numpy()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(loaded.serve(tf.constant(x)).numpy(), want, rtol=1e-5,
                               atol=1e-6)
    print(name, sorted(loaded.signatures))
'''


def test_model_export_writes_tensorflows_saved_model(tmp_path):
    out = subprocess.run([sys.executable, "-m", "flowgrad", "-c", PROGRAM, str(tmp_path)],
                         capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": ROOT, "KERAS_BACKEND": "tensorflow"})
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.split("\n")[-3:] == ["dense ['serve', 'serving_default']",
                                           "rnn ['serve', 'serving_default']", ""]
