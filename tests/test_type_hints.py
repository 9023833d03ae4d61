"""The public signatures carry real types (flowgrad/framework/type_hints.py), not ``Any``: the
most used functions' hints resolve, name no ``Any`` parameter, and ``TensorLike`` covers what
the ops accept (issue 28)."""
import inspect
import typing

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as v1
from flowgrad.framework.type_hints import DTypeLike, TensorLike

TYPED = [tf.reduce_sum, tf.reduce_mean, tf.matmul, tf.reshape, tf.concat, tf.cast, tf.one_hot,
         tf.argmax, tf.nn.softmax, v1.placeholder, tf.constant, tf.convert_to_tensor]


@pytest.mark.parametrize("f", TYPED, ids=[f.__name__ for f in TYPED])
def test_hints_resolve_and_name_no_any(f):
    hints = typing.get_type_hints(f)
    params = inspect.signature(f).parameters
    assert set(params) <= set(hints), "unannotated: %s" % sorted(set(params) - set(hints))
    assert not [n for n, h in hints.items() if h is typing.Any], f.__name__
    assert hints["return"] in (tf.Tensor, v1.Tensor) or f is v1.placeholder


def test_tensor_like_covers_what_ops_take():
    tf.compat.v1.enable_v2_behavior()
    for value in (tf.constant(1.0), tf.Variable(1.0), np.ones(2), np.float32(1), 1, 1.5, True,
                  [1, 2], (1, 2), "s", b"s"):
        assert isinstance(value, typing.get_args(TensorLike)), type(value)
        tf.convert_to_tensor(value)     # and the op does take it
    for dtype in (tf.float32, "float32", np.float32, np.dtype("float32")):
        assert isinstance(dtype, typing.get_args(DTypeLike)), dtype
        assert tf.as_dtype(dtype) == tf.float32
