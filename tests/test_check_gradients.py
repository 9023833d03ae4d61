"""flowgrad.testing.check_gradients: passes on right derivatives, FAILS on wrong ones.

A checker that cannot fail proves nothing, so most cases here are gradients that are
wrong on purpose: at first order, only at second order (a gradient that is right but not
differentiable), only in one mode, and a gradient that should be None."""
import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.testing import check_gradients

X = np.array([[0.5, -1.0, 2.0], [1.5, 0.3, -0.7]])


@tf.custom_gradient
def _sin_wrong_scale(x):
    return tf.sin(x), lambda dy: dy * tf.cos(x) * 1.001


@tf.custom_gradient
def _sin_frozen_gradient(x):
    """Right first derivative, but the gradient hides its dependence on x from order 2."""
    return tf.sin(x), lambda dy: dy * tf.stop_gradient(tf.cos(x))


@tf.custom_gradient
def _sin_right(x):
    return tf.sin(x), lambda dy: dy * tf.cos(x)


def test_right_derivatives_pass_in_graph_and_eager_mode_up_to_order_three():
    check_gradients(lambda x, y: tf.sin(x) * tf.exp(y), [X, X[::-1]], order=3)
    check_gradients(_sin_right, [X], order=2)
    assert not tf.executing_eagerly()       # the eager check restored graph mode


def test_the_public_face():
    assert tf.test.check_gradients is check_gradients
    assert "check_gradients" in tf.test.__all__


@pytest.mark.parametrize("mode", ["graph", "eager"])
def test_a_wrong_first_derivative_fails(mode):
    with pytest.raises(AssertionError, match="order 1 derivative w.r.t. input 0"):
        check_gradients(_sin_wrong_scale, [X], order=1, mode=mode)


@pytest.mark.parametrize("mode", ["graph", "eager"])
def test_a_gradient_that_is_not_differentiable_fails_at_order_two(mode):
    check_gradients(_sin_frozen_gradient, [X], order=1, mode=mode)
    with pytest.raises(AssertionError, match="order 2 derivative w.r.t. input 0"):
        check_gradients(_sin_frozen_gradient, [X], order=2, mode=mode)


def test_the_second_input_is_checked_too():
    @tf.custom_gradient
    def mul(a, b):
        return a * b, lambda dy: (dy * b, dy * b)       # the second is wrong
    with pytest.raises(AssertionError, match="input 1"):
        check_gradients(mul, [X, X + 1.0], order=1)


def test_a_missing_gradient_fails_where_the_derivative_is_not_zero():
    with pytest.raises(AssertionError, match="order 1"):
        check_gradients(lambda x: tf.stop_gradient(x) * x, [X], order=1, mode="eager")


def test_expect_none():
    check_gradients(lambda x, y: x * tf.stop_gradient(y), [X, X], order=2, expect_none=(1,))
    with pytest.raises(AssertionError, match="should be None"):
        check_gradients(lambda x, y: x * y, [X, X], order=1, expect_none=(1,))


def test_the_mode_switch_keeps_the_callers_mode():
    tf1.enable_v2_behavior()
    check_gradients(tf.tanh, [X], order=1, mode="graph")
    assert tf.executing_eagerly()
    tf1.disable_v2_behavior()
    with tf1.Graph().as_default() as g:
        check_gradients(tf.tanh, [X], order=1, mode="eager")
        assert tf1.get_default_graph() is g and not tf.executing_eagerly()


def test_bad_arguments():
    with pytest.raises(ValueError, match="mode must be"):
        check_gradients(tf.sin, [X], mode="jit")
    with pytest.raises(ValueError, match="order must be"):
        check_gradients(tf.sin, [X], order=0)
    with pytest.raises(ValueError, match="static shape"):
        check_gradients(lambda x: tf.boolean_mask(x, x > 0), [X], order=1, mode="graph")
    with pytest.raises(ValueError, match="no floating output"):
        check_gradients(lambda x: tf.cast(x, tf.int32), [X], order=1, mode="graph")
