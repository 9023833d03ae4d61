"""``tf.compat.v1.wrap_function`` and ``WrappedFunction.prune`` against TensorFlow 2.21
(tools/tf_reference/wrap_function.py, recorded in tests/data/wrap_function/)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

import flowgrad
import flowgrad.compat.v1 as v1

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tf_reference_program import load  # noqa: E402

PROGRAM, RECORD = load("wrap_function.py", "wrap_function/tf_2_21.json")


@pytest.fixture(autouse=True)
def eager():
    v1.enable_v2_behavior()     # the graph_mode fixture restores graph mode afterwards
    yield


def test_wrapped_and_pruned_functions_give_what_tensorflow_gives():
    assert PROGRAM.program(flowgrad) == RECORD


def test_prune_of_another_graphs_tensor_is_an_error_naming_it():
    def graph():
        v1.placeholder(flowgrad.float32, [None], name="x")
    wrapped = v1.wrap_function(graph, [])
    other = flowgrad.Graph()
    with other.as_default():
        stranger = v1.placeholder(flowgrad.float32, [None], name="stranger")
    with pytest.raises(ValueError, match="stranger"):
        wrapped.prune(feeds=stranger, fetches="x:0")
    with pytest.raises(TypeError, match="fetches"):
        wrapped.prune(feeds="x:0", fetches=3)
