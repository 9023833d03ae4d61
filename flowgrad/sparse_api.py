"""``tf.sparse`` (both faces): the minimal SparseTensor of flowgrad/ops/sparse_tensor.py."""
from flowgrad.ops.sparse_tensor import SparseTensor, from_dense, to_dense
from flowgrad.ops.sparse_elementwise import add, maximum, minimum
from flowgrad.ops.sparse_matmul import sparse_dense_matmul
from flowgrad.ops.sparse_reduce import reduce_max, reduce_sum
from flowgrad.ops.sparse_slice import map_values
from flowgrad.ops.sparse_slice import sparse_slice as slice  # noqa: A004 - TensorFlow's name
from flowgrad.ops.sparse_reorder import reorder, transpose
from flowgrad.ops.sparse_manip import expand_dims, reshape, retain
from flowgrad.ops.sparse_concat import concat

__all__ = ["SparseTensor", "from_dense", "to_dense", "add", "maximum", "minimum",
           "sparse_dense_matmul", "reduce_sum", "reorder",
           "transpose", "expand_dims", "retain", "concat", "reduce_max", "slice", "map_values",
           "reshape"]


def __dir__() -> list:
    return sorted(__all__)
