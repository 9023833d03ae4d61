"""tf.TensorArray: eager, graph, tf.function and tf.while_loop, with numerical gradients.

The numerical gradient checks of the tensor_array cases are entries of tests/op_db.py."""
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
