"""``tf.sparse.expand_dims``, ``retain`` and ``reshape``, built from dense ops (TensorFlow's
expand_dims and retain are; its SparseReshape op moves only the indices), so the values'
gradients flow through them."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.op_call import argument_error
from flowgrad.framework.shape_rules import constant_value
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops.arithmetic_ops import floordiv, floormod
from flowgrad.ops.comparison_ops import less, where
from flowgrad.ops.concat_ops import concat
from flowgrad.ops.fill_ops import ones_like
from flowgrad.ops.indexing_ops import boolean_mask
from flowgrad.ops.reduction_ops import cumprod, reduce_prod
from flowgrad.ops.sum_ops import reduce_sum
from flowgrad.ops.sparse_tensor import SparseTensor
from flowgrad.framework.type_hints import ShapeLike, TensorLike


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


def reshape(sp_input: SparseTensor, shape: ShapeLike | TensorLike,
            name: str | None = None) -> SparseTensor:
    """``sp_input`` with the dense shape ``shape`` (the same entries in row-major order), as
    ``tf.sparse.reshape``.

    Args:
        sp_input: the SparseTensor.
        shape: the new dense shape (a list or 1-D int tensor); one entry may be -1, inferred
            from the number of dense elements.
        name: unused (TensorFlow's name scope).

    Returns:
        The reshaped SparseTensor (its values unchanged).

    Raises:
        InvalidArgumentError: the shapes' numbers of elements differ (where both are known;
            a ValueError while building a graph).
    """
    _check(sp_input)
    old = sp_input.dense_shape
    new = convert_to_tensor(shape, dtypes.int64)
    old_v, new_v = constant_value(old), constant_value(new)
    if old_v is not None and new_v is not None:
        total, known = int(np.prod(old_v)), int(np.prod([d for d in new_v if d >= 0]))
        if (new_v < 0).sum() > 1:
            raise argument_error("only one output dimension may be -1, not both in shape %s"
                                 % [int(d) for d in new_v])
        if (new_v >= 0).all() and total != known:
            raise argument_error("Input to reshape is a SparseTensor with %d dense values, but "
                                 "the requested shape has %d" % (total, known))
        if (new_v < 0).any() and (known == 0 or total % known):
            raise argument_error("Input to reshape is a SparseTensor with %d dense values, but "
                                 "the requested shape requires a multiple of %d"
                                 % (total, known))
    missing = less(new, 0)
    new = where(missing, floordiv(reduce_prod(old), reduce_prod(where(missing, ones_like(new),
                                                                      new))), new)
    flat = reduce_sum(sp_input.indices * cumprod(old, exclusive=True, reverse=True), axis=1)
    indices = floormod(floordiv(flat[:, None], cumprod(new, exclusive=True, reverse=True)[None]),
                       new[None])
    return SparseTensor(indices, sp_input.values, new)

