"""What ``print``/``repr``/``str`` show for the values users print is TensorFlow's.

tests/data/reprs/user_reprs.json holds TensorFlow 2.21's ``str`` and ``repr`` of each case
(tools/tf_reference/user_reprs.py made it)."""
import builtins
import json
import os

import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as tf1

RECORD = json.load(open(os.path.join(os.path.dirname(__file__), "data", "reprs",
                                     "user_reprs.json")))


@pytest.fixture
def eager():
    tf1.enable_v2_behavior()
    yield
    tf1.disable_v2_behavior()


@pytest.mark.parametrize("expr", list(RECORD["cases"]))
def test_str_and_repr_are_tensorflows(expr, eager):
    case = RECORD["cases"][expr]
    if "error" in case:
        cls = getattr(flowgrad.errors, case["error"], None) or getattr(builtins, case["error"])
        with pytest.raises(cls, match=None) as info:
            eval(expr, {"tf": flowgrad, "np": np})  # noqa: S307 - recorded expressions
        assert str(info.value) == case["message"]
        return
    value = eval(expr, {"tf": flowgrad, "np": np})  # noqa: S307 - recorded expressions
    assert str(value) == case["str"]
    if case["repr"] is not None:    # None: TensorFlow's is Python's default (an address)
        assert repr(value) == case["repr"]
