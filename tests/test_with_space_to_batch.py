"""tf.nn.with_space_to_batch against TensorFlow 2.21 (tests/data/tf2_gaps/
with_space_to_batch.json: dilated convolutions and pools with SAME, VALID and explicit
padding, spatial_dims, and TensorFlow's errors); it equals a dilated convolution and
differentiates (central differences)."""
from __future__ import annotations

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as v1
from flowgrad.testing import check_gradients

from tf2_gaps_replay import load, replay

REF = load("with_space_to_batch")


@pytest.fixture(autouse=True)
def eager():
    """These tests run as TF2 programs (the suite starts each test in graph mode)."""
    v1.enable_v2_behavior()
    yield


@pytest.mark.parametrize("expr", sorted(REF["cases"]))
def test_matches_tensorflow(expr):
    replay(REF, expr)


def test_equals_a_dilated_convolution_and_differentiates():
    rng = np.random.RandomState(2)
    x0, f = rng.randn(1, 6, 5, 2), tf.constant(rng.randn(3, 3, 2, 2))

    def fn(x):
        return tf.nn.with_space_to_batch(
            x, [2, 2], "SAME", lambda i, n, p: tf.nn.convolution(i, f, padding=p),
            filter_shape=[3, 3]) ** 2
    want = tf.nn.convolution(tf.constant(x0), f, padding="SAME", dilations=[2, 2]) ** 2
    np.testing.assert_allclose(fn(tf.constant(x0)).numpy(), want.numpy(), atol=1e-12)
    check_gradients(fn, [x0], order=2)
