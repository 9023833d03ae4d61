"""The SparseTensor operations Keras's TensorFlow backend uses (``tf.sparse.reshape``,
``map_values``, sparse ``/`` and ``*`` by dense tensors, ``tf.shape``/``tf.cast``/
``tf.is_tensor`` of sparse values), against TensorFlow 2.21's results
(tests/data/sparse/keras_ops_tensorflow_2.21.json, recorded by
tools/tf_reference/sparse_keras_reference.py)."""
import json
from pathlib import Path

import numpy as np
import pytest

import flowgrad as tf
from flowgrad.framework import errors
from flowgrad.framework.context import state

REF = json.loads((Path(__file__).parent / "data" / "sparse" / "keras_ops_tensorflow_2.21.json")
                 .read_text())


@pytest.fixture(autouse=True)
def eager():
    state.eager = True
    yield
    state.eager = True


def _sparse():
    return tf.sparse.reorder(tf.SparseTensor([[0, 1, 0], [1, 2, 1], [1, 0, 0]],
                                             [2.0, 4.0, -1.0], [2, 3, 2]))


@pytest.mark.parametrize("key,shape", [("reshape_3_m1", [3, -1]), ("reshape_m1_2_1", [-1, 2, 1])])
def test_reshape(key, shape):
    s = _sparse()
    r = tf.sparse.reshape(s, shape)
    assert r.indices.numpy().tolist() == REF[key]["indices"]
    assert r.dense_shape.numpy().tolist() == REF[key]["dense_shape"]
    np.testing.assert_array_equal(tf.sparse.to_dense(r).numpy().ravel(),
                                  tf.sparse.to_dense(s).numpy().ravel())


def test_reshape_in_a_function_and_its_values_gradient():
    s = _sparse()
    f = tf.function(lambda v: tf.sparse.to_dense(tf.sparse.reshape(
        tf.SparseTensor(s.indices, v, s.dense_shape), [3, -1])))
    v = tf.constant([2.0, 4.0, -1.0])
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = tf.reduce_sum(f(v) * np.arange(12.0).reshape(3, 4))
    # each value's gradient is the weight at its place in the reshaped tensor
    flat = [i * 4 + j for i, j in REF["reshape_3_m1"]["indices"]]
    np.testing.assert_array_equal(tape.gradient(y, v).numpy(), np.asarray(flat, np.float32))


def test_reshape_to_another_size_fails_as_tensorflow():
    cls, message = REF["reshape_error"]
    with pytest.raises(errors.InvalidArgumentError, match=message):
        tf.sparse.reshape(_sparse(), [5, -1])
    assert cls == "InvalidArgumentError"


def test_dense_cwise_and_conversions():
    s = _sparse()
    assert (s / 2.0).values.numpy().tolist() == REF["div_scalar"]
    assert (s * tf.constant([[[1.0]], [[10.0]]])).values.numpy().tolist() == REF["mul_broadcast"]
    assert tf.shape(s).numpy().tolist() == REF["shape"]
    assert tf.shape(s, out_type=tf.int64).dtype.name == REF["shape_int64_dtype"]
    cast = tf.cast(s, tf.int32)
    assert isinstance(cast, tf.SparseTensor) and cast.values.numpy().tolist() == REF["cast_int32"]
    m = tf.sparse.map_values(tf.math.multiply, s, 3.0)
    assert m.values.numpy().tolist() == REF["map_values_mul_3"]
    assert [tf.is_tensor(s), tf.is_tensor(tf.ragged.constant([[1]])),
            tf.is_tensor(tf.IndexedSlices(tf.zeros([1, 2]), tf.constant([0])))] == REF["is_tensor"]


