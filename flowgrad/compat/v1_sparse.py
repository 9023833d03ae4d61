"""``tf.sparse`` of the TF1 face: TensorFlow 1's names (no ``map_values``) and
``reduce_max``'s TF1 signature (``reduction_axes``/``keep_dims`` aliases)."""
from typing import Any

from flowgrad import sparse_api as _sparse
from flowgrad.sparse_api import (SparseTensor, add, concat, expand_dims, from_dense, maximum,
                                 minimum, reduce_sum, reorder, retain, slice,
                                 sparse_dense_matmul, to_dense, transpose)


def reduce_max(sp_input: SparseTensor, axis: Any = None, keepdims: bool | None = None,
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
    return _sparse.reduce_max(sp_input, axis if axis is not None else reduction_axes,
                              keepdims if keepdims is not None else keep_dims)


__all__ = ["SparseTensor", "from_dense", "to_dense", "add", "maximum", "minimum",
           "sparse_dense_matmul", "reduce_sum", "reorder", "transpose", "expand_dims", "retain",
           "concat", "reduce_max", "slice"]


def __dir__() -> list:
    return sorted(__all__)
