"""Keras 3's fit / evaluate / predict take a tf.data.Dataset on flowgrad (Keras recognises
it as TensorFlow's), and a seeded program gives TensorFlow's numbers: the program
tools/tf_reference/keras_fit_dataset.py printed tests/data/keras_tutorials/
fit_dataset_tf_2_21.json on TensorFlow 2.21 + Keras."""
import importlib.util
import json
import os
import subprocess
import sys

import numpy as np
import pytest

pytestmark = pytest.mark.skipif(importlib.util.find_spec("keras") is None,
                                reason="needs the keras extra")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_fit_on_a_dataset_gives_tensorflows_numbers():
    want = json.load(open(os.path.join(ROOT, "tests", "data", "keras_tutorials",
                                       "fit_dataset_tf_2_21.json")))
    out = subprocess.run([sys.executable, "-m", "flowgrad",
                          os.path.join(ROOT, "tools", "tf_reference", "keras_fit_dataset.py")],
                         capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": ROOT, "KERAS_BACKEND": "tensorflow"})
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert sorted(got["history"]) == sorted(want["history"])
    for key, values in want["history"].items():
        np.testing.assert_allclose(got["history"][key], values, rtol=2e-3, err_msg=key)
    np.testing.assert_allclose(got["evaluate"], want["evaluate"], rtol=2e-3)
    # float rounding differs in the last bits and grows a little over the Adam steps
    np.testing.assert_allclose(got["predict"], want["predict"], rtol=1e-2, atol=5e-3)
