"""tf.test.compute_gradient / compute_gradient_error (TF1 and TF2 signatures) on users' own
gradients: RegisterGradient + gradient_override_map, py_func gradients, custom_gradient."""
import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as tf

X = np.array([[0.5, -1.0, 2.0], [1.5, 0.3, -0.7]])


@pytest.fixture
def eager():
    tf.enable_v2_behavior()
    yield
    tf.disable_v2_behavior()


def _register_once(name, fn):
    from flowgrad.framework.registry import has_gradient_entry
    if not has_gradient_entry(name):
        tf.RegisterGradient(name)(fn)


# --------------------------------------------------------------------------------------
# TF1: compute_gradient(x, x_shape, y, y_shape, ...)


def test_v1_jacobians_of_a_builtin_op():
    x = tf.placeholder(tf.float64, [2, 3])
    y = tf.reduce_sum(x * x, axis=1)
    with tf.Session():
        jt, jn = tf.test.compute_gradient(x, [2, 3], y, [2], x_init_value=X)
        err = tf.test.compute_gradient_error(x, [2, 3], y, [2], x_init_value=X)
    assert jt.shape == (6, 2) and jt.dtype == np.float64
    expected = np.zeros((6, 2))
    expected[:3, 0] = 2 * X[0]
    expected[3:, 1] = 2 * X[1]
    np.testing.assert_allclose(jt, expected)
    np.testing.assert_allclose(jn, expected, atol=1e-6)
    assert err < 1e-6


def test_v1_list_of_xs_constants_and_extra_feeds():
    a = tf.constant([1.0, 2.0], dtype=tf.float64)
    b = tf.constant([3.0, -1.0], dtype=tf.float64)
    scale = tf.placeholder(tf.float64, [])
    y = a * b * scale
    with tf.Session():
        (ja, na), (jb, nb) = tf.test.compute_gradient(
            [a, b], [[2], [2]], y, [2], x_init_value=[np.array([1.0, 2.0]),
                                                      np.array([3.0, -1.0])],
            extra_feed_dict={scale: 2.0})
    np.testing.assert_allclose(ja, np.diag([6.0, -2.0]))
    np.testing.assert_allclose(jb, np.diag([2.0, 4.0]))
    np.testing.assert_allclose(na, ja, atol=1e-6)
    np.testing.assert_allclose(nb, jb, atol=1e-6)


def test_v1_detects_a_wrong_registered_gradient():
    _register_once("CheckerWrongSquareGrad", lambda op, g: g * op.inputs[0])  # missing the 2
    x = tf.placeholder(tf.float64, [3])
    with tf.get_default_graph().gradient_override_map({"Square": "CheckerWrongSquareGrad"}):
        y = tf.square(x)
    with tf.Session():
        err = tf.test.compute_gradient_error(x, [3], y, [3], x_init_value=np.array([1., 2., 3.]))
    assert err == pytest.approx(3.0, abs=1e-6)             # |x - 2x| at x = 3


def test_v1_checks_a_py_func_gradient_seed_style():

    def cube_grad(op, grad):
        x = op.inputs[0]
        return grad * tf.py_func(lambda v: 3 * v * v, [x], tf.float64)

    _register_once("CheckerCubeGrad", cube_grad)
    x = tf.placeholder(tf.float64, [3])
    with tf.get_default_graph().gradient_override_map({"PyFunc": "CheckerCubeGrad",
                                                       "PyFuncStateless": "CheckerCubeGrad"}):
        y = tf.py_func(lambda v: v ** 3, [x], tf.float64)
    y.set_shape([3])
    with tf.Session():
        err = tf.test.compute_gradient_error(x, [3], y, [3],
                                             x_init_value=np.array([0.5, -1.0, 2.0]))
    assert err < 1e-5


def test_v1_needs_a_default_session_and_float_types():
    x = tf.placeholder(tf.float64, [2])
    with pytest.raises(ValueError, match="needs a default session"):
        tf.test.compute_gradient(x, [2], x * 2.0, [2])
    n = tf.placeholder(tf.int32, [2])
    with tf.Session(), pytest.raises(TypeError, match="unsupported type int32 of x"):
        tf.test.compute_gradient(n, [2], tf.cast(n, tf.float64), [2])
    with tf.Session(), pytest.raises(ValueError, match="init_data shape"):
        tf.test.compute_gradient(x, [2], x * 2.0, [2], x_init_value=np.zeros(3))


def test_v1_random_init_value_is_used_when_none_given():
    x = tf.placeholder(tf.float64, [4])
    with tf.Session():
        jt, jn = tf.test.compute_gradient(x, [4], tf.sin(x), [4])
    np.testing.assert_allclose(jt, jn, atol=1e-5)
    assert np.count_nonzero(jt - np.diag(np.diag(jt))) == 0


# --------------------------------------------------------------------------------------
# TF2: compute_gradient(f, x, delta)


def test_v2_eager_jacobian_layout(eager):
    theoretical, numerical = flowgrad.test.compute_gradient(
        lambda a, b: flowgrad.matmul(a, b), [X, X.T.copy()])
    assert len(theoretical) == 2 and theoretical[0].shape == (4, 6)   # (y size, x size)
    for t, n in zip(theoretical, numerical):
        np.testing.assert_allclose(t, n, atol=1e-6)
    assert flowgrad.test.compute_gradient_error(lambda a: a * a, [X]) < 1e-6


def test_v2_eager_catches_a_wrong_custom_gradient(eager):

    @flowgrad.custom_gradient
    def bad_square(x):
        return x * x, lambda dy: dy * x          # should be 2 * x

    t, n = flowgrad.test.compute_gradient(bad_square, [np.array([1.0, 2.0])])
    np.testing.assert_allclose(t[0], np.diag([1.0, 2.0]))
    np.testing.assert_allclose(n[0], np.diag([2.0, 4.0]), atol=1e-6)
    assert flowgrad.test.max_error(t, n) == pytest.approx(2.0, abs=1e-6)


def test_v2_in_graph_mode_uses_the_default_session():
    with tf.Session():
        t, n = flowgrad.test.compute_gradient(lambda a: tf.reduce_sum(a * a), [X[0]])
    assert t[0].shape == (1, 3)
    np.testing.assert_allclose(t[0], [2 * X[0]])
    np.testing.assert_allclose(n[0], t[0], atol=1e-5)


def test_v2_argument_checks(eager):
    with pytest.raises(ValueError, match="must be a list or tuple"):
        flowgrad.test.compute_gradient(lambda a: a, X)
    with pytest.raises(TypeError, match="unsupported type int32"):
        flowgrad.test.compute_gradient(lambda a: a, [np.array([1, 2], np.int32)])
    assert flowgrad.test.is_gpu_available() is False
