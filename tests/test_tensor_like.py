"""``tf.is_tensor`` counts composite tensors as TensorFlow's does; ops convert objects of
TensorFlow's ``__tf_tensor__`` protocol through it in eager mode too (Keras's Variables cast
in an autocast scope that way); ConcreteFunction lists its trainable captured variables."""
import numpy as np
import pytest

import flowgrad as tf
from flowgrad.framework.context import state


@pytest.fixture(autouse=True)
def eager():
    state.eager = True
    yield
    state.eager = True


def test_is_tensor_counts_composite_tensors():
    assert tf.is_tensor(tf.SparseTensor([[0, 0]], [1.0], [2, 2]))
    assert tf.is_tensor(tf.ragged.constant([[1], [2, 3]]))
    assert tf.is_tensor(tf.IndexedSlices(tf.zeros([1, 2]), tf.constant([0])))
    assert tf.is_tensor(tf.constant(1.0)) and tf.is_tensor(tf.Variable(1.0))
    assert not tf.is_tensor(np.ones(2)) and not tf.is_tensor([1.0]) and not tf.is_tensor(None)
    assert tf.compat.v1.is_tensor(tf.SparseTensor([[0]], [1], [3]))

    class Like:
        is_tensor_like = True
    assert tf.is_tensor(Like())


class HalfView:
    """Converts to float16 through TensorFlow's protocol, though its array is float32."""

    def __init__(self, value):
        self.value = np.asarray(value, np.float32)

    def __array__(self, dtype=None):
        return self.value

    def __tf_tensor__(self, dtype=None, name=None):
        return tf.convert_to_tensor(self.value.astype(np.float16), dtype=dtype)


def test_eager_ops_convert_through_tf_tensor():
    v = HalfView([[1.0, 2.0]])
    assert tf.reshape(v, [2]).dtype == tf.float16
    assert tf.transpose(v).dtype == tf.float16
    assert (tf.constant([1.0, 1.0], tf.float16) + tf.reshape(v, [2])).dtype == tf.float16


def test_concrete_function_trainable_variables():
    a, b = tf.Variable(1.0), tf.Variable(2.0, trainable=False)
    f = tf.function(lambda x: x * a + b).get_concrete_function(tf.TensorSpec([], tf.float32))
    assert {id(v) for v in f.variables} == {id(a), id(b)}
    assert [id(v) for v in f.trainable_variables] == [id(a)]
