"""Arithmetic: add, subtract, multiply, negative, the divisions (truediv casts integers to
floating point first; floordiv and floormod as Python's ``//`` and ``%``), maximum and
minimum (a tie's gradient goes to x), squared_difference, scalar_mul, add_n and
clip_by_value."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes, hooks
from flowgrad.framework.graph import name_scope
from flowgrad.framework.indexed_slices import IndexedSlices
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import (
    _NO_GRADIENT,
    defop,
    register_jvp,
    register_op,
    ufunc_forward,
)
from flowgrad.framework.shape_rules import binary, unary
from flowgrad.framework.tensor import convert_to_tensor, is_tensor
from flowgrad.ops.array_ops import (_as_value, linear_in_all_jvp, sum_tangents,
                                    zeros_like)
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.comparison_ops import greater_equal, less_equal, where
from flowgrad.ops.math_helpers import (_FLOATING, _NUMERIC, _REAL, _SIGNED, _binary, _check_kind,
                                       _pair, _skipped_inputs, _unary)
from flowgrad.ops.sum_ops import sum_to
from flowgrad.framework.type_hints import TensorLike
from flowgrad.framework import dispatch


# --------------------------------------------------------------------------------------
# Add, subtract, multiply, real division

_ARITH = dict(infer=binary, same_dtype=True, input_names=("x", "y"))


@defop("AddV2", np.add, may_fail=False, batching="broadcasting",
       forward=ufunc_forward(np.add), **_ARITH)
def _add_grad(op: Any, grad: Any) -> Any:
    x, y = op.inputs
    skip = _skipped_inputs(op)
    return (None if 0 in skip else sum_to(grad, x)), (None if 1 in skip else sum_to(grad, y))


def _add_jvp(op: Any, ta: Any, tb: Any) -> Any:
    return sum_tangents(op.outputs[0], [ta, tb])


register_jvp("AddV2", _add_jvp)


@defop("Sub", np.subtract, may_fail=False, batching="broadcasting",
       forward=ufunc_forward(np.subtract), **_ARITH)
def _sub_grad(op: Any, grad: Any) -> Any:
    x, y = op.inputs
    skip = _skipped_inputs(op)
    return (None if 0 in skip else sum_to(grad, x),
            None if 1 in skip else sum_to(negative(grad), y))


def _sub_jvp(op: Any, ta: Any, tb: Any) -> Any:
    return sum_tangents(op.outputs[0], [ta, None if tb is None else -tb])


register_jvp("Sub", _sub_jvp)


def conj_if_complex(x: Any) -> Any:
    """``conj(x)`` for a complex tensor, ``x`` itself otherwise (no op is added).

    TensorFlow's gradients use the conjugate of the derivative: the gradient of a real loss
    with respect to ``z`` is ``dL/dRe(z) + i dL/dIm(z)``, so a holomorphic ``f`` passes back
    ``grad * conj(f'(z))``."""
    if x.dtype.base_dtype.is_complex:
        return apply_op("Conj", [x])
    return x


def _conj_inputs(op: Any) -> tuple:
    """The op's inputs, conjugated when complex (TensorFlow's gradients of Mul and RealDiv
    use the conjugates)."""
    x, y = op.inputs
    return conj_if_complex(x), conj_if_complex(y)


@defop("Mul", np.multiply, may_fail=False, identity_element=1, batching="broadcasting",
       forward=ufunc_forward(np.multiply), **_ARITH)
def _mul_grad(op: Any, grad: Any) -> Any:
    x, y = _conj_inputs(op)
    skip = _skipped_inputs(op)
    return (None if 0 in skip else sum_to(multiply(grad, y), x),
            None if 1 in skip else sum_to(multiply(x, grad), y))


def _mul_jvp(op: Any, ta: Any, tb: Any) -> Any:
    a, b = op.inputs
    return sum_tangents(op.outputs[0], [None if ta is None else ta * b,
                                        None if tb is None else a * tb])


register_jvp("Mul", _mul_jvp)


@defop("RealDiv", np.true_divide, may_fail=False, batching="broadcasting", **_ARITH)
def _realdiv_grad(op: Any, grad: Any) -> Any:
    x, y = _conj_inputs(op)
    skip = _skipped_inputs(op)
    return (None if 0 in skip else sum_to(realdiv(grad, y), x),
            None if 1 in skip else
            sum_to(multiply(grad, realdiv(realdiv(negative(x), y), y)), y))


def _realdiv_jvp(op: Any, ta: Any, tb: Any) -> Any:
    a, b = op.inputs
    y = op.outputs[0]
    return sum_tangents(y, [None if ta is None else ta / b,
                            None if tb is None else -tb * y / b])


register_jvp("RealDiv", _realdiv_jvp)


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def add(x: TensorLike, y: TensorLike, name: str | None = None) -> Any:
    """x + y elementwise (broadcasting).

    Args:
        x: A tensor.
        y: A tensor of ``x``'s dtype and a shape that broadcasts with ``x``'s.
        name: A name for the operation (optional).
    """
    return _binary("AddV2", x, y, name, _NUMERIC + "O")   # numbers and strings


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def subtract(x: TensorLike, y: TensorLike, name: str | None = None) -> Any:
    """x - y elementwise.

    Args:
        x: A tensor.
        y: A tensor of ``x``'s dtype and a shape that broadcasts with ``x``'s.
        name: A name for the operation (optional).
    """
    return _binary("Sub", x, y, name)


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def multiply(x: TensorLike, y: TensorLike, name: str | None = None) -> Any:
    """x * y elementwise.

    Args:
        x: A tensor.
        y: A tensor of ``x``'s dtype and a shape that broadcasts with ``x``'s.
        name: A name for the operation (optional).
    """
    return _binary("Mul", x, y, name, _NUMERIC)


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def realdiv(x: TensorLike, y: TensorLike, name: str | None = None) -> Any:
    """x / y for floating tensors.

    Args:
        x: A tensor.
        y: A tensor of ``x``'s dtype and a shape that broadcasts with ``x``'s.
        name: A name for the operation (optional).
    """
    return _binary("RealDiv", x, y, name, _FLOATING)


# --------------------------------------------------------------------------------------
# Division and remainders


def _check_int_divisor(x: Any, y: Any) -> None:
    if x.dtype.kind in "iu" and not np.all(y):
        raise ZeroDivisionError("Integer division by zero")


def _floordiv_kernel(x: Any, y: Any) -> Any:
    if x.dtype.kind in "fc":    # TensorFlow's floor(x / y): not NumPy's fmod-based quotient
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.floor(np.true_divide(x, y))
    _check_int_divisor(x, y)
    return np.floor_divide(x, y)


def _floormod_kernel(x: Any, y: Any) -> Any:
    _check_int_divisor(x, y)
    return np.mod(x, y)


def _div_no_nan_kernel(x: Any, y: Any) -> Any:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(y == 0, 0, np.true_divide(x, y))


register_op("FloorDiv", _floordiv_kernel, binary, grad=_NO_GRADIENT, same_dtype=True,
            input_names=("x", "y"), batching="broadcasting")


@defop("FloorMod", _floormod_kernel, batching="broadcasting", **_ARITH)
def _floormod_grad(op: Any, grad: Any) -> Any:
    x, y = op.inputs
    return sum_to(grad, x), sum_to(multiply(grad, negative(floordiv(x, y))), y)


@defop("DivNoNan", _div_no_nan_kernel, batching="broadcasting", **_ARITH)
def _div_no_nan_grad(op: Any, grad: Any) -> Any:
    x, y = _conj_inputs(op)
    return (sum_to(div_no_nan(grad, y), x),
            sum_to(multiply(grad, div_no_nan(div_no_nan(negative(x), y), y)), y))


# TensorFlow's true division casts integers to floating point first.
_TRUEDIV_CASTS = {dtypes.int8: dtypes.float32, dtypes.uint8: dtypes.float32,
                  dtypes.int16: dtypes.float32, dtypes.uint16: dtypes.float32,
                  dtypes.int32: dtypes.float64, dtypes.uint32: dtypes.float64,
                  dtypes.int64: dtypes.float64, dtypes.uint64: dtypes.float64}


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def truediv(x: TensorLike, y: TensorLike, name: str | None = None) -> Any:
    """x / y; integer inputs are cast first (8/16-bit to float32, 32/64-bit to float64).

    Args:
        x: A tensor.
        y: A tensor of ``x``'s dtype and a shape that broadcasts with ``x``'s.
        name: A name for the operation (optional).
    """
    with name_scope(name, "truediv", [x, y]) as scope:
        if is_tensor(x):        # y takes x's dtype if it can (TensorFlow's dtype_hint)
            x = convert_to_tensor(_as_value(x), name="x")
            y = convert_to_tensor(_as_value(y), dtype_hint=x.dtype.base_dtype, name="y")
        else:
            x, y = _pair(x, y)
        dt, dy = x.dtype.base_dtype, y.dtype.base_dtype
        if dt is not dy:
            raise TypeError("`x` and `y` must have the same dtype, got %r != %r." % (dt, dy))
        to = _TRUEDIV_CASTS.get(dt)
        if to is not None:
            x, y = cast(x, to), cast(y, to)
        elif dt.kind not in _FLOATING:
            raise TypeError("Invalid dtype %r in __truediv__. Expected one of {%s}."
                            % (dt, ", ".join(repr(d) for d in (*_TRUEDIV_CASTS, dtypes.bfloat16,
                                                               dtypes.float16,
                                                               dtypes.float32, dtypes.float64,
                                                               dtypes.complex64,
                                                               dtypes.complex128))))
        return apply_op("RealDiv", (x, y), name=scope)


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def divide(x: TensorLike, y: TensorLike, name: str | None = None) -> Any:
    """x / y elementwise (``truediv``: integers are divided as floating point).

    Args:
        x: A tensor.
        y: A tensor of ``x``'s dtype and a shape that broadcasts with ``x``'s.
        name: A name for the operation (optional).
    """
    return truediv(x, y, name=name)


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def div(x: TensorLike, y: TensorLike, name: str | None = None) -> Any:
    """TF1 division: floor division for integers, real division for floating point.

    Args:
        x: A tensor.
        y: A tensor of ``x``'s dtype and a shape that broadcasts with ``x``'s.
        name: A name for the operation (optional).
    """
    with name_scope(name, "div", [x, y]) as scope:
        x, y = _pair(x, y)
        dt = x.dtype.base_dtype
        if dt.kind in _FLOATING:
            return apply_op("RealDiv", (x, y), name=scope)
        _check_kind("FloorDiv", "x", dt, _REAL)
        return apply_op("FloorDiv", (x, y), name=scope)


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def floordiv(x: TensorLike, y: TensorLike, name: str | None = None) -> Any:
    """floor(x / y) elementwise (Python's ``//``), in the inputs' dtype.

    Args:
        x: A tensor.
        y: A tensor of ``x``'s dtype and a shape that broadcasts with ``x``'s.
        name: A name for the operation (optional).
    """
    with name_scope(name, "floordiv", [x, y]) as scope:
        return _binary("FloorDiv", x, y, scope, _REAL)


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def floormod(x: TensorLike, y: TensorLike, name: str | None = None) -> Any:
    """x - floor(x / y) * y elementwise (Python's ``%``: the result has the sign of y).

    Args:
        x: A tensor.
        y: A tensor of ``x``'s dtype and a shape that broadcasts with ``x``'s.
        name: A name for the operation (optional).
    """
    return _binary("FloorMod", x, y, name, _REAL)


mod = floormod


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def div_no_nan(x: TensorLike, y: TensorLike, name: str | None = None) -> Any:
    """x / y, and 0 where y is 0; integers are cast first, as ``truediv`` casts them.

    Args:
        x: A tensor.
        y: A tensor of ``x``'s dtype and a shape that broadcasts with ``x``'s.
        name: A name for the operation (optional).
    """
    with name_scope(name, "div_no_nan", [x, y]) as scope:
        x, y = _pair(x, y)
        to = _TRUEDIV_CASTS.get(x.dtype.base_dtype)
        if to is not None and y.dtype.base_dtype is x.dtype.base_dtype:
            x, y = cast(x, to), cast(y, to)
        return _binary("DivNoNan", x, y, scope, _FLOATING)


divide_no_nan = div_no_nan


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def reciprocal_no_nan(x: TensorLike, name: str | None = None) -> Any:
    """1 / x elementwise, and 0 where x is 0.

    Args:
        x: A floating-point or complex tensor.
        name: A name for the operation.

    Returns:
        A tensor of ``x``'s dtype and shape.

    Raises:
        TypeError: If ``x`` is not floating-point or complex.
    """
    with name_scope(name, "reciprocal_no_nan", [x]) as scope:
        x = convert_to_tensor(_as_value(x), name="x")
        one = convert_to_tensor(1, x.dtype.base_dtype, name="one")
        return _binary("DivNoNan", one, x, scope, _FLOATING)


# --------------------------------------------------------------------------------------
# Maximum, minimum, squared difference


def _max_min_grad(op: Any, grad: Any, x_wins: Any) -> tuple:
    """The gradient goes to x where ``x_wins(x, y)`` (ties included), else to y."""
    x, y = op.inputs
    mask = x_wins(x, y)
    zeros = zeros_like(grad)
    return sum_to(where(mask, grad, zeros), x), sum_to(where(mask, zeros, grad), y)


@defop("Maximum", np.maximum, may_fail=False, batching="broadcasting", **_ARITH)
def _maximum_grad(op: Any, grad: Any) -> Any:
    return _max_min_grad(op, grad, greater_equal)


@defop("Minimum", np.minimum, may_fail=False, batching="broadcasting", **_ARITH)
def _minimum_grad(op: Any, grad: Any) -> Any:
    return _max_min_grad(op, grad, less_equal)


def _squared_difference_kernel(x: Any, y: Any) -> Any:
    d = np.subtract(x, y)
    # TensorFlow's kernel gives |x - y|^2 for complex inputs: (x - y) conj(x - y)
    return d * np.conj(d) if np.iscomplexobj(d) else np.square(d)


@defop("SquaredDifference", _squared_difference_kernel, batching="broadcasting", **_ARITH)
def _squared_difference_grad(op: Any, grad: Any) -> Any:
    x, y = op.inputs
    g = multiply(multiply(2.0, grad), subtract(x, y))
    return sum_to(g, x), negative(sum_to(g, y))


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def maximum(x: TensorLike, y: TensorLike, name: str | None = None) -> Any:
    """max(x, y) elementwise; the gradient of a tie goes to x.

    Args:
        x: A tensor.
        y: A tensor of ``x``'s dtype and a shape that broadcasts with ``x``'s.
        name: A name for the operation (optional).
    """
    return _binary("Maximum", x, y, name, _REAL)


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def minimum(x: TensorLike, y: TensorLike, name: str | None = None) -> Any:
    """min(x, y) elementwise; the gradient of a tie goes to x.

    Args:
        x: A tensor.
        y: A tensor of ``x``'s dtype and a shape that broadcasts with ``x``'s.
        name: A name for the operation (optional).
    """
    return _binary("Minimum", x, y, name, _REAL)


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def squared_difference(x: TensorLike, y: TensorLike, name: str | None = None) -> Any:
    """(x - y) ** 2 elementwise.

    Args:
        x: A tensor.
        y: A tensor of ``x``'s dtype and a shape that broadcasts with ``x``'s.
        name: A name for the operation (optional).
    """
    return _binary("SquaredDifference", x, y, name, _SIGNED)


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def scalar_mul(scalar: Any, x: TensorLike, name: str | None = None) -> Any:
    """scalar * x for a 0-D ``scalar`` (IndexedSlices stay sparse).

    Args:
        scalar: A scalar (a 0-D tensor or a Python number).
        x: A tensor or an IndexedSlices.
        name: A name for the operation (optional).
    """
    with name_scope(name, "scalar_mul", [x]) as scope:
        values = x.values if isinstance(x, IndexedSlices) else convert_to_tensor(_as_value(x))
        s = convert_to_tensor(_as_value(scalar), values.dtype.base_dtype, name="scalar")
        if s.shape.rank != 0:
            raise ValueError("The input scalar must be a 0-D value. Received shape %s."
                             % s.shape)
        out = multiply(s, values, name=scope)
    if isinstance(x, IndexedSlices):
        return IndexedSlices(out, x.indices, x.dense_shape)
    return out


# --------------------------------------------------------------------------------------
# Negation


@defop("Neg", np.negative, unary, may_fail=False, input_names=("x",),
       batching="elementwise", jvp="elementwise")
def _neg_grad(op: Any, grad: Any) -> Any:
    return negative(grad)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def negative(x: TensorLike, name: str | None = None) -> Any:
    """-x elementwise.

    Args:
        x: A tensor.
        name: A name for the operation (optional).
    """
    return _unary("Neg", x, name, _SIGNED)


# --------------------------------------------------------------------------------------
# AddN, clip_by_value


def _add_n_kernel(*xs: Any) -> Any:
    r = xs[0] + xs[1] if len(xs) > 1 else xs[0]
    for x in xs[2:]:
        r += x
    return r


def _add_n_infer(ins: list, attrs: dict) -> tuple:
    s = ins[0].shape
    for x in ins[1:]:
        s = s.merge_with(x.shape)
    return ins[0].dtype.base_dtype, s


@defop("AddN", _add_n_kernel, _add_n_infer, same_dtype=True, view=True, input_names=("inputs",))
def _add_n_grad(op: Any, grad: Any) -> Any:
    return [grad] * len(op.inputs)


register_jvp("AddN", linear_in_all_jvp)


@dispatch.add_dispatch_support
def add_n(inputs: list, name: str | None = None) -> Any:
    """The elementwise sum of a list of tensors of one shape.

    Args:
        inputs: A list of tensors of the same shape and dtype.
        name: A name for the operation (optional). A single tensor counts as the list of
            its rows, as in TensorFlow.

    Raises:
        ValueError: If ``inputs`` is empty.
    """
    if is_tensor(inputs):
        inputs = list(inputs)
    if not inputs:
        raise ValueError("inputs must be a non-empty list of tensors")
    inputs = [_as_value(x) for x in inputs]
    dt = next((x.dtype.base_dtype for x in inputs if is_tensor(x)), None)
    return apply_op("AddN", inputs, name=name, dtype=dt)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def clip_by_value(t: TensorLike, clip_value_min: Any, clip_value_max: Any,
                  name: str | None = None) -> Any:
    """``t`` clipped to [clip_value_min, clip_value_max] (IndexedSlices stay sparse).

    Built as maximum(minimum(t, max), min), so the gradient reaches t where it lies in
    the closed interval, and the bounds where they clip.

    Args:
        t: A tensor (or an IndexedSlices).
        clip_value_min: The lower bound: a scalar or a tensor broadcastable to ``t``'s shape.
        clip_value_max: The upper bound: a scalar or a tensor broadcastable to ``t``'s shape.
        name: A name for the operation (optional).
    """
    with name_scope(name, "clip_by_value", [t, clip_value_min, clip_value_max]) as scope:
        values = convert_to_tensor(t.values if isinstance(t, IndexedSlices) else _as_value(t),
                                   name="t")
        t_min = minimum(values, clip_value_max)
        t_max = maximum(t_min, clip_value_min, name=scope)
        if not values.shape.is_compatible_with(t_max.shape):
            raise ValueError("clip_by_value: the bounds would broadcast t of shape %s to %s "
                             "(Shapes %s and %s are incompatible)"
                             % (values.shape, t_max.shape, values.shape, t_max.shape))
    if isinstance(t, IndexedSlices):
        return IndexedSlices(t_max, t.indices, t.dense_shape)
    return t_max


hooks.register(add=add, subtract=subtract,     # for the array families below
               conj=conj_if_complex)          # for the registry's elementwise JVPs
