"""What TF2 programs observe of ``tf.function`` tracing is TensorFlow's: which calls trace
(a default, positional or keyword argument is one call), ``experimental_get_tracing_count``,
the retracing warning on TensorFlow's logger and the errors of calls that do not bind.

tests/data/tf_function_tracing/tf_2_21.json holds the snippets and what they observed on
TensorFlow 2.21 (tools/tf_reference/tf_function_tracing.py made it; the test runs the same
code on flowgrad through that script's ``run``)."""
import importlib.util
import json
import os

import pytest

import flowgrad
import flowgrad.compat.v1 as tf1

HERE = os.path.dirname(__file__)
RECORD = json.load(open(os.path.join(HERE, "data", "tf_function_tracing", "tf_2_21.json")))
_spec = importlib.util.spec_from_file_location(
    "tf_function_tracing", os.path.join(HERE, "..", "tools", "tf_reference",
                                        "tf_function_tracing.py"))
SCRIPT = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(SCRIPT)


@pytest.fixture
def eager():
    tf1.enable_v2_behavior()
    yield
    tf1.disable_v2_behavior()


@pytest.mark.parametrize("name", list(RECORD["snippets"]))
def test_tracing_observations_are_tensorflows(name, eager):
    snippet = RECORD["snippets"][name]
    assert SCRIPT.run(flowgrad, snippet["code"]) == snippet["output"]
