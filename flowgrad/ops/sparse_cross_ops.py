"""``tf.sparse.cross`` and ``tf.sparse.cross_hashed``: feature crosses of sparse and dense
columns, row by row (TensorFlow's ``SparseCrossV2`` and ``SparseCross``; not
differentiable). Keras's ``HashedCrossing`` layer calls ``cross_hashed``.

Each row's crosses are the product of its features in every column (sparse columns first,
then dense ones; the last column varies fastest). ``cross`` joins the features' strings with
the separator (integers written in decimal); ``cross_hashed`` chains TensorFlow's
``FingerprintCat64`` from ``hash_key`` over the features (a string's Fingerprint64 -- FarmHash,
the ``strings`` extra -- or an integer's value) and takes it modulo ``num_buckets``, so the
ids are TensorFlow's."""
from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from flowgrad.framework import dtypes, errors
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import NotDifferentiable, register_op
from flowgrad.framework.tensor import convert_to_tensor, is_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.sparse_tensor import SparseTensor
from flowgrad.ops.string_ops import _fingerprint64

#: TensorFlow's default hash key of ``cross_hashed``.
DEFAULT_HASH_KEY = 0xDECAFCAFFE
_MUL = np.uint64(0xC6A4A7935BD1E995)
_INT64_MAX = np.uint64(np.iinfo(np.int64).max)


def _shift_mix(v: np.uint64) -> np.uint64:
    return v ^ (v >> np.uint64(47))


def _fingerprint_cat64(fp1: np.uint64, fp2: np.uint64) -> np.uint64:
    """TensorFlow's FingerprintCat64 (uint64 arithmetic, wrapping)."""
    with np.errstate(over="ignore"):
        result = fp1 ^ _MUL
        result ^= _shift_mix(fp2 * _MUL) * _MUL
        result *= _MUL
        result = _shift_mix(result) * _MUL
        return _shift_mix(result)


def _columns(n_sparse: int, args: tuple) -> tuple:
    """Each column's features per row, and the number of rows."""
    indices, values, shapes = args[:n_sparse], args[n_sparse:2 * n_sparse], \
        args[2 * n_sparse:3 * n_sparse]
    dense = args[3 * n_sparse:]
    sizes = {int(np.asarray(s).reshape(-1)[0]) for s in shapes} | \
        {np.asarray(d).shape[0] for d in dense}
    if len(sizes) > 1:
        raise errors.InvalidArgumentError(
            None, None, "Expected batch size %d got %d" % tuple(sorted(sizes))[:2])
    rows = sizes.pop() if sizes else 0
    columns = []
    for ind, val in zip(indices, values):
        ind, val = np.asarray(ind), np.asarray(val).reshape(-1)
        per_row: list = [[] for _ in range(rows)]
        for r, v in zip(ind[:, 0].tolist() if len(ind) else [], val.tolist()):
            per_row[r].append(v)
        columns.append(per_row)
    for d in dense:
        d = np.asarray(d)
        if d.ndim != 2:
            raise errors.InvalidArgumentError(None, None, "Dense inputs should be a matrix but "
                                              "received shape %s" % list(d.shape))
        columns.append(d.tolist())
    return columns, rows


def _pack(crosses: list, dtype: Any) -> tuple:
    idx = [[r, k] for r, row in enumerate(crosses) for k in range(len(row))]
    flat = [c for row in crosses for c in row]
    width = max((len(row) for row in crosses), default=0)
    return (np.array(idx, np.int64).reshape(-1, 2), np.array(flat, dtype).reshape(-1),
            np.array([len(crosses), width], np.int64))


def _hashed_kernel(*args: Any, n_sparse: int, num_buckets: int, hash_key: int) -> tuple:
    columns, rows = _columns(n_sparse, args)

    def feature(v: Any) -> np.uint64:
        return np.uint64(_fingerprint64(v)) if isinstance(v, bytes) else \
            np.int64(v).view(np.uint64)
    crosses = []
    for r in range(rows):
        row = []
        for combo in itertools.product(*[[feature(v) for v in col[r]] for col in columns]):
            h = np.uint64(hash_key)
            for f in combo:
                h = _fingerprint_cat64(h, f)
            h = h % np.uint64(num_buckets) if num_buckets > 0 else h % _INT64_MAX
            row.append(int(h))
        crosses.append(row)
    return _pack(crosses, np.int64)


def _string_kernel(*args: Any, n_sparse: int, sep: bytes) -> tuple:
    columns, rows = _columns(n_sparse, args)

    def feature(v: Any) -> bytes:
        return v if isinstance(v, bytes) else str(int(v)).encode()
    crosses = [[sep.join(combo) for combo in itertools.product(
        *[[feature(v) for v in col[r]] for col in columns])] for r in range(rows)]
    return _pack(crosses, object)


def _infer(out_dtype: dtypes.DType) -> Any:
    def infer(ins: list, attrs: dict) -> list:
        return [(dtypes.int64, TensorShape([None, 2])), (out_dtype, TensorShape([None])),
                (dtypes.int64, TensorShape([2]))]
    return infer


register_op("SparseCross", _hashed_kernel, _infer(dtypes.int64), num_outputs=3,
            input_names=("inputs",))
register_op("SparseCrossV2", _string_kernel, _infer(dtypes.string), num_outputs=3,
            input_names=("inputs",))
NotDifferentiable("SparseCross")
NotDifferentiable("SparseCrossV2")


def _split(inputs: Any) -> tuple:
    if not isinstance(inputs, (tuple, list)):
        raise TypeError("Inputs must be a list")
    if not all(isinstance(i, SparseTensor) or is_tensor(i) for i in inputs):
        raise TypeError("All inputs must be SparseTensors")
    sparse = [i for i in inputs if isinstance(i, SparseTensor)]
    dense = [i for i in inputs if not isinstance(i, SparseTensor)]

    def as_key(t: Any) -> Any:
        return t if t.dtype == dtypes.string else cast(t, dtypes.int64)
    flat = [s.indices for s in sparse] + [as_key(s.values) for s in sparse] + \
        [s.dense_shape for s in sparse] + [as_key(convert_to_tensor(d)) for d in dense]
    return flat, len(sparse)


def sparse_cross(inputs: list, name: str | None = None, separator: str | None = None
                 ) -> SparseTensor:
    """``tf.sparse.cross``: the string crosses of the inputs' features, row by row.

    Args:
      inputs: SparseTensors and rank-2 Tensors (string or integer), one row per example.
      name: the op's name.
      separator: the string between joined features (``"_X_"``).

    Returns:
      A string SparseTensor ``[rows, crosses]``.

    Raises:
      TypeError: ``inputs`` is not a list of tensors.
    """
    flat, n = _split(inputs)
    sep = "_X_" if separator is None else separator
    out = apply_op("SparseCrossV2", flat, {"n_sparse": n, "sep": sep.encode()
                                           if isinstance(sep, str) else bytes(sep)}, name=name)
    return SparseTensor(*out)


def sparse_cross_hashed(inputs: list, num_buckets: int = 0, hash_key: int | None = None,
                        name: str | None = None) -> SparseTensor:
    """``tf.sparse.cross_hashed``: the hashed crosses of the inputs' features, row by row.

    Args:
      inputs: SparseTensors and rank-2 Tensors (string or integer), one row per example.
      num_buckets: the ids are taken modulo this (0: modulo the int64 maximum).
      hash_key: the key the fingerprints start from (TensorFlow's default if None).
      name: the op's name.

    Returns:
      An int64 SparseTensor ``[rows, crosses]``.

    Raises:
      TypeError: ``inputs`` is not a list of tensors.
    """
    flat, n = _split(inputs)
    out = apply_op("SparseCross", flat, {"n_sparse": n, "num_buckets": int(num_buckets),
                                         "hash_key": int(hash_key or DEFAULT_HASH_KEY)},
                   name=name)
    return SparseTensor(*out)


__all__ = ["sparse_cross", "sparse_cross_hashed"]
