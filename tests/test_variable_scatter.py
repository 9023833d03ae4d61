"""TensorFlow 1's sparse updates of variables (``tf.scatter_*``, ``tf.scatter_nd_*``,
``tf.batch_scatter_update``, ``tf.count_up_to``), the ``Variable.scatter_*`` methods and
``tf.assign(validate_shape=False)``.

tools/tf_reference/variable_scatter.py runs them eagerly, in a ``tf.function`` and on TF1 graph
variables; real TensorFlow 2.21 printed tests/data/variable_scatter/tf_2_21.txt and flowgrad
must print the same lines (values, dtypes, op types, shapes, error classes and messages)."""
import os
import subprocess
import sys

import numpy as np
import pytest

import flowgrad as tf2
import flowgrad.compat.v1 as tf
from flowgrad.framework import errors
from flowgrad.framework.context import state

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_a_tensorflow_program_prints_what_tensorflow_printed():
    want = open(os.path.join(ROOT, "tests", "data", "variable_scatter", "tf_2_21.txt")).read()
    out = subprocess.run([sys.executable, "-m", "flowgrad",
                          os.path.join(ROOT, "tools", "tf_reference", "variable_scatter.py")],
                         capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": ROOT})
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == want.splitlines()


@pytest.fixture
def eager():
    state.eager = True
    yield


@pytest.fixture
def graph():
    with tf.Graph().as_default() as g:
        yield g


def test_graph_scatter_ops_are_tensorflows_ref_ops(graph):
    v = tf.Variable(np.zeros((3, 2), np.float32), name="v")
    up = tf.scatter_update(v, [2], [[1., 2.]], name="up")
    assert (up.op.type, up.op.name, up.dtype) == ("ScatterUpdate", "up", tf.float32._as_ref())
    with tf.Session(graph=graph) as sess:
        sess.run(v.initializer)
        sess.run(up)
        np.testing.assert_array_equal(sess.run(v), [[0, 0], [0, 0], [1, 2]])


def test_shapes_are_checked_when_the_graph_is_built(graph):
    v = tf.Variable(np.zeros((3, 2), np.float32))
    with pytest.raises(ValueError):
        tf.scatter_add(v, [0, 1], [[1., 2.]])
    with pytest.raises(ValueError):
        tf.scatter_nd_update(v, [[0, 0, 0]], [1.])
    with pytest.raises(TypeError):
        tf.scatter_update(v, [0.5], [[1., 2.]])


def test_duplicate_rows_combine_in_order(graph):
    v = tf.Variable(np.array([[8.], [1.]], np.float64))
    div = tf.scatter_div(v, [0, 0, 1], [[2.], [4.], [0.5]])
    mn = tf.scatter_min(v, [1, 1], [[0.], [-3.]])
    with tf.Session(graph=graph) as sess:
        sess.run(v.initializer)
        np.testing.assert_array_equal(sess.run(div), [[1.], [2.]])
        np.testing.assert_array_equal(sess.run(mn), [[1.], [-3.]])


def test_integer_division_rounds_toward_zero(eager):
    v = tf2.Variable([7, -7, 7, -7])
    tf.scatter_div(v, [0, 1, 2, 3], [2, 2, -2, -2])
    np.testing.assert_array_equal(v.numpy(), [3, -3, -3, 3])


def test_eager_errors_leave_the_variable_unchanged(eager):
    v = tf2.Variable([1., 2.])
    with pytest.raises(errors.InvalidArgumentError, match=r"indices\[1\] = 2 is not in \[0, 2\)"):
        tf.scatter_update(v, [0, 2], [5., 6.])
    np.testing.assert_array_equal(v.numpy(), [1., 2.])
    with pytest.raises(TypeError, match="sparse_delta"):
        v.scatter_add([1.])


def test_scatter_in_a_while_loop_of_a_function(eager):
    v = tf2.Variable(np.zeros(4))

    @tf2.function
    def fill():
        i = tf2.constant(0)
        while i < 4:
            tf.scatter_add(v, tf2.reshape(i, [1]), tf2.cast(tf2.reshape(i, [1]), tf2.float64))
            i += 1
        return v.read_value()

    np.testing.assert_array_equal(fill().numpy(), [0., 1., 2., 3.])


def test_count_up_to_raises_out_of_range_at_the_limit(graph):
    c = tf.Variable(np.int64(5))
    up = tf.count_up_to(c, 6)
    assert up.dtype == tf.int64
    with tf.Session(graph=graph) as sess:
        sess.run(c.initializer)
        assert sess.run(up) == 5
        with pytest.raises(errors.OutOfRangeError, match="Reached limit of 6"):
            sess.run(up)
        assert sess.run(c) == 6


def test_assign_without_shape_validation_changes_the_variables_shape(graph):
    v = tf.Variable(np.zeros(2, np.float32), validate_shape=False)
    grow = tf.assign(v, tf.zeros([2, 3]), validate_shape=False)
    assert grow.shape == (2, 3)
    with tf.Session(graph=graph) as sess:
        sess.run(v.initializer)
        assert sess.run(grow).shape == (2, 3)
        assert sess.run(v).shape == (2, 3)
