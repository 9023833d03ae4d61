"""tf.nn's statistics functions (sufficient_statistics, normalize_moments, weighted_moments,
fused_batch_norm, batch_norm_with_global_normalization, log_poisson_loss, xw_plus_b,
relu_layer): a TensorFlow program (tools/tf_reference/nn_statistics.py) prints on flowgrad
what TensorFlow 2.21 printed (tests/data/nn_statistics/tf_2_21.txt). Their gradient checks
are op_db's ("nn.fused_batch_norm*", "nn.weighted_moments")."""
import os
import subprocess
import sys

import pytest

import flowgrad.compat.v1 as tf1

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_a_tensorflow_program_prints_tensorflows_statistics():
    want = open(os.path.join(ROOT, "tests", "data", "nn_statistics", "tf_2_21.txt")).read()
    out = subprocess.run([sys.executable, "-m", "flowgrad",
                          os.path.join(ROOT, "tools", "tf_reference", "nn_statistics.py")],
                         capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": ROOT})
    assert out.returncode == 0, out.stderr
    assert out.stdout == want


def test_fused_batch_norm_wants_statistics_for_inference():
    with pytest.raises(ValueError, match="must be a 1D tensor when `is_training` is False"):
        tf1.nn.fused_batch_norm(tf1.zeros([1, 2, 2, 3]), [1.0] * 3, [0.0] * 3,
                                is_training=False)
    with pytest.raises(ValueError, match="must have the same shape"):
        tf1.nn.log_poisson_loss(tf1.zeros([2]), tf1.zeros([3]))
