"""``tf.is_tensor``: TensorFlow's test for tensor-like values, which also counts its
composite tensors (SparseTensor, RaggedTensor, IndexedSlices and other CompositeTensors) and
objects that declare ``is_tensor_like``. flowgrad's internal ``framework.tensor.is_tensor``
stays the test for dense tensors and variables."""
from __future__ import annotations


from flowgrad.framework import tensor
from flowgrad.framework.composite_tensor import CompositeTensor
from flowgrad.framework.indexed_slices import IndexedSlices
from flowgrad.ops.ragged_tensor import RaggedTensor
from flowgrad.ops.sparse_tensor import SparseTensor
from flowgrad.framework.type_hints import TensorLike

_COMPOSITES = (SparseTensor, RaggedTensor, IndexedSlices, CompositeTensor)


def is_tensor(x: TensorLike) -> bool:
    """Whether ``x`` is a tensor-like value, as ``tf.is_tensor``: a dense tensor, a
    variable, a SparseTensor, RaggedTensor, IndexedSlices or other CompositeTensor (not a
    user's ``tf.experimental.ExtensionType``), or an object whose ``is_tensor_like`` is
    true.

    Args:
      x: Any object.

    Returns:
      True for tensor-like values.
    """
    if hasattr(type(x), "_tf_extension_type_fields"):    # a user's ExtensionType: not one
        return False
    return (tensor.is_tensor(x) or isinstance(x, _COMPOSITES)
            or bool(getattr(x, "is_tensor_like", False)))


__all__ = ["is_tensor"]
