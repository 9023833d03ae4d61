"""tf.function plans update eager variables in place only where nobody else holds the array.

``assign_add``/``assign_sub`` in a ``tf.function`` (Keras's optimizers write every slot and
weight that way) write into the variable's array when a plan allocated that array and
nothing outside the plans has been given it since (TensorFlow updates in place when the
buffer's reference count is one). Whatever eager code read before (``value()``,
``read_value()``, ``np.asarray(v)``, a tensor the function returned) keeps its value, and a
call that fails leaves the variable as it was."""

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.framework import errors

W0 = np.arange(12, dtype=np.float32).reshape(4, 3)
D = np.full((4, 3), 0.5, np.float32)


@pytest.fixture(autouse=True)
def eager_mode():
    tf1.enable_v2_behavior()


def _adam_like(v: tf.Variable, m: tf.Variable):
    @tf.function
    def step(g):
        m.assign_add((g - m) * 0.1)
        v.assign_sub(tf.sqrt(tf.square(m)) * 0.5)
    return step


def _expected(steps: int) -> tuple:
    v, m = W0.copy(), np.zeros_like(W0)
    for _ in range(steps):
        m = m + (D - m) * np.float32(0.1)
        v = v - np.sqrt(np.square(m)) * np.float32(0.5)
    return v, m


def test_updates_after_the_first_call_write_the_same_array():
    v, m = tf.Variable(W0), tf.Variable(np.zeros_like(W0))
    step = _adam_like(v, m)
    step(tf.constant(D))
    arr = v._array
    for _ in range(3):
        step(tf.constant(D))
    assert v._array is arr          # written in place since the first call's copy
    want_v, want_m = _expected(4)
    np.testing.assert_array_equal(v.numpy(), want_v)
    np.testing.assert_array_equal(m.numpy(), want_m)


@pytest.mark.parametrize("read", [lambda v: v.value(), lambda v: v.read_value(),
                                  lambda v: tf.identity(v), np.asarray])
def test_values_read_eagerly_keep_their_value(read):
    v, m = tf.Variable(W0), tf.Variable(np.zeros_like(W0))
    step = _adam_like(v, m)
    step(tf.constant(D))
    step(tf.constant(D))            # the plan owns v's array now
    got = read(v)
    snapshot = v.numpy()
    step(tf.constant(D))
    # (an op reads the tensor's array itself, not a NumPy copy made earlier)
    np.testing.assert_array_equal(tf.add(got, 0.0).numpy(), snapshot)
    np.testing.assert_array_equal(v.numpy(), _expected(3)[0])


def test_a_value_the_function_returns_is_not_written_later():
    v = tf.Variable(W0)

    @tf.function
    def step():
        v.assign_add(tf.constant(D))
        return v.read_value()
    step()
    out = step()
    snapshot = out.numpy()
    step()
    np.testing.assert_array_equal(out.numpy(), snapshot)
    np.testing.assert_array_equal(v.numpy(), W0 + 3 * D)


def test_eager_assignment_between_calls_is_kept():
    v = tf.Variable(W0)

    @tf.function
    def step():
        v.assign_add(tf.constant(D))
    step()
    step()
    v.assign(np.ones_like(W0))
    step()
    np.testing.assert_array_equal(v.numpy(), np.ones_like(W0) + D)


def test_a_failing_call_leaves_the_variable_as_it_was():
    v = tf.Variable(W0)

    @tf.function
    def step(idx):
        v.assign_add(tf.constant(D))
        return tf.gather(tf.constant([1.0, 2.0]), idx)
    step(tf.constant(0))
    step(tf.constant(0))
    before = v.numpy()
    with pytest.raises(errors.InvalidArgumentError):
        step(tf.constant(5))
    np.testing.assert_array_equal(v.numpy(), before)
