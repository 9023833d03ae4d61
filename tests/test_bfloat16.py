"""tf.bfloat16: TensorFlow's brain float (8 exponent bits) through ml_dtypes, or a clear error."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import flowgrad as tf2
import flowgrad.compat.v1 as tf
from flowgrad.framework import dtypes

ml_dtypes = pytest.importorskip("ml_dtypes")


@pytest.fixture
def eager():
    tf.enable_v2_behavior()


def test_bfloat16_is_not_float16(eager):
    x = tf2.cast(tf2.constant(1e5), tf2.bfloat16)
    assert x.dtype == tf2.bfloat16 and x.dtype != tf2.float16
    assert float(x.numpy()) == 99840.0            # float16 would overflow to inf
    assert float(tf2.cast(tf2.constant(1e5), tf2.float16).numpy()) == np.inf
    assert x.numpy().dtype == np.dtype(ml_dtypes.bfloat16)
    assert tf2.as_dtype("bfloat16") is tf2.bfloat16
    assert tf2.as_dtype(ml_dtypes.bfloat16) is tf2.bfloat16
    assert tf2.bfloat16.is_floating and tf2.bfloat16.size == 2
    assert float(tf2.bfloat16.max) == pytest.approx(3.38953e38, rel=1e-5)
    assert tf.bfloat16 is tf2.bfloat16


def test_bfloat16_arithmetic_and_gradients(eager):
    v = tf2.Variable([1.5, 2.0, 3.0], dtype=tf2.bfloat16)
    with tf2.GradientTape() as tape:
        loss = tf2.reduce_sum(v * v + v)
    g = tape.gradient(loss, v)
    assert loss.dtype == tf2.bfloat16 and g.dtype == tf2.bfloat16
    np.testing.assert_array_equal(g.numpy().astype(np.float32), [4.0, 5.0, 7.0])
    assert float(loss.numpy()) == 21.75
    # 1 + 2**-8 is not representable: rounds to 1 (7 mantissa bits)
    assert float((tf2.constant(1.0, tf2.bfloat16) + 2.0 ** -8).numpy()) == 1.0


def test_bfloat16_true_division_as_tensorflow(eager):
    """``/``, tf.math.divide/truediv and TF1's div keep bfloat16 (Keras's losses and layers
    divide in the layer's dtype); values and the divisor's gradient recorded from
    TensorFlow 2.21."""
    x = tf2.constant([1.0, 2.0, 3.0, 7.0], tf2.bfloat16)
    y = tf2.constant([3.0, 3.0, 7.0, 0.1], tf2.bfloat16)
    expected = [0.333984375, 0.66796875, 0.427734375, 70.0]
    for out in (x / y, tf2.math.divide(x, y), tf.div(x, y)):
        assert out.dtype == tf2.bfloat16
        assert out.numpy().astype(np.float32).tolist() == expected
    assert tf2.math.truediv(x, 2.0).numpy().astype(np.float32).tolist() == [0.5, 1.0, 1.5, 3.5]
    v = tf2.Variable(y)
    with tf2.GradientTape() as tape:
        loss = tf2.reduce_sum(x / v)
    g = tape.gradient(loss, v)
    assert g.dtype == tf2.bfloat16
    assert g.numpy().astype(np.float32).tolist() == [-0.111328125, -0.22265625,
                                                     -0.06103515625, -700.0]


def test_bfloat16_matmul_stays_bfloat16(eager):
    a = tf2.cast(tf2.constant([[1.0, 2.0], [3.0, 4.0]]), tf2.bfloat16)
    for out in (tf2.matmul(a, a), tf2.matmul(a, a, transpose_b=True),
                tf2.function(lambda x: tf2.matmul(x, x))(a)):
        assert out.dtype == tf2.bfloat16 and out.numpy().dtype == np.dtype(ml_dtypes.bfloat16)
    np.testing.assert_array_equal(tf2.matmul(a, a).numpy().astype(np.float32),
                                  [[7.0, 10.0], [15.0, 22.0]])


def test_bfloat16_in_graph_mode():
    x = tf.placeholder(tf.bfloat16, [None])
    y = tf.reduce_sum(x * 2.0)
    with tf.Session() as sess:
        out = sess.run(y, {x: np.array([1.0, 100000.0], np.float32)})
    assert out.dtype == np.dtype(ml_dtypes.bfloat16) and float(out) == 199680.0


def test_without_ml_dtypes_bfloat16_raises_a_clear_error_on_use():
    code = ("import sys; sys.modules['ml_dtypes'] = None\n"
            "import flowgrad as tf\n"
            "assert repr(tf.bfloat16) == 'tf.bfloat16' and tf.float32.is_floating\n"
            "try:\n"
            "    tf.cast(tf.constant(1e5), tf.bfloat16)\n"
            "except ImportError as e:\n"
            "    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert "tf.bfloat16 needs the ml_dtypes package" in out.stdout
    assert 'pip install "flowgrad[bfloat16]"' in out.stdout
    missing = dtypes._MissingDType("bfloat16", "ml_dtypes", "bfloat16")
    with pytest.raises(ImportError, match="ml_dtypes"):
        np.zeros(2, missing.as_numpy_dtype)
