"""Static and run-time output shapes of tf.compat.v1.layers' transposed convolutions and of
tf.nn.conv2d_transpose with an output_shape built from tf.shape(x), against TensorFlow 2.21
(tools/tf_reference/conv_transpose_shapes_v1.py into
tests/data/tf_layers/conv_transpose_shapes.json): a known batch size stays known, unknown
spatial sizes are computed from the right axes at run time."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

import flowgrad.compat.v1 as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))
import tf_reference_program  # noqa: E402

MODULE, RECORD = tf_reference_program.load("conv_transpose_shapes_v1.py",
                                           "tf_layers/conv_transpose_shapes.json")


@pytest.fixture(scope="module")
def results():
    tf.disable_v2_behavior()
    try:
        return MODULE.program(tf)
    finally:
        tf.reset_default_graph()


@pytest.mark.parametrize("key", sorted(RECORD))
def test_shapes_match_tensorflow(results, key):
    assert results[key] == RECORD[key]
