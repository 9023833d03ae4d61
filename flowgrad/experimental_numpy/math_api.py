"""``tf.experimental.numpy``'s element-wise math, comparisons and products, written on
flowgrad's ops (so every result differentiates), with NumPy's dtype promotion as TensorFlow's
``np_math_ops`` applies it: binary functions promote both arguments to NumPy's
``result_type``; transcendental functions take integers to the default float."""
from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad.experimental_numpy import array_api as aa
from flowgrad.experimental_numpy import dtypes_config as dc
from flowgrad.framework import dtypes
from flowgrad.framework.tensor import TensorBase, constant
from flowgrad.ops import (arithmetic_ops, bitwise_ops, comparison_ops, complex_ops,
                          elementwise_ops as ew, fill_ops, nn_ops, reduction_ops, shape_ops,
                          sum_ops, trig_ops)
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.einsum_ops import einsum as _tf_einsum, tensordot as _tf_tensordot
from flowgrad.ops.linalg_extra_ops import cross as _tf_cross
from flowgrad.ops.linalg_ops import trace as _tf_trace
from flowgrad.ops.matmul_ops import matmul as _tf_matmul
from flowgrad.ops.meshgrid_ops import meshgrid as _tf_meshgrid
from flowgrad.ops.while_v2 import while_loop
from flowgrad.framework.type_hints import AxisLike, DTypeLike, TensorLike

pi = np.pi
e = np.e
inf = np.inf


def _promote_binary(a: Any, b: Any) -> tuple:
    dtype = dc.result_type(a, b)
    return aa.asarray(a, dtype), aa.asarray(b, dtype)


def _bin_op(fn: Callable, a: Any, b: Any) -> TensorBase:
    a, b = _promote_binary(a, b)
    return fn(a, b)


def _unary(fn: Callable, x: Any, promote_to_float: bool = False) -> TensorBase:
    x = aa.asarray(x)
    if promote_to_float and not (x.dtype.is_floating or x.dtype.is_complex):
        x = cast(x, dc.default_float_type())
    return fn(x)


def _doc(name: str, what: str) -> str:
    return ("%s, element-wise, as ``np.%s``.\n\n    Args:\n      x: A tensor or array-like "
            "value.\n\n    Returns:\n      A tensor.\n" % (what, name))


def _make_unary(name: str, fn: Callable, promote_to_float: bool, what: str) -> Callable:
    def f(x: TensorLike) -> TensorBase:
        return _unary(fn, x, promote_to_float)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = _doc(name, what)
    f.__module__ = __name__
    return f


_UNARY = {
    # name: (op, to float, description)
    "exp": (ew.exp, True, "e to the power"), "log": (ew.log, True, "The natural logarithm"),
    "sqrt": (ew.sqrt, True, "The square root"), "ceil": (ew.ceil, True, "The ceiling"),
    "floor": (ew.floor, True, "The floor"), "sin": (ew.sin, True, "The sine"),
    "cos": (ew.cos, True, "The cosine"), "tan": (ew.tan, True, "The tangent"),
    "sinh": (trig_ops.sinh, True, "The hyperbolic sine"),
    "cosh": (trig_ops.cosh, True, "The hyperbolic cosine"),
    "tanh": (ew.tanh, True, "The hyperbolic tangent"),
    "arcsin": (trig_ops.asin, True, "The inverse sine"),
    "arccos": (trig_ops.acos, True, "The inverse cosine"),
    "arctan": (trig_ops.atan, True, "The inverse tangent"),
    "arcsinh": (trig_ops.asinh, True, "The inverse hyperbolic sine"),
    "arccosh": (trig_ops.acosh, True, "The inverse hyperbolic cosine"),
    "arctanh": (trig_ops.atanh, True, "The inverse hyperbolic tangent"),
    "expm1": (ew.expm1, True, "``exp(x) - 1``"), "log1p": (ew.log1p, True, "``log(1 + x)``"),
    "isnan": (ew.is_nan, True, "Whether NaN"), "isfinite": (ew.is_finite, True, "Whether finite"),
    "abs": (ew.abs, False, "The absolute value"),
    "conj": (complex_ops.conj, False, "The complex conjugate"),
    "negative": (arithmetic_ops.negative, False, "The negation"),
    "reciprocal": (ew.reciprocal, False, "``1 / x``"),
    "square": (ew.square, False, "The square"),
    "sign": (ew.sign, False, "The sign"),
    "positive": (lambda x: x, False, "The value itself"),
}
for _name, (_fn, _to_float, _what) in _UNARY.items():
    globals()[_name] = _make_unary(_name, _fn, _to_float, _what)
absolute = fabs = abs  # noqa: F821 - bound by the loop above
conjugate = conj  # noqa: F821


def exp2(x: TensorLike) -> TensorBase:
    """2 to the power ``x``, element-wise, as ``np.exp2``.

    Args:
      x: A tensor or array-like value.

    Returns:
      A tensor.
    """
    return _unary(lambda t: ew.pow(constant(2, t.dtype), t), x, True)


def log2(x: TensorLike) -> TensorBase:
    """The base-2 logarithm, element-wise, as ``np.log2``.

    Args:
      x: A tensor or array-like value.

    Returns:
      A tensor.
    """
    return log(x) / np.log(2)  # noqa: F821


def log10(x: TensorLike) -> TensorBase:
    """The base-10 logarithm, element-wise, as ``np.log10``.

    Args:
      x: A tensor or array-like value.

    Returns:
      A tensor.
    """
    return log(x) / np.log(10)  # noqa: F821


def cbrt(x: TensorLike) -> TensorBase:
    """The cube root, element-wise, as ``np.cbrt``.

    Args:
      x: A tensor or array-like value.

    Returns:
      A tensor.
    """
    def f(t: Any) -> Any:
        root = ew.pow(ew.abs(t), constant(1.0 / 3, t.dtype))
        return comparison_ops.where(t < 0, -root, root)
    return _unary(f, x, True)


def fix(x: TensorLike) -> TensorBase:
    """Rounding toward zero, element-wise, as ``np.fix``.

    Args:
      x: A tensor or array-like value.

    Returns:
      A tensor.
    """
    return _unary(lambda t: comparison_ops.where(t < 0, ew.ceil(t), ew.floor(t)), x, True)


def sinc(x: TensorLike) -> TensorBase:
    """``sin(pi x) / (pi x)`` (1 at 0), element-wise, as ``np.sinc``.

    Args:
      x: A tensor or array-like value.

    Returns:
      A tensor.
    """
    def f(t: Any) -> Any:
        pi_x = t * np.pi
        zero = comparison_ops.equal(t, fill_ops.zeros_like(t))
        safe = comparison_ops.where(zero, fill_ops.ones_like(t), pi_x)
        return comparison_ops.where(zero, fill_ops.ones_like(t), ew.sin(safe) / safe)
    return _unary(f, x, True)


def deg2rad(x: TensorLike) -> TensorBase:
    """Degrees to radians, element-wise, as ``np.deg2rad``.

    Args:
      x: A tensor or array-like value.

    Returns:
      A tensor.
    """
    return _unary(lambda t: t * (np.pi / 180.0), x, True)


def rad2deg(x: TensorLike) -> TensorBase:
    """Radians to degrees, element-wise, as ``np.rad2deg``.

    Args:
      x: A tensor or array-like value.

    Returns:
      A tensor.
    """
    return _unary(lambda t: t * (180.0 / np.pi), x, True)


def angle(z: TensorLike, deg: bool = False) -> TensorBase:
    """The argument of a complex number, element-wise, as ``np.angle``.

    Args:
      z: A tensor or array-like value.
      deg: Whether in degrees.

    Returns:
      A tensor.
    """
    def f(t: Any) -> Any:
        if t.dtype.is_complex:
            return complex_ops.angle(t)
        # TensorFlow's where_v2(x < 0, np.pi, 0): float32 whatever the input's real dtype.
        return comparison_ops.where(t < 0, constant(np.pi, dtypes.float32),
                                    constant(0.0, dtypes.float32))
    y = _unary(f, z, True)
    return rad2deg(y) if deg else y


def signbit(x: TensorLike) -> TensorBase:
    """Whether the sign bit is set (``x < 0``), element-wise, as ``np.signbit``.

    Args:
      x: A tensor or array-like value.

    Returns:
      A boolean tensor.
    """
    def f(t: Any) -> Any:
        if t.dtype == dtypes.bool:
            return fill_ops.fill(shape_ops.shape(t), False)
        return t < 0
    return _unary(f, x)


def isinf(x: TensorLike) -> Any:
    """Whether infinite, element-wise, as ``np.isinf``.

    Args:
      x: A tensor or array-like value.

    Returns:
      A boolean tensor (the Python ``False`` for integers, as TensorFlow's tnp).
    """
    x = aa.asarray(x)
    if x.dtype.is_floating:
        return ew.is_inf(x)
    return False


def isposinf(x: TensorLike) -> Any:
    """Whether positive infinity, element-wise, as ``np.isposinf``.

    Args:
      x: A tensor or array-like value.

    Returns:
      A boolean tensor (the Python ``False`` for integers, as TensorFlow's tnp).
    """
    x = aa.asarray(x)
    if x.dtype.is_floating:
        return comparison_ops.equal(x, constant(np.inf, x.dtype))
    return False


def isneginf(x: TensorLike) -> Any:
    """Whether negative infinity, element-wise, as ``np.isneginf``.

    Args:
      x: A tensor or array-like value.

    Returns:
      A boolean tensor (the Python ``False`` for integers, as TensorFlow's tnp).
    """
    x = aa.asarray(x)
    if x.dtype.is_floating:
        return comparison_ops.equal(x, constant(-np.inf, x.dtype))
    return False


def iscomplex(x: TensorLike) -> TensorBase:
    """Whether the imaginary part is non-zero, element-wise, as ``np.iscomplex``.

    Args:
      x: A tensor or array-like value.

    Returns:
      A boolean tensor.
    """
    im = aa.imag(x)
    return comparison_ops.not_equal(im, fill_ops.zeros_like(im))


def isreal(x: TensorLike) -> TensorBase:
    """Whether the imaginary part is zero, element-wise, as ``np.isreal``.

    Args:
      x: A tensor or array-like value.

    Returns:
      A boolean tensor.
    """
    im = aa.imag(x)
    return comparison_ops.equal(im, fill_ops.zeros_like(im))


def iscomplexobj(x: TensorLike) -> bool:
    """Whether ``x``'s dtype is complex, as ``np.iscomplexobj``.

    Args:
      x: A tensor or array-like value.

    Returns:
      A bool.
    """
    return aa.array(x).dtype.is_complex


def isrealobj(x: TensorLike) -> bool:
    """Whether ``x``'s dtype is not complex, as ``np.isrealobj``.

    Args:
      x: A tensor or array-like value.

    Returns:
      A bool.
    """
    return not iscomplexobj(x)


# ---- binary arithmetic ----

def _bool_or(tf_fn: Callable, bool_fn: Callable) -> Callable:
    def f(a: Any, b: Any) -> Any:
        return bool_fn(a, b) if a.dtype == dtypes.bool else tf_fn(a, b)
    return f


def add(x1: TensorLike, x2: TensorLike) -> TensorBase:
    """``x1 + x2`` with NumPy's promotion (``or`` for bools), as ``np.add``.

    Args:
      x1: A tensor or array-like value.
      x2: Another, broadcastable.

    Returns:
      A tensor.
    """
    return _bin_op(_bool_or(arithmetic_ops.add, comparison_ops.logical_or), x1, x2)


def subtract(x1: TensorLike, x2: TensorLike) -> TensorBase:
    """``x1 - x2`` with NumPy's promotion, as ``np.subtract``.

    Args:
      x1: A tensor or array-like value.
      x2: Another, broadcastable.

    Returns:
      A tensor.
    """
    return _bin_op(arithmetic_ops.subtract, x1, x2)


def multiply(x1: TensorLike, x2: TensorLike) -> TensorBase:
    """``x1 * x2`` with NumPy's promotion (``and`` for bools), as ``np.multiply``.

    Args:
      x1: A tensor or array-like value.
      x2: Another, broadcastable.

    Returns:
      A tensor.
    """
    return _bin_op(_bool_or(arithmetic_ops.multiply, comparison_ops.logical_and), x1, x2)


def true_divide(x1: TensorLike, x2: TensorLike) -> TensorBase:
    """``x1 / x2`` (integers divide as floats), as ``np.true_divide``.

    Args:
      x1: A tensor or array-like value.
      x2: Another, broadcastable.

    Returns:
      A tensor.
    """
    def f(a: Any, b: Any) -> Any:
        if a.dtype == dtypes.bool:
            a, b = cast(a, dc.default_float_type()), cast(b, dc.default_float_type())
        return arithmetic_ops.truediv(a, b)
    return _bin_op(f, x1, x2)


divide = true_divide


def _int8_bools(fn: Callable) -> Callable:
    def f(a: Any, b: Any) -> Any:
        if a.dtype == dtypes.bool:
            a, b = cast(a, dtypes.int8), cast(b, dtypes.int8)
        return fn(a, b)
    return f


def floor_divide(x1: TensorLike, x2: TensorLike) -> TensorBase:
    """``x1 // x2``, as ``np.floor_divide``.

    Args:
      x1: A tensor or array-like value.
      x2: Another, broadcastable.

    Returns:
      A tensor.
    """
    return _bin_op(_int8_bools(arithmetic_ops.floordiv), x1, x2)


def mod(x1: TensorLike, x2: TensorLike) -> TensorBase:
    """``x1 % x2`` with the divisor's sign, as ``np.mod``.

    Args:
      x1: A tensor or array-like value.
      x2: Another, broadcastable.

    Returns:
      A tensor.
    """
    return _bin_op(_int8_bools(arithmetic_ops.floormod), x1, x2)


remainder = mod


def divmod(x1: TensorLike, x2: TensorLike) -> tuple:  # noqa: A001 - NumPy's name
    """``(x1 // x2, x1 % x2)``, as ``np.divmod``.

    Args:
      x1: A tensor or array-like value.
      x2: Another, broadcastable.

    Returns:
      A pair of tensors.
    """
    return floor_divide(x1, x2), mod(x1, x2)


def power(x1: TensorLike, x2: TensorLike) -> TensorBase:
    """``x1 ** x2``, as ``np.power``.

    Args:
      x1: A tensor or array-like value.
      x2: Another, broadcastable.

    Returns:
      A tensor.
    """
    return _bin_op(ew.pow, x1, x2)


float_power = power


def arctan2(x1: TensorLike, x2: TensorLike) -> TensorBase:
    """The angle of the point ``(x2, x1)``, element-wise, as ``np.arctan2``.

    Args:
      x1: The y coordinates.
      x2: The x coordinates.

    Returns:
      A tensor.
    """
    return _bin_op(trig_ops.atan2, x1, x2)


def nextafter(x1: TensorLike, x2: TensorLike) -> TensorBase:
    """The next float after ``x1`` toward ``x2``, as ``np.nextafter``.

    Args:
      x1: A tensor or array-like value.
      x2: Another, broadcastable.

    Returns:
      A tensor.
    """
    return _bin_op(ew.nextafter, x1, x2)


def maximum(x1: TensorLike, x2: TensorLike) -> TensorBase:
    """The element-wise maximum (``or`` for bools), as ``np.maximum``.

    Args:
      x1: A tensor or array-like value.
      x2: Another, broadcastable.

    Returns:
      A tensor.
    """
    if (isinstance(x2, (int, float)) and not isinstance(x2, bool) and x2 == 0
            and isinstance(x1, TensorBase) and x1.dtype != dtypes.bool):
        return nn_ops.relu(x1)
    return _bin_op(_bool_or(arithmetic_ops.maximum, comparison_ops.logical_or), x1, x2)


def minimum(x1: TensorLike, x2: TensorLike) -> TensorBase:
    """The element-wise minimum (``and`` for bools), as ``np.minimum``.

    Args:
      x1: A tensor or array-like value.
      x2: Another, broadcastable.

    Returns:
      A tensor.
    """
    return _bin_op(_bool_or(arithmetic_ops.minimum, comparison_ops.logical_and), x1, x2)


def clip(a: TensorLike, a_min: TensorLike, a_max: TensorLike) -> TensorBase:
    """``a`` limited to ``[a_min, a_max]`` (either may be None), as ``np.clip``.

    Args:
      a: A tensor or array-like value.
      a_min: The lower bound, or None.
      a_max: The upper bound, or None.

    Returns:
      A tensor.

    Raises:
      ValueError: Both bounds are None.
    """
    if a_min is None and a_max is None:
        raise ValueError("Not more than one of `a_min` and `a_max` may be `None`.")
    if a_min is None:
        return minimum(a, a_max)
    if a_max is None:
        return maximum(a, a_min)
    a, a_min, a_max = aa.broadcast_arrays(*aa._promote(a, a_min, a_max))
    return arithmetic_ops.clip_by_value(a, a_min, a_max)


def heaviside(x1: TensorLike, x2: TensorLike) -> TensorBase:
    """The Heaviside step of ``x1`` (``x2`` where ``x1 == 0``), as ``np.heaviside``.

    Args:
      x1: A tensor or array-like value.
      x2: The values at zero.

    Returns:
      A tensor (of a float dtype).
    """
    def f(a: Any, b: Any) -> Any:
        zero, one = fill_ops.zeros_like(b), fill_ops.ones_like(b)
        return comparison_ops.where(a < 0, zero, comparison_ops.where(a > 0, one, b))
    y = _bin_op(f, x1, x2)
    if not (y.dtype.is_floating or y.dtype.is_complex):
        y = cast(y, dc.default_float_type())
    return y


def hypot(x1: TensorLike, x2: TensorLike) -> TensorBase:
    """``sqrt(x1**2 + x2**2)``, as ``np.hypot``.

    Args:
      x1: A tensor or array-like value.
      x2: Another, broadcastable.

    Returns:
      A tensor.
    """
    return sqrt(square(x1) + square(x2))  # noqa: F821


def logaddexp(x1: TensorLike, x2: TensorLike) -> TensorBase:
    """``log(exp(x1) + exp(x2))`` computed stably, as ``np.logaddexp``.

    Args:
      x1: A tensor or array-like value.
      x2: Another, broadcastable.

    Returns:
      A tensor.
    """
    amax = maximum(x1, x2)
    delta = subtract(x1, x2)
    return aa.where(isnan(delta), add(x1, x2),  # noqa: F821
                    amax + log1p(exp(-abs(delta))))  # noqa: F821


def logaddexp2(x1: TensorLike, x2: TensorLike) -> TensorBase:
    """``log2(2**x1 + 2**x2)`` computed stably, as ``np.logaddexp2``.

    Args:
      x1: A tensor or array-like value.
      x2: Another, broadcastable.

    Returns:
      A tensor.
    """
    amax = maximum(x1, x2)
    delta = subtract(x1, x2)
    return aa.where(isnan(delta), add(x1, x2),  # noqa: F821
                    amax + log1p(exp2(-abs(delta))) / np.log(2))  # noqa: F821


# ---- comparisons and logic ----

def _comparison(fn: Callable, x1: Any, x2: Any, bool_to_int: bool = False) -> TensorBase:
    dtype = dc.result_type(x1, x2)
    a, b = aa.array(x1, dtype), aa.array(x2, dtype)
    if bool_to_int and a.dtype == dtypes.bool:
        a, b = cast(a, dtypes.int32), cast(b, dtypes.int32)
    return fn(a, b)


def _make_comparison(name: str, fn: Callable, bool_to_int: bool, what: str) -> Callable:
    def f(x1: TensorLike, x2: TensorLike) -> TensorBase:
        return _comparison(fn, x1, x2, bool_to_int)
    f.__name__ = f.__qualname__ = name
    f.__module__ = __name__
    f.__doc__ = ("``%s``, element-wise with NumPy's promotion, as ``np.%s``.\n\n    Args:\n"
                 "      x1: A tensor or array-like value.\n      x2: Another, broadcastable."
                 "\n\n    Returns:\n      A boolean tensor.\n" % (what, name))
    return f


for _name, (_fn, _b2i, _what) in {
        "equal": (comparison_ops.equal, False, "x1 == x2"),
        "not_equal": (comparison_ops.not_equal, False, "x1 != x2"),
        "greater": (comparison_ops.greater, True, "x1 > x2"),
        "greater_equal": (comparison_ops.greater_equal, True, "x1 >= x2"),
        "less": (comparison_ops.less, True, "x1 < x2"),
        "less_equal": (comparison_ops.less_equal, True, "x1 <= x2")}.items():
    globals()[_name] = _make_comparison(_name, _fn, _b2i, _what)


def array_equal(a1: TensorLike, a2: TensorLike) -> TensorBase:
    """Whether two arrays have one shape and equal elements, as ``np.array_equal``.

    Args:
      a1: A tensor or array-like value.
      a2: Another.

    Returns:
      A boolean scalar tensor.
    """
    def f(a: Any, b: Any) -> Any:
        if a.shape.as_list() != b.shape.as_list():
            return constant(False)
        return reduction_ops.reduce_all(comparison_ops.equal(a, b))
    return _comparison(f, a1, a2)


def _logical(fn: Callable, x1: Any, x2: Any) -> TensorBase:
    return fn(aa.array(x1, np.bool_), aa.array(x2, np.bool_))


def logical_and(x1: TensorLike, x2: TensorLike) -> TensorBase:
    """Element-wise ``and`` of the truth values, as ``np.logical_and``.

    Args:
      x1: A tensor or array-like value.
      x2: Another, broadcastable.

    Returns:
      A boolean tensor.
    """
    return _logical(comparison_ops.logical_and, x1, x2)


def logical_or(x1: TensorLike, x2: TensorLike) -> TensorBase:
    """Element-wise ``or`` of the truth values, as ``np.logical_or``.

    Args:
      x1: A tensor or array-like value.
      x2: Another, broadcastable.

    Returns:
      A boolean tensor.
    """
    return _logical(comparison_ops.logical_or, x1, x2)


def logical_xor(x1: TensorLike, x2: TensorLike) -> TensorBase:
    """Element-wise ``xor`` of the truth values, as ``np.logical_xor``.

    Args:
      x1: A tensor or array-like value.
      x2: Another, broadcastable.

    Returns:
      A boolean tensor.
    """
    return _logical(comparison_ops.logical_xor, x1, x2)


def logical_not(x: TensorLike) -> TensorBase:
    """Element-wise ``not`` of the truth values, as ``np.logical_not``.

    Args:
      x: A tensor or array-like value.

    Returns:
      A boolean tensor.
    """
    return comparison_ops.logical_not(aa.array(x, np.bool_))


def isclose(a: TensorLike, b: TensorLike, rtol: float = 1e-05, atol: float = 1e-08,
            equal_nan: bool = False) -> TensorBase:
    """Whether ``|a - b| <= atol + rtol * |b|``, element-wise, as ``np.isclose``.

    Args:
      a: A tensor or array-like value.
      b: Another, broadcastable.
      rtol: The relative tolerance.
      atol: The absolute tolerance.
      equal_nan: Whether NaNs compare equal.

    Returns:
      A boolean tensor.
    """
    def f(x: Any, y: Any) -> Any:
        if x.dtype.is_floating or x.dtype.is_complex:
            real = x.dtype.real_dtype
            close = ew.abs(x - y) <= constant(atol, real) + constant(rtol, real) * ew.abs(y)
            if equal_nan:
                close = comparison_ops.logical_or(close, comparison_ops.logical_and(
                    ew.is_nan(x), ew.is_nan(y)))
            return close
        return comparison_ops.equal(x, y)
    return _bin_op(f, a, b)


def allclose(a: TensorLike, b: TensorLike, rtol: float = 1e-05, atol: float = 1e-08,
             equal_nan: bool = False) -> TensorBase:
    """Whether every element is :func:`isclose`, as ``np.allclose``.

    Args:
      a: A tensor or array-like value.
      b: Another, broadcastable.
      rtol: The relative tolerance.
      atol: The absolute tolerance.
      equal_nan: Whether NaNs compare equal.

    Returns:
      A boolean scalar tensor.
    """
    return aa.all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))


# ---- bitwise ----

def _bitwise(fn: Callable, x1: Any, x2: Any) -> TensorBase:
    def f(a: Any, b: Any) -> Any:
        if a.dtype == dtypes.bool:
            return cast(fn(cast(a, dtypes.int8), cast(b, dtypes.int8)), dtypes.bool)
        return fn(a, b)
    return _bin_op(f, x1, x2)


def bitwise_and(x1: TensorLike, x2: TensorLike) -> TensorBase:
    """Element-wise bitwise ``and``, as ``np.bitwise_and``.

    Args:
      x1: An integer or boolean array.
      x2: Another, broadcastable.

    Returns:
      A tensor.
    """
    return _bitwise(bitwise_ops.bitwise_and, x1, x2)


def bitwise_or(x1: TensorLike, x2: TensorLike) -> TensorBase:
    """Element-wise bitwise ``or``, as ``np.bitwise_or``.

    Args:
      x1: An integer or boolean array.
      x2: Another, broadcastable.

    Returns:
      A tensor.
    """
    return _bitwise(bitwise_ops.bitwise_or, x1, x2)


def bitwise_xor(x1: TensorLike, x2: TensorLike) -> TensorBase:
    """Element-wise bitwise ``xor``, as ``np.bitwise_xor``.

    Args:
      x1: An integer or boolean array.
      x2: Another, broadcastable.

    Returns:
      A tensor.
    """
    return _bitwise(bitwise_ops.bitwise_xor, x1, x2)


def bitwise_not(x: TensorLike) -> TensorBase:
    """Element-wise bitwise ``not`` (``not`` for bools), as ``np.bitwise_not``.

    Args:
      x: An integer or boolean array.

    Returns:
      A tensor.
    """
    return _unary(lambda t: comparison_ops.logical_not(t) if t.dtype == dtypes.bool
                  else bitwise_ops.invert(t), x)


def _tf_gcd(x1: Any, x2: Any) -> Any:
    if not (x1.dtype.is_integer and x2.dtype.is_integer):
        raise ValueError("Arguments to gcd must be integers.")
    target = list(np.broadcast_shapes(tuple(x1.shape.as_list()), tuple(x2.shape.as_list())))
    x1 = shape_ops.broadcast_to(ew.abs(x1), target)
    x2 = shape_ops.broadcast_to(ew.abs(x2), target)

    def cond(_: Any, b: Any) -> Any:
        return reduction_ops.reduce_any(comparison_ops.not_equal(b, fill_ops.zeros_like(b)))

    def body(a: Any, b: Any) -> Any:
        nonzero = comparison_ops.not_equal(b, fill_ops.zeros_like(b))
        safe = comparison_ops.where(nonzero, b, fill_ops.ones_like(b))
        a, b = (comparison_ops.where(nonzero, b, a),
                comparison_ops.where(nonzero, arithmetic_ops.floormod(a, safe),
                                     fill_ops.zeros_like(b)))
        return (comparison_ops.where(a < b, b, a), comparison_ops.where(a < b, a, b))
    value, _ = while_loop(cond, body, (x1, x2))
    return value


def gcd(x1: TensorLike, x2: TensorLike) -> TensorBase:
    """The greatest common divisor of ``|x1|`` and ``|x2|``, as ``np.gcd``.

    Args:
      x1: An integer array.
      x2: Another, broadcastable.

    Returns:
      A tensor.

    Raises:
      ValueError: The arguments are not integers.
    """
    return _bin_op(_tf_gcd, x1, x2)


def lcm(x1: TensorLike, x2: TensorLike) -> TensorBase:
    """The least common multiple of ``|x1|`` and ``|x2|``, as ``np.lcm``.

    Args:
      x1: An integer array.
      x2: Another, broadcastable.

    Returns:
      A tensor.

    Raises:
      ValueError: The arguments are not integers.
    """
    def f(a: Any, b: Any) -> Any:
        d = _tf_gcd(a, b)
        zero = comparison_ops.equal(d, fill_ops.zeros_like(d))
        safe = comparison_ops.where(zero, fill_ops.ones_like(d), d)
        return comparison_ops.where(zero, fill_ops.zeros_like(d),
                                    ew.abs(a) * arithmetic_ops.floordiv(ew.abs(b), safe))
    return _bin_op(f, x1, x2)


# ---- products ----

def matmul(x1: TensorLike, x2: TensorLike) -> TensorBase:
    """The matrix product (1-D arguments are vectors), as ``np.matmul``.

    Args:
      x1: An array of rank 1 or more.
      x2: Another.

    Returns:
      A tensor.

    Raises:
      ValueError: A scalar argument, or shapes that do not match.
    """
    def f(a: Any, b: Any) -> Any:
        ra, rb = a.shape.rank, b.shape.rank
        if ra == 0 or rb == 0:
            raise ValueError("matmul: Input operand does not have enough dimensions")
        if rb == 1:
            return _tf_tensordot(a, b, 1) if ra == 1 else shape_ops.squeeze(
                _tf_matmul(a, shape_ops.expand_dims(b, -1)), [-1])
        if ra == 1:
            return shape_ops.squeeze(_tf_matmul(shape_ops.expand_dims(a, 0), b), [-2])
        return _tf_matmul(a, b)
    return _bin_op(f, x1, x2)


def dot(a: TensorLike, b: TensorLike) -> TensorBase:
    """The dot product: of vectors, matrices, or the last axis of ``a`` with the second to
    last of ``b``, as ``np.dot``.

    Args:
      a: A tensor or array-like value.
      b: Another.

    Returns:
      A tensor.
    """
    def f(x: Any, y: Any) -> Any:
        if x.shape.rank == 0 or y.shape.rank == 0:
            return x * y
        if y.shape.rank == 1:
            return _tf_tensordot(x, y, [[-1 % x.shape.rank], [0]])
        return _tf_tensordot(x, y, [[x.shape.rank - 1], [y.shape.rank - 2]])
    return _bin_op(f, a, b)


def inner(a: TensorLike, b: TensorLike) -> TensorBase:
    """The inner product over the last axes, as ``np.inner``.

    Args:
      a: A tensor or array-like value.
      b: Another.

    Returns:
      A tensor.
    """
    def f(x: Any, y: Any) -> Any:
        if x.shape.rank == 0 or y.shape.rank == 0:
            return x * y
        return _tf_tensordot(x, y, [[x.shape.rank - 1], [y.shape.rank - 1]])
    return _bin_op(f, a, b)


def vdot(a: TensorLike, b: TensorLike) -> TensorBase:
    """The dot product of the flattened arrays (``a`` conjugated), as ``np.vdot``.

    Args:
      a: A tensor or array-like value.
      b: Another of as many elements.

    Returns:
      A scalar tensor.
    """
    a, b = aa.ravel(a), aa.ravel(b)
    if a.dtype.is_complex:
        a = complex_ops.conj(a)
    return dot(a, b)


def outer(a: TensorLike, b: TensorLike) -> TensorBase:
    """The outer product of the flattened arrays, as ``np.outer``.

    Args:
      a: A tensor or array-like value.
      b: Another.

    Returns:
      A 2-D tensor.
    """
    return _bin_op(lambda x, y: shape_ops.reshape(x, [-1, 1]) * shape_ops.reshape(y, [-1]),
                   a, b)


def tensordot(a: TensorLike, b: TensorLike, axes: AxisLike = 2) -> TensorBase:
    """The sum of products over ``axes``, as ``np.tensordot``.

    Args:
      a: A tensor or array-like value.
      b: Another.
      axes: How many trailing/leading axes, or the two lists of axes.

    Returns:
      A tensor.
    """
    return _bin_op(lambda x, y: _tf_tensordot(x, y, axes), a, b)


def kron(a: TensorLike, b: TensorLike) -> TensorBase:
    """The Kronecker product, as ``np.kron``.

    Args:
      a: A tensor or array-like value.
      b: Another.

    Returns:
      A tensor.
    """
    a, b = aa._promote(a, b)
    ra, rb = a.shape.rank, b.shape.rank
    rank = builtins.max(ra, rb)
    sa = [1] * (rank - ra) + a.shape.as_list()
    sb = [1] * (rank - rb) + b.shape.as_list()
    a = shape_ops.reshape(a, [d for s in sa for d in (s, 1)])
    b = shape_ops.reshape(b, [d for s in sb for d in (1, s)])
    return shape_ops.reshape(a * b, [x * y for x, y in zip(sa, sb)])


def cross(a: TensorLike, b: TensorLike, axisa: int = -1, axisb: int = -1, axisc: int = -1,
          axis: int | None = None) -> TensorBase:
    """The cross product of 2- or 3-vectors, as ``np.cross``.

    Args:
      a: Vectors along ``axisa``.
      b: Vectors along ``axisb``.
      axisa: ``a``'s vector axis.
      axisb: ``b``'s vector axis.
      axisc: The result's vector axis.
      axis: All three axes at once.

    Returns:
      A tensor (the z component alone when both are 2-vectors).
    """
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = aa._promote(a, b)
    a = aa.moveaxis(a, axisa, -1)
    b = aa.moveaxis(b, axisb, -1)
    da, db = a.shape.as_list()[-1], b.shape.as_list()[-1]
    if da == 2:
        a = aa.pad(a, [[0, 0]] * (a.shape.rank - 1) + [[0, 1]])
    if db == 2:
        b = aa.pad(b, [[0, 0]] * (b.shape.rank - 1) + [[0, 1]])
    a, b = aa.broadcast_arrays(a, b)
    c = _tf_cross(a, b)
    if da == 2 and db == 2:
        return c[..., 2]
    return aa.moveaxis(c, -1, axisc)


def einsum(subscripts: str, *operands: Any, **kwargs: Any) -> TensorBase:
    """Einstein summation, as ``np.einsum`` (``casting="safe"`` promotes the operands).

    Args:
      subscripts: The equation.
      *operands: The arrays.
      **kwargs: ``casting`` (``"safe"`` or ``"no"``) and ``optimize``.

    Returns:
      A tensor.

    Raises:
      ValueError: Another ``casting``.
    """
    casting = kwargs.get("casting", "safe")
    if casting == "safe":
        operands = aa._promote(*operands)
    elif casting == "no":
        operands = [aa.asarray(x) for x in operands]
    else:
        raise ValueError("Invalid value for argument `casting`. Expected casting=\"safe\" or "
                         "casting=\"no\". Received: casting=%s" % casting)
    return _tf_einsum(subscripts, *operands)


def polyval(p: TensorLike, x: TensorLike) -> TensorBase:
    """The polynomial with coefficients ``p`` (highest power first) at ``x``, as
    ``np.polyval``.

    Args:
      p: The coefficients.
      x: The points.

    Returns:
      A tensor.
    """
    p, x = _promote_binary(p, x)
    if p.shape.rank == 0:
        p = shape_ops.reshape(p, [1])
    y = fill_ops.zeros_like(x)
    for c in shape_ops.unstack(p):
        y = y * x + c
    return y


def diff(a: TensorLike, n: int = 1, axis: int = -1) -> TensorBase:
    """The ``n``-th difference along ``axis``, as ``np.diff``.

    Args:
      a: A tensor or array-like value.
      n: How many times.
      axis: The axis.

    Returns:
      A tensor.

    Raises:
      ValueError: ``n`` is negative or ``axis`` out of range.
    """
    a = aa.asarray(a)
    nd = a.shape.rank
    if nd == 0 or not -nd <= axis < nd:
        raise ValueError("Argument `axis` (received axis=%s) is out of bounds for input %s of "
                         "rank %s." % (axis, a, nd))
    if n < 0:
        raise ValueError("Argument `order` must be a non-negative integer. Received: axis=%s"
                         % n)
    head = [slice(None)] * nd
    tail = [slice(None)] * nd
    head[axis] = slice(1, None)
    tail[axis] = slice(None, -1)
    op = comparison_ops.not_equal if a.dtype == dtypes.bool else arithmetic_ops.subtract
    for _ in range(n):
        a = op(a[tuple(head)], a[tuple(tail)])
    return a


# ---- reductions with NaNs, averages ----

def _nan_reduction(name: str, reduction: Callable, init: int) -> Callable:
    def f(a: TensorLike, axis: AxisLike = None, dtype: DTypeLike | None = None,
          keepdims: bool = False) -> TensorBase:
        a = aa.array(a)
        v = aa.array(init, dtype=a.dtype)
        return reduction(aa.where(isnan(a), v, a), axis=axis, dtype=dtype,  # noqa: F821
                         keepdims=keepdims)
    f.__name__ = f.__qualname__ = name
    f.__module__ = __name__
    f.__doc__ = ("The %s over ``axis`` treating NaNs as %d, as ``np.%s``.\n\n    Args:\n      "
                 "a: A tensor or array-like value.\n      axis: An axis, axes, or None.\n      "
                 "dtype: The result dtype.\n      keepdims: Whether reduced axes stay.\n\n    "
                 "Returns:\n      A tensor.\n" % (name[3:], init, name))
    return f


nansum = _nan_reduction("nansum", aa.sum, 0)
nanprod = _nan_reduction("nanprod", aa.prod, 1)


def nanmean(a: TensorLike, axis: AxisLike = None, dtype: DTypeLike | None = None,
            keepdims: bool | None = None) -> TensorBase:
    """The mean over ``axis`` ignoring NaNs, as ``np.nanmean``.

    Args:
      a: A tensor or array-like value.
      axis: An axis, axes, or None.
      dtype: The result dtype.
      keepdims: Whether reduced axes stay with size one.

    Returns:
      A tensor.
    """
    a = aa.array(a)
    if a.dtype == dtypes.bool or a.dtype.is_integer:
        return aa.mean(a, axis=axis, dtype=dtype, keepdims=keepdims)
    mask = logical_not(isnan(a))  # noqa: F821
    dtype = dtype or a.dtype
    count = aa.sum(mask, axis=axis, dtype=dtype, keepdims=keepdims)
    return nansum(a, axis=axis, dtype=dtype, keepdims=keepdims) / count


def average(a: TensorLike, axis: int | None = None, weights: TensorLike | None = None,
            returned: bool = False) -> Any:
    """The (weighted) average over ``axis``, as ``np.average``.

    Args:
      a: A tensor or array-like value.
      axis: An int, or None for all elements.
      weights: Weights of ``a``'s shape, or 1-D along ``axis``.
      returned: Whether to return the sum of weights too.

    Returns:
      A tensor, or ``(average, sum_of_weights)``.

    Raises:
      ValueError: ``axis`` is not an int.
    """
    if axis is not None and not isinstance(axis, int):
        raise ValueError("Argument `axis` must be an integer. Received axis=%s (of type %s)"
                         % (axis, type(axis)))
    a = aa.array(a)
    default_float = dc.default_float_type()
    if weights is None:
        if not (a.dtype.is_floating or a.dtype.is_complex):
            a = cast(a, dc.result_type(a.dtype, default_float))
        avg = reduction_ops.reduce_mean(a, axis=axis)
        if returned:
            count = shape_ops.size(a) if axis is None else a.shape.as_list()[axis]
            wsum = cast(count, a.dtype)
    else:
        if a.dtype.is_floating or a.dtype.is_complex:
            out = dc.result_type(a.dtype, weights)
        else:
            out = dc.result_type(a.dtype, weights, default_float)
        a, w = aa.array(a, out), aa.array(weights, out)
        if axis is None or a.shape.rank == w.shape.rank:
            wsum = sum_ops.reduce_sum(w, axis=axis)
            avg = sum_ops.reduce_sum(a * w, axis=axis) / wsum
        else:
            wsum = sum_ops.reduce_sum(w)
            avg = _tf_tensordot(a, w, [[axis], [0]]) / wsum
    if returned:
        return avg, shape_ops.broadcast_to(wsum, shape_ops.shape(avg))
    return avg


def trace(a: TensorLike, offset: int = 0, axis1: int = 0, axis2: int = 1,
          dtype: DTypeLike | None = None) -> TensorBase:
    """The sum of the ``offset``-th diagonal, as ``np.trace``.

    Args:
      a: An array of rank 2 or more.
      offset: The diagonal.
      axis1: The first axis.
      axis2: The second axis.
      dtype: The result dtype.

    Returns:
      A tensor.
    """
    a = aa.asarray(a, dtype)
    if offset == 0 and a.shape.rank == 2 and (axis1 % 2, axis2 % 2) == (0, 1):
        return _tf_trace(a)       # TensorFlow's tnp: tf.linalg.trace, in the input's dtype
    return aa.sum(aa.diagonal(a, offset, axis1, axis2), -1, dtype)


def count_nonzero(a: TensorLike, axis: AxisLike = None) -> TensorBase:
    """How many elements are non-zero, as ``np.count_nonzero``.

    Args:
      a: A tensor or array-like value.
      axis: An axis, axes, or None.

    Returns:
      An int64 tensor.
    """
    return reduction_ops.count_nonzero(aa.array(a), axis)


def ptp(a: TensorLike, axis: AxisLike = None, keepdims: bool | None = None) -> TensorBase:
    """The range (maximum minus minimum) over ``axis``, as ``np.ptp``.

    Args:
      a: A tensor or array-like value.
      axis: An axis, axes, or None.
      keepdims: Whether reduced axes stay with size one.

    Returns:
      A tensor.
    """
    return aa.amax(a, axis=axis, keepdims=keepdims) - aa.amin(a, axis=axis, keepdims=keepdims)


def append(arr: TensorLike, values: TensorLike, axis: int | None = None) -> TensorBase:
    """``values`` appended to ``arr`` (both flattened when ``axis`` is None), as
    ``np.append``.

    Args:
      arr: A tensor or array-like value.
      values: What to append.
      axis: The axis.

    Returns:
      A tensor.
    """
    if axis is None:
        return aa.concatenate([aa.ravel(arr), aa.ravel(values)], 0)
    return aa.concatenate([arr, values], axis)


def meshgrid(*xi: Any, **kwargs: Any) -> list:
    """Coordinate grids from 1-D arrays, as ``np.meshgrid`` (``indexing`` ``"xy"`` or
    ``"ij"``).

    Args:
      *xi: 1-D arrays.
      **kwargs: ``indexing``; ``sparse=True`` and ``copy=False`` are not supported.

    Returns:
      A list of tensors.

    Raises:
      ValueError: ``sparse`` or ``copy=False``.
    """
    if kwargs.get("sparse", False):
        raise ValueError("Function `meshgrid` does not support returning sparse arrays yet. "
                         "Received: sparse=True")
    if not kwargs.get("copy", True):
        raise ValueError("Function `meshgrid` only supports copy=True. Received: copy=False")
    return _tf_meshgrid(*[aa.asarray(x) for x in xi], indexing=kwargs.get("indexing", "xy"))
