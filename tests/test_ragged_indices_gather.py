"""``tf.gather`` and ``tf.nn.embedding_lookup`` at RaggedTensor indices (Keras 3's
``ops.take`` with ragged indices), as TensorFlow 2.21's ragged dispatch: the values, shapes
(a RaggedTensor's uniform row lengths are known dimensions) and errors recorded by
tools/tf_reference/ragged_indices_gather.py."""
import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1

from tf_reference_program import flowgrad_stdout, recorded_text


@pytest.fixture(autouse=True)
def eager_mode():
    tf1.enable_v2_behavior()            # conftest starts every test in graph mode


def test_gathers_at_ragged_indices_as_tensorflow():
    assert flowgrad_stdout("ragged_indices_gather.py") == \
        recorded_text("keras_suite/ragged_indices_gather.txt")


def test_uniform_row_lengths_are_known_dimensions():
    rt = tf.RaggedTensor.from_uniform_row_length(tf.range(6), 3)
    assert rt.shape.as_list() == [2, 3] and int(rt.uniform_row_length) == 3
    assert rt.with_values(rt.values * 2).shape.as_list() == [2, 3]
    assert tf.ragged.constant([[1], [2, 3]]).uniform_row_length is None


def test_gather_at_ragged_indices_in_a_tf_function_and_its_gradient():
    x = tf.Variable(np.arange(12, dtype=np.float64).reshape(3, 4))
    indices = tf.ragged.constant([[2], [0, 2, 1]])

    @tf.function
    def f():
        with tf.GradientTape() as tape:
            picked = tf.gather(x, indices, axis=1)
            loss = tf.reduce_sum(picked.flat_values ** 2)
        return picked.flat_values, tape.gradient(loss, x)

    values, grad = f()
    dense = np.arange(12.0).reshape(3, 4)
    expected = dense[:, [2, 0, 2, 1]]
    np.testing.assert_array_equal(values.numpy(), expected.reshape(-1, 1).ravel())
    want = np.zeros((3, 4))
    for c in [2, 0, 2, 1]:
        want[:, c] += 2 * dense[:, c]
    np.testing.assert_allclose(tf.convert_to_tensor(grad).numpy(), want)
