"""Python's ``&``, ``|``, ``^``, ``~`` on tensors (logical on bool, bitwise on integers, as
TensorFlow's; Keras's image ops compute ``6 * k | 1``) and lists of tensors packed into another
dtype (cast, as ``tf.reshape(x, (float_tensor, 1))``) against TensorFlow 2.21: the program of
tools/tf_reference/tensor_operators_reference.py run with flowgrad as ``tf`` against its
recording tests/data/kernel_messages/operators_tf_2_21.json."""

import pytest

import flowgrad as tf
from flowgrad.framework.context import state
from tf_reference_program import load

PROGRAM, REF = load("tensor_operators_reference.py", "kernel_messages/operators_tf_2_21.json")


@pytest.fixture(autouse=True)
def eager():
    state.eager = True
    yield
    state.eager = True


def test_results_are_tensorflows():
    assert PROGRAM.program(tf) == REF
