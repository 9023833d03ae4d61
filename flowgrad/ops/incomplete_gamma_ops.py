"""The incomplete gamma and beta functions and Hurwitz's zeta: ``tf.math.igamma``,
``igammac``, ``betainc`` and ``zeta`` (ops Igamma, Igammac, IgammaGradA, Betainc, Zeta).

The kernels are Cephes's (as Eigen's, which TensorFlow runs): the power series of P(a, x)
below ``max(1, a)`` and the continued fraction of Q(a, x) above it, the same two carrying the
derivative in ``a`` along for IgammaGradA; the continued fractions of I_x(a, b); the
Euler-Maclaurin sum for zeta(x, q). Each maps a scalar routine over the broadcast elements
(double precision, cast back to the input's dtype). The gradients are TensorFlow's:
igamma/igammac in ``a`` (IgammaGradA, itself without a gradient) and ``x``, betainc in ``x``
only, zeta in ``q`` only."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from flowgrad.framework.op_call import apply_op, argument_error
from flowgrad.framework.registry import defop, register_op
from flowgrad.framework.tensor import TensorBase, convert_to_tensor
from flowgrad.framework.tensor_shape import broadcast_shapes
from flowgrad.framework.type_hints import TensorLike
from flowgrad.framework import dispatch
from flowgrad.ops.array_ops import _as_value
from flowgrad.ops.math_ops import add, exp, log, multiply, negative, subtract, sum_to
from flowgrad.ops.safe_division_ops import xlog1py, xlogy
from flowgrad.ops.special_math_ops import _digamma_np, lgamma

_MACHEP = 1.11022302462515654042e-16
_MAXLOG = 7.09782712893383996843e2
_BIG = 4.503599627370496e15
_BIGINV = 2.22044604925031308085e-16


def _lgam(a: float) -> float:
    try:
        return math.lgamma(a)
    except ValueError:
        return math.inf


def _psi(a: float) -> float:
    return float(_digamma_np(np.float64(a)))


def _series_sums(a: float, x: float, want_da: bool) -> tuple:
    """The power series' sum for P(a, x) (before its factor x^a e^-x / Gamma(a + 1)) and,
    when asked, the sum's derivative in ``a``."""
    r, c, ans, dc, dans = a, 1.0, 1.0, 0.0, 0.0
    while True:
        r += 1.0
        dc = dc * x / r - c * x / (r * r)
        c *= x / r
        ans += c
        dans += dc
        if c <= ans * _MACHEP and (not want_da or abs(dc) <= abs(dans) * _MACHEP):
            break
    return ans, dans


def _igam_series(a: float, x: float, want_da: bool) -> tuple:
    """P(a, x) by its power series, and dP/da when asked."""
    logax = a * math.log(x) - x - _lgam(a + 1.0)
    if logax < -_MAXLOG:
        return 0.0, 0.0
    ax = math.exp(logax)
    ans, dans = _series_sums(a, x, want_da)
    value = ans * ax
    return value, (value * (math.log(x) - _psi(a + 1.0)) + dans * ax) if want_da else 0.0


def _fraction_sums(a: float, x: float, want_da: bool) -> tuple:
    """The continued fraction for Q(a, x) (before its factor x^a e^-x / Gamma(a)), Cephes's
    recurrence, and, when asked, its derivative in ``a``."""
    y, c = 1.0 - a, 0.0
    z = x + y + 1.0
    pkm2, qkm2, pkm1, qkm1 = 1.0, x, x + 1.0, z * x
    dpkm2, dqkm2, dpkm1, dqkm1 = 0.0, 0.0, 0.0, -x
    ans, dans = pkm1 / qkm1, -pkm1 * dqkm1 / (qkm1 * qkm1)
    for _ in range(2000):
        c += 1.0
        y += 1.0
        z += 2.0
        yc = y * c
        pk, qk = pkm1 * z - pkm2 * yc, qkm1 * z - qkm2 * yc
        dpk = dpkm1 * z - pkm1 - dpkm2 * yc + pkm2 * c
        dqk = dqkm1 * z - qkm1 - dqkm2 * yc + qkm2 * c
        t = 1.0
        if qk != 0.0:
            r = pk / qk
            dr = (dpk - r * dqk) / qk
            t = abs((ans - r) / r) if r != 0.0 else 1.0
            dt = abs(dans - dr) if want_da else 0.0
            ans, dans = r, dr
            if want_da and dt > abs(dr) * _MACHEP:
                t = max(t, 2 * _MACHEP)
        pkm2, pkm1, qkm2, qkm1 = pkm1, pk, qkm1, qk
        dpkm2, dpkm1, dqkm2, dqkm1 = dpkm1, dpk, dqkm1, dqk
        if abs(pk) > _BIG:
            pkm2, pkm1, qkm2, qkm1 = (v * _BIGINV for v in (pkm2, pkm1, qkm2, qkm1))
            dpkm2, dpkm1, dqkm2, dqkm1 = (v * _BIGINV for v in (dpkm2, dpkm1, dqkm2, dqkm1))
        if t <= _MACHEP:
            break
    return ans, dans


def _igamc_fraction(a: float, x: float, want_da: bool) -> tuple:
    """Q(a, x) by its continued fraction, and dQ/da when asked."""
    logax = a * math.log(x) - x - _lgam(a)
    if logax < -_MAXLOG:
        return 0.0, 0.0
    ax = math.exp(logax)
    ans, dans = _fraction_sums(a, x, want_da)
    value = ans * ax
    return value, (dans * ax + value * (math.log(x) - _psi(a))) if want_da else 0.0


def gamma_sample_derivative(a: float, x: float) -> float:
    """d x / d a of a sample ``x`` of Gamma(a, 1) at fixed CDF value (Eigen's
    ``gamma_sample_der_alpha``): -(dP/da) / density, with the density's factor cancelled
    inside the series and the fraction, so it holds where the density underflows.

    Args:
        a: The concentration.
        x: The sample.

    Returns:
        The derivative (0 at ``x == 0``, NaN off the domain).
    """
    if x == 0:
        return 0.0
    if x < 0 or a <= 0 or math.isnan(a) or math.isnan(x):
        return math.nan
    if x > 1.0 and x > a:
        ans, dans = _fraction_sums(a, x, True)
        return (dans + ans * (math.log(x) - _psi(a))) * x
    ans, dans = _series_sums(a, x, True)
    return -(dans + ans * (math.log(x) - _psi(a + 1.0))) * x / a


def _igamma_parts(a: float, x: float, want_da: bool) -> tuple:
    """(P, Q, dP/da) at one point, with Eigen's values off the domain (its P checks x == 0
    first, so P(a, 0) is 0 for any a, NaN included; P(inf, inf) is 0)."""
    if x == 0 and not a > 0:
        return 0.0, math.nan, math.nan
    if math.isnan(a) or math.isnan(x) or x < 0 or a <= 0:
        return math.nan, math.nan, math.nan
    if math.isinf(a) and math.isinf(x):
        return 0.0, 0.0, math.nan
    if x == 0:
        return 0.0, 1.0, 0.0
    if math.isinf(x):
        return 1.0, 0.0, 0.0
    if math.isinf(a):
        return 0.0, 1.0, math.nan
    if x > 1.0 and x > a:
        q, dq = _igamc_fraction(a, x, want_da)
        return 1.0 - q, q, -dq
    p, dp = _igam_series(a, x, want_da)
    return p, 1.0 - p, dp


def _binary_kernel(scalar: Any) -> Any:
    ufunc = np.frompyfunc(scalar, 2, 1)

    def kernel(a: Any, x: Any) -> Any:
        a, x = np.asarray(a), np.asarray(x)
        return np.asarray(ufunc(a.astype(np.float64), x.astype(np.float64)), dtype=a.dtype)
    return kernel


def _binary_shape(op_type: str) -> Any:
    return lambda ins, attrs: (ins[0].dtype.base_dtype,
                               broadcast_shapes(ins[0].shape, ins[1].shape, op_type))


def _igamma_grads(op: Any, grad: Any) -> tuple:
    """TensorFlow's: IgammaGradA in ``a``; the density x^(a-1) e^-x / Gamma(a) in ``x``."""
    a, x = op.inputs
    partial_a = apply_op("IgammaGradA", [a, x])
    partial_x = exp(add(negative(x), subtract(multiply(subtract(a, 1.0), log(x)), lgamma(a))))
    return sum_to(multiply(partial_a, grad), a), sum_to(multiply(partial_x, grad), x)


@defop("Igamma", _binary_kernel(lambda a, x: _igamma_parts(a, x, False)[0]),
       _binary_shape("Igamma"), same_dtype=True, input_names=("a", "x"))
def _igamma_grad(op: Any, grad: Any) -> Any:
    return _igamma_grads(op, grad)


@defop("Igammac", _binary_kernel(lambda a, x: _igamma_parts(a, x, False)[1]),
       _binary_shape("Igammac"), same_dtype=True, input_names=("a", "x"))
def _igammac_grad(op: Any, grad: Any) -> Any:
    da, dx = _igamma_grads(op, grad)
    return negative(da), negative(dx)


register_op("IgammaGradA", _binary_kernel(lambda a, x: _igamma_parts(a, x, True)[2]),
            _binary_shape("IgammaGradA"), same_dtype=True, input_names=("a", "x"))


def _float_pair(op_type: str, names: tuple, values: tuple, allowed: tuple) -> list:
    """The inputs as tensors of the first one's dtype, which must be one of ``allowed``."""
    first = convert_to_tensor(_as_value(values[0]), name=names[0])
    dt = first.dtype.base_dtype
    if dt.name not in allowed:
        raise argument_error("Value for attr 'T' of %s is not in the list of allowed values: "
                             "%s (%s of %s)" % (dt.name, ", ".join(allowed), names[0], op_type),
                             TypeError)
    return [first] + [convert_to_tensor(_as_value(v), dt, name=n)
                      for n, v in zip(names[1:], values[1:])]


_IGAMMA_TYPES = ("bfloat16", "float16", "float32", "float64")


def igamma(a: TensorLike, x: TensorLike, name: str | None = None) -> TensorBase:
    """The lower regularized incomplete gamma function P(a, x), elementwise (broadcasting).

    P(a, x) = 1 / Gamma(a) * integral_0^x t^(a-1) e^-t dt; NaN where ``a <= 0`` or ``x < 0``.

    Example:

        >>> print(round(float(tf.math.igamma(2.0, 1.0)), 6))
        0.264241

    Args:
        a: A floating tensor (bfloat16, float16, float32 or float64), positive.
        x: A tensor of ``a``'s dtype, non-negative.
        name: A name for the operation (optional).

    Returns:
        P(a, x), of ``a``'s dtype and the broadcast shape.

    Raises:
        TypeError: ``a`` is not floating point.
        InvalidArgumentError: the shapes do not broadcast.
    """
    return apply_op("Igamma", _float_pair("Igamma", ("a", "x"), (a, x), _IGAMMA_TYPES),
                    name=name)


def igammac(a: TensorLike, x: TensorLike, name: str | None = None) -> TensorBase:
    """The upper regularized incomplete gamma function Q(a, x) = 1 - P(a, x), elementwise.

    Args:
        a: A floating tensor (bfloat16, float16, float32 or float64), positive.
        x: A tensor of ``a``'s dtype, non-negative.
        name: A name for the operation (optional).

    Returns:
        Q(a, x), of ``a``'s dtype and the broadcast shape.

    Raises:
        TypeError: ``a`` is not floating point.
        InvalidArgumentError: the shapes do not broadcast.
    """
    return apply_op("Igammac", _float_pair("Igammac", ("a", "x"), (a, x), _IGAMMA_TYPES),
                    name=name)


# --------------------------------------------------------------------------------------
# Betainc: Cephes's incbet


def _beta_series(a: float, b: float, x: float) -> float:
    """I_x(a, b) by its power series (b * x <= 1, x <= 0.95)."""
    ai = 1.0 / a
    u = (1.0 - b) * x
    v = u / (a + 1.0)
    t1, t, n, s, z = v, u, 2.0, 0.0, _MACHEP * ai
    while abs(v) > z:
        u = (n - b) * x / n
        t *= u
        v = t / (a + n)
        s += v
        n += 1.0
    s += t1 + ai
    logt = _lgam(a + b) - _lgam(a) - _lgam(b) + a * math.log(x) + math.log(s)
    return 0.0 if logt < -_MAXLOG else math.exp(logt)


def _beta_fraction(x: float, ks: list, steps: tuple) -> float:
    """One of Cephes's two continued fractions of I_x (incbcf / incbd): ``ks`` are k1..k8,
    ``steps`` their increments per term; the first term's sign is negative."""
    pkm2, qkm2, pkm1, qkm1, ans = 0.0, 1.0, 1.0, 1.0, 1.0
    for _ in range(300):
        k1, k2, k3, k4, k5, k6, k7, k8 = ks
        for xk in (-(x * k1 * k2) / (k3 * k4), (x * k5 * k6) / (k7 * k8)):
            pk, qk = pkm1 + pkm2 * xk, qkm1 + qkm2 * xk
            pkm2, pkm1, qkm2, qkm1 = pkm1, pk, qkm1, qk
        r = pk / qk if qk != 0.0 else ans
        t = abs((ans - r) / r) if r != 0.0 else 1.0
        ans = r if r != 0.0 else ans
        if t < 3.0 * _MACHEP:
            break
        ks = [k + s for k, s in zip(ks, steps)]
        if abs(qk) + abs(pk) > _BIG:
            pkm2, pkm1, qkm2, qkm1 = (v * _BIGINV for v in (pkm2, pkm1, qkm2, qkm1))
        if abs(qk) < _BIGINV or abs(pk) < _BIGINV:
            pkm2, pkm1, qkm2, qkm1 = (v * _BIG for v in (pkm2, pkm1, qkm2, qkm1))
    return ans


def _betainc_scalar(a: float, b: float, x: float) -> float:
    """I_x(a, b), NaN off the domain (a, b > 0, 0 <= x <= 1)."""
    if not (a > 0 and b > 0 and 0 <= x <= 1):
        return math.nan
    if x == 0.0 or x == 1.0:
        return x
    if b * x <= 1.0 and x <= 0.95:
        return _beta_series(a, b, x)
    flip = x > a / (a + b)
    if flip:
        a, b, x, xc = b, a, 1.0 - x, x
    else:
        xc = 1.0 - x
    if flip and b * x <= 1.0 and x <= 0.95:
        t = _beta_series(a, b, x)
    else:
        if x * (a + b - 2.0) - (a - 1.0) < 0.0:
            w = _beta_fraction(x, [a, a + b, a, a + 1.0, 1.0, b - 1.0, a + 1.0, a + 2.0],
                               (1, 1, 2, 2, 1, -1, 2, 2))
        else:
            w = _beta_fraction(x / (1.0 - x),
                               [a, b - 1.0, a, a + 1.0, 1.0, a + b, a + 1.0, a + 2.0],
                               (1, -1, 2, 2, 1, 1, 2, 2)) / xc
        y = (a * math.log(x) + b * math.log(xc) + _lgam(a + b) - _lgam(a) - _lgam(b)
             + math.log(w / a))
        t = 0.0 if y < -_MAXLOG else math.exp(y)
    if flip:
        t = 1.0 - _MACHEP if t <= _MACHEP else 1.0 - t
    return t


_betainc_ufunc = np.frompyfunc(_betainc_scalar, 3, 1)


def _betainc_kernel(a: Any, b: Any, x: Any) -> Any:
    a, b, x = np.asarray(a), np.asarray(b), np.asarray(x)
    out = _betainc_ufunc(a.astype(np.float64), b.astype(np.float64), x.astype(np.float64))
    return np.asarray(out, dtype=a.dtype)


def _betainc_shape(ins: Any, attrs: Any) -> tuple:
    """Betainc's shapes: equal, or scalars beside one shape (TensorFlow's message)."""
    shapes = [t.shape for t in ins]
    full = [s for s in shapes if s.rank != 0]
    out = full[0] if full else shapes[0]
    for s in full[1:]:
        if s.is_fully_defined() and out.is_fully_defined() and s != out:
            raise argument_error("Shapes of a, b and x are inconsistent: %s vs. %s vs. %s"
                                 % tuple(str(s) for s in shapes), ValueError)
        out = out.merge_with(s)
    return ins[0].dtype.base_dtype, out


@defop("Betainc", _betainc_kernel, _betainc_shape, same_dtype=True,
       input_names=("a", "b", "x"))
def _betainc_grad(op: Any, grad: Any) -> Any:
    a, b, x = op.inputs
    log_beta = subtract(add(lgamma(a), lgamma(b)), lgamma(add(a, b)))
    partial_x = exp(subtract(add(xlog1py(subtract(b, 1.0), negative(x)),
                                 xlogy(subtract(a, 1.0), x)), log_beta))
    return None, None, sum_to(multiply(partial_x, grad), x)


def betainc(a: TensorLike, b: TensorLike, x: TensorLike,
            name: str | None = None) -> TensorBase:
    """The regularized incomplete beta function I_x(a, b), elementwise.

    ``a``, ``b`` and ``x`` have one shape, or some are scalars. NaN off the domain
    (``a, b > 0``, ``0 <= x <= 1``). The gradient is defined in ``x`` only, as TensorFlow's.

    Example:

        >>> print(round(float(tf.math.betainc(2.0, 3.0, 0.5)), 6))
        0.6875

    Args:
        a: A float32 or float64 tensor.
        b: A tensor of ``a``'s dtype.
        x: A tensor of ``a``'s dtype.
        name: A name for the operation (optional).

    Returns:
        I_x(a, b), of ``a``'s dtype.

    Raises:
        TypeError: ``a`` is not float32 or float64.
        ValueError: the shapes are neither equal nor scalars (InvalidArgumentError when
            only known as the op runs).
    """
    ins = _float_pair("Betainc", ("a", "b", "x"), (a, b, x), ("float32", "float64"))
    return apply_op("Betainc", ins, name=name)


# --------------------------------------------------------------------------------------
# Zeta: Cephes's zeta (Euler-Maclaurin)

_ZETA_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9,
           7.47242496e10, -2.950130727918164224e12, 1.1646782814350067249e14,
           -4.5979787224074726105e15, 1.8152105401943546773e17, -7.1661652561756670113e18)


def _zeta_scalar(x: float, q: float) -> float:
    """Hurwitz's zeta(x, q) = sum_k (k + q)^-x, with Eigen's values off the domain."""
    if x == 1.0:                        # Eigen's first test: a pole, whatever q
        return math.inf
    if math.isnan(x) or math.isnan(q) or x < 1.0:
        return math.nan
    if math.isinf(x):                   # (k + q)^-inf: the k = 0 term decides
        return 1.0 if q == 1.0 else 0.0 if q > 1.0 else math.inf
    if math.isinf(q):
        return 0.0 if q > 0 else math.nan
    if q <= 0.0:
        if q == math.floor(q):          # a pole: +inf for an even integer x (Eigen's)
            return math.inf if x == math.floor(x) and x % 2 == 0 else math.nan
        if x != math.floor(x):
            return math.nan
    s = q ** -x
    a, i, b = q, 0, 0.0
    while i < 9 or a <= 9.0:
        i += 1
        a += 1.0
        b = a ** -x
        s += b
        if abs(b) <= _MACHEP * abs(s):
            return s
    w = a
    s += b * w / (x - 1.0) - 0.5 * b
    fac, k = 1.0, 0.0
    for coef in _ZETA_A:
        fac *= x + k
        b /= w
        t = fac * b / coef
        s += t
        if abs(t) <= _MACHEP * abs(s):
            break
        k += 1.0
        fac *= x + k
        b /= w
        k += 1.0
    return s


@defop("Zeta", _binary_kernel(_zeta_scalar), _binary_shape("Zeta"), same_dtype=True,
       input_names=("x", "q"))
def _zeta_grad(op: Any, grad: Any) -> Any:
    x, q = op.inputs
    return None, sum_to(multiply(negative(multiply(x, zeta(add(x, 1.0), q))), grad), q)


@dispatch.register_binary_elementwise_api
@dispatch.add_dispatch_support
def zeta(x: TensorLike, q: TensorLike, name: str | None = None) -> TensorBase:
    """Hurwitz's zeta function zeta(x, q) = sum_{n >= 0} (q + n)^-x, elementwise.

    Inf at ``x == 1``, NaN for ``x < 1``. The gradient is defined in ``q`` only, as
    TensorFlow's.

    Args:
        x: A float32 or float64 tensor.
        q: A tensor of ``x``'s dtype.
        name: A name for the operation (optional).

    Returns:
        zeta(x, q), of ``x``'s dtype and the broadcast shape.

    Raises:
        TypeError: ``x`` is not float32 or float64.
        InvalidArgumentError: the shapes do not broadcast.
    """
    return apply_op("Zeta", _float_pair("Zeta", ("x", "q"), (x, q), ("float32", "float64")),
                    name=name)
