"""``tensorflow.compiler.tf2xla.python.xla``: the XLA ops Keras' TensorFlow backend imports,
built from ordinary (differentiable) ops."""
from __future__ import annotations

from typing import Any

from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops import array_ops, math_ops
from flowgrad.framework.type_hints import TensorLike


def dynamic_update_slice(operand: Any, update: Any, indices: TensorLike,
                         name: str | None = None) -> Any:
    """``operand`` with the block ``update`` written at ``indices`` (XLA's
    DynamicUpdateSlice: each start index is clamped so the block fits).

    Args:
      operand: a tensor.
      update: a tensor of the same rank and dtype, no larger than ``operand``.
      indices: a start index per dimension.
      name: the op's name.

    Returns:
      A tensor of ``operand``'s shape and dtype.
    """
    operand = convert_to_tensor(operand)
    update = convert_to_tensor(update, operand.dtype)
    indices = math_ops.cast(convert_to_tensor(indices), "int32")
    op_shape = array_ops.shape(operand)
    up_shape = array_ops.shape(update)
    start = math_ops.minimum(math_ops.maximum(indices, 0), op_shape - up_shape)
    paddings = array_ops.stack([start, op_shape - up_shape - start], axis=1)
    placed = array_ops.pad(update, paddings)
    mask = array_ops.pad(array_ops.ones_like(update, dtype="bool"), paddings)
    return math_ops.where(mask, placed, operand, name=name)


__all__ = ["dynamic_update_slice"]
