"""``TensorScatterMax``, ``TensorScatterMin`` and ``TensorScatterSub``
(``tf.tensor_scatter_nd_max/min/sub``).

They live apart from ``scatter_nd_ops`` (the other tensor scatters), which ``array_ops``
imports before the math ops their gradient needs exist. The gradient is TensorFlow's: it goes
to the entries of ``tensor`` and ``updates`` equal to the result, shared among ties."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework.registry import defop
from flowgrad.ops.arithmetic_ops import add, multiply, realdiv
from flowgrad.ops.arithmetic_ops import negative
from flowgrad.ops.array_ops import shape
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.comparison_ops import equal
from flowgrad.ops.scatter_nd_ops import (_index_tuple, _tensor_scatter, _tensor_scatter_infer,
                                         gather_nd, scatter_nd)
from flowgrad.framework.type_hints import TensorLike


def _tensor_scatter_extreme_kernel(ufunc: Any, op_type: str) -> Any:
    def kernel(tensor: Any, indices: Any, updates: Any) -> np.ndarray:
        out = np.array(tensor, copy=True)
        ufunc.at(out, _index_tuple(indices, out.shape, op_type), updates)
        return out
    return kernel


def _tensor_scatter_extreme_grad(op: Any, grad: Any) -> Any:
    """TensorFlow's: the gradient goes to the entries (of ``tensor`` and ``updates``) equal to
    the result, shared evenly among ties."""
    x, indices, y = op.inputs
    out = op.outputs[0]
    x_ind = cast(equal(x, out), grad.dtype)
    y_ind = cast(equal(y, gather_nd(out, indices)), grad.dtype)
    count = add(x_ind, scatter_nd(indices, y_ind, shape(x, out_type=indices.dtype.base_dtype)))
    return (multiply(grad, realdiv(x_ind, count)), None,
            multiply(gather_nd(realdiv(grad, count), indices), y_ind))


for _op_type, _ufunc in (("TensorScatterMax", np.maximum), ("TensorScatterMin", np.minimum)):
    defop(_op_type, _tensor_scatter_extreme_kernel(_ufunc, _op_type), _tensor_scatter_infer,
          input_names=("tensor", "indices", "updates"))(_tensor_scatter_extreme_grad)


@defop("TensorScatterSub", _tensor_scatter_extreme_kernel(np.subtract, "TensorScatterSub"),
       _tensor_scatter_infer, input_names=("tensor", "indices", "updates"))
def _tensor_scatter_sub_grad(op: Any, grad: Any) -> Any:
    return grad, None, negative(gather_nd(grad, op.inputs[1]))


def tensor_scatter_nd_sub(tensor: TensorLike, indices: TensorLike, updates: TensorLike,
                          name: str | None = None) -> Any:
    """A copy of ``tensor`` with ``updates`` subtracted from the slices at ``indices``
    (repeated indices subtract each of their updates).

    Args:
      tensor: A tensor.
      indices: int32/int64 indices into ``tensor``'s leading dimensions.
      updates: Values of shape ``indices.shape[:-1] + tensor.shape[indices.shape[-1]:]``.
      name: A name for the operation.

    Returns:
      A tensor of ``tensor``'s shape and dtype.
    """
    return _tensor_scatter("TensorScatterSub", tensor, indices, updates, name)


def tensor_scatter_nd_max(tensor: TensorLike, indices: TensorLike, updates: TensorLike,
                          name: str | None = None) -> Any:
    """A copy of ``tensor`` whose slices at ``indices`` are the maximum of themselves and
    ``updates``.

    Args:
      tensor: A tensor.
      indices: int32/int64 indices into ``tensor``'s leading dimensions.
      updates: Values of shape ``indices.shape[:-1] + tensor.shape[indices.shape[-1]:]``.
      name: A name for the operation.

    Returns:
      A tensor of ``tensor``'s shape and dtype.

    Raises:
      InvalidArgumentError: for an index out of range.
    """
    return _tensor_scatter("TensorScatterMax", tensor, indices, updates, name)


def tensor_scatter_nd_min(tensor: TensorLike, indices: TensorLike, updates: TensorLike,
                          name: str | None = None) -> Any:
    """The same as :func:`tensor_scatter_nd_max` with the minimum.

    Args:
        tensor: The tensor to update.
        indices: An int tensor of indices into ``tensor``'s first dimensions: [..., index depth].
        updates: The values to scatter: ``indices``' shape without the last axis, plus the rest of
            the target's.
        name: A name for the operation (optional).
    """
    return _tensor_scatter("TensorScatterMin", tensor, indices, updates, name)
