"""``tf.sparse`` (both faces): the minimal SparseTensor of flowgrad/ops/sparse_tensor.py."""
from flowgrad.ops.sparse_tensor import SparseTensor, from_dense, to_dense

__all__ = ["SparseTensor", "from_dense", "to_dense"]


def __dir__() -> list:
    return sorted(__all__)
