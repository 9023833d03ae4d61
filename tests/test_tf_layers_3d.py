"""tf.compat.v1.layers' 3-D classes and functions (flowgrad/layers/convolutional3d.py) against
TensorFlow 2.21 (tf_keras's legacy layers): variable names and shapes, output names and static
shapes, outputs and gradients recorded by tools/tf_reference/layers3d_v1.py into
tests/data/tf_layers/layers3d.json."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import flowgrad.compat.v1 as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))
import tf_reference_program  # noqa: E402

MODULE, RECORD = tf_reference_program.load("layers3d_v1.py", "tf_layers/layers3d.json")


@pytest.fixture(scope="module")
def results():
    tf.disable_v2_behavior()
    return MODULE.program(tf)


@pytest.mark.parametrize("key", sorted(RECORD))
def test_3d_layer_matches_tensorflow(results, key):
    got, want = results[key], RECORD[key]
    for field in ("variables", "trainable", "static_shape", "y_name"):
        assert got[field] == want[field], field
    np.testing.assert_allclose(got["y"], want["y"], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(got["y2"], want["y2"], rtol=1e-5, atol=1e-5)
    assert len(got["grads"]) == len(want["grads"])
    for a, b in zip(got["grads"], want["grads"]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-4)


def test_channels_first_is_channels_last_transposed():
    tf.disable_v2_behavior()
    x_val = np.random.RandomState(2).normal(size=(1, 4, 5, 6, 2)).astype(np.float32)
    x_first = np.transpose(x_val, (0, 4, 1, 2, 3))
    init = tf.constant_initializer(0.25)
    last = [tf.layers.conv3d(x_val, 3, 2, kernel_initializer=init, name="a"),
            tf.layers.conv3d_transpose(x_val, 3, 2, strides=2, kernel_initializer=init,
                                       name="b"),
            tf.layers.max_pooling3d(x_val, 2, 2), tf.layers.average_pooling3d(x_val, 2, 2)]
    first = [tf.layers.conv3d(x_first, 3, 2, data_format="channels_first",
                              kernel_initializer=init, name="c"),
             tf.layers.conv3d_transpose(x_first, 3, 2, strides=2, data_format="channels_first",
                                        kernel_initializer=init, name="d"),
             tf.layers.max_pooling3d(x_first, 2, 2, data_format="channels_first"),
             tf.layers.average_pooling3d(x_first, 2, 2, data_format="channels_first")]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for a, b in zip(sess.run(last), sess.run(first)):
            np.testing.assert_allclose(np.transpose(b, (0, 2, 3, 4, 1)), a, rtol=1e-5,
                                       atol=1e-6)


def test_3d_layers_refuse_bad_input_naming_the_layer():
    tf.disable_v2_behavior()
    with pytest.raises(ValueError, match="layer conv3d.*expected ndim=5, found ndim=4"):
        tf.layers.conv3d(tf.zeros([1, 4, 5, 2]), 3, 2)
    with pytest.raises(ValueError, match="`kernel_size` argument must be a tuple of 3"):
        tf.layers.Conv3D(3, (2, 2))
    with pytest.raises(ValueError, match="`pool_size` argument must be a tuple of 3"):
        tf.layers.MaxPooling3D((2, 2), 2)
    with pytest.raises(ValueError, match="The `padding` argument must be one of"):
        tf.layers.AveragePooling3D(2, 2, padding="full")
    layer = tf.layers.Conv3DTranspose(2, 2, name="up")
    layer(tf.zeros([1, 2, 2, 2, 3]))
    with pytest.raises(ValueError, match="layer up.*expected axis -1 of input shape"):
        layer(tf.zeros([1, 2, 2, 2, 4]))


def test_reuse_shares_the_3d_kernel():
    tf.disable_v2_behavior()
    x = tf.zeros([1, 3, 3, 3, 1])
    tf.layers.conv3d(x, 2, 2, name="shared")
    tf.layers.conv3d(x, 2, 2, name="shared", reuse=True)
    assert [v.name for v in tf.trainable_variables()] == ["shared/kernel:0", "shared/bias:0"]
