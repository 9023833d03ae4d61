"""tf.TensorArray: eager, graph, tf.function and tf.while_loop, with numerical gradients.

The numerical gradient checks of the tensor_array cases are entries of tests/op_db.py."""
import numpy as np
import pytest

import flowgrad as tf2
import flowgrad.compat.v1 as tf
from flowgrad.framework import errors
from flowgrad.framework.context import state


@pytest.fixture
def eager():
    tf.enable_v2_behavior()
    yield
    state.tapes.clear()


def test_eager_values_and_api(eager):
    ta = tf2.TensorArray(tf2.float32, size=3)
    ta = ta.write(0, [1.0, 2.0]).write(2, [5.0, 6.0])
    assert ta.stack().numpy().tolist() == [[1.0, 2.0], [0.0, 0.0], [5.0, 6.0]]
    assert int(ta.size()) == 3 and ta.element_shape == tf2.TensorShape([2])
    assert ta.read(2).numpy().tolist() == [5.0, 6.0]
    with pytest.raises(errors.InvalidArgumentError, match="cleared after a previous read"):
        ta.read(2)
    grown = tf2.TensorArray(tf2.float32, size=0, dynamic_size=True)
    for i in range(3):
        grown = grown.write(i, tf2.fill([2], float(i)))
    assert int(grown.size()) == 3
    assert grown.concat().numpy().tolist() == [0.0, 0.0, 1.0, 1.0, 2.0, 2.0]
    assert grown.gather([2, 0]).numpy().tolist() == [[2.0, 2.0], [0.0, 0.0]]
    split = tf2.TensorArray(tf2.float32, size=2).split(tf2.range(6.0), [3, 3])
    assert split.read(1).numpy().tolist() == [3.0, 4.0, 5.0]


def test_eager_while_loop_and_tf_function_agree(eager):
    def run(n):
        ta = tf2.TensorArray(tf2.float32, size=0, dynamic_size=True)
        _, ta = tf2.while_loop(lambda i, ta: i < n,
                               lambda i, ta: (i + 1, ta.write(i, tf2.cast(i, tf2.float32) ** 2)),
                               [tf2.constant(0), ta])
        return ta.stack()

    expected = [0.0, 1.0, 4.0, 9.0, 16.0]
    assert run(tf2.constant(5)).numpy().tolist() == expected
    traced = tf2.function(run)
    assert traced(tf2.constant(5)).numpy().tolist() == expected
    assert traced(tf2.constant(2)).numpy().tolist() == expected[:2]


def test_graph_while_loop_with_unknown_element_shape():
    n = tf.placeholder(tf.int32, [])
    ta = tf.TensorArray(tf.float32, size=n)
    _, ta = tf.while_loop(lambda i, ta: i < n,
                          lambda i, ta: (i + 1, ta.write(i, tf.fill([2], tf.cast(i, tf.float32)))),
                          [tf.constant(0), ta])
    with tf.Session() as sess:
        assert sess.run(ta.stack(), {n: 3}).tolist() == [[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]]


def test_errors():
    with pytest.raises(ValueError, match="Size must be provided"):
        tf.TensorArray(tf.float32)
    ta = tf.TensorArray(tf.float32, size=2, element_shape=[3])
    with pytest.raises(ValueError, match="incompatible"):
        ta.write(0, [1.0, 2.0])
    with pytest.raises(ValueError, match="unstack 3 elements"):
        ta.unstack(tf.zeros([3, 3]))
    index = tf.placeholder(tf.int32, [])
    over = ta.write(index, tf.zeros([3]))
    with tf.Session() as sess:
        with pytest.raises(errors.InvalidArgumentError, match="not resizeable and size is: 2"):
            sess.run(over.stack(), {index: 5})
    tf.enable_v2_behavior()
    eager_ta = tf2.TensorArray(tf2.float32, size=1)
    with pytest.raises(errors.OutOfRangeError, match="array size is: 1"):
        eager_ta.read(3)
    with pytest.raises(errors.OutOfRangeError, match="not resizeable and size is: 1"):
        eager_ta.write(1, 0.0)
    written = eager_ta.write(0, [1.0, 2.0])
    assert written is eager_ta                          # eager writes are in place, as in TF
    with pytest.raises(ValueError, match="Incompatible shape"):
        written.write(0, [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="Cannot unstack 2 tensors"):
        written.unstack(tf2.zeros([2, 2]))


def test_autograph_loops_and_branches_carry_tensor_arrays(eager):
    @tf2.function
    def squares(n):
        ta = tf2.TensorArray(tf2.float32, size=0, dynamic_size=True)
        for i in tf2.range(n):
            v = tf2.cast(i, tf2.float32)
            if v > 1.0:
                ta = ta.write(i, v * v)
            else:
                ta = ta.write(i, -v)
        return ta.stack()

    assert squares(tf2.constant(4)).numpy().tolist() == [0.0, -1.0, 4.0, 9.0]
    x = tf2.Variable([1.0, 2.0, 3.0])

    @tf2.function
    def total(x):
        ta = tf2.TensorArray(tf2.float32, size=3, element_shape=[])
        for i in tf2.range(3):
            ta = ta.write(i, x[i] * x[i])
        return tf2.reduce_sum(ta.stack())

    with tf2.GradientTape() as tape:
        y = total(x)
    assert float(y) == 14.0 and tape.gradient(y, x).numpy().tolist() == [2.0, 4.0, 6.0]


def test_tf_function_returns_a_tensor_array(eager):
    @tf2.function
    def make(x):
        ta = tf2.TensorArray(tf2.float32, size=2)
        return ta.write(0, x).write(1, 2.0 * x), tf2.reduce_sum(x)

    ta, total = make(tf2.constant([1.0, 2.0]))
    assert isinstance(ta, tf2.TensorArray) and float(total) == 3.0
    assert ta.stack().numpy().tolist() == [[1.0, 2.0], [2.0, 4.0]]
    assert ta.read(1).numpy().tolist() == [2.0, 4.0]


def _write_loop(n, also_stack=False, read_too=False):
    x = tf.placeholder(tf.float64, [n, 3])
    ta = tf.TensorArray(tf.float64, size=n, element_shape=[3])

    def body(i, ta, s):
        v = tf.tanh(x[i])
        if read_too:
            v = v + ta.read(tf.maximum(i - 1, 0))
        ta = ta.write(i, v)
        return i + 1, ta, ta.stack() if also_stack else s
    _, ta, s = tf.while_loop(lambda i, ta, s: i < n, body,
                             [0, ta, tf.zeros([n, 3], tf.float64)])
    return x, ta.stack(), s


def _body_of_loop():
    ops = [op for op in tf.get_default_graph().get_operations() if op.type == "While"]
    return ops[-1].get_attr("body")


def test_loop_writes_reuse_the_flow_only_where_nothing_else_holds_it():
    # without a gradient, a loop whose TensorArray flow only its write reads writes into
    # the previous iteration's flow (O(1) a write, not O(size)); the caller's initial flow,
    # a flow also kept as another loop variable, and a flow the body reads are not written
    from flowgrad.ops.while_v2 import _donatable
    rng = np.random.RandomState(0)
    xv = rng.randn(6, 3)
    want = np.tanh(xv)
    with tf.Graph().as_default():
        x, stacked, s = _write_loop(6, also_stack=True)
        assert _donatable(_body_of_loop(), 3) == [1]
        sess = tf.Session()
        for _ in range(2):      # the initial (folded) zeros stay zeros between runs
            got, got_s = sess.run([stacked, s], {x: xv})
            np.testing.assert_array_equal(got, want)
            np.testing.assert_array_equal(got_s, want)
    with tf.Graph().as_default():
        x, stacked, _ = _write_loop(6, read_too=True)
        assert _donatable(_body_of_loop(), 3) == []
        prev = np.zeros(3)
        rows = []
        for t in range(6):
            rows.append(np.tanh(xv[t]) + (rows[t - 1] if t else prev))
        np.testing.assert_allclose(tf.Session().run(stacked, {x: xv}), np.array(rows))


def test_loop_writes_with_a_gradient_keep_every_flow():
    # with a gradient the loop records its flows (history): writes copy, and the gradient
    # of sum(stack * w) w.r.t. x is tanh'(x) * w
    rng = np.random.RandomState(1)
    xv, wv = rng.randn(5, 3), rng.randn(5, 3)
    with tf.Graph().as_default():
        x, stacked, _ = _write_loop(5)
        g, = tf.gradients(tf.reduce_sum(stacked * wv), x)
        sess = tf.Session()
        for _ in range(2):
            got, gv = sess.run([stacked, g], {x: xv})
            np.testing.assert_allclose(got, np.tanh(xv))
            np.testing.assert_allclose(gv, (1 - np.tanh(xv) ** 2) * wv)
