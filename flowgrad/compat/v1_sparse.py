"""``tf.compat.v1.sparse.reduce_max``: TensorFlow 1's signature (``reduction_axes``/``keep_dims``
aliases); the rest of ``tf.compat.v1.sparse`` is TF2's (flowgrad/api/exports.py)."""
from typing import Any

from flowgrad.ops import sparse_reduce as _sparse_reduce
from flowgrad.ops.sparse_tensor import SparseTensor
from flowgrad.framework.type_hints import AxisLike


def reduce_max(sp_input: SparseTensor, axis: AxisLike = None, keepdims: bool | None = None,
               reduction_axes: Any = None, keep_dims: bool | None = None) -> Any:
    """``tf.sparse.reduce_max`` with TensorFlow 1's deprecated argument names.

    Args:
        sp_input: the SparseTensor.
        axis: the axes to reduce, or None for all.
        keepdims: keep the reduced axes with length 1.
        reduction_axes: the deprecated name of ``axis``.
        keep_dims: the deprecated name of ``keepdims``.

    Returns:
        The dense maximum of the values present (0 where none is).
    """
    return _sparse_reduce.reduce_max(sp_input, axis if axis is not None else reduction_axes,
                                     keepdims if keepdims is not None else keep_dims)
