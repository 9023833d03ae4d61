"""Comparisons (equal, less, greater, ...), logical ops on bool tensors, and ``where``
(SelectV2), whose gradient goes to the input each element was taken from."""
from __future__ import annotations

import sys
import weakref
from typing import Any

import numpy as np

from flowgrad.framework import dtypes, hooks
from flowgrad.framework.errors import InvalidArgumentError, ShapeRuleError, dims_text
from flowgrad.framework.context import _PKG_DIR
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import _NO_GRADIENT, defop, register_op
from flowgrad.framework.shape_rules import comparison, unary
from flowgrad.framework.tensor import Tensor, convert_to_tensor, infer_dtype, is_tensor
from flowgrad.ops.array_ops import _as_value, _where_indices, reshape, zeros_like
from flowgrad.ops.math_helpers import _BOOL, _REAL, _binary, _unary
from flowgrad.ops.sum_ops import sum_to
from flowgrad.framework.type_hints import TensorLike
from flowgrad.framework import dispatch


register_op("Greater", np.greater, comparison, grad=_NO_GRADIENT, same_dtype=True,
            input_names=("x", "y"), batching="broadcasting")
register_op("Equal", np.equal, comparison, grad=_NO_GRADIENT, same_dtype=True,
            input_names=("x", "y"), batching="broadcasting")
register_op("NotEqual", np.not_equal, comparison, grad=_NO_GRADIENT, same_dtype=True,
            input_names=("x", "y"), batching="broadcasting")


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def greater(x: TensorLike, y: TensorLike, name: str | None = None) -> Any:
    """x > y elementwise (bool).

    Args:
        x: A tensor.
        y: A tensor of a type and a shape that broadcast with ``x``'s.
        name: A name for the operation (optional).
    """
    return _binary("Greater", x, y, name, _REAL)


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def equal(x: TensorLike, y: TensorLike, name: str | None = None) -> Any:
    """Returns the truth value of ``x == y`` elementwise, with broadcasting, as ``tf.equal``.

    Args:
        x: A tensor.
        y: A tensor of ``x``'s dtype, broadcastable with ``x``.
        name: A name for the operation.

    Returns:
        A ``tf.bool`` tensor of the broadcast shape.
    """
    return _binary("Equal", x, y, name)


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def not_equal(x: TensorLike, y: TensorLike, name: str | None = None) -> Any:
    """x != y elementwise (bool).

    Args:
        x: A tensor.
        y: A tensor of a type and a shape that broadcast with ``x``'s.
        name: A name for the operation (optional).
    """
    return _binary("NotEqual", x, y, name)


register_op("Less", np.less, comparison, grad=_NO_GRADIENT, same_dtype=True,
            input_names=("x", "y"), batching="broadcasting")
register_op("LessEqual", np.less_equal, comparison, grad=_NO_GRADIENT, same_dtype=True,
            input_names=("x", "y"), batching="broadcasting")
register_op("GreaterEqual", np.greater_equal, comparison, grad=_NO_GRADIENT, same_dtype=True,
            input_names=("x", "y"), batching="broadcasting")
register_op("LogicalAnd", np.logical_and, comparison, grad=_NO_GRADIENT, same_dtype=True,
            input_names=("x", "y"), batching="broadcasting")
register_op("LogicalOr", np.logical_or, comparison, grad=_NO_GRADIENT, same_dtype=True,
            input_names=("x", "y"), batching="broadcasting")
register_op("LogicalNot", np.logical_not, unary, grad=_NO_GRADIENT, input_names=("x",),
            batching="elementwise")


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def less(x: TensorLike, y: TensorLike, name: str | None = None) -> Any:
    """x < y elementwise (bool).

    Args:
        x: A tensor.
        y: A tensor of a type and a shape that broadcast with ``x``'s.
        name: A name for the operation (optional).
    """
    return _binary("Less", x, y, name, _REAL)


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def less_equal(x: TensorLike, y: TensorLike, name: str | None = None) -> Any:
    """x <= y elementwise (bool).

    Args:
        x: A tensor.
        y: A tensor of a type and a shape that broadcast with ``x``'s.
        name: A name for the operation (optional).
    """
    return _binary("LessEqual", x, y, name, _REAL)


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def greater_equal(x: TensorLike, y: TensorLike, name: str | None = None) -> Any:
    """x >= y elementwise (bool).

    Args:
        x: A tensor.
        y: A tensor of a type and a shape that broadcast with ``x``'s.
        name: A name for the operation (optional).
    """
    return _binary("GreaterEqual", x, y, name, _REAL)


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def logical_and(x: TensorLike, y: TensorLike, name: str | None = None) -> Any:
    """x AND y elementwise, for bool tensors.

    Args:
        x: A bool tensor.
        y: A bool tensor that broadcasts with ``x``.
        name: A name for the operation (optional).
    """
    return _binary("LogicalAnd", x, y, name, _BOOL)


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def logical_or(x: TensorLike, y: TensorLike, name: str | None = None) -> Any:
    """x OR y elementwise, for bool tensors.

    Args:
        x: A bool tensor.
        y: A bool tensor that broadcasts with ``x``.
        name: A name for the operation (optional).
    """
    return _binary("LogicalOr", x, y, name, _BOOL)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def logical_not(x: TensorLike, name: str | None = None) -> Any:
    """NOT x elementwise, for a bool tensor.

    Args:
        x: A bool tensor.
        name: A name for the operation (optional).
    """
    return _unary("LogicalNot", x, name, _BOOL)


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def logical_xor(x: TensorLike, y: TensorLike, name: str = "LogicalXor") -> Any:
    """x XOR y elementwise, for bool tensors: (x OR y) AND NOT (x AND y).

    Args:
        x: A bool tensor.
        y: A bool tensor that broadcasts with ``x``.
        name: A name for the operation (optional).
    """
    return logical_and(logical_or(x, y), logical_not(logical_and(x, y)), name=name)


def _select_infer(ins: list, attrs: dict) -> tuple:
    from flowgrad.framework.tensor_shape import broadcast_shapes
    try:
        s = broadcast_shapes(broadcast_shapes(ins[0].shape, ins[1].shape), ins[2].shape)
    except ValueError as e:     # TensorFlow's kernel names all three shapes
        raise ShapeRuleError(str(e), "condition %s, then %s, and else %s must be broadcastable"
                             % tuple(dims_text(t.shape.as_tuple()) if t.shape.rank is not None
                                     else "?" for t in ins)) from None
    if ins[1].dtype.base_dtype is not ins[2].dtype.base_dtype:
        raise TypeError("where: x and y must have one dtype, got %s and %s"
                        % (ins[1].dtype.name, ins[2].dtype.name))
    return ins[1].dtype.base_dtype, s


@defop("SelectV2", np.where, _select_infer, input_names=("condition", "t", "e"),
       batching="broadcasting")
def _select_grad(op: Any, grad: Any) -> Any:
    c, x, y = op.inputs
    z = zeros_like(grad)
    return None, sum_to(where(c, grad, z), x), sum_to(where(c, z, grad), y)


@dispatch.add_dispatch_support
def where(condition: TensorLike, x: TensorLike | None = None, y: TensorLike | None = None,
          name: str | None = None) -> Any:
    """Elementwise ``x if condition else y`` (broadcasting).

    Args:
        condition: A bool tensor.
        x: The values where ``condition`` is true; None with ``y`` None returns the true indices.
        y: The values where it is false (broadcast with ``x`` and ``condition``).
        name: A name for the operation (optional).
    """
    if x is None and y is None:
        return _where_indices(condition, name)
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    x, y = _as_value(x), _as_value(y)
    dt = x.dtype.base_dtype if is_tensor(x) else (y.dtype.base_dtype if is_tensor(y)
                                                  else infer_dtype(x))
    x = convert_to_tensor(x, dt) if not is_tensor(x) else x
    y = convert_to_tensor(y, dt) if not is_tensor(y) else y
    out = apply_op("SelectV2", (condition, x, y), name=name)
    if type(out) is Tensor:
        caller = sys._getframe(1)
        while caller.f_code in dispatch.DISPATCH_FRAMES:    # the user's call, via dispatch
            caller = caller.f_back
        if caller.f_code.co_filename.startswith(_PKG_DIR):
            LIBRARY_WHERES.add(out.op)
    return out


# where ops that flowgrad's own functions build (guarded by construction; not warned about)
LIBRARY_WHERES: weakref.WeakSet = weakref.WeakSet()


def where_v1(condition: TensorLike, x: TensorLike | None = None, y: TensorLike | None = None,
             name: str | None = None) -> Any:
    """TF1's ``tf.where`` (``tf.compat.v1.where``, the ``Select`` op): ``x`` where
    ``condition`` is true, else ``y``; a vector ``condition`` picks whole entries (along the
    first axis) of higher-rank ``x`` and ``y``.

    Args:
        condition: A bool tensor: of ``x``'s shape, or a vector of its first dimension.
        x: The values where ``condition`` is true; None with ``y`` None returns the true
            indices.
        y: The values where it is false (``x``'s shape).
        name: A name for the operation (optional).

    Returns:
        The selected values (or the [num_true, rank] int64 indices of the true entries).

    Raises:
        InvalidArgumentError: a vector ``condition`` whose size is not ``x``'s first dimension.
    """
    if x is None and y is None:
        return where(condition, name=name)
    condition = convert_to_tensor(_as_value(condition), dtypes.bool)
    x = _as_value(x)
    x = x if is_tensor(x) else convert_to_tensor(x, None if not is_tensor(y) else y.dtype)
    if condition.shape.rank == 1 and x.shape.rank is not None and x.shape.rank > 1:
        n, first = condition.shape.as_list()[0], x.shape.as_list()[0]
        if n is not None and first is not None and n != first:
            raise InvalidArgumentError(None, None, "Number of batches of 'then' must match "
                                       "size of 'cond', but saw: %d vs. %d" % (first, n))
        condition = reshape(condition, [-1] + [1] * (x.shape.rank - 1))
    out = where(condition, x, y, name=name)
    if type(out) is Tensor and not sys._getframe(1).f_code.co_filename.startswith(_PKG_DIR):
        LIBRARY_WHERES.discard(out.op)      # the user's where (warned about as tf.where is)
    return out


hooks.register(greater=greater, where=where)     # for the array families below
