"""tf.math.erf / erfc, the gamma family, ndtri and erfinv: values against Python's math module.

Their numerical gradient checks are entries of tests/op_db.py (family special_math)."""
import math

import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as tf

X = np.array([[-3.0, -0.7, 0.0], [0.2, 1.1, 4.0]])


@pytest.mark.parametrize("name,ref", [("erf", math.erf), ("erfc", math.erfc)])
def test_values_and_dtypes(name, ref):
    fn = getattr(tf.math, name)
    assert getattr(tf, name) is fn and getattr(flowgrad.math, name) is fn
    want = np.vectorize(ref)(X)
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(fn(X)), want, rtol=1e-15)
        got32 = sess.run(fn(X.astype(np.float32)))
    assert got32.dtype == np.float32
    np.testing.assert_allclose(got32, want.astype(np.float32), rtol=1e-6)
    with pytest.raises(TypeError, match="Erf"):
        fn(tf.constant([1, 2]))


EULER = 0.5772156649015329
APERY = 1.2020569031595942
POS = np.array([[0.3, 1.0, 1.7], [4.2, 11.5, 25.0]])


def test_lgamma_digamma_polygamma_values():
    x = np.array([0.5, 1.0, 3.7, -1.3, 40.0])
    with tf.Session() as sess:
        got = sess.run([tf.math.lgamma(x), tf.math.digamma(np.array([1.0, 0.5, -0.5])),
                        tf.math.polygamma(1.0, np.array([1.0, 0.5])),
                        tf.math.polygamma(np.array([0.0, 2.0]), np.array([1.0, 1.0])),
                        tf.math.lgamma(np.array([0.0, -2.0]))])
    np.testing.assert_allclose(got[0], [math.lgamma(v) for v in x], rtol=1e-14)
    np.testing.assert_allclose(got[1], [-EULER, -EULER - 2 * math.log(2),
                                        -EULER - 2 * math.log(2) + 2.0], rtol=1e-13)
    np.testing.assert_allclose(got[2], [math.pi ** 2 / 6, math.pi ** 2 / 2], rtol=1e-13)
    np.testing.assert_allclose(got[3], [-EULER, -2 * APERY], rtol=1e-13)
    assert np.isposinf(got[4]).all()
    assert tf.lgamma is tf.math.lgamma and flowgrad.math.digamma is tf.digamma


def test_digamma_is_the_derivative_of_lgamma():
    x = tf.placeholder(tf.float64, [2, 3])
    (g,) = tf.gradients(tf.reduce_sum(tf.math.lgamma(x)), x)
    (h,) = tf.gradients(tf.reduce_sum(tf.math.digamma(x)), x)
    with tf.Session() as sess:
        gv, hv, d, t = sess.run([g, h, tf.math.digamma(x), tf.math.polygamma(1.0, x)], {x: POS})
    np.testing.assert_allclose(gv, d, rtol=1e-14)
    np.testing.assert_allclose(hv, t, rtol=1e-14)


PROBS = np.array([[1e-12, 0.02, 0.3], [0.5, 0.77, 0.999]])


def test_ndtri_and_erfinv_invert_the_cdf_and_erf():
    with tf.Session() as sess:
        x, e, edge = sess.run([tf.math.ndtri(PROBS), tf.math.erfinv(np.tanh(X)),
                               tf.math.ndtri(np.array([0.0, 1.0, 1.5]))])
    back = np.vectorize(lambda v: 0.5 * math.erfc(-v / math.sqrt(2)))(x)
    np.testing.assert_allclose(back, PROBS, rtol=1e-13)
    np.testing.assert_allclose(np.vectorize(math.erf)(e), np.tanh(X), rtol=1e-13)
    assert np.isneginf(edge[0]) and np.isposinf(edge[1]) and np.isnan(edge[2])
    assert flowgrad.math.ndtri is tf.math.ndtri and flowgrad.math.erfinv is tf.math.erfinv
