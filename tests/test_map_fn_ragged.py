"""tf.map_fn over RaggedTensor elements (Keras's TextVectorization adapt calls it) against
TensorFlow 2.21: the program of tools/tf_reference/map_fn_ragged_reference.py run with
flowgrad as ``tf`` against its recording tests/data/ragged/map_fn_tf_2_21.json."""

import pytest

import flowgrad as tf
from flowgrad.framework.context import state
from tf_reference_program import load

PROGRAM, REF = load("map_fn_ragged_reference.py", "ragged/map_fn_tf_2_21.json")


@pytest.fixture(autouse=True)
def eager():
    state.eager = True
    yield
    state.eager = True


def test_results_are_tensorflows():
    assert PROGRAM.program(tf) == REF
