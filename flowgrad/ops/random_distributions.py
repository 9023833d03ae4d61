"""TensorFlow's random distributions over Philox words, vectorized in NumPy.

Each function turns the Philox stream at (key, counter) into the values TensorFlow's CPU
kernels compute (``tensorflow/core/lib/random/random_distributions.h`` and the kernels that
fill tensors with them): the same words, in the same groups, with the same bit tricks.

Floating-point math: the normal and truncated normal samples use the Box-Muller transform as
TensorFlow does: in float64 with the C library's ``log``/``sin``/``cos`` (which NumPy's
float64 functions call), in float32 (and float16/bfloat16, rounded from float32) with the C
library's ``logf``/``sincosf``, replayed bit for bit by ``flowgrad.ops.libm_float``.
Categorical samples compare uniform draws with a CDF of ``exp`` values, which TensorFlow
computes with Eigen's vectorized ``exp`` and flowgrad with NumPy's: an index could differ
only for a draw within an ulp of a CDF step."""
from __future__ import annotations

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.philox import philox_blocks, philox_words
from flowgrad.ops import libm_float

_TWO_PI = 2 * np.pi
_CHUNK = 8192       # blocks per Box-Muller pass
# Per output group, the truncated normal reserves 256 samples (FillPhiloxRandomTask).
_RESERVED_PER_OUTPUT = 256


def _count(size: tuple) -> int:
    return int(np.prod(size, dtype=np.int64))


def _uint32_to_float(w: np.ndarray) -> np.ndarray:
    return ((w & np.uint32(0x7FFFFF)) | np.uint32(127 << 23)).view(np.float32) - np.float32(1)


def _uint64_to_double(hi: np.ndarray, lo: np.ndarray) -> np.ndarray:
    man = (hi.astype(np.uint64) & np.uint64(0xFFFFF)) << np.uint64(32) | lo.astype(np.uint64)
    return (man | np.uint64(1023 << 52)).view(np.float64) - 1.0


def _words_to_uniform(w: np.ndarray, dtype: dtypes.DType) -> np.ndarray:
    """Uniform [0, 1) values of ``dtype``: one word each (float64: two)."""
    if dtype is dtypes.float64:
        return _uint64_to_double(w[0::2], w[1::2])
    if dtype is dtypes.float16:
        bits = ((w & np.uint32(0x3FF)) | np.uint32(15 << 10)).astype(np.uint16)
        return bits.view(np.float16) - np.float16(1)
    if dtype is dtypes.bfloat16:
        bits = ((w & np.uint32(0x7F)) | np.uint32(127 << 7)).astype(np.uint16)
        return (bits.view(dtype.np).astype(np.float32) - np.float32(1)).astype(dtype.np)
    return _uint32_to_float(w)


def _per_output(dtype: dtypes.DType) -> int:
    """Words per output: two for 64-bit types, one otherwise."""
    return 2 if dtype.size == 8 else 1


def uniform(key: int, counter: int, size: tuple, dtype: dtypes.DType) -> np.ndarray:
    """``UniformDistribution`` for floats: TensorFlow's RandomUniform values.

    Args:
        key: The Philox key.
        counter: The counter of the first block.
        size: The output's shape.
        dtype: float16, bfloat16, float32 or float64.
    """
    n = _count(size)
    w = philox_words(key, counter, n * _per_output(dtype))
    return _words_to_uniform(w, dtype).reshape(size)


def uniform_int(key: int, counter: int, size: tuple, lo: int, hi: int,
                dtype: dtypes.DType) -> np.ndarray:
    """``UniformDistribution`` for int32/int64: ``lo + bits % (hi - lo)``.

    Args:
        key: The Philox key.
        counter: The counter of the first block.
        size: The output's shape.
        lo: The lower bound (inclusive).
        hi: The upper bound (exclusive); ``lo < hi``.
        dtype: int32 or int64.
    """
    n = _count(size)
    if dtype.size == 8:
        w = philox_words(key, counter, 2 * n)
        bits = w[0::2].astype(np.uint64) | w[1::2].astype(np.uint64) << np.uint64(32)
        rng = np.uint64((int(hi) - int(lo)) & (2**64 - 1))
        with np.errstate(over="ignore"):
            out = (np.uint64(int(lo) & (2**64 - 1)) + bits % rng).view(np.int64)
    else:
        w = philox_words(key, counter, n)
        rng = np.uint32((int(hi) - int(lo)) & 0xFFFFFFFF)
        with np.errstate(over="ignore"):
            out = (np.uint32(int(lo) & 0xFFFFFFFF) + w % rng).view(np.int32)
    return out.astype(dtype.np, copy=False).reshape(size)


def full_int(key: int, counter: int, size: tuple, dtype: dtypes.DType) -> np.ndarray:
    """``UniformFullIntDistribution``: raw words (64-bit types: two words, low first).

    Args:
        key: The Philox key.
        counter: The counter of the first block.
        size: The output's shape.
        dtype: int32, uint32, int64 or uint64.
    """
    n = _count(size)
    if dtype.size == 8:
        w = philox_words(key, counter, 2 * n)
        out = w[0::2].astype(np.uint64) | w[1::2].astype(np.uint64) << np.uint64(32)
    else:
        out = philox_words(key, counter, n)
    return out.view(dtype.np).reshape(size)


def _box_muller_float(x0: np.ndarray, x1: np.ndarray) -> tuple:
    u1 = np.maximum(_uint32_to_float(x0), np.float32(1.0e-7))
    v1 = (_TWO_PI * _uint32_to_float(x1).astype(np.float64)).astype(np.float32)
    u2 = np.sqrt(np.float32(-2.0) * libm_float.logf(u1))
    sin, cos = libm_float.sincosf(v1)
    return sin * u2, cos * u2


def _box_muller_double(x0: np.ndarray, x1: np.ndarray, x2: np.ndarray,
                       x3: np.ndarray) -> tuple:
    u1 = np.maximum(_uint64_to_double(x0, x1), 1.0e-7)
    v1 = _TWO_PI * _uint64_to_double(x2, x3)
    u2 = np.sqrt(-2.0 * np.log(u1))
    return np.sin(v1) * u2, np.cos(v1) * u2


def _pairs(blocks: np.ndarray, dtype: dtypes.DType) -> np.ndarray:
    """Box-Muller of each block: ``[n, 4]`` floats (two pairs) or ``[n, 2]`` doubles."""
    if blocks.shape[0] > _CHUNK:       # in cache-sized pieces
        return np.concatenate([_pairs(blocks[i:i + _CHUNK], dtype)
                               for i in range(0, blocks.shape[0], _CHUNK)])
    if dtype is dtypes.float64:
        d0, d1 = _box_muller_double(blocks[:, 0], blocks[:, 1], blocks[:, 2], blocks[:, 3])
        return np.stack([d0, d1], axis=1)
    f0, f1 = _box_muller_float(blocks[:, 0::2].reshape(-1), blocks[:, 1::2].reshape(-1))
    return np.stack([f0, f1], axis=1).reshape(-1, 4)


def normal(key: int, counter: int, size: tuple, dtype: dtypes.DType) -> np.ndarray:
    """``NormalDistribution``: TensorFlow's RandomStandardNormal values.

    Args:
        key: The Philox key.
        counter: The counter of the first block.
        size: The output's shape.
        dtype: float16, bfloat16, float32 or float64.
    """
    n = _count(size)
    per_block = 2 if dtype is dtypes.float64 else 4
    blocks = philox_blocks(key, counter, -(-n // per_block))
    return _pairs(blocks, dtype).reshape(-1)[:n].astype(dtype.np).reshape(size)


def truncated_normal(key: int, counter: int, size: tuple, dtype: dtypes.DType) -> np.ndarray:
    """``TruncatedNormalDistribution``: normal samples, those with ``|x| >= 2`` rejected.

    Each group of outputs (four; two for float64) draws from its own stretch of the stream,
    256 samples per output apart, as TensorFlow's ``FillPhiloxRandomTask`` does.

    Args:
        key: The Philox key.
        counter: The counter of the first block.
        size: The output's shape.
        dtype: float16, bfloat16, float32 or float64.
    """
    n = _count(size)
    group = 2 if dtype is dtypes.float64 else 4
    skip = group * _RESERVED_PER_OUTPUT // 4
    todo = np.arange(-(-n // group), dtype=np.int64)
    accepted = np.zeros(todo.size, np.int64)
    ids, values = [], []
    step = 0
    while todo.size:        # one more block for each group still short of outputs
        cand = _pairs(philox_blocks(key, counter, 0, todo * skip + step), dtype)
        ok = np.abs(cand) < 2
        ids.append(np.repeat(todo, ok.sum(axis=1)))
        values.append(cand[ok])
        accepted[todo] += ok.sum(axis=1)
        todo = todo[accepted[todo] < group]
        step += 1
    ids_all = np.concatenate(ids) if ids else np.zeros(0, np.int64)
    order = np.argsort(ids_all, kind="stable")      # each group's values, in stream order
    ids_all = ids_all[order]
    rank = np.arange(ids_all.size) - np.searchsorted(ids_all, ids_all)
    vals = np.concatenate(values)[order] if values else np.zeros(0)
    return vals[rank < group][:n].astype(dtype.np).reshape(size)


def shuffle_permutation(key: int, counter: int, n: int) -> np.ndarray:
    """``RandomShuffle``'s permutation of ``n`` rows: a forward Fisher-Yates shuffle that
    swaps row ``i`` with row ``i + word_i % (n - i)``.

    Args:
        key: The Philox key.
        counter: The counter of the first block.
        n: The number of rows (at least 2).
    """
    w = philox_words(key, counter, n - 1).astype(np.int64)
    j = (np.arange(n - 1) + w % np.arange(n, 1, -1)).tolist()
    perm = list(range(n))
    for i, k in enumerate(j):
        perm[i], perm[k] = perm[k], perm[i]
    return np.array(perm, np.int64)


def categorical(key: int, counter: int, logits: np.ndarray, num_samples: int) -> np.ndarray:
    """``MultinomialFunctor`` on one thread: class indices by inverse CDF.

    Each row's CDF is the running sum of ``exp(logit - max)`` over its finite logits (in
    float64); each sample is ``upper_bound(cdf, u * total)`` for a uniform double ``u`` made
    of the next two words of one stream shared by all rows.

    Args:
        key: The Philox key.
        counter: The counter of the first block.
        logits: A ``[batch, classes]`` array.
        num_samples: Samples per row.
    """
    batch, classes = logits.shape
    w = philox_words(key, counter, 2 * batch * num_samples)
    u = _uint64_to_double(w[0::2], w[1::2]).reshape(batch, num_samples)
    finite = np.isfinite(logits)
    top = np.where(finite, logits, -np.inf).max(axis=1, initial=-np.inf)
    top = np.where(np.isfinite(top), top, 0).astype(np.float64)    # no finite logit: all 0
    with np.errstate(all="ignore"):
        p = np.exp(logits.astype(np.float64) - top[:, None])
    cdf = np.cumsum(np.where(finite, p, 0.0), axis=1)
    out = np.empty((batch, num_samples), np.int64)
    for b in range(batch):
        out[b] = np.searchsorted(cdf[b], u[b] * cdf[b, -1], side="right")
    return out
