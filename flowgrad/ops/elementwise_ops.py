"""Elementwise math functions: pow, square, exp and log (log1p, expm1), reciprocal, sqrt and
rsqrt, sign and abs, sin/cos/tan, tanh and sigmoid, rounding (no gradient) and the tests
is_finite/is_nan/is_inf. The fused gradient ops SqrtGrad, RsqrtGrad, TanhGrad and
SigmoidGrad have gradients of their own, so every derivative can be differentiated again."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad.framework import dtypes, hooks
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import (
    _NO_GRADIENT,
    defop,
    register_jvp,
    register_op,
    ufunc_forward,
)
from flowgrad.framework.shape_rules import binary, of_dtype, unary
from flowgrad.framework.tensor import convert_to_tensor, is_tensor
from flowgrad.ops.array_ops import _as_value, sum_tangents, zeros_like
from flowgrad.ops.arithmetic_ops import (
    _ARITH,
    add,
    conj_if_complex,
    div_no_nan,
    multiply,
    negative,
    realdiv,
    subtract,
)
from flowgrad.ops.comparison_ops import greater, not_equal, where
from flowgrad.ops.math_helpers import _FLOATING, _NUMERIC, _SIGNED, _binary, _same_shape, _unary
from flowgrad.ops.sum_ops import sum_to
from flowgrad.framework.type_hints import TensorLike
from flowgrad.framework import dispatch


# --------------------------------------------------------------------------------------
# Powers


@defop("Pow", np.power, batching="broadcasting", **_ARITH)
def _pow_grad(op: Any, grad: Any) -> Any:
    x, y = op.inputs
    z = op.outputs[0]
    if x.dtype.base_dtype.is_complex:      # TensorFlow's: conjugates; log(x) wherever x != 0
        x, y, z = conj_if_complex(x), conj_if_complex(y), conj_if_complex(z)
        mask = not_equal(x, 0)
    else:
        mask = greater(x, 0)
    # TensorFlow's order of products, (grad * y) * x^(y-1) and (grad * z) * log(x): where
    # z * log(x) overflows (float16), a zero grad still gives 0, not 0 * inf = nan
    gx = multiply(multiply(grad, y), pow(x, subtract(y, 1)))
    safe_log = where(mask, log(where(mask, x, 1)), 0)
    gy = multiply(multiply(grad, z), safe_log)
    return sum_to(gx, x), sum_to(gy, y)


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def pow(x: TensorLike, y: TensorLike, name: str | None = None) -> Any:  # noqa: A001 - TensorFlow's name
    """x ** y elementwise.

    Args:
        x: The base: a numeric tensor.
        y: The exponent, of ``x``'s dtype and a broadcastable shape.
        name: A name for the operation (optional).
    """
    return _binary("Pow", x, y, name, _SIGNED)


# --------------------------------------------------------------------------------------
# Unary functions


def _conj(y: Any) -> Any:
    """The conjugate of a complex array (the kernels of SqrtGrad and RsqrtGrad use it, as
    TensorFlow's do), a real one unchanged."""
    return np.conj(y) if np.iscomplexobj(y) else y


@defop("Square", np.square, unary, may_fail=False, input_names=("x",),
       batching="elementwise", jvp="elementwise")
def _square_grad(op: Any, grad: Any) -> Any:
    return multiply(grad, multiply(2.0, conj_if_complex(op.inputs[0])))


@defop("Exp", np.exp, unary, may_fail=False, input_names=("x",),
       batching="elementwise", jvp="elementwise")
def _exp_grad(op: Any, grad: Any) -> Any:
    return multiply(grad, conj_if_complex(op.outputs[0]))


@defop("Log", np.log, unary, may_fail=False, input_names=("x",),
       batching="elementwise", jvp="elementwise")
def _log_grad(op: Any, grad: Any) -> Any:
    return multiply(grad, reciprocal(conj_if_complex(op.inputs[0])))


@defop("Reciprocal", np.reciprocal, unary, input_names=("x",),
       batching="elementwise", jvp="elementwise")
def _reciprocal_grad(op: Any, grad: Any) -> Any:
    y = conj_if_complex(op.outputs[0])
    return multiply(negative(grad), multiply(y, y))


@defop("Sign", np.sign, unary, input_names=("x",), batching="elementwise")
def _sign_grad(op: Any, grad: Any) -> Any:
    return zeros_like(op.inputs[0])


@defop("Abs", np.abs, unary, may_fail=False, input_names=("x",),
       batching="elementwise", jvp="elementwise")
def _abs_grad(op: Any, grad: Any) -> Any:
    return multiply(grad, sign(op.inputs[0]))


@defop("Sqrt", np.sqrt, unary, may_fail=False, input_names=("x",),
       batching="elementwise", jvp="elementwise")
def _sqrt_grad(op: Any, grad: Any) -> Any:
    return apply_op("SqrtGrad", (op.outputs[0], grad))


@defop("SqrtGrad", lambda y, dy: dy * 0.5 / _conj(y), _same_shape, same_dtype=True,
       input_names=("y", "dy"), batching="strict", linear_in=1)
def _sqrt_grad_grad(op: Any, grad: Any) -> Any:
    ga = realdiv(grad, op.inputs[0])
    return multiply(negative(conj_if_complex(ga)), op.outputs[0]), multiply(0.5, ga)


@defop("Rsqrt", lambda x: np.reciprocal(np.sqrt(x)), unary, may_fail=False, input_names=("x",),
       batching="elementwise", jvp="elementwise")
def _rsqrt_grad(op: Any, grad: Any) -> Any:
    return apply_op("RsqrtGrad", (op.outputs[0], grad))


def _rsqrt_grad_kernel(y: Any, dy: Any) -> Any:
    y = _conj(y)
    return dy * -0.5 * (y * y * y)


@defop("RsqrtGrad", _rsqrt_grad_kernel, _same_shape, same_dtype=True,
       input_names=("y", "dy"), batching="strict", linear_in=1)
def _rsqrt_grad_grad(op: Any, grad: Any) -> Any:
    y, dy = op.inputs
    y, cg = conj_if_complex(y), conj_if_complex(grad)
    return (multiply(multiply(multiply(-1.5, cg), dy), square(y)),
            apply_op("RsqrtGrad", (y, grad)))


@defop("Log1p", np.log1p, unary, input_names=("x",), batching="elementwise", jvp="elementwise")
def _log1p_grad(op: Any, grad: Any) -> Any:
    return multiply(grad, reciprocal(add(1.0, conj_if_complex(op.inputs[0]))))


@defop("Expm1", np.expm1, unary, input_names=("x",), batching="elementwise", jvp="elementwise")
def _expm1_grad(op: Any, grad: Any) -> Any:
    return multiply(grad, exp(conj_if_complex(op.inputs[0])))


@defop("Sin", np.sin, unary, input_names=("x",), batching="elementwise", jvp="elementwise")
def _sin_grad(op: Any, grad: Any) -> Any:
    return multiply(grad, cos(conj_if_complex(op.inputs[0])))


@defop("Cos", np.cos, unary, input_names=("x",), batching="elementwise", jvp="elementwise")
def _cos_grad(op: Any, grad: Any) -> Any:
    return multiply(negative(grad), sin(conj_if_complex(op.inputs[0])))


@defop("Tan", np.tan, unary, input_names=("x",), batching="elementwise")
def _tan_grad(op: Any, grad: Any) -> Any:
    return multiply(grad, square(reciprocal(cos(conj_if_complex(op.inputs[0])))))


@defop("Tanh", np.tanh, unary, may_fail=False, input_names=("x",), batching="elementwise",
       jvp="elementwise", forward=ufunc_forward(np.tanh, (0,)))
def _tanh_grad(op: Any, grad: Any) -> Any:
    return apply_op("TanhGrad", (conj_if_complex(op.outputs[0]), grad))


def _tanh_grad_into(k: int) -> Callable:
    """TanhGrad's kernel writing dy (1 - y^2) into input ``k`` (the same rounding)."""
    def kernel(y: Any, dy: Any) -> Any:
        t = np.multiply(y, y)
        return np.multiply(dy, np.subtract(1, t, out=t), out=(y, dy)[k])
    return kernel


@defop("TanhGrad", lambda y, dy: dy * (1 - y * y), _same_shape, same_dtype=True,
       forward={0: _tanh_grad_into(0), 1: _tanh_grad_into(1)}, fresh_output=True,
       same_shape=True, input_names=("y", "dy"), batching="strict", linear_in=1)
def _tanh_grad_grad(op: Any, grad: Any) -> Any:
    y, dy = conj_if_complex(op.inputs[0]), conj_if_complex(op.inputs[1])
    return (multiply(multiply(grad, -2.0), multiply(dy, y)),
            apply_op("TanhGrad", (y, grad)))


def _tanh_grad_jvp(op: Any, ty: Any, tdy: Any) -> Any:
    """TanhGrad(y, dy) = dy (1 - y^2)."""
    y, dy = op.inputs
    return sum_tangents(op.outputs[0], [
        None if tdy is None else apply_op("TanhGrad", [y, tdy]),
        None if ty is None else -2.0 * dy * y * ty])


register_jvp("TanhGrad", _tanh_grad_jvp)


def _sigmoid_kernel(x: Any) -> Any:
    # 1 / (1 + exp(-x)) without overflow, one exp: 1 / (1 + e) for x >= 0, e / (1 + e)
    # below, e = exp(-|x|); the numerator is max(e, x >= 0) (e <= 1; NaN stays NaN), in two
    # buffers and six cheap passes (an LSTM runs it three times a step)
    if np.iscomplexobj(x):
        return 1 / (1 + np.exp(-x))
    if type(x) is not np.ndarray or not x.ndim:
        e = np.exp(-np.abs(x))
        d = 1 + e
        return np.where(x >= 0, 1 / d, e / d)
    e = np.abs(x)       # -|x| as abs + negative: NumPy's copysign is 3x slower
    return _sigmoid_finish(np.exp(np.negative(e, out=e), out=e), x >= 0)


def _sigmoid_finish(e: np.ndarray, positive: np.ndarray) -> np.ndarray:
    """max(e, positive) / (1 + e), written into ``e``."""
    d = np.add(e, 1)
    np.maximum(e, positive, out=e)
    return np.divide(e, d, out=e)


def _sigmoid_into(x: Any) -> Any:
    """``_sigmoid_kernel`` writing into ``x`` (the same operations, so the same values)."""
    if type(x) is not np.ndarray or np.iscomplexobj(x) or not x.flags.writeable:
        return _sigmoid_kernel(x)
    positive = x >= 0
    e = np.negative(np.abs(x, out=x), out=x)
    return _sigmoid_finish(np.exp(e, out=e), positive)


@defop("Sigmoid", _sigmoid_kernel, unary, may_fail=False, input_names=("x",),
       forward={0: _sigmoid_into}, fresh_output=True,
       batching="elementwise", jvp="elementwise")
def _sigmoid_grad(op: Any, grad: Any) -> Any:
    return apply_op("SigmoidGrad", (conj_if_complex(op.outputs[0]), grad))


def _sigmoid_grad_into(k: int) -> Callable:
    """SigmoidGrad's kernel writing dy (y (1 - y)) into input ``k`` (the same rounding)."""
    def kernel(y: Any, dy: Any) -> Any:
        t = np.subtract(1, y)
        return np.multiply(dy, np.multiply(y, t, out=t), out=(y, dy)[k])
    return kernel


@defop("SigmoidGrad", lambda y, dy: dy * (y * (1 - y)), _same_shape, same_dtype=True,
       forward={0: _sigmoid_grad_into(0), 1: _sigmoid_grad_into(1)}, fresh_output=True,
       same_shape=True, input_names=("y", "dy"), batching="strict", linear_in=1)
def _sigmoid_grad_grad(op: Any, grad: Any) -> Any:
    y, dy = conj_if_complex(op.inputs[0]), conj_if_complex(op.inputs[1])
    gb = multiply(grad, dy)
    return (subtract(gb, multiply(multiply(2.0, gb), y)),
            apply_op("SigmoidGrad", (y, grad)))


def _sigmoid_grad_jvp(op: Any, ty: Any, tdy: Any) -> Any:
    """SigmoidGrad(y, dy) = dy y (1 - y)."""
    y, dy = op.inputs
    return sum_tangents(op.outputs[0], [
        None if tdy is None else apply_op("SigmoidGrad", [y, tdy]),
        None if ty is None else dy * (1.0 - 2.0 * y) * ty])


register_jvp("SigmoidGrad", _sigmoid_grad_jvp)


# Piecewise-constant functions have no gradient (None), as in TensorFlow.
register_op("Floor", np.floor, unary, grad=_NO_GRADIENT, input_names=("x",), batching="elementwise")
register_op("Ceil", np.ceil, unary, grad=_NO_GRADIENT, input_names=("x",), batching="elementwise")
register_op("Round", np.round, unary, grad=_NO_GRADIENT, input_names=("x",), batching="elementwise")
register_op("Rint", np.rint, unary, grad=_NO_GRADIENT, input_names=("x",))
register_op("IsFinite", np.isfinite, of_dtype(dtypes.bool, unary), grad=_NO_GRADIENT,
            input_names=("x",), batching="elementwise")
register_op("IsNan", np.isnan, of_dtype(dtypes.bool, unary), grad=_NO_GRADIENT,
            input_names=("x",), batching="elementwise")
register_op("IsInf", np.isinf, of_dtype(dtypes.bool, unary), grad=_NO_GRADIENT,
            input_names=("x",))


@defop("NextAfter", np.nextafter, binary, same_dtype=True, input_names=("x1", "x2"))
def _next_after_grad(op: Any, grad: Any) -> Any:
    x1, x2 = op.inputs
    return sum_to(grad, x1), sum_to(zeros_like(grad), x2)     # TensorFlow's: slopes 1 and 0


register_jvp("NextAfter", lambda op, t1, t2: sum_tangents(op.outputs[0], [t1]))


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def nextafter(x1: TensorLike, x2: TensorLike, name: str | None = None) -> Any:
    """The next representable value after ``x1`` in the direction of ``x2``, elementwise.

    Args:
      x1: A float32 or float64 tensor.
      x2: A tensor of ``x1``'s dtype (broadcasts against ``x1``).
      name: A name for the operation.

    Returns:
      A tensor of the broadcast shape.
    """
    return _binary("NextAfter", x1, x2, name, "f")


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def square(x: TensorLike, name: str | None = None) -> Any:
    """Computes ``x * x`` elementwise, as ``tf.math.square``.

    Args:
        x: A numeric tensor.
        name: A name for the operation.

    Returns:
        A tensor of ``x``'s dtype and shape.
    """
    return _unary("Square", x, name, _NUMERIC)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def exp(x: TensorLike, name: str | None = None) -> Any:
    """e ** x elementwise.

    Args:
        x: A floating or complex tensor.
        name: A name for the operation (optional).
    """
    return _unary("Exp", x, name, _FLOATING)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def log(x: TensorLike, name: str | None = None) -> Any:
    """Natural logarithm elementwise.

    Args:
        x: A floating or complex tensor.
        name: A name for the operation (optional).
    """
    return _unary("Log", x, name, _FLOATING)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def reciprocal(x: TensorLike, name: str | None = None) -> Any:
    """1 / x elementwise.

    Args:
        x: A floating or complex tensor.
        name: A name for the operation (optional).
    """
    return _unary("Reciprocal", x, name, _NUMERIC)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def sign(x: TensorLike, name: str | None = None) -> Any:
    """-1, 0 or 1 by the sign of x (its gradient is zeros); for a complex x, TensorFlow's
    ``div_no_nan(x, |x|)`` (differentiable: the unit phase, 0 at 0).

    Args:
        x: A numeric tensor.
        name: A name for the operation (optional).
    """
    x = _as_value(x)
    if x.dtype.base_dtype.is_complex if is_tensor(x) else np.iscomplexobj(x):
        x = convert_to_tensor(x)
        magnitude = apply_op("ComplexAbs", (x,))
        return div_no_nan(x, hooks.cast(magnitude, x.dtype.base_dtype), name=name)
    return _unary("Sign", x, name, _SIGNED)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def abs(x: TensorLike, name: str | None = None) -> Any:  # noqa: A001 - TensorFlow's name
    """|x| elementwise; the magnitude of a complex tensor (TensorFlow's ComplexAbs, real).

    Args:
        x: A numeric tensor.
        name: A name for the operation (optional).
    """
    x = _as_value(x)
    if x.dtype.base_dtype.is_complex if is_tensor(x) else np.iscomplexobj(x):
        return apply_op("ComplexAbs", (convert_to_tensor(x),), name=name)
    return _unary("Abs", x, name, _SIGNED)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def sqrt(x: TensorLike, name: str | None = None) -> Any:
    """Square root elementwise.

    Args:
        x: A floating or complex tensor.
        name: A name for the operation (optional).
    """
    return _unary("Sqrt", x, name, _FLOATING)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def rsqrt(x: TensorLike, name: str | None = None) -> Any:
    """1 / sqrt(x) elementwise.

    Args:
        x: A floating or complex tensor.
        name: A name for the operation (optional).
    """
    return _unary("Rsqrt", x, name, _FLOATING)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def log1p(x: TensorLike, name: str | None = None) -> Any:
    """log(1 + x) elementwise, accurate for small x.

    Args:
        x: A floating or complex tensor.
        name: A name for the operation (optional).
    """
    return _unary("Log1p", x, name, _FLOATING)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def expm1(x: TensorLike, name: str | None = None) -> Any:
    """exp(x) - 1 elementwise, accurate for small x.

    Args:
        x: A floating or complex tensor.
        name: A name for the operation (optional).
    """
    return _unary("Expm1", x, name, _FLOATING)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def sin(x: TensorLike, name: str | None = None) -> Any:
    """Sine elementwise.

    Args:
        x: A floating or complex tensor.
        name: A name for the operation (optional).
    """
    return _unary("Sin", x, name, _FLOATING)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def cos(x: TensorLike, name: str | None = None) -> Any:
    """Cosine elementwise.

    Args:
        x: A floating or complex tensor.
        name: A name for the operation (optional).
    """
    return _unary("Cos", x, name, _FLOATING)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def tan(x: TensorLike, name: str | None = None) -> Any:
    """Tangent elementwise.

    Args:
        x: A floating or complex tensor.
        name: A name for the operation (optional).
    """
    return _unary("Tan", x, name, _FLOATING)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def tanh(x: TensorLike, name: str | None = None) -> Any:
    """Computes the hyperbolic tangent elementwise, as ``tf.math.tanh``.

    Args:
        x: A floating-point tensor.
        name: A name for the operation.

    Returns:
        A tensor of ``x``'s dtype and shape.
    """
    return _unary("Tanh", x, name, _FLOATING)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def sigmoid(x: TensorLike, name: str | None = None) -> Any:
    """Computes ``1 / (1 + exp(-x))`` elementwise, as ``tf.math.sigmoid``.

    Args:
        x: A floating-point tensor.
        name: A name for the operation.

    Returns:
        A tensor of ``x``'s dtype and shape.
    """
    return _unary("Sigmoid", x, name, _FLOATING)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def floor(x: TensorLike, name: str | None = None) -> Any:
    """The largest integer not greater than x, elementwise (no gradient).

    Args:
        x: A floating tensor.
        name: A name for the operation (optional).
    """
    return _unary("Floor", x, name, "f")


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def ceil(x: TensorLike, name: str | None = None) -> Any:
    """The smallest integer not less than x, elementwise (no gradient).

    Args:
        x: A floating tensor.
        name: A name for the operation (optional).
    """
    return _unary("Ceil", x, name, "f")


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def round(x: TensorLike, name: str | None = None) -> Any:  # noqa: A001 - TensorFlow's name
    """x rounded to the nearest integer, halves to even (no gradient); integers unchanged.

    Args:
        x: A numeric tensor.
        name: A name for the operation (optional).
    """
    x = convert_to_tensor(_as_value(x))
    if x.dtype.is_integer:
        return x
    return _unary("Round", x, name, "f")


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def rint(x: TensorLike, name: str | None = None) -> Any:
    """x rounded to the nearest integer, halves to even (no gradient).

    Args:
        x: A floating tensor.
        name: A name for the operation (optional).
    """
    return _unary("Rint", x, name, "f")


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def is_finite(x: TensorLike, name: str | None = None) -> Any:
    """Whether x is neither infinite nor NaN, elementwise.

    Args:
        x: A floating tensor.
        name: A name for the operation (optional).
    """
    return _unary("IsFinite", x, name, "f")


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def is_nan(x: TensorLike, name: str | None = None) -> Any:
    """Whether x is NaN, elementwise.

    Args:
        x: A floating tensor.
        name: A name for the operation (optional).
    """
    return _unary("IsNan", x, name, "f")


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def is_inf(x: TensorLike, name: str | None = None) -> Any:
    """Whether x is +-infinity, elementwise.

    Args:
        x: A floating tensor.
        name: A name for the operation (optional).
    """
    return _unary("IsInf", x, name, "f")
