"""``tf.gather_nd`` with ``batch_dims``: the leading ``batch_dims`` dimensions of ``params``
and ``indices`` are batch dimensions, and each batch gathers from its own slice. Built as
TensorFlow's ``batch_gather_nd`` is: the batch dimensions flattened into one, each index
row prefixed with its batch number, one GatherNd, the result reshaped (so the gradient is
GatherNd's, through reshapes)."""
from __future__ import annotations

from typing import Any

from flowgrad.framework.graph import name_scope
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops.array_op_util import _as_value
from flowgrad.ops.arithmetic_ops import add
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.concat_ops import concat
from flowgrad.ops.fill_ops import range as range_op
from flowgrad.ops.fill_ops import zeros_like
from flowgrad.ops.scatter_nd_ops import gather_nd as _gather_nd
from flowgrad.ops.shape_ops import reshape, shape
from flowgrad.framework.type_hints import TensorLike
from flowgrad.framework import dispatch


@dispatch.add_dispatch_support
def gather_nd(params: TensorLike, indices: TensorLike, name: str | None = None,
              batch_dims: int = 0) -> Any:
    """Slices of ``params`` at the index rows of ``indices`` (shape ``[..., K]``).

    Args:
      params: the tensor to gather from.
      indices: int32 or int64 index rows.
      name: the op name.
      batch_dims: how many leading dimensions are batch dimensions (a Python int).

    Returns:
      ``indices.shape[:-1] + params.shape[batch_dims + K:]``.

    Raises:
      ValueError: ``batch_dims`` is negative or not below the rank of ``indices``.
    """
    if batch_dims == 0:
        return _gather_nd(params, indices, name=name)
    with name_scope(name, "GatherNd", [params, indices]):
        params = convert_to_tensor(_as_value(params), name="params")
        indices = convert_to_tensor(_as_value(indices), name="indices")
        rank = indices.shape.rank
        if not isinstance(batch_dims, int) or batch_dims < 0 or \
                (rank is not None and batch_dims >= rank):
            raise ValueError("gather_nd: batch_dims must be a Python int in [0, rank(indices)),"
                             " got %r for indices of rank %s" % (batch_dims, rank))
        dt = indices.dtype.base_dtype
        p_shape, i_shape = shape(params, out_type=dt), shape(indices, out_type=dt)
        flat_params = reshape(params, concat([[-1], p_shape[batch_dims:]], 0))
        flat_indices = reshape(indices, concat([[-1], i_shape[batch_dims:]], 0))
        batches = shape(flat_params, out_type=dt)[0]
        inner = rank - batch_dims - 1          # index dimensions between batch and K
        number = reshape(range_op(batches, dtype=dt), [-1] + [1] * (inner + 1))
        number = add(number, zeros_like(flat_indices[..., :1]))
        gathered = _gather_nd(flat_params, concat([number, cast(flat_indices, dt)], -1))
        if params.shape.is_fully_defined() and indices.shape.is_fully_defined():
            i_dims, p_dims = indices.shape.as_list(), params.shape.as_list()
            return reshape(gathered, i_dims[:-1] + p_dims[batch_dims + i_dims[-1]:])
        return reshape(gathered, concat([i_shape[:batch_dims],
                                         shape(gathered, out_type=dt)[1:]], 0))


__all__ = ["gather_nd"]
