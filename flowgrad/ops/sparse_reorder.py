"""``tf.sparse.reorder`` (the SparseReorder op: indices into row-major order, with TensorFlow's
gradient w.r.t. the values) and ``tf.sparse.transpose``, which reorders a permuted
SparseTensor."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import defop
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.array_ops import expand_dims
from flowgrad.ops.fill_ops import range as range_op
from flowgrad.ops.indexing_ops import gather
from flowgrad.ops.scatter_nd_ops import scatter_nd
from flowgrad.ops.shape_ops import shape as shape_of
from flowgrad.ops.sparse_tensor import SparseTensor
from flowgrad.framework.type_hints import TensorLike


def _order(indices: np.ndarray, shape: np.ndarray) -> np.ndarray:
    idx = np.asarray(indices, np.int64).reshape(len(indices), -1)
    if not len(idx) or not idx.shape[1]:
        return np.arange(len(idx))
    return np.lexsort(idx.T[::-1])          # stable: the first key is the last column


def _kernel(indices: Any, values: Any, shape: Any) -> tuple:
    perm = _order(np.asarray(indices), np.asarray(shape))
    return np.asarray(indices, np.int64)[perm], np.asarray(values)[perm]


def _infer(ins: list, attrs: dict) -> list:
    n = ins[0].shape.as_tuple()
    rows = None if n is None else n[0]
    return [(dtypes.int64, ins[0].shape), (ins[1].dtype.base_dtype, TensorShape([rows]))]


@defop("SparseReorder", _kernel, _infer, num_outputs=2,
       input_names=("input_indices", "input_values", "input_shape"))
def _grad(op: Any, unused_indices_grad: Any, values_grad: Any) -> list:
    """TensorFlow's: each value gets the gradient of the place reordering moved it to."""
    indices, _, shape = op.inputs
    entries = gather(shape_of(indices, out_type=dtypes.int64), 0)
    positions = apply_op("SparseReorder",
                         [indices, range_op(entries, dtype=dtypes.int64), shape])[1]
    return [None, scatter_nd(expand_dims(positions, 1), values_grad,
                             expand_dims(entries, 0)), None]


def reorder(sp_input: SparseTensor, name: str | None = None) -> SparseTensor:
    """``sp_input`` with its indices (and values) in row-major order.

    Args:
        sp_input: the SparseTensor.
        name: the op's name.

    Returns:
        The reordered SparseTensor (same dense shape).
    """
    if not isinstance(sp_input, SparseTensor):
        raise TypeError("Input must be a SparseTensor.")
    indices, values = apply_op("SparseReorder", [sp_input.indices, sp_input.values,
                                                 sp_input.dense_shape],
                               name=name or "SparseReorder")
    return SparseTensor(indices, values, sp_input.dense_shape)


def transpose(sp_input: SparseTensor, perm: TensorLike | None = None,
              name: str | None = None) -> SparseTensor:
    """``sp_input`` with its dimensions permuted by ``perm`` (reversed when None).

    Args:
        sp_input: the SparseTensor.
        perm: a permutation of ``range(rank)``.
        name: the op's name.

    Returns:
        The transposed SparseTensor, in row-major order.
    """
    if not isinstance(sp_input, SparseTensor):
        raise TypeError("Input must be a SparseTensor.")
    rank = sp_input.indices.shape.as_tuple()[1]
    if perm is None:
        if rank is None:
            raise ValueError("tf.sparse.transpose with perm=None needs a known rank")
        perm = list(range(rank))[::-1]
    perm_t = convert_to_tensor(np.asarray(perm, np.int32), dtypes.int32)
    return reorder(SparseTensor(gather(sp_input.indices, perm_t, axis=1), sp_input.values,
                                gather(sp_input.dense_shape, perm_t)), name=name)
