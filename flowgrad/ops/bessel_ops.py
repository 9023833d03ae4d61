"""Modified Bessel functions of the first kind: ``BesselI0``, ``BesselI0e``, ``BesselI1`` and
``BesselI1e`` (``tf.math.bessel_i0`` ... and ``tf.math.special``).

NumPy has ``i0`` only, so the kernels compute the exponentially scaled functions
``exp(-|x|) I_nu(|x|)`` in float64: the power series below ``|x| = 20`` (positive terms, no
cancellation) and the large-argument expansion above it (its error is about ``exp(-2|x|)``),
both to about 1e-15 relative error; the unscaled functions multiply back ``exp(|x|)``. The
gradients are TensorFlow's (``special_math_grad.py``), made of these ops and so
differentiable again."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from flowgrad.framework.registry import defop
from flowgrad.framework.shape_rules import unary
from flowgrad.ops.arithmetic_ops import add, multiply, realdiv, subtract
from flowgrad.ops.array_ops import ones_like
from flowgrad.ops.comparison_ops import equal, where
from flowgrad.ops.elementwise_ops import reciprocal, sign
from flowgrad.ops.math_helpers import _unary
from flowgrad.framework.type_hints import TensorLike
from flowgrad.framework import dispatch

_SERIES_LIMIT = 20.0


def _scaled(nu: int, ax: np.ndarray) -> np.ndarray:
    """exp(-ax) I_nu(ax) for ax >= 0 (float64)."""
    out = np.empty_like(ax)
    small = ax <= _SERIES_LIMIT
    xs = ax[small]
    half = xs / 2.0
    term = half ** nu / math.factorial(nu)
    total = term.copy()
    q = half * half
    for k in range(1, 90):
        term = term * q / (k * (k + nu))
        total += term
    out[small] = total * np.exp(-xs)
    xl = ax[~small]
    mu = 4.0 * nu * nu
    term = np.ones_like(xl)
    total = term.copy()
    for k in range(1, 40):
        term = term * -(mu - (2 * k - 1) ** 2) / (k * 8.0 * xl)
        total += term
    out[~small] = total / np.sqrt(2.0 * np.pi * xl)
    return out


def _kernel(nu: int, scaled: bool) -> Any:
    def kernel(x: Any) -> np.ndarray:
        x = np.asarray(x)
        z = x.astype(np.float64)
        ax = np.abs(z)
        with np.errstate(over="ignore", invalid="ignore"):
            v = _scaled(nu, np.where(np.isnan(ax), 0.0, ax))
            if not scaled:
                v = v * np.exp(ax)
        if nu == 1:
            v = np.sign(z) * v
        v = np.where(np.isnan(z), np.nan, v)
        return v.astype(x.dtype)
    return kernel


def _safe_x(x: Any) -> Any:
    return where(equal(x, 0.0), ones_like(x), x)


def _i1_slope(x: Any, y: Any) -> Any:
    safe = _safe_x(x)
    return where(equal(x, 0.0), 0.5 * ones_like(x), subtract(bessel_i0(safe), realdiv(y, safe)))


def _i1e_slope(x: Any, y: Any) -> Any:
    safe = _safe_x(x)
    return where(equal(x, 0.0), 0.5 * ones_like(x),
                 subtract(bessel_i0e(safe), multiply(y, add(sign(safe), reciprocal(safe)))))


@defop("BesselI0", _kernel(0, False), unary, input_names=("x",), jvp="elementwise")
def _i0_grad(op: Any, grad: Any) -> Any:
    return multiply(grad, bessel_i1(op.inputs[0]))


@defop("BesselI0e", _kernel(0, True), unary, input_names=("x",), jvp="elementwise")
def _i0e_grad(op: Any, grad: Any) -> Any:
    x, y = op.inputs[0], op.outputs[0]
    return multiply(grad, subtract(bessel_i1e(x), multiply(sign(x), y)))


@defop("BesselI1", _kernel(1, False), unary, input_names=("x",), jvp="elementwise")
def _i1_grad(op: Any, grad: Any) -> Any:
    return multiply(grad, _i1_slope(op.inputs[0], op.outputs[0]))


@defop("BesselI1e", _kernel(1, True), unary, input_names=("x",), jvp="elementwise")
def _i1e_grad(op: Any, grad: Any) -> Any:
    return multiply(grad, _i1e_slope(op.inputs[0], op.outputs[0]))


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def bessel_i0(x: TensorLike, name: str | None = None) -> Any:
    """The modified Bessel function of the first kind of order 0, elementwise.

    Args:
      x: A floating point tensor.
      name: A name for the operation.

    Returns:
      A tensor of ``x``'s dtype and shape.
    """
    return _unary("BesselI0", x, name, "f")


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def bessel_i0e(x: TensorLike, name: str | None = None) -> Any:
    """``exp(-|x|) * bessel_i0(x)``, elementwise, without overflow; see :func:`bessel_i0`.

    Args:
        x: A floating tensor.
        name: A name for the operation (optional).
    """
    return _unary("BesselI0e", x, name, "f")


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def bessel_i1(x: TensorLike, name: str | None = None) -> Any:
    """The modified Bessel function of the first kind of order 1; see :func:`bessel_i0`.

    Args:
        x: A floating tensor.
        name: A name for the operation (optional).
    """
    return _unary("BesselI1", x, name, "f")


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def bessel_i1e(x: TensorLike, name: str | None = None) -> Any:
    """``exp(-|x|) * bessel_i1(x)``, elementwise, without overflow; see :func:`bessel_i0`.

    Args:
        x: A floating tensor.
        name: A name for the operation (optional).
    """
    return _unary("BesselI1e", x, name, "f")
