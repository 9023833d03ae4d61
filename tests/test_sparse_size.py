"""``tf.size`` of a ``tf.SparseTensor`` (its dense shape's product) as TensorFlow 2.21's, and
Keras 3's ``ops.multiply`` of SparseTensors with disjoint/subset/superset indices that needs
it (ops/numpy_test SparseTest), recorded by tools/tf_reference/sparse_size.py."""
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1

from tf_reference_program import flowgrad_stdout, recorded_text


@pytest.fixture(autouse=True)
def eager_mode():
    tf1.enable_v2_behavior()            # conftest starts every test in graph mode


def test_sparse_size_and_keras_sparse_multiply_as_tensorflow():
    assert flowgrad_stdout("sparse_size.py") == recorded_text("keras_suite/sparse_size.txt")


def test_size_of_a_sparse_placeholder_in_a_tf1_graph():
    with tf.Graph().as_default():
        st = tf1.sparse_placeholder(tf.float32, shape=[None, 4])
        n = tf.size(st, out_type=tf.int64)
        assert n.dtype == tf.int64 and n.shape.as_list() == []
        with tf1.Session() as sess:
            got = sess.run(n, {st: tf1.SparseTensorValue([[0, 1]], [1.0], [3, 4])})
    assert got == 12
