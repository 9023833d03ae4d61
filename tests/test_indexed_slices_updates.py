"""``tf.IndexedSlices`` where Keras 3's optimizers meet sparse gradients, as TensorFlow 2.21:
``tf.cast`` keeps an IndexedSlices (its values cast), the default replica context's
``all_reduce`` keeps it, so each Keras optimizer hands ``assign``/``assign_add``/
``assign_sub`` the sparse updates TensorFlow's does (optimizers/optimizer_sparse_test) with
TensorFlow's values (tools/tf_reference/indexed_slices_updates.py)."""
import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1

from tf_reference_program import flowgrad_stdout, recorded_text


@pytest.fixture(autouse=True)
def eager_mode():
    tf1.enable_v2_behavior()            # conftest starts every test in graph mode


def test_sparse_updates_as_tensorflow():
    assert flowgrad_stdout("indexed_slices_updates.py") == \
        recorded_text("keras_suite/indexed_slices_updates.txt")


def test_cast_of_indexed_slices_in_a_graph_keeps_its_gradient():
    with tf.Graph().as_default():
        v = tf1.get_variable("v", initializer=np.ones((4, 2), np.float32))
        g = tf.gradients(tf.reduce_sum(tf.gather(v, [1, 3]) * 3.0), v)[0]
        c = tf.cast(g, tf.float64)
        assert isinstance(c, tf.IndexedSlices) and c.values.dtype == tf.float64
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            values, indices = sess.run([c.values, c.indices])
    np.testing.assert_array_equal(values, np.full((2, 2), 3.0))
    np.testing.assert_array_equal(indices, [1, 3])
