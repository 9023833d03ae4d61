"""tf.dtypes.experimental.float8_e4m3fn and float8_e5m2 (ml_dtypes' types, which Keras's
float8 training casts to and from) against TensorFlow 2.21: the program of
tools/tf_reference/float8_reference.py run with flowgrad as ``tf`` against its recording."""

import pytest

import flowgrad as tf
from flowgrad.framework.context import state
from tf_reference_program import load

pytest.importorskip("ml_dtypes")
PROGRAM, REF = load("float8_reference.py", "float8/tf_2_21.json")


@pytest.fixture(autouse=True)
def eager():
    state.eager = True
    yield
    state.eager = True


def test_casts_and_limits_are_tensorflows():
    assert PROGRAM.program(tf) == REF


def test_a_float8_variable_and_a_function():
    v = tf.Variable(tf.cast([1.0, 2.5], tf.dtypes.experimental.float8_e4m3fn))
    assert v.dtype == tf.dtypes.experimental.float8_e4m3fn

    @tf.function
    def f(x):
        return tf.cast(tf.cast(x, tf.dtypes.experimental.float8_e5m2), tf.float32)
    assert f(tf.constant([0.3, 7.0])).numpy().tolist() == [0.3125, 7.0]
