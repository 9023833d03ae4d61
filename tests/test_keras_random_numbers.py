"""The real Keras 3 on flowgrad starts from TensorFlow's numbers: the same program prints
what it printed on TensorFlow 2.21 + Keras (tests/data/random_streams/keras_tf_2_21.txt,
recorded by tools/tf_reference/keras_random_program.py): initial weights, an initializer's
own seed, a dropout mask, tf.random after tf.random.set_seed."""
import importlib.util
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(importlib.util.find_spec("keras") is None,
                                reason="needs the keras extra")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_a_keras_program_draws_tensorflows_random_numbers():
    want = open(os.path.join(ROOT, "tests", "data", "random_streams",
                             "keras_tf_2_21.txt")).read()
    out = subprocess.run([sys.executable, "-m", "flowgrad",
                          os.path.join(ROOT, "tools", "tf_reference", "keras_random_program.py")],
                         capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": ROOT, "KERAS_BACKEND": "tensorflow"})
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout == want
