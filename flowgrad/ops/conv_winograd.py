"""Winograd's minimal filtering F(2x2, 3x3) for the 3x3, stride-1 convolutions of VGG- and
ResNet-style models (Lavin and Gray, "Fast Algorithms for Convolutional Neural Networks",
2015), as oneDNN and cuDNN run them.

A 3x3 convolution computes each 2x2 block of outputs from the 4x4 input tile around it:
``Y = A^T [(G g G^T) * (B^T d B)] A``, where ``*`` multiplies elementwise and, summed over
the input channels, becomes 16 GEMMs (one per position of the transformed 4x4 tile) of
(tiles, C) x (C, O): 16 multiplications per 4 outputs and input channel instead of 36.
The transforms are additions and subtractions on strided views (the filter's also halves),
and the transformed input holds 4 values per input value where im2col's column matrix
holds 9. The float32 results differ from the direct convolution's by rounding only (a few
ulps of the sum of |products|; ``tests/test_conv_winograd.py``)."""
from __future__ import annotations

from typing import Callable

import numpy as np
from flowgrad.framework.type_hints import DTypeLike


def filter_transform(f: np.ndarray) -> np.ndarray:
    """``G g G^T`` of a (3, 3, C, O) filter: (16, C, O), the tile positions row-major."""
    g0, g1, g2 = f[0], f[1], f[2]
    half = f.dtype.type(0.5)
    rows = np.stack([g0, (g0 + g1 + g2) * half, (g0 - g1 + g2) * half, g2])   # (4, 3, C, O)
    h0, h1, h2 = rows[:, 0], rows[:, 1], rows[:, 2]
    u = np.stack([h0, (h0 + h1 + h2) * half, (h0 - h1 + h2) * half, h2], axis=1)
    return u.reshape((16,) + f.shape[2:])


def _input_transform(xp: np.ndarray, v: np.ndarray, t: np.ndarray) -> None:
    """``B^T d B`` of the overlapping 4x4 tiles d (stride 2) of ``xp`` (N, >= 2 TH + 2,
    >= 2 TW + 2, C) into ``v`` (4, 4, N, TH, TW, C): first the rows, over whole padded rows
    into the work array ``t`` (4, N, TH, W, C) (long contiguous runs; 1.5-2x faster than
    transforming tile by tile), then the columns."""
    th, tw = v.shape[3:5]
    w = t.shape[3]
    r0, r1, r2, r3 = (xp[:, i:i + 2 * th:2, :w] for i in range(4))     # (N, TH, W, C)
    np.subtract(r0, r2, out=t[0])
    np.add(r1, r2, out=t[1])
    np.subtract(r2, r1, out=t[2])
    np.subtract(r1, r3, out=t[3])
    e0, e1, e2, e3 = (t[:, :, :, j:j + 2 * tw:2] for j in range(4))    # (4, N, TH, TW, C)
    np.subtract(e0, e2, out=v[:, 0])
    np.add(e1, e2, out=v[:, 1])
    np.subtract(e2, e1, out=v[:, 2])
    np.subtract(e1, e3, out=v[:, 3])


def _output_transform(m: np.ndarray, out: np.ndarray, t: np.ndarray) -> None:
    """``A^T m A`` of the products ``m`` (4, 4, N, TH, TW, O) into ``out`` (N, TH, 2, TW, 2,
    O), through the work array ``t`` (2, 4, N, TH, TW, O)."""
    np.add(m[0], m[1], out=t[0])
    t[0] += m[2]
    np.subtract(m[1], m[2], out=t[1])
    t[1] -= m[3]
    for r in range(2):
        q = t[r]
        o = out[:, :, r].transpose(3, 0, 1, 2, 4)       # (2, N, TH, TW, O) view
        np.add(q[0], q[1], out=o[0])
        o[0] += q[2]
        np.subtract(q[1], q[2], out=o[1])
        o[1] -= q[3]


def conv3x3(xp: np.ndarray, u: np.ndarray, out_hw: tuple,
            work: Callable[[tuple, str], np.ndarray]) -> np.ndarray:
    """The VALID, stride-1 3x3 cross-correlation of the (already padded) NHWC ``xp`` with the
    transformed filter ``u`` (16, C, O) of :func:`filter_transform`: a new (N, OH, OW, O).

    The batch runs in chunks of about ``TILE_ROWS`` tiles (the rows of each of the 16 GEMMs),
    whose work arrays ``work(shape, slot)`` (reused buffers) stay in the cache from the
    input transform to the output transform; the chunks depend on the shapes only."""
    n, hp, wp, c = xp.shape
    o = u.shape[2]
    oh, ow = out_hw
    th, tw = -(-oh // 2), -(-ow // 2)
    if hp < 2 * th + 2 or wp < 2 * tw + 2:      # odd output sizes: one more zero row/column
        grown = np.zeros((n, max(hp, 2 * th + 2), max(wp, 2 * tw + 2), c), xp.dtype)
        grown[:, :hp, :wp] = xp
        xp = grown
    k = max(1, -(-TILE_ROWS // (th * tw)))
    y = np.empty((n, th, 2, tw, 2, o), np.result_type(xp, u))
    for b in range(0, n, k):
        part = xp[b:b + k]
        kb = part.shape[0]
        v = work((4, 4, kb, th, tw, c), "wino_v")
        _input_transform(part, v, work((4, kb, th, 2 * tw + 2, c), "wino_t"))
        m = work((16, kb * th * tw, o), "wino_m")
        np.matmul(v.reshape(16, kb * th * tw, c), u, out=m)
        _output_transform(m.reshape(4, 4, kb, th, tw, o), y[b:b + k],
                          work((2, 4, kb, th, tw, o), "wino_t2"))
    y = y.reshape(n, 2 * th, 2 * tw, o)
    if (2 * th, 2 * tw) != (oh, ow):
        y = np.ascontiguousarray(y[:, :oh, :ow])
    return y


def finite(*arrays: np.ndarray) -> bool:
    """Whether the arrays' values are all finite (checked by their sums, one pass without a
    temporary; a sum that overflows only sends a convolution to the direct kernel). Winograd
    runs only then: its transforms subtract neighbouring values, so an infinity would turn
    outputs the direct convolution makes infinite into NaN (finite ones stay finite)."""
    with np.errstate(over="ignore", invalid="ignore"):
        return all(np.isfinite(np.sum(a, dtype=np.float32)) for a in arrays)


def applies(f_shape: tuple, dtype: DTypeLike, strides: tuple, dilations: tuple) -> bool:
    """Whether a convolution by a filter of ``f_shape`` (KH, KW, C, O) runs as Winograd
    F(2x2, 3x3): float32, 3x3, stride and dilation 1, and at least ``MIN_CHANNELS`` input and
    output channels, where its 16 GEMMs of (tiles, C) x (C, O) and its transforms beat
    im2col's one GEMM of (pixels, 9 C) x (9 C, O) (``benchmarks/bench_cnn.py --kernels``,
    one BLAS thread, batch 64, SAME: 16 x 16 x 128 -> 128 took 118 ms against 140 ms
    forward and 119 ms against 171 ms for the input gradient, 32 x 32 x 64 -> 64 138 / 143
    ms against 151 / 188 ms; with 32 channels the two were even, in either direction: the
    transforms work on runs of C contiguous values)."""
    return (tuple(f_shape[:2]) == (3, 3) and strides == (1, 1) and dilations == (1, 1)
            and dtype == np.float32 and f_shape[2] >= MIN_CHANNELS
            and f_shape[3] >= MIN_CHANNELS)


MIN_CHANNELS = 64
TILE_ROWS = 128     # tiles per chunk: the rows of the chunk's GEMMs
