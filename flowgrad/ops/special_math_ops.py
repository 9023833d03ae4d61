"""Special functions: ``Erf``/``Erfc``, ``Lgamma``, ``Digamma`` and ``Polygamma``.

NumPy has no vectorised erf or lgamma, so those kernels map Python's ``math`` functions
over the elements (exact to double precision). Digamma and polygamma (n >= 1) shift the
argument up with their recurrences and sum the asymptotic series (about 1e-15 relative
error for x > 0); digamma uses the reflection formula below 0, polygamma(n >= 1) is NaN
for x <= 0. The gradients are ordinary ops (d lgamma = digamma, d digamma = polygamma(1),
d polygamma(n) = polygamma(n + 1)), so they can be differentiated to any order."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from flowgrad.framework.graph import name_scope
from flowgrad.framework.op_call import apply_op, argument_error
from flowgrad.framework.registry import defop
from flowgrad.framework.shape_rules import unary
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import broadcast_shapes
from flowgrad.ops.array_ops import _as_value, ones_like, zeros_like
from flowgrad.ops.math_ops import (_FLOATING, _unary, add, exp, multiply, negative, reduce_sum,
                                   square, subtract, sum_to)
from flowgrad.framework.type_hints import TensorLike
from flowgrad.framework import dispatch

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
_erf_ufunc = np.frompyfunc(math.erf, 1, 1)
_erfc_ufunc = np.frompyfunc(math.erfc, 1, 1)


def _elementwise(ufunc: Any, x: Any) -> Any:
    x = np.asarray(x)
    return np.asarray(ufunc(x), dtype=x.dtype)


def _gaussian_density(x: Any) -> Any:
    """2/sqrt(pi) * exp(-x**2), the derivative of erf."""
    return multiply(exp(negative(square(x))), _TWO_OVER_SQRT_PI)


@defop("Erf", lambda x: _elementwise(_erf_ufunc, x), unary, input_names=("x",),
       batching="elementwise")
def _erf_grad(op: Any, grad: Any) -> Any:
    return multiply(grad, _gaussian_density(op.inputs[0]))


@defop("Erfc", lambda x: _elementwise(_erfc_ufunc, x), unary, input_names=("x",),
       batching="elementwise")
def _erfc_grad(op: Any, grad: Any) -> Any:
    return multiply(grad, negative(_gaussian_density(op.inputs[0])))


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def erf(x: TensorLike, name: str | None = None) -> Any:
    """The Gauss error function, elementwise.

    Args:
        x: A floating tensor.
        name: A name for the operation (optional).
    """
    return _unary("Erf", x, name, _FLOATING)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def erfc(x: TensorLike, name: str | None = None) -> Any:
    """1 - erf(x), elementwise (accurate where erf(x) is close to 1).

    Args:
        x: A floating tensor.
        name: A name for the operation (optional).
    """
    return _unary("Erfc", x, name, _FLOATING)


# --------------------------------------------------------------------------------------
# Lgamma, Digamma, Polygamma

# B_2k / (2k) for the digamma series and B_2k / (2k)! for the polygamma series.
_B2K = [1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510,
        43867 / 798, -174611 / 330]


def _lgamma_scalar(x: float) -> float:
    try:
        return math.lgamma(x)
    except ValueError:          # a pole: 0, -1, -2, ...
        return math.inf


_lgamma_ufunc = np.frompyfunc(_lgamma_scalar, 1, 1)


def _digamma_np(x: Any) -> Any:
    x = np.asarray(x)
    z = x.astype(np.float64)
    neg = z < 0.5
    zr = np.where(neg, 1.0 - z, z)                      # reflection: psi(1-x) - pi/tan(pi x)
    acc = np.zeros_like(zr)
    while np.any(zr < 10.0):
        small = zr < 10.0
        acc -= np.where(small, 1.0 / np.where(small, zr, 1.0), 0.0)
        zr = np.where(small, zr + 1.0, zr)
    inv2 = 1.0 / (zr * zr)
    t = np.zeros_like(zr)
    for k in range(len(_B2K), 0, -1):       # Horner: sum_k B_2k / (2k) * inv2**k
        t = _B2K[k - 1] / (2 * k) + inv2 * t
    out = np.log(zr) - 0.5 / zr - inv2 * t + acc
    with np.errstate(divide="ignore", invalid="ignore"):
        refl = out - np.pi / np.tan(np.pi * z)
        out = np.where(neg, refl, out)
        out = np.where((z <= 0) & (z == np.floor(z)), np.nan, out)
    return out.astype(x.dtype if x.dtype.kind == "f" else np.float64)


def _polygamma_np(n: Any, x: Any) -> Any:
    n_arr, x = np.asarray(n), np.asarray(x)
    dt = x.dtype if x.dtype.kind == "f" else np.float64
    n_b, z = np.broadcast_arrays(n_arr.astype(np.float64), x.astype(np.float64))
    out = np.full(z.shape, np.nan)
    zero = n_b == 0
    out[zero] = _digamma_np(z[zero])
    for order in np.unique(n_b[~zero & (n_b >= 1) & (n_b == np.floor(n_b)) & (n_b < np.inf)]):
        sel = n_b == order
        out[sel] = _polygamma_order(int(order), z[sel])
    out[(n_b == np.inf) & (z <= 1)] = np.inf      # TensorFlow's (Eigen's) value
    return out.astype(dt)


def _polygamma_order(n: int, z: np.ndarray) -> np.ndarray:
    """psi^(n)(z) for n >= 1 and any z, with TensorFlow's values at the poles: +inf for odd
    n, NaN for even n, at 0, -1, -2, ... and at -inf."""
    out = np.full(z.shape, np.inf if n % 2 else np.nan)
    pole = (z <= 0) & (z == np.floor(z))
    pos = ~pole & ~(z < 0)
    out[pos] = _polygamma_positive(n, z[pos])
    neg = ~pole & (z < 0)
    if neg.any():
        out[neg] = _polygamma_negative(n, z[neg])
    return out


def _polygamma_negative(n: int, z: np.ndarray) -> np.ndarray:
    """psi^(n)(z) for z < 0 off the poles: the reflection formula for n = 1, 2, else the
    recurrence psi^(n)(z) = psi^(n)(z + 1) - (-1)^n n! / z^(n+1) up to z > 0."""
    if n in (1, 2):
        pz = np.pi * z
        csc2 = 1.0 / np.sin(pz) ** 2
        if n == 1:
            return np.pi ** 2 * csc2 - _polygamma_positive(1, 1.0 - z)
        return -2 * np.pi ** 3 * csc2 / np.tan(pz) + _polygamma_positive(2, 1.0 - z)
    acc = np.zeros_like(z)
    sign_fact = (-1) ** n * math.factorial(n)
    while np.any(z < 0):
        below = z < 0
        acc -= np.where(below, sign_fact / np.where(below, z, 1.0) ** (n + 1), 0.0)
        z = np.where(below, z + 1.0, z)
    return acc + _polygamma_positive(n, z)


def _polygamma_positive(n: int, z: np.ndarray) -> np.ndarray:
    """psi^(n)(z) for n >= 1, z > 0: recurrence up to z >= 10 + n, then the series."""
    fact = math.factorial(n)
    acc = np.zeros_like(z)
    bound = 10.0 + n
    while np.any(z < bound):
        small = z < bound
        acc += np.where(small, fact / np.where(small, z, 1.0) ** (n + 1), 0.0)
        z = np.where(small, z + 1.0, z)
    s = math.factorial(n - 1) / z ** n + fact / (2 * z ** (n + 1))
    for k, b in enumerate(_B2K, start=1):
        s = s + b * math.factorial(2 * k + n - 1) / math.factorial(2 * k) / z ** (2 * k + n)
    return (-1) ** (n + 1) * (s + acc)


@defop("Lgamma", lambda x: _elementwise(_lgamma_ufunc, x), unary, input_names=("x",),
       batching="elementwise")
def _lgamma_grad(op: Any, grad: Any) -> Any:
    return multiply(grad, digamma(op.inputs[0]))


@defop("Digamma", _digamma_np, unary, input_names=("x",), batching="elementwise")
def _digamma_grad(op: Any, grad: Any) -> Any:
    x = op.inputs[0]
    return multiply(grad, polygamma(ones_like(x), x))


@defop("Polygamma", _polygamma_np,
       lambda ins, attrs: (ins[1].dtype.base_dtype,
                           broadcast_shapes(ins[0].shape, ins[1].shape, "Polygamma")),
       same_dtype=True, input_names=("a", "x"))
def _polygamma_grad(op: Any, grad: Any) -> Any:
    a, x = op.inputs
    return None, sum_to(multiply(grad, polygamma(add(a, 1.0), x)), x)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def lgamma(x: TensorLike, name: str | None = None) -> Any:
    """log|Gamma(x)| elementwise (inf at the poles 0, -1, -2, ...).

    Args:
        x: A floating tensor.
        name: A name for the operation (optional).
    """
    return _unary("Lgamma", x, name, _FLOATING)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def digamma(x: TensorLike, name: str | None = None) -> Any:
    """psi(x) = d/dx lgamma(x) elementwise.

    Args:
        x: A floating tensor.
        name: A name for the operation (optional).
    """
    return _unary("Digamma", x, name, "f")


def polygamma(a: TensorLike, x: TensorLike, name: str | None = None) -> Any:
    """The a-th derivative of digamma at x (``a`` a non-negative integer-valued float).

    Args:
        a: The order of the derivative: a non-negative integer-valued floating tensor.
        x: A floating tensor of ``a``'s dtype.
        name: A name for the operation (optional).
    """
    xt = convert_to_tensor(_as_value(x))
    if not xt.dtype.base_dtype.is_floating:
        raise argument_error("Value for attr 'T' of %s is not in the list of allowed values: "
                             "float, double (x of Polygamma)" % xt.dtype.name, TypeError)
    at = convert_to_tensor(_as_value(a), xt.dtype.base_dtype)
    return apply_op("Polygamma", [at, xt], name=name)


# --------------------------------------------------------------------------------------
# Ndtri (the inverse of the standard normal CDF) and erfinv

_ACKLAM_A = (-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
             1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00)
_ACKLAM_B = (-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
             6.680131188771972e+01, -1.328068155288572e+01)
_ACKLAM_C = (-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
             -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00)
_ACKLAM_D = (7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
             3.754408661907416e+00)


def _poly(coeffs: tuple, x: Any) -> Any:
    out = np.zeros_like(x)
    for c in coeffs:
        out = out * x + c
    return out


def _ndtri_np(p: Any) -> Any:
    """Acklam's rational approximation refined by two Halley steps (about 1e-15)."""
    p = np.asarray(p)
    q = p.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        lo = np.sqrt(-2.0 * np.log(np.where(q < 0.5, q, 1.0 - q)))
        tail = _poly(_ACKLAM_C, lo) / (_poly(_ACKLAM_D, lo) * lo + 1.0)
        tail = np.where(q < 0.5, tail, -tail)
        r = q - 0.5
        r2 = r * r
        central = _poly(_ACKLAM_A, r2) * r / (_poly(_ACKLAM_B, r2) * r2 + 1.0)
        x = np.where(np.abs(r) <= 0.5 - 0.02425, central, tail)
        for _ in range(2):
            e = 0.5 * _elementwise(_erfc_ufunc, -x / math.sqrt(2.0)) - q
            u = e * math.sqrt(2.0 * math.pi) * np.exp(x * x / 2.0)
            x = np.where(np.isfinite(x), x - u / (1.0 + x * u / 2.0), x)
        x = np.where(q == 0.0, -np.inf, np.where(q == 1.0, np.inf, x))
        x = np.where((q < 0.0) | (q > 1.0) | np.isnan(q), np.nan, x)
    return x.astype(p.dtype if p.dtype.kind == "f" else np.float64)


@defop("Ndtri", _ndtri_np, unary, input_names=("x",))
def _ndtri_grad(op: Any, grad: Any) -> Any:
    y = op.outputs[0]       # d ndtri(p) / dp = sqrt(2 pi) exp(y**2 / 2)
    return multiply(grad, multiply(exp(multiply(square(y), 0.5)), math.sqrt(2.0 * math.pi)))


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def ndtri(x: TensorLike, name: str | None = None) -> Any:
    """The inverse of the standard normal CDF, elementwise (-inf at 0, inf at 1).

    Args:
        x: A floating tensor.
        name: A name for the operation (optional).
    """
    return _unary("Ndtri", x, name, _FLOATING)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def erfinv(x: TensorLike, name: str | None = None) -> Any:
    """The inverse of erf, elementwise: ndtri((x + 1) / 2) / sqrt(2).

    Args:
        x: A floating tensor.
        name: A name for the operation (optional).
    """
    with name_scope(name, "erfinv", [x]) as scope:
        return multiply(ndtri(multiply(add(x, 1.0), 0.5)), 1.0 / math.sqrt(2.0), name=scope)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def erfcinv(x: TensorLike, name: str | None = None) -> Any:
    """The inverse of erfc, elementwise: -ndtri(x / 2) / sqrt(2).

    Args:
        x: A floating-point tensor with values in [0, 2].
        name: A name for the operation.

    Returns:
        A tensor of ``x``'s dtype and shape (inf at 0, -inf at 2, NaN outside [0, 2]).
    """
    with name_scope(name, "erfcinv", [x]) as scope:
        x = convert_to_tensor(_as_value(x), name="x")
        return multiply(negative(ndtri(multiply(x, 0.5))), math.sqrt(0.5), name=scope)


def lbeta(x: TensorLike, name: str | None = None) -> Any:
    """log|Beta(x)| over the last axis: sum(lgamma(x), -1) - lgamma(sum(x, -1)).

    Args:
        x: A floating-point tensor of rank >= 1; Beta is taken over its last axis.
        name: A name for the operation.

    Returns:
        A tensor of ``x``'s dtype, of ``x``'s shape without the last axis.
    """
    with name_scope(name, "lbeta", [x]) as scope:
        x = convert_to_tensor(_as_value(x), name="x")
        log_prod_gamma = reduce_sum(lgamma(x), axis=[-1])
        return subtract(log_prod_gamma, lgamma(reduce_sum(x, axis=[-1])), name=scope)


def polyval(coeffs: list, x: TensorLike, name: str | None = None) -> Any:
    """The polynomial ``coeffs[0] * x**(n-1) + ... + coeffs[n-1]`` at ``x`` (Horner's rule).

    Args:
        coeffs: A list of tensors (or numbers), the highest power's coefficient first.
        x: A tensor.
        name: A name for the operation.

    Returns:
        The polynomial's value, broadcast over ``x`` and the coefficients (zeros like ``x``
        for no coefficients).

    Raises:
        ValueError: If ``coeffs`` is not a list.
    """
    if not isinstance(coeffs, list):
        raise ValueError("Argument coeffs must be list type. Received type %s." % type(coeffs))
    with name_scope(name, "polyval", list(coeffs) + [x]):
        x = convert_to_tensor(_as_value(x), name="x")
        if not coeffs:
            return zeros_like(x, name=name)
        terms = [convert_to_tensor(_as_value(c), name="coeff_%d" % i)
                 for i, c in enumerate(coeffs)]
        p = terms[0]
        for c in terms[1:]:
            p = add(c, multiply(p, x))
        return p


__all__ = ["digamma", "erf", "erfc", "erfcinv", "erfinv", "lbeta", "lgamma", "ndtri",
           "polygamma", "polyval"]
