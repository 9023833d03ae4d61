"""tf.experimental.DynamicRaggedShape (flowgrad/ops/dynamic_ragged_shape.py) against
TensorFlow 2.21: tf.shape of RaggedTensors, the factories, lengths, dtypes, reprs, and
reshape / broadcast_to / zeros / ones / broadcast_dynamic_shape with one, recorded by
tools/tf_reference/dynamic_ragged_shape_reference.py into tests/data/ragged_shape/tf_2_21.json."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1

sys.path.insert(0, str(Path(__file__).resolve().parent))
import tf_reference_program  # noqa: E402

MODULE, RECORD = tf_reference_program.load("dynamic_ragged_shape_reference.py",
                                           "ragged_shape/tf_2_21.json")


@pytest.fixture(autouse=True)
def eager():
    """TF2 behaviour (the conftest starts each test in TF1 graph mode)."""
    tf1.enable_v2_behavior()
    yield


@pytest.fixture
def results(eager):
    return json.loads(json.dumps(MODULE.program(tf)))


@pytest.mark.parametrize("key", sorted(RECORD))
def test_dynamic_ragged_shape_matches_tensorflow(results, key):
    assert results[key] == RECORD[key]


def test_the_shape_of_a_ragged_batch_builds_like_values():
    rt = tf.ragged.constant([[1.0, 2.0], [], [3.0]])
    shape = tf.shape(rt)
    assert isinstance(shape, tf.experimental.DynamicRaggedShape)
    assert (tf.zeros(shape) + rt).to_list() == rt.to_list()
    assert tf.ones_like(rt).to_list() == tf.ones(shape).to_list()
    assert tf.reshape(tf.range(3.0), tf.shape(rt, out_type=tf.int64)).to_list() == \
        [[0.0, 1.0], [], [2.0]]


def test_bad_lengths_and_axes_raise_tensorflows_classes():
    D = tf.experimental.DynamicRaggedShape
    with pytest.raises(ValueError, match="First element of lengths must be an int"):
        D.from_lengths([(1, 2), 3])
    with pytest.raises(ValueError, match="do not match the 2 rows"):
        D.from_lengths([2, (1, 2, 3)])
    with pytest.raises(IndexError, match="Expected axis=5 < rank=2"):
        D.from_lengths([2, (1, 2)]).is_uniform(5)
