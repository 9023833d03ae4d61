"""``tf.sparse.expand_dims`` and ``tf.sparse.retain``, built from dense ops (as in
TensorFlow), so the values' gradients flow through them."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops.concat_ops import concat
from flowgrad.ops.indexing_ops import boolean_mask
from flowgrad.ops.sparse_tensor import SparseTensor


def _check(sp_input: Any) -> None:
    if not isinstance(sp_input, SparseTensor):
        raise TypeError("Input must be a SparseTensor.")


def expand_dims(sp_input: SparseTensor, axis: int | None = None,
                name: str | None = None) -> SparseTensor:
    """``sp_input`` with a new dimension of length 1 at ``axis``.

    Args:
        sp_input: the SparseTensor.
        axis: where the new dimension goes, in [-rank - 1, rank] (default -1).
        name: unused (TensorFlow's name scope).

    Returns:
        The SparseTensor of rank + 1.

    Raises:
        ValueError: ``axis`` is out of range or the rank is unknown.
    """
    _check(sp_input)
    rank = sp_input.indices.shape.as_tuple()[1]
    if rank is None:
        raise ValueError("tf.sparse.expand_dims needs a SparseTensor of known rank")
    axis = -1 if axis is None else int(axis)
    if not -rank - 1 <= axis <= rank:
        raise ValueError("axis %d is out of range for a SparseTensor of rank %d"
                         % (axis, rank))
    axis = axis + rank + 1 if axis < 0 else axis
    idx = sp_input.indices
    zeros = idx[:, :1] * 0
    indices = concat([idx[:, :axis], zeros, idx[:, axis:]], axis=1)
    one = convert_to_tensor(np.ones([1], np.int64), dtypes.int64)
    shape = concat([sp_input.dense_shape[:axis], one, sp_input.dense_shape[axis:]], axis=0)
    return SparseTensor(indices, sp_input.values, shape)


def retain(sp_input: SparseTensor, to_retain: Any) -> SparseTensor:
    """The entries of ``sp_input`` where the boolean vector ``to_retain`` is True.

    Args:
        sp_input: the SparseTensor (N entries).
        to_retain: a bool vector of length N.

    Returns:
        The SparseTensor of the retained entries (same dense shape).

    Raises:
        ValueError: ``to_retain`` is not a vector.
    """
    _check(sp_input)
    keep = convert_to_tensor(to_retain, dtypes.bool)
    if keep.shape.rank not in (1, None):
        raise ValueError("to_retain must be a vector, got shape %s" % keep.shape)
    return SparseTensor(boolean_mask(sp_input.indices, keep),
                        boolean_mask(sp_input.values, keep), sp_input.dense_shape)
