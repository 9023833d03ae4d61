"""TensorFlow's eager ``tf.while_loop`` keeps the loop variables as the body returns them (a
Python int counter stays an int, so Keras 3's ``ops.fori_loop(0, n, lambda i, x: x + i,
float64 x)`` works) and returns tensors at the end, as TensorFlow 2.21
(tools/tf_reference/eager_while_loop_vars.py)."""
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1

from tf_reference_program import flowgrad_stdout, recorded_text


@pytest.fixture(autouse=True)
def eager_mode():
    tf1.enable_v2_behavior()            # conftest starts every test in graph mode


def test_eager_loop_variables_as_tensorflow():
    assert flowgrad_stdout("eager_while_loop_vars.py") == \
        recorded_text("keras_suite/eager_while_loop_vars.txt")


def test_the_result_is_tensors_and_the_body_sees_python_values():
    kinds = []

    def body(i, s):
        kinds.append(type(i))
        return i + 1, tf.concat([s, [i]], 0)

    i, s = tf.while_loop(lambda i, s: i < 2, body, (0, tf.constant([7])))
    assert kinds == [int, int] and isinstance(i, tf.Tensor) and int(i) == 2
    assert s.numpy().tolist() == [7, 0, 1]
