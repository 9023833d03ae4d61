"""``tf.random.experimental.index_shuffle``: where index ``i`` lands in a pseudorandom
permutation of ``[0, max_index]``, without building the permutation (TensorFlow's op type
``RandomIndexShuffle``, not differentiable).

TensorFlow's construction, so the permutations are its own: a Simon block cipher with a
96-bit key (the seed), a block of ``max(ceil(log2(max_index)) rounded up to even, 16)`` bits
and ``rounds`` Feistel rounds, iterated until the value falls in range (cycle walking)."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.errors import InvalidArgumentError
from flowgrad.framework.graph import name_scope
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import _NO_GRADIENT, register_op
from flowgrad.framework.tensor import TensorBase, convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.framework.type_hints import TensorLike
from flowgrad.ops.array_ops import _as_value, pad

_INDEX_DTYPES = (dtypes.int32, dtypes.int64, dtypes.uint32, dtypes.uint64)
# The first seed word index_shuffle pads a shape-[2] seed with (the raw op takes three).
_SEED_PAD = 498247692


def _round_keys(key: tuple, width: int, rounds: int) -> list:
    """The Simon key schedule on ``width``-bit words."""
    mask = (1 << width) - 1

    def rotr(x: int, r: int) -> int:
        return ((x >> r) | (x << (width - r))) & mask
    c, z = 0xFFFFFFFC & mask, 0x7369F885192C0EF5 & mask
    keys = [k & mask for k in key]
    for i in range(3, rounds):
        keys.append(c ^ (z & 1) ^ keys[i - 3] ^ rotr(keys[i - 1], 3) ^ rotr(keys[i - 1], 4))
        z >>= 1
    return keys


def _encrypt(value: np.ndarray, keys: list, width: int) -> np.ndarray:
    """The cipher on ``2 * width``-bit blocks (uint64 arrays); two rounds per key pair."""
    w, mask = np.uint64(width), np.uint64((1 << width) - 1)

    def rotl(x: np.ndarray, r: int) -> np.ndarray:
        return ((x << np.uint64(r)) | (x >> np.uint64(width - r))) & mask

    def f(x: np.ndarray) -> np.ndarray:
        return (rotl(x, 1) & rotl(x, 8)) ^ rotl(x, 2)
    left, right = (value >> w) & mask, value & mask
    for k1, k2 in zip(keys[0::2], keys[1::2]):
        left = left ^ f(right) ^ np.uint64(k1)
        right = right ^ f(left) ^ np.uint64(k2)
    return (left << w) | right


def _shuffle(index: np.ndarray, key: tuple, max_index: int, rounds: int) -> np.ndarray:
    if max_index == 0:
        return np.zeros_like(index)
    bits = math.ceil(math.log2(max_index))
    block = max(bits + bits % 2, 16)
    keys = _round_keys(key, block // 2, rounds)
    out = index.copy()
    todo = np.ones(out.shape, bool)
    while todo.any():
        out[todo] = _encrypt(out[todo], keys, block // 2)
        todo = out > np.uint64(max_index)
    return out


def _kernel(index: Any, seed: Any, max_index: Any, *, rounds: int) -> np.ndarray:
    idx, s, top = np.asarray(index), np.asarray(seed), np.asarray(max_index)
    n = max(idx.size, top.size, s.size // 3)
    if not (idx.ndim == 0 or idx.shape == (n,)):
        raise InvalidArgumentError(None, None, "Index bust be a scalar or vector.")
    if not (s.shape == (3,) or s.shape == (n, 3)):
        raise InvalidArgumentError(None, None, "Seed must be a vector of size [3] or a matrix "
                                   "of size [%d, 3] but got %s." % (n, list(s.shape)))
    if not (top.ndim == 0 or top.shape == (n,)):
        raise InvalidArgumentError(None, None, "Maxval must be a scalar or a vector of the "
                                   "same size as index but got %s" % list(top.shape))
    words = (s.astype(np.int64) & 0xFFFFFFFF).reshape(-1, 3)
    flat_idx = np.broadcast_to(idx.astype(np.uint64), (n,))
    flat_top = np.broadcast_to(top.astype(np.uint64), (n,))
    out = np.empty(n, np.uint64)
    rows = np.zeros(n, np.int64) if words.shape[0] == 1 else np.arange(n)
    groups: dict = {}
    for i in range(n):      # one cipher per (key, range): vectorized over its indices
        groups.setdefault((tuple(int(w) for w in words[rows[i]]), int(flat_top[i])),
                          []).append(i)
    for (key, top_i), members in groups.items():
        out[members] = _shuffle(flat_idx[members], key, top_i, rounds)
    out = out.astype(idx.dtype)
    return out.reshape(()) if idx.ndim == 0 and s.ndim == 1 and top.ndim == 0 else out


def _infer(ins: list, attrs: dict) -> tuple:
    dims = [s.shape for s in ins]
    if dims[0].rank == 0 and dims[1].rank == 1 and dims[2].rank == 0:
        return ins[0].dtype.base_dtype, TensorShape([])
    return ins[0].dtype.base_dtype, TensorShape([None])


register_op("RandomIndexShuffle", _kernel, _infer, grad=_NO_GRADIENT,
            input_names=("index", "seed", "max_index"))


def index_shuffle(index: TensorLike, seed: TensorLike, max_index: TensorLike,
                  name: str | None = None) -> TensorBase:
    """The position of ``index`` in a pseudorandom permutation of ``[0, max_index]``.

    The same ``seed`` gives the same permutation (TensorFlow's), so mapping every index of a
    range shuffles it without holding the whole permutation.

    Args:
        index: A scalar or vector of int32/int64/uint32/uint64 indices in
            ``[0, max_index]``.
        seed: A shape ``[2]`` seed, or ``[n, 2]`` for one seed per index.
        max_index: The largest index (a scalar or a vector like ``index``).
        name: A name for the operation (optional).

    Returns:
        The shuffled indices, of ``index``'s dtype.

    Raises:
        TypeError: for an index dtype the op does not have.

    Example:
        >>> import flowgrad as tf
        >>> tf.random.experimental.index_shuffle(tf.range(4), seed=[5, 9], max_index=3)
        <tf.Tensor: shape=(4,), dtype=int32, numpy=array([2, 0, 1, 3], dtype=int32)>
    """
    with name_scope(name, "index_shuffle", [index, seed, max_index]) as scope:
        i = convert_to_tensor(_as_value(index), name="index")
        if i.dtype.base_dtype not in _INDEX_DTYPES:
            raise TypeError("Value passed to parameter 'index' has DataType %s not in list of "
                            "allowed values: int32, int64, uint32, uint64" % i.dtype.name)
        top = convert_to_tensor(_as_value(max_index), i.dtype.base_dtype, name="max_index")
        s = convert_to_tensor(_as_value(seed), name="seed")
        rank = s.shape.rank
        s = pad(s, [[1, 0]] + [[0, 0]] * ((rank or 1) - 1), constant_values=_SEED_PAD)
        return apply_op("RandomIndexShuffle", [i, s, top], {"rounds": 4}, name=scope)
