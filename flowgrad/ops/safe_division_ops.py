"""The binary ops whose value is defined where the plain formula is not, and the truncating
divisions: Xlogy (x * log(y), 0 where x == 0), Xlog1py (x * log1p(y)), Xdivy (x / y, 0
where x == 0), MulNoNan (x * y, 0 where y == 0), TruncateDiv and TruncateMod (rounding
towards zero, as C does).

Each op keeps TensorFlow's op type, dtype rule and gradient (``math_grad.py``): the
gradients are built from the same ops, so they differentiate again; TruncateDiv has no
gradient (None, as in TensorFlow) and TruncateMod none registered (LookupError there, an
error here)."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework.graph import name_scope
from flowgrad.framework.registry import _NO_GRADIENT, defop, register_op
from flowgrad.framework.shape_rules import binary
from flowgrad.ops.arithmetic_ops import _check_int_divisor
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.comparison_ops import not_equal
from flowgrad.ops.math_helpers import _FLOATING, _REAL, _binary
from flowgrad.ops.math_ops import add, multiply, negative, square
from flowgrad.ops.sum_ops import sum_to
from flowgrad.framework.type_hints import TensorLike
from flowgrad.framework import dispatch

_BINARY = dict(infer=binary, same_dtype=True, input_names=("x", "y"))


def _zero_where_x_is_zero(formula: Any) -> Any:
    """The kernel ``formula(x, y)``, and 0 where x is 0 (whatever the formula gives there)."""
    def kernel(x: Any, y: Any) -> Any:
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            value = np.asarray(formula(x, y)).astype(np.result_type(x, y), copy=False)
            return np.where(x == 0, np.zeros((), value.dtype), value)
    return kernel


_xlogy_kernel = _zero_where_x_is_zero(lambda x, y: x * np.log(y))
_xlog1py_kernel = _zero_where_x_is_zero(lambda x, y: x * np.log1p(y))
_xdivy_kernel = _zero_where_x_is_zero(np.true_divide)


def _mul_no_nan_kernel(x: Any, y: Any) -> Any:
    with np.errstate(invalid="ignore", over="ignore"):
        return np.where(y == 0, np.zeros((), np.result_type(x, y)), x * y)


def _truncate_div_kernel(x: Any, y: Any) -> Any:
    if x.dtype.kind in "iu":
        _check_int_divisor(x, y)
        q = np.floor_divide(x, y)
        # floor and truncation differ where the signs differ and the division is inexact
        return q + ((np.remainder(x, y) != 0) & ((x < 0) != (y < 0)))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.trunc(np.true_divide(x, y)).astype(np.result_type(x, y))


def _truncate_mod_kernel(x: Any, y: Any) -> Any:
    if x.dtype.kind in "iu":
        _check_int_divisor(x, y)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.fmod(x, y)


def _nonzero(x: Any) -> Any:
    """1 where x != 0, else 0, in x's dtype."""
    return cast(not_equal(x, 0), x.dtype.base_dtype)


@defop("Xlogy", _xlogy_kernel, **_BINARY)
def _xlogy_grad(op: Any, grad: Any) -> Any:
    x, y = op.inputs
    return (sum_to(multiply(xlogy(_nonzero(x), y), grad), x),
            sum_to(multiply(xdivy(x, y), grad), y))


@defop("Xlog1py", _xlog1py_kernel, **_BINARY)
def _xlog1py_grad(op: Any, grad: Any) -> Any:
    x, y = op.inputs
    return (sum_to(multiply(xlog1py(_nonzero(x), y), grad), x),
            sum_to(multiply(xdivy(x, add(y, 1)), grad), y))


@defop("Xdivy", _xdivy_kernel, **_BINARY)
def _xdivy_grad(op: Any, grad: Any) -> Any:
    x, y = op.inputs
    return (sum_to(multiply(xdivy(_nonzero(x), y), grad), x),
            sum_to(multiply(xdivy(negative(x), square(y)), grad), y))


@defop("MulNoNan", _mul_no_nan_kernel, **_BINARY)
def _mul_no_nan_grad(op: Any, grad: Any) -> Any:
    x, y = op.inputs
    return sum_to(multiply_no_nan(grad, y), x), sum_to(multiply_no_nan(x, grad), y)


register_op("TruncateDiv", _truncate_div_kernel, binary, grad=_NO_GRADIENT, same_dtype=True,
            input_names=("x", "y"))
register_op("TruncateMod", _truncate_mod_kernel, binary, same_dtype=True,
            input_names=("x", "y"))


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def xlogy(x: TensorLike, y: TensorLike, name: str | None = None) -> Any:
    """x * log(y) elementwise, and 0 where x is 0 (even where log(y) is infinite or NaN).

    Args:
        x: A floating-point or complex tensor.
        y: A tensor of ``x``'s dtype (broadcast against ``x``).
        name: A name for the operation.

    Returns:
        The broadcast result, in ``x``'s dtype.

    Raises:
        TypeError: If the dtype is not floating-point or complex.
    """
    return _binary("Xlogy", x, y, name, _FLOATING)


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def xlog1py(x: TensorLike, y: TensorLike, name: str | None = None) -> Any:
    """x * log1p(y) elementwise, and 0 where x is 0.

    Args:
        x: A floating-point or complex tensor.
        y: A tensor of ``x``'s dtype (broadcast against ``x``).
        name: A name for the operation.

    Returns:
        The broadcast result, in ``x``'s dtype.

    Raises:
        TypeError: If the dtype is not floating-point or complex.
    """
    return _binary("Xlog1py", x, y, name, _FLOATING)


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def xdivy(x: TensorLike, y: TensorLike, name: str | None = None) -> Any:
    """x / y elementwise, and 0 where x is 0 (even where y is 0).

    Args:
        x: A floating-point or complex tensor.
        y: A tensor of ``x``'s dtype (broadcast against ``x``).
        name: A name for the operation.

    Returns:
        The broadcast result, in ``x``'s dtype.

    Raises:
        TypeError: If the dtype is not floating-point or complex.
    """
    return _binary("Xdivy", x, y, name, _FLOATING)


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def multiply_no_nan(x: TensorLike, y: TensorLike, name: str | None = None) -> Any:
    """x * y elementwise, and 0 where y is 0 (even where x is infinite or NaN).

    Args:
        x: A floating-point or complex tensor.
        y: A tensor of ``x``'s dtype (broadcast against ``x``).
        name: A name for the operation.

    Returns:
        The broadcast result, in ``x``'s dtype.

    Raises:
        TypeError: If the dtype is not floating-point or complex.
    """
    with name_scope(name, "multiply_no_nan", [x, y]) as scope:
        return _binary("MulNoNan", x, y, scope, _FLOATING)


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def truncatediv(x: TensorLike, y: TensorLike, name: str | None = None) -> Any:
    """x / y rounded towards zero (C's integer division), elementwise.

    Args:
        x: A real tensor.
        y: A tensor of ``x``'s dtype (broadcast against ``x``).
        name: A name for the operation.

    Returns:
        The broadcast quotient, in ``x``'s dtype.

    Raises:
        TypeError: If the dtype is not real.
        InvalidArgumentError: Integer division by zero (when run).
    """
    return _binary("TruncateDiv", x, y, name, _REAL)


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def truncatemod(x: TensorLike, y: TensorLike, name: str | None = None) -> Any:
    """The remainder of ``truncatediv``: x - truncatediv(x, y) * y (the sign of x), elementwise.

    Args:
        x: A real tensor.
        y: A tensor of ``x``'s dtype (broadcast against ``x``).
        name: A name for the operation.

    Returns:
        The broadcast remainder, in ``x``'s dtype.

    Raises:
        TypeError: If the dtype is not real.
        InvalidArgumentError: Integer division by zero (when run).
    """
    return _binary("TruncateMod", x, y, name, _REAL)


__all__ = ["multiply_no_nan", "truncatediv", "truncatemod", "xdivy", "xlog1py", "xlogy"]
