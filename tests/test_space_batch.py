"""SpaceToBatchND / BatchToSpaceND (tf.space_to_batch_nd, tf.space_to_batch, tf.batch_to_space,
the TF1 forms, tf.required_space_to_batch_paddings) against TensorFlow 2.21
(tests/data/tf2_gaps/space_batch.json); the gradient checks are in tests/op_db.py."""
from __future__ import annotations

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as v1

from tf2_gaps_replay import load, replay, static_shapes

REF = load("space_batch")


@pytest.fixture(autouse=True)
def eager():
    """These tests run as TF2 programs (the suite starts each test in graph mode)."""
    v1.enable_v2_behavior()
    yield


@pytest.mark.parametrize("expr", sorted(REF["cases"]))
def test_matches_tensorflow(expr):
    replay(REF, expr)


def test_static_shapes_match_tensorflow():
    assert static_shapes(REF) == REF["static"]


def test_round_trip_and_gradient_is_the_inverse():
    x = tf.constant(np.random.RandomState(1).randn(2, 5, 4, 3))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.space_to_batch_nd(x, [2, 2], [[1, 0], [0, 0]])
    w = tf.constant(np.random.RandomState(2).randn(*y.shape))
    g = tape.gradient(y, x, output_gradients=w)
    np.testing.assert_array_equal(g.numpy(), tf.batch_to_space(w, [2, 2], [[1, 0], [0, 0]]))


def test_graph_mode_unknown_block_shape():
    v1.disable_v2_behavior()
    x = v1.placeholder(tf.float32, [2, 4, 6, 3])
    b = v1.placeholder(tf.int32, [2])
    y = tf.space_to_batch_nd(x, b, [[0, 0], [0, 0]])
    assert y.shape.as_list() == [None, None, None, None]
    arr = np.arange(144, dtype=np.float32).reshape(2, 4, 6, 3)
    with v1.Session() as sess:
        got = sess.run(y, {x: arr, b: [2, 3]})
    assert got.shape == (12, 2, 2, 3)
    v1.enable_v2_behavior()
