"""The C library's float32 ``logf`` and ``sincosf``, vectorized in NumPy, bit for bit.

TensorFlow's Box-Muller transform (``BoxMullerFloat``) calls ``logf`` and ``sincosf`` of
the C library it runs on. On Linux that is glibc (2.28 and later), whose float functions are
the ARM optimized-routines algorithms: a 16-entry table and a degree-3 polynomial in double
precision for ``logf``, a quadrant reduction and two polynomials in double precision for
``sincosf``. Replaying them in float64 NumPy (with the tables and coefficients of those
routines, MIT / Apache-2.0 licensed) gives the C library's results, which NumPy's own float32
``log``/``sin``/``cos`` (SIMD code of other accuracy) and correctly rounded results do not.

Only what the Box-Muller transform needs: ``logf`` of positive normal floats and ``sincosf``
of floats in [0, 120)."""
from __future__ import annotations

import numpy as np

_H = float.fromhex
# logf: for each of 16 subintervals of [0x3f330000, 2 * 0x3f330000), 1/c and log(c).
_INVC = np.array([_H(h) for h in (
    "0x1.661ec79f8f3bep+0", "0x1.571ed4aaf883dp+0", "0x1.49539f0f010b0p+0",
    "0x1.3c995b0b80385p+0", "0x1.30d190c8864a5p+0", "0x1.25e227b0b8ea0p+0",
    "0x1.1bb4a4a1a343fp+0", "0x1.12358f08ae5bap+0", "0x1.0953f419900a7p+0",
    "0x1.0000000000000p+0", "0x1.e608cfd9a47acp-1", "0x1.ca4b31f026aa0p-1",
    "0x1.b2036576afce6p-1", "0x1.9c2d163a1aa2dp-1", "0x1.886e6037841edp-1",
    "0x1.767dcf5534862p-1")])
_LOGC = np.array([_H(h) for h in (
    "-0x1.57bf7808caadep-2", "-0x1.2bef0a7c06ddbp-2", "-0x1.01eae7f513a67p-2",
    "-0x1.b31d8a68224e9p-3", "-0x1.6574f0ac07758p-3", "-0x1.1aa2bc79c8100p-3",
    "-0x1.a4e76ce8c0e5ep-4", "-0x1.1973c5a611cccp-4", "-0x1.252f438e10c1ep-5",
    "0x0.0p+0", "0x1.aa5aa5df25984p-5", "0x1.c5e53aa362eb4p-4", "0x1.526e57720db08p-3",
    "0x1.bc2860d224770p-3", "0x1.1058bc8a07ee1p-2", "0x1.4043057b6ee09p-2")])
# The 1/c with their low 27 bits cleared: z * high and z * (1/c - high) are exact products.
_INVC_HI = (_INVC.view(np.uint64) & np.uint64(0xFFFFFFFFF8000000)).view(np.float64)
_INVC_LO = _INVC - _INVC_HI
_LN2 = _H("0x1.62e42fefa39efp-1")
_A0, _A1, _A2 = _H("-0x1.00ea348b88334p-2"), _H("0x1.5575b0be00b6ap-2"), \
    _H("-0x1.ffffef20a4123p-2")
_OFF = 0x3F330000

# sincosf: 2/pi scaled by 2**24, pi/2, and the cos/sin polynomials for quadrants 0-1 and
# (negated) 2-3.
_HPI_INV, _HPI = _H("0x1.45f306dc9c883p+23"), _H("0x1.921fb54442d18p+0")
_SIGN = np.array([1.0, -1.0, -1.0, 1.0])
_C0, _C1, _C2, _C3, _C4 = 1.0, _H("-0x1.ffffffd0c621cp-2"), _H("0x1.55553e1068f19p-5"), \
    _H("-0x1.6c087e89a359dp-10"), _H("0x1.99343027bf8c3p-16")
_S1, _S2, _S3 = _H("-0x1.555545995a603p-3"), _H("0x1.1107605230bc4p-7"), \
    _H("-0x1.994eb3774cf24p-13")


def logf(x: np.ndarray) -> np.ndarray:
    """``logf`` of positive normal float32 values, as the C library computes it.

    Args:
        x: A float32 array of positive normal numbers.

    Returns:
        A float32 array.
    """
    ix = x.view(np.uint32).astype(np.int64)
    tmp = ix - _OFF
    i = (tmp >> 19) & 15
    k = tmp >> 23
    z = (ix - (tmp & (0x1FF << 23))).astype(np.uint32).view(np.float32).astype(np.float64)
    r = (z * _INVC_HI[i] - 1.0) + z * _INVC_LO[i]       # fma(z, invc, -1), exactly
    y0 = _LOGC[i] + k * _LN2
    r2 = r * r
    y = _A1 * r + _A2
    y = _A0 * r2 + y
    y = y * r2 + (y0 + r)
    return y.astype(np.float32)


def sincosf(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``sincosf`` of float32 values in [0, 120), as the C library computes it.

    Args:
        x: A float32 array.

    Returns:
        (sin, cos): float32 arrays.
    """
    xd = x.astype(np.float64)
    top = (x.view(np.uint32) >> 20) & 0x7FF
    reduce = top >= 0x3F4                               # |x| >= 0.75: reduce to [-pi/4, pi/4]
    n = np.where(reduce, ((xd * _HPI_INV).astype(np.int64) + 0x800000) >> 24, 0)
    xr = xd - n * _HPI
    xs = xr * _SIGN[n & 3]
    flip = np.where((n & 2) != 0, -1.0, 1.0)            # quadrants 2-3: cos coefficients negated
    x2 = xr * xr
    x4 = x2 * x2
    x3 = x2 * xs
    c2 = flip * _C3 + x2 * (flip * _C4)
    s1 = _S2 + x2 * _S3
    c1 = flip * _C0 + x2 * (flip * _C1)
    x5 = x3 * x2
    x6 = x4 * x2
    s = xs + x3 * _S1
    c = c1 + x4 * (flip * _C2)
    sin = s + x5 * s1
    cos = c + x6 * c2
    swap = (n & 1) == 1
    sin_f = np.where(swap, cos, sin).astype(np.float32)
    cos_f = np.where(swap, sin, cos).astype(np.float32)
    tiny = top < 0x398                                  # |x| < 2**-12: sin x = x, cos x = 1
    return np.where(tiny, x, sin_f), np.where(tiny, np.float32(1), cos_f)
