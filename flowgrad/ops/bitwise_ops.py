"""``tf.bitwise``: ``BitwiseAnd``, ``BitwiseOr``, ``BitwiseXor``, ``Invert``, ``LeftShift``,
``RightShift`` and ``PopulationCount`` on integer tensors. None has a gradient, as in
TensorFlow (``NotDifferentiable``)."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.registry import _NO_GRADIENT, register_op
from flowgrad.framework.shape_rules import binary, of_dtype, unary
from flowgrad.ops.math_helpers import _binary, _unary
from flowgrad.framework.type_hints import TensorLike
from flowgrad.framework import dispatch

_INT = "iu"

for _type, _fn in (("BitwiseAnd", np.bitwise_and), ("BitwiseOr", np.bitwise_or),
                   ("BitwiseXor", np.bitwise_xor), ("LeftShift", np.left_shift),
                   ("RightShift", np.right_shift)):
    register_op(_type, _fn, binary, grad=_NO_GRADIENT, same_dtype=True, input_names=("x", "y"))
register_op("Invert", np.invert, unary, grad=_NO_GRADIENT, input_names=("x",))


def _popcount(x: Any) -> np.ndarray:
    x = np.asarray(x)
    bits = np.unpackbits(np.ascontiguousarray(x).view(np.uint8).reshape(x.shape + (-1,)),
                         axis=-1)
    return bits.sum(axis=-1).astype(np.uint8)


register_op("PopulationCount", _popcount, of_dtype(dtypes.uint8, unary), grad=_NO_GRADIENT,
            input_names=("x",))


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def bitwise_and(x: TensorLike, y: TensorLike, name: str | None = None) -> Any:
    """``x & y`` elementwise (broadcasting).

    Args:
      x: An integer tensor.
      y: A tensor of ``x``'s dtype.
      name: A name for the operation.

    Returns:
      A tensor of ``x``'s dtype.

    Raises:
      TypeError: for a tensor that is not an integer.
    """
    return _binary("BitwiseAnd", x, y, name, _INT)


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def bitwise_or(x: TensorLike, y: TensorLike, name: str | None = None) -> Any:
    """``x | y`` elementwise; see :func:`bitwise_and`.

    Args:
        x: An integer tensor.
        y: A tensor of ``x``'s dtype and a shape that broadcasts with ``x``'s.
        name: A name for the operation (optional).
    """
    return _binary("BitwiseOr", x, y, name, _INT)


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def bitwise_xor(x: TensorLike, y: TensorLike, name: str | None = None) -> Any:
    """``x ^ y`` elementwise; see :func:`bitwise_and`.

    Args:
        x: An integer tensor.
        y: A tensor of ``x``'s dtype and a shape that broadcasts with ``x``'s.
        name: A name for the operation (optional).
    """
    return _binary("BitwiseXor", x, y, name, _INT)


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def left_shift(x: TensorLike, y: TensorLike, name: str | None = None) -> Any:
    """``x << y`` elementwise; see :func:`bitwise_and`.

    Args:
        x: An integer tensor.
        y: The shift amounts, of ``x``'s dtype and a broadcastable shape.
        name: A name for the operation (optional).
    """
    return _binary("LeftShift", x, y, name, _INT)


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def right_shift(x: TensorLike, y: TensorLike, name: str | None = None) -> Any:
    """``x >> y`` elementwise (arithmetic for signed types); see :func:`bitwise_and`.

    Args:
        x: An integer tensor.
        y: The shift amounts, of ``x``'s dtype and a broadcastable shape.
        name: A name for the operation (optional).
    """
    return _binary("RightShift", x, y, name, _INT)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def invert(x: TensorLike, name: str | None = None) -> Any:
    """``~x`` elementwise (every bit flipped); see :func:`bitwise_and`.

    Args:
        x: An integer tensor.
        name: A name for the operation (optional).
    """
    return _unary("Invert", x, name, _INT)


def population_count(x: TensorLike, name: str | None = None) -> Any:
    """The number of bits set in each element, as uint8; see :func:`bitwise_and`."""
    return _unary("PopulationCount", x, name, _INT)
