"""``tf.experimental.numpy``: NumPy's API on tensors, written on flowgrad's ops, so that every
result is a ``tf.Tensor`` that differentiates (``GradientTape``, ``tf.function``), with NumPy's
dtype rules as TensorFlow 2.21 applies them (Python floats are float64 unless
``experimental_enable_numpy_behavior(prefer_float32=True)``)."""
from __future__ import annotations

from flowgrad.experimental_numpy import random  # noqa: F401 - tnp.random
from flowgrad.experimental_numpy.array_api import (  # noqa: F401
    all, amax, amin, any, arange, argmax, argmin, argsort, around, array, asanyarray, asarray,
    ascontiguousarray, atleast_1d, atleast_2d, atleast_3d, broadcast_arrays, broadcast_to,
    compress, concatenate, copy, cumprod, cumsum, diag, diag_indices, diagflat, diagonal, dsplit,
    dstack, empty, empty_like, expand_dims, eye, flatten, flip, fliplr, flipud, full, full_like,
    geomspace, hsplit, hstack, identity, imag, isscalar, ix_, linspace, logspace, max, mean, min,
    moveaxis, ndarray, ndim, newaxis, nonzero, ones, ones_like, pad, prod, ravel, real, repeat,
    reshape, roll, rot90, round, select, shape, size, sort, split, squeeze, stack, std, sum,
    swapaxes, take, take_along_axis, tile, transpose, tri, tril, triu, vander, var, vsplit,
    vstack, where, zeros, zeros_like)
from flowgrad.experimental_numpy.dtypes_config import (  # noqa: F401
    bool_, complex64, complex128, complex_, finfo, float16, float32, float64, float_, iinfo,
    inexact, int8, int16, int32, int64, int_, issubdtype, object_, promote_types, result_type,
    string_, uint8, uint16, uint32, uint64, unicode_)
from flowgrad.experimental_numpy.math_api import (  # noqa: F401
    abs, absolute, add, allclose, angle, append, arccos, arccosh, arcsin, arcsinh, arctan,
    arctan2, arctanh, array_equal, average, bitwise_and, bitwise_not, bitwise_or, bitwise_xor,
    cbrt, ceil, clip, conj, conjugate, cos, cosh, count_nonzero, cross, deg2rad, diff, divide,
    divmod, dot, e, einsum, equal, exp, exp2, expm1, fabs, fix, float_power, floor, floor_divide,
    gcd, greater, greater_equal, heaviside, hypot, inf, inner, isclose, iscomplex, iscomplexobj,
    isfinite, isinf, isnan, isneginf, isposinf, isreal, isrealobj, kron, lcm, less, less_equal,
    log, log1p, log2, log10, logaddexp, logaddexp2, logical_and, logical_not, logical_or,
    logical_xor, matmul, maximum, meshgrid, minimum, mod, multiply, nanmean, nanprod, nansum,
    negative, nextafter, not_equal, outer, pi, polyval, positive, power, ptp, rad2deg,
    reciprocal, remainder, sign, signbit, sin, sinc, sinh, sqrt, square, subtract, tan, tanh,
    tensordot, trace, true_divide, vdot)
from flowgrad.experimental_numpy.numpy_behavior import (  # noqa: F401
    experimental_enable_numpy_behavior)

__all__ = sorted(
    name for name in dict(globals()) if not name.startswith("_") and name not in (
        "annotations", "array_api", "dtypes_config", "math_api", "numpy_behavior"))


def __dir__() -> list:
    """TensorFlow's names of ``tf.experimental.numpy``."""
    return list(__all__)

