"""tf.compat: the v1/v2 faces and TensorFlow's bytes/text and dimension helpers."""
from __future__ import annotations

import pathlib

import pytest

import flowgrad as tf
import flowgrad.compat.v1 as v1


def test_compat_v2_is_the_tf2_face_and_v1_reaches_both():
    assert tf.compat.v2 is tf and tf.compat.v1 is v1
    assert v1.compat.v2 is tf and v1.compat.v1 is v1
    assert tf.compat.v2.GradientTape is tf.GradientTape


def test_bytes_and_text():
    assert tf.compat.as_bytes("é") == "é".encode() and tf.compat.as_bytes(b"x") == b"x"
    assert tf.compat.as_bytes(bytearray(b"ab")) == b"ab"
    assert tf.compat.as_text(b"\xc3\xa9") == "é" and tf.compat.as_str("a") == "a"
    assert tf.compat.as_str_any(3) == "3"
    assert tf.compat.path_to_str(pathlib.Path("/a/b")) == "/a/b"
    with pytest.raises(TypeError, match="binary or unicode"):
        tf.compat.as_bytes(3)
    with pytest.raises(TypeError):
        tf.compat.as_text(3)
    assert isinstance(b"", tf.compat.bytes_or_text_types)
    assert isinstance(3, tf.compat.integral_types) and not isinstance(3.5,
                                                                       tf.compat.integral_types)


def test_dimensions():
    v1.disable_v2_tensorshape()
    try:
        shape = v1.TensorShape([3, None])
        assert tf.compat.dimension_value(shape[0]) == 3
        assert tf.compat.dimension_value(shape[1]) is None
        assert tf.compat.dimension_at_index(shape, 0).value == 3
        assert tf.compat.dimension_at_index(v1.TensorShape(None), 5).value is None
    finally:
        v1.enable_v2_tensorshape()
    assert tf.compat.dimension_value(4) == 4


def test_forward_compatibility_horizon():
    assert tf.compat.forward_compatible(2020, 1, 1)
    with tf.compat.forward_compatibility_horizon(2019, 1, 1):
        assert not tf.compat.forward_compatible(2020, 1, 1)
    assert tf.compat.forward_compatible(2020, 1, 1)


def test_tensor_shape_with_rank_at_least_and_at_most_as_tensorflow():
    """TensorShape.with_rank_at_least / with_rank_at_most (Keras's RNN layers call them):
    the shape itself, or TensorFlow 2.21's ValueError."""
    s = tf.TensorShape([2, 3])
    assert s.with_rank_at_least(2) is s and s.with_rank_at_most(2) is s
    unknown = tf.TensorShape(None)
    assert unknown.with_rank_at_least(5) is unknown and unknown.with_rank_at_most(0) is unknown
    with pytest.raises(ValueError, match=r"^Shape \(2, 3\) must have rank at least 3$"):
        s.with_rank_at_least(3)
    with pytest.raises(ValueError, match=r"^Shape \(2, 3\) must have rank at most 1$"):
        s.with_rank_at_most(1)
