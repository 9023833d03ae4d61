"""``tf.map_fn`` over ``tf.SparseTensor`` elements, as TensorFlow 2.21's: each element is the
sparse row one rank lower (Keras 3's ``ops.matmul`` of a rank-3/4 sparse tensor maps
``tf.sparse.sparse_dense_matmul`` over the batch), eagerly and in a tf.function. Recorded by
tools/tf_reference/map_fn_sparse.py."""
import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1

from tf_reference_program import flowgrad_stdout, recorded_text


@pytest.fixture(autouse=True)
def eager_mode():
    tf1.enable_v2_behavior()            # conftest starts every test in graph mode


def test_map_fn_over_sparse_elements_as_tensorflow():
    assert flowgrad_stdout("map_fn_sparse.py") == recorded_text("keras_suite/map_fn_sparse.txt")


def test_rows_of_an_unknown_batch_in_a_tf1_graph():
    with tf.Graph().as_default():
        st = tf1.sparse_placeholder(tf.float32, shape=[None, 3])
        sums = tf.map_fn(lambda row: tf.sparse.reduce_sum(row), st,
                         fn_output_signature=tf.float32)
        with tf1.Session() as sess:
            out = sess.run(sums, {st: tf1.SparseTensorValue([[0, 1], [2, 0], [2, 2]],
                                                            [1.0, 2.0, 3.0], [4, 3])})
    np.testing.assert_array_equal(out, [1.0, 0.0, 5.0, 0.0])
