"""``tf.sparse.concat``: the SparseConcat op (not differentiable, as in TensorFlow)."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes, errors
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import NotDifferentiable, register_op
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.sparse_tensor import SparseTensor


def _kernel(*parts: Any, concat_dim: int, N: int, expand: bool) -> tuple:
    indices = [np.asarray(p, np.int64) for p in parts[:N]]
    values = [np.asarray(p) for p in parts[N:2 * N]]
    shapes = [np.asarray(p, np.int64) for p in parts[2 * N:]]
    rank = len(shapes[0])
    dim = concat_dim % rank if -rank <= concat_dim < rank else None
    if dim is None:
        raise errors.InvalidArgumentError(None, None, "Concat dimension must be in range [%d, "
                                          "%d), got %d" % (-rank, rank, concat_dim))
    others = [i for i in range(rank) if i != dim]
    if expand:
        target = np.max(np.stack(shapes), axis=0)
    else:
        target = shapes[0]
        for k, s in enumerate(shapes[1:], 1):
            if len(s) != rank or np.any(s[others] != target[others]):
                raise errors.InvalidArgumentError(
                    None, None, "Input shapes must match: expected %s for dimensions other "
                    "than %d, got %s at position %d" % (target.tolist(), dim, s.tolist(), k))
    offset, pieces = 0, []
    for idx, s in zip(indices, shapes):
        moved = idx.reshape(-1, rank).copy()
        moved[:, dim] += offset
        offset += int(s[dim])
        pieces.append(moved)
    out_idx = np.concatenate(pieces)
    out_val = np.concatenate(values)
    order = np.lexsort(out_idx.T[::-1]) if len(out_idx) else np.arange(0)
    shape = target.copy()
    shape[dim] = offset
    return out_idx[order], out_val[order], shape


def _infer(ins: list, attrs: dict) -> list:
    n = attrs["N"]
    rank = ins[0].shape.as_tuple()[1] if ins[0].shape.rank == 2 else None
    return [(dtypes.int64, TensorShape([None, rank])),
            (ins[n].dtype.base_dtype, TensorShape([None])),
            (dtypes.int64, TensorShape([rank]))]


register_op("SparseConcat", _kernel, _infer, num_outputs=3,
            input_names=("indices", "values", "shapes"))
NotDifferentiable("SparseConcat")


def concat(axis: int, sp_inputs: list, expand_nonconcat_dims: bool = False,
           name: str | None = None) -> SparseTensor:
    """The SparseTensors ``sp_inputs`` concatenated along ``axis`` (row-major order).

    Args:
        axis: the dimension to concatenate along (negative counts from the end).
        sp_inputs: the SparseTensors, of one rank and dtype.
        expand_nonconcat_dims: let the other dimensions differ (the result takes the
            largest).
        name: the op's name.

    Returns:
        The concatenated SparseTensor.

    Raises:
        InvalidArgumentError: the other dimensions differ (without
            ``expand_nonconcat_dims``) or ``axis`` is out of range.
    """
    sp_inputs = list(sp_inputs)
    if not sp_inputs or not all(isinstance(s, SparseTensor) for s in sp_inputs):
        raise TypeError("tf.sparse.concat: sp_inputs must be a non-empty list of "
                        "SparseTensors")
    parts = [s.indices for s in sp_inputs] + [s.values for s in sp_inputs] + \
        [s.dense_shape for s in sp_inputs]
    indices, values, shape = apply_op(
        "SparseConcat", parts, {"concat_dim": int(axis), "N": len(sp_inputs),
                                "expand": bool(expand_nonconcat_dims)},
        name=name or "SparseConcat")
    return SparseTensor(indices, values, shape)
