"""Python's ``&``, ``|``, ``^``, ``~`` on tensors (logical on bool, bitwise on integers, as
TensorFlow's; Keras's image ops compute ``6 * k | 1``) and lists of tensors packed into another
dtype (cast, as ``tf.reshape(x, (float_tensor, 1))``) against TensorFlow 2.21: the program of
tools/tf_reference/tensor_operators_reference.py run with flowgrad as ``tf`` against its
recording tests/data/kernel_messages/operators_tf_2_21.json."""
import importlib.util
import json
import os

import pytest

import flowgrad as tf
from flowgrad.framework.context import state

_HERE = os.path.dirname(__file__)
with open(os.path.join(_HERE, "data", "kernel_messages", "operators_tf_2_21.json")) as _f:
    REF = json.load(_f)
_spec = importlib.util.spec_from_file_location(
    "tensor_operators_reference", os.path.join(_HERE, "..", "tools", "tf_reference",
                                               "tensor_operators_reference.py"))
PROGRAM = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(PROGRAM)


@pytest.fixture(autouse=True)
def eager():
    state.eager = True
    yield
    state.eager = True


def test_results_are_tensorflows():
    assert PROGRAM.program(tf) == REF
