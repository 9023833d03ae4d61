"""activity_regularizer of tf.compat.v1.layers' Dense and convolutions (flowgrad/layers/base.py)
against TensorFlow 2.21 (tf_keras's legacy layers): regularizer(output) / batch size per call
in REGULARIZATION_LOSSES (names and values), the layers' losses, the total regularization loss
and its gradient, recorded by tools/tf_reference/activity_regularizer_v1.py into
tests/data/tf_layers/activity_regularizer.json."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import flowgrad.compat.v1 as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))
import tf_reference_program  # noqa: E402

MODULE, RECORD = tf_reference_program.load("activity_regularizer_v1.py",
                                           "tf_layers/activity_regularizer.json")


@pytest.fixture(scope="module")
def results():
    tf.disable_v2_behavior()
    try:
        return MODULE.program(tf)
    finally:
        tf.reset_default_graph()


def test_collection_names_and_layer_losses_match_tensorflow(results):
    assert results["names"] == RECORD["names"]
    assert results["layer_losses"] == RECORD["layer_losses"]


def test_loss_values_and_gradient_match_tensorflow(results):
    np.testing.assert_allclose(results["values"], RECORD["values"], rtol=1e-5)
    np.testing.assert_allclose(results["total"], RECORD["total"], rtol=1e-5)
    np.testing.assert_allclose(results["grad"], RECORD["grad"], rtol=1e-4, atol=1e-6)


def test_eager_layer_records_its_activity_loss():
    was_eager = tf.executing_eagerly()
    tf.enable_eager_execution()
    try:
        layer = tf.layers.Dense(2, kernel_initializer=tf.ones_initializer(),
                                activity_regularizer=tf.nn.l2_loss)
        layer(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
        # outputs [[3, 3], [7, 7]]: l2_loss = (9 + 9 + 49 + 49) / 2 = 58, over a batch of 2
        assert len(layer.losses) == 1
        np.testing.assert_allclose(float(layer.losses[0]), 29.0)
    finally:
        if not was_eager:
            tf.disable_eager_execution()
