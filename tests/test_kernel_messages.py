"""Eager ops fail with TensorFlow's error class and TensorFlow's kernel message.

tests/data/kernel_messages/tf_2_21.json holds what TensorFlow 2.21 raised for each case
(tools/tf_reference/kernel_messages.py made it); test suites written for TensorFlow match
these messages (``assertRaisesRegex(..., "Incompatible shapes")``), and tf.debugging's
assertions fail with TensorFlow's eager messages."""
import builtins
import json
import os

import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as tf1

RECORD = json.load(open(os.path.join(os.path.dirname(__file__), "data", "kernel_messages",
                                     "tf_2_21.json")))
# Where flowgrad's message still differs (the class is the same).
KNOWN: dict = {
    # TensorFlow's NodeDef line spells out the op's whole OpDef; flowgrad gives the first line
    "conv2d padding": "the first line of TensorFlow's message",
    "one_hot float": "TensorFlow's graph-mode message (Value passed to parameter ...)",
}


@pytest.fixture
def eager():
    tf1.enable_v2_behavior()
    yield
    tf1.disable_v2_behavior()


@pytest.mark.parametrize("label", sorted(RECORD["cases"]))
def test_eager_error_class_and_message_are_tensorflows(label, eager):
    case = RECORD["cases"][label]
    if case["error"] is None:       # TensorFlow raised nothing
        eval(case["expr"], {"tf": flowgrad, "np": np})  # noqa: S307 - recorded expressions
        return
    cls = getattr(flowgrad.errors, case["error"], None) or getattr(builtins, case["error"])
    with pytest.raises(cls) as info:
        eval(case["expr"], {"tf": flowgrad, "np": np})  # noqa: S307 - recorded expressions
    if label in KNOWN:
        return
    assert str(info.value) == case["message"]
