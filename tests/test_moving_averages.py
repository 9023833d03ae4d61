"""tf.train.ExponentialMovingAverage: names, initial values, updates, num_updates, zero
debiasing and variables_to_restore as TensorFlow's, eager and in TF1 graphs.

tools/tf_reference/moving_averages.py is a TensorFlow program; real TensorFlow 2.21 printed
tests/data/moving_averages/tf_2_21.txt, and it must print the same on flowgrad."""
import os
import subprocess
import sys

import pytest

import flowgrad
import flowgrad.compat.v1 as tf1

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_a_tensorflow_program_prints_tensorflows_moving_averages():
    want = open(os.path.join(ROOT, "tests", "data", "moving_averages", "tf_2_21.txt")).read()
    out = subprocess.run([sys.executable, "-m", "flowgrad",
                          os.path.join(ROOT, "tools", "tf_reference", "moving_averages.py")],
                         capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": ROOT})
    assert out.returncode == 0, out.stderr
    assert out.stdout == want


def test_eager_averages_refuse_tensors_and_integer_variables():
    tf1.enable_v2_behavior()
    try:
        ema = flowgrad.train.ExponentialMovingAverage(0.9)
        with pytest.raises(TypeError, match="non-Variable tensors"):
            ema.apply([flowgrad.constant(1.0)])
        with pytest.raises(TypeError, match="half, float, or double"):
            ema.apply([flowgrad.Variable(1)])
        assert ema.average(flowgrad.Variable(1.0)) is None
    finally:
        tf1.disable_v2_behavior()
