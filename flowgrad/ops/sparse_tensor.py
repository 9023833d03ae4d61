"""A minimal ``tf.sparse.SparseTensor``: ``indices`` (int64 [N, rank]), ``values`` ([N]) and
``dense_shape`` (int64 [rank]), with ``tf.sparse.to_dense`` (the SparseToDense op, both
modes) and ``tf.sparse.from_dense``. Built to be extended (sparse ops and their gradients)."""
from __future__ import annotations

import collections
from typing import Any

import numpy as np

from flowgrad.framework import dtypes, errors
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import register_op
from flowgrad.framework.shape_rules import constant_value
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape, unknown_shape
from flowgrad.ops.arithmetic_ops import divide, multiply, truediv
from flowgrad.ops.array_ops import expand_dims
from flowgrad.ops.constant_ops import placeholder
from flowgrad.ops.comparison_ops import not_equal, where
from flowgrad.ops.scatter_nd_ops import gather_nd
from flowgrad.ops.shape_ops import broadcast_to
from flowgrad.ops.shape_ops import shape as shape_of
from flowgrad.ops.sum_ops import reduce_sum
from flowgrad.framework.type_hints import DTypeLike, ShapeLike, TensorLike


SparseTensorValue = collections.namedtuple("SparseTensorValue",
                                           ["indices", "values", "dense_shape"])
SparseTensorValue.__doc__ = """TF1's ``tf.compat.v1.SparseTensorValue``: a SparseTensor's NumPy
arrays, as a Session fetches them and accepts them as a feed.

Args:
    indices: int64 [N, rank].
    values: [N].
    dense_shape: int64 [rank].
"""


class SparseTensor:
    """A sparse tensor: the ``values`` at ``indices`` of a tensor of shape ``dense_shape``.

    Args:
        indices: int64 [N, rank], in row-major order.
        values: [N].
        dense_shape: int64 [rank].
    """

    def __init__(self, indices: TensorLike, values: TensorLike, dense_shape: Any):
        self._indices = convert_to_tensor(indices, dtypes.int64) if not _is_tensor(indices) \
            else indices
        self._values = convert_to_tensor(values) if not _is_tensor(values) else values
        self._dense_shape = convert_to_tensor(dense_shape, dtypes.int64) \
            if not _is_tensor(dense_shape) else dense_shape
        if self._indices.shape.rank not in (2, None):
            raise ValueError("indices must be a matrix, got shape %s" % self._indices.shape)
        self._shape_set = None       # what set_shape added to the static shape

    @property
    def indices(self) -> Any:
        return self._indices

    @property
    def values(self) -> Any:
        return self._values

    @property
    def dense_shape(self) -> Any:
        return self._dense_shape

    @property
    def dtype(self) -> dtypes.DType:
        return self._values.dtype

    @property
    def shape(self) -> TensorShape:
        """The static dense shape (known entries of ``dense_shape``, and what ``set_shape``
        added)."""
        value = constant_value(self._dense_shape)
        if value is not None:
            known = TensorShape([int(d) for d in np.asarray(value)])
        else:
            n = self._dense_shape.shape.as_tuple()
            known = unknown_shape() if n is None or n[0] is None else TensorShape([None] * n[0])
        return known if self._shape_set is None else known.merge_with(self._shape_set)

    def set_shape(self, shape: ShapeLike | TensorLike) -> None:
        """Merges ``shape`` into the static dense shape (TensorFlow's
        ``SparseTensor.set_shape``: in eager mode a shape assertion).

        Args:
          shape: a TensorShape, list or tuple (None entries add nothing), or None.

        Raises:
          ValueError: ``shape`` is not compatible with the current shape.
        """
        self._shape_set = self.shape.merge_with(
            shape if isinstance(shape, TensorShape) else TensorShape(shape))

    def get_shape(self) -> TensorShape:
        return self.shape

    def with_values(self, new_values: Any) -> SparseTensor:
        return SparseTensor(self._indices, new_values, self._dense_shape)

    def _dense_cwise(self, other: Any, fn: Any) -> SparseTensor:
        """``fn(values, other at the indices)``: ``other`` is a dense tensor that broadcasts to
        the dense shape (TensorFlow's SparseDenseCwiseMul/Div); the result keeps the indices."""
        other = convert_to_tensor(other, self.dtype)
        at = gather_nd(broadcast_to(other, self._dense_shape), self._indices)
        return SparseTensor(self._indices, fn(self._values, at), self._dense_shape)

    def __mul__(self, other: Any) -> SparseTensor:
        return self._dense_cwise(other, multiply)

    def __truediv__(self, other: Any) -> SparseTensor:
        return self._dense_cwise(other, truediv)

    def __div__(self, other: Any) -> SparseTensor:
        return self._dense_cwise(other, divide)

    def __repr__(self) -> str:
        return "SparseTensor(indices=%s, values=%s, dense_shape=%s)" % (
            self._indices, self._values, self._dense_shape)

    @staticmethod
    def from_value(value: TensorLike) -> SparseTensor:
        return value

    def __reduce__(self) -> tuple:
        # by flowgrad's module: the class's own module path is TensorFlow's (below)
        return _sparse_tensor, (self._indices, self._values, self._dense_shape)


def _sparse_tensor(indices: Any, values: Any, dense_shape: Any) -> SparseTensor:
    """A SparseTensor again (what pickle calls to rebuild one)."""
    return SparseTensor(indices, values, dense_shape)


# The module path by which libraries written for TensorFlow recognise a SparseTensor (Keras 3's
# data adapters take one from ``tensorflow.python.`` as a sparse input of fit and predict).
SparseTensor.__module__ = "tensorflow.python.framework.sparse_tensor"


def _is_tensor(x: Any) -> bool:
    return hasattr(x, "dtype") and hasattr(x, "shape") and not isinstance(x, np.ndarray)


def _sparse_to_dense_kernel(indices: Any, output_shape: Any, values: Any, default: Any, *,
                            validate_indices: bool) -> np.ndarray:
    shape = tuple(int(d) for d in np.asarray(output_shape).reshape(-1))
    values = np.asarray(values, dtype=object) if isinstance(values, bytes) else \
        np.asarray(values)
    default = np.asarray(default, dtype=values.dtype)
    out = np.empty(shape, dtype=values.dtype)
    out[...] = default
    idx = np.asarray(indices, dtype=np.int64).reshape(-1, len(shape)) if shape else \
        np.zeros((np.asarray(indices).shape[0] if np.ndim(indices) else 0, 0), np.int64)
    if idx.size and (np.any(idx < 0) or np.any(idx >= np.array(shape))):
        bad = int(np.argmax(np.any((idx < 0) | (idx >= np.array(shape)), axis=1)))
        raise errors.InvalidArgumentError(None, None, "indices[%d] = %s is out of bounds: need "
                                          "0 <= index < %s" % (bad, idx[bad].tolist(),
                                                               list(shape)))
    if validate_indices and len(idx) > 1:
        flat = np.ravel_multi_index(idx.T, shape) if shape else np.zeros(len(idx))
        d = np.diff(flat)
        if np.any(d <= 0):
            i = int(np.argmax(d <= 0)) + 1
            what = "repeated" if d[i - 1] == 0 else "out of order"
            raise errors.InvalidArgumentError(None, None, "indices[%d] = %s is %s. Many sparse "
                                              "ops require sorted indices.\n    Use "
                                              "`tf.sparse.reorder` to create a correctly "
                                              "ordered copy.\n\n" % (i, idx[i].tolist(), what))
    vals = np.broadcast_to(values, (len(idx),)) if values.ndim == 0 else values
    if len(idx):
        out[tuple(idx.T)] = vals
    return out


def _sparse_to_dense_rule(ins: list, attrs: dict) -> tuple:
    value = constant_value(ins[1])
    if value is not None:
        return ins[2].dtype.base_dtype, TensorShape([int(d) for d in np.asarray(value)
                                                     .reshape(-1)])
    n = ins[1].shape.as_tuple()
    return ins[2].dtype.base_dtype, (unknown_shape() if not n or n[0] is None
                                     else TensorShape([None] * n[0]))


def _sparse_to_dense_grad(op: Any, grad: Any) -> list:
    """TensorFlow's: the values get ``grad`` at their indices, the default value the rest."""
    indices, _, values, _ = op.inputs
    values_grad = gather_nd(grad, indices)
    default_grad = reduce_sum(grad) - reduce_sum(values_grad)
    if values.shape.rank == 0:      # one value for all indices (TF1's sparse_to_dense)
        values_grad = reduce_sum(values_grad)
    return [None, None, values_grad, default_grad]


register_op("SparseToDense", _sparse_to_dense_kernel, _sparse_to_dense_rule,
            grad=_sparse_to_dense_grad,
            input_names=("sparse_indices", "output_shape", "sparse_values", "default_value"))


def to_dense(sp_input: SparseTensor, default_value: TensorLike | None = None,
             validate_indices: bool = True, name: str | None = None) -> Any:
    """The dense tensor of ``sp_input`` (``default_value``, zero or b"", elsewhere).

    Args:
        sp_input: A SparseTensor.
        default_value: The value where ``sp_input`` has none; 0 (or b"") when None.
        validate_indices: Whether to check the indices are sorted and unique.
        name: A name for the operation (optional).

    Raises:
        InvalidArgumentError: an index is out of bounds, repeated or out of order.
    """
    if not isinstance(sp_input, SparseTensor):
        raise TypeError("Input must be a SparseTensor.")
    dt = sp_input.dtype.base_dtype
    if default_value is None:
        default_value = b"" if dt is dtypes.string else np.zeros((), dt.np)
    return apply_op("SparseToDense", [sp_input.indices, sp_input.dense_shape, sp_input.values,
                                      convert_to_tensor(default_value, dt)],
                    {"validate_indices": bool(validate_indices)}, name=name or "SparseToDense")


def from_dense(tensor: TensorLike, name: str | None = None) -> SparseTensor:
    """The SparseTensor of the non-zero (non-empty) elements of ``tensor``.

    Args:
        tensor: A dense tensor; its nonzero entries become the SparseTensor's.
        name: A name for the operation (optional).
    """
    t = convert_to_tensor(tensor)
    zero = b"" if t.dtype.base_dtype is dtypes.string else np.zeros((), t.dtype.base_dtype.np)
    indices = where(not_equal(t, convert_to_tensor(zero, t.dtype.base_dtype)))
    return SparseTensor(indices, gather_nd(t, indices), shape_of(t, out_type=dtypes.int64))




def sparse_to_dense(sparse_indices: Any, output_shape: ShapeLike | TensorLike, sparse_values: Any,
                    default_value: TensorLike = 0, validate_indices: bool = True,
                    name: str | None = None) -> Any:
    """TF1's ``tf.sparse_to_dense``: ``sparse_values`` (or one value for all) at
    ``sparse_indices`` of a tensor of ``output_shape``, ``default_value`` elsewhere.

    Args:
        sparse_indices: An int [N, rank] tensor (or a vector for rank 1, or a scalar).
        output_shape: The dense shape (a 1-D int tensor).
        sparse_values: The values at the indices: [N], or a scalar for all.
        default_value: The value everywhere else.
        validate_indices: Whether to check the indices are sorted and unique.
        name: A name for the operation (optional).
    """
    values = convert_to_tensor(sparse_values)
    idx = convert_to_tensor(sparse_indices)
    if idx.shape.rank == 1:     # a vector of indices into a vector
        idx = expand_dims(idx, 1)
    return apply_op("SparseToDense", [idx, convert_to_tensor(output_shape), values,
                                      convert_to_tensor(default_value, values.dtype)],
                    {"validate_indices": bool(validate_indices)}, name=name or "SparseToDense")


def sparse_placeholder(dtype: DTypeLike, shape: ShapeLike | TensorLike | None = None,
                       name: str | None = None) -> SparseTensor:
    """TF1's ``tf.compat.v1.sparse_placeholder``: a SparseTensor of three placeholders, fed
    with a ``SparseTensorValue`` (or an (indices, values, dense_shape) tuple).

    Args:
        dtype: the values' dtype.
        shape: the dense shape (fixed, when fully known), or None.
        name: the name prefix of the placeholders.

    Returns:
        The SparseTensor.
    """
    prefix = name or "Placeholder"
    shape_t = TensorShape(shape) if shape is not None else unknown_shape()
    rank = shape_t.rank
    if shape_t.is_fully_defined():
        dense_shape = convert_to_tensor(np.asarray(shape_t.as_list(), np.int64), dtypes.int64)
    else:
        dense_shape = placeholder(dtypes.int64, [rank], name=prefix + "_shape")
    return SparseTensor(placeholder(dtypes.int64, [None, rank], name=prefix + "_indices"),
                        placeholder(dtype, [None], name=prefix + "_values"), dense_shape)
