"""``tf.sparse.bincount``: counts (or summed weights) of each value as a SparseTensor, per
row with ``axis=-1`` -- TensorFlow's ``DenseCountSparseOutput``, ``SparseCountSparseOutput``
and ``RaggedCountSparseOutput`` (not differentiable), which Keras's ``CategoryEncoding``,
``IntegerLookup`` and ``TextVectorization`` call for ``sparse=True`` outputs.

The output holds one entry per (row, value) present, sorted; its dense shape is
``[rows, maxlength]`` if a ``maxlength`` is given, else ``[rows, max(largest value + 1,
minlength)]`` (the last dimension alone for a whole-tensor count); values at or above
``maxlength`` are dropped; a weighted count's values have the weights'
dtype, an unweighted one the input's; ``binary_output`` gives 1 for each present value."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes, errors
from flowgrad.framework.graph import name_scope
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import NotDifferentiable, register_op
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.array_ops import reshape
from flowgrad.ops.ragged_tensor import RaggedTensor
from flowgrad.ops.sparse_tensor import SparseTensor
from flowgrad.framework.type_hints import TensorLike


def _count(rows: np.ndarray | None, n_rows: int, values: np.ndarray, weights: np.ndarray,
           minlength: int, maxlength: int, binary_output: bool) -> tuple:
    """(indices, counts, dense_shape) of the values (with their row ids, or None)."""
    values = np.asarray(values).reshape(-1).astype(np.int64)
    weights = np.asarray(weights).reshape(-1)
    weighted = weights.size > 0
    if weighted and weights.size != values.size:
        raise errors.InvalidArgumentError(
            None, None, "Weights and values must have the same shape. Weight shape: [%d]; "
            "values shape: [%d]" % (weights.size, values.size))
    if values.size and values.min() < 0:
        raise errors.InvalidArgumentError(None, None, "Input values must all be non-negative")
    keep = values < maxlength if maxlength > 0 else np.ones(values.shape, bool)
    values = values[keep]
    rows = np.zeros(values.shape, np.int64) if rows is None else np.asarray(
        rows, np.int64).reshape(-1)[keep]
    top = int(values.max()) + 1 if values.size else 0
    depth = maxlength if maxlength > 0 else max(top, minlength)
    key = rows * max(depth, 1) + values
    uniq, inverse = np.unique(key, return_inverse=True)
    if binary_output:
        counts = np.ones(uniq.shape, weights.dtype if weighted else np.int64)
    elif weighted:
        counts = np.zeros(uniq.shape, weights.dtype)
        np.add.at(counts, inverse, weights[keep])
    else:
        counts = np.bincount(inverse, minlength=uniq.size).astype(np.int64)
    return uniq // max(depth, 1), uniq % max(depth, 1), counts, depth


def _pack(batched: bool, n_rows: int, row_ids: np.ndarray, vals: np.ndarray,
          counts: np.ndarray, depth: int, out_dtype: np.dtype) -> tuple:
    if batched:
        indices = np.stack([row_ids, vals], axis=1).astype(np.int64)
        shape = np.array([n_rows, depth], np.int64)
    else:
        indices = vals.reshape(-1, 1).astype(np.int64)
        shape = np.array([depth], np.int64)
    return indices, counts.astype(out_dtype), shape


def _out_dtype(values: np.ndarray, weights: np.ndarray) -> np.dtype:
    return np.asarray(weights).dtype if np.asarray(weights).size else np.asarray(values).dtype


def _dense_kernel(values: Any, weights: Any, *, minlength: int, maxlength: int,
                  binary_output: bool) -> tuple:
    values = np.asarray(values)
    if values.ndim not in (1, 2):
        raise errors.InvalidArgumentError(None, None, "Input must be a 1 or 2-dimensional "
                                          "tensor. Got: %d" % values.ndim)
    if values.ndim == 2 and values.shape[0] == 0:
        raise errors.InvalidArgumentError(None, None,
                                          "Invalid input: Shapes dimension cannot be 0.")
    batched = values.ndim == 2
    n_rows = values.shape[0] if batched else 1
    rows = np.repeat(np.arange(n_rows), values.shape[1]) if batched else None
    r, v, c, depth = _count(rows, n_rows, values, weights, minlength, maxlength, binary_output)
    return _pack(batched, n_rows, r, v, c, depth, _out_dtype(values, weights))


def _sparse_kernel(indices: Any, values: Any, dense_shape: Any, weights: Any, *,
                   minlength: int, maxlength: int, binary_output: bool) -> tuple:
    indices, dense_shape = np.asarray(indices), np.asarray(dense_shape).reshape(-1)
    batched = dense_shape.size == 2
    n_rows = int(dense_shape[0]) if batched else 1
    rows = indices[:, 0] if batched else None
    r, v, c, depth = _count(rows, n_rows, values, weights, minlength, maxlength, binary_output)
    return _pack(batched, n_rows, r, v, c, depth, _out_dtype(values, weights))


def _ragged_kernel(splits: Any, values: Any, weights: Any, *, minlength: int, maxlength: int,
                   binary_output: bool) -> tuple:
    splits = np.asarray(splits, np.int64)
    n_rows = len(splits) - 1
    rows = np.repeat(np.arange(n_rows), np.diff(splits))
    r, v, c, depth = _count(rows, n_rows, values, weights, minlength, maxlength, binary_output)
    return _pack(True, n_rows, r, v, c, depth, _out_dtype(values, weights))


def _infer(value_index: int, weight_index: int, batched: Any) -> Any:
    def infer(ins: list, attrs: dict) -> list:
        weights = ins[weight_index]
        out = weights.dtype if weights.shape.num_elements() != 0 else ins[value_index].dtype
        rank = batched(ins)
        return [(dtypes.int64, TensorShape([None, rank])), (out.base_dtype, TensorShape([None])),
                (dtypes.int64, TensorShape([rank]))]
    return infer


def _dense_rank(ins: list) -> int | None:
    return ins[0].shape.rank


def _sparse_rank(ins: list) -> int | None:
    return ins[2].shape.num_elements()


register_op("DenseCountSparseOutput", _dense_kernel,
            _infer(0, 1, _dense_rank), num_outputs=3, input_names=("values", "weights"))
register_op("SparseCountSparseOutput", _sparse_kernel, _infer(1, 3, _sparse_rank),
            num_outputs=3, input_names=("indices", "values", "dense_shape", "weights"))
register_op("RaggedCountSparseOutput", _ragged_kernel, _infer(1, 2, lambda ins: 2),
            num_outputs=3, input_names=("splits", "values", "weights"))
for _t in ("DenseCountSparseOutput", "SparseCountSparseOutput", "RaggedCountSparseOutput"):
    NotDifferentiable(_t)


def sparse_bincount(values: TensorLike, weights: TensorLike | None = None, axis: int | None = 0,
                    minlength: int | None = None, maxlength: int | None = None,
                    binary_output: bool = False, name: str | None = None) -> SparseTensor:
    """``tf.sparse.bincount``: how often each value occurs (or its summed weights), as a
    SparseTensor.

    Args:
      values: a Tensor (rank 1 or 2 with ``axis=-1``), SparseTensor or RaggedTensor of
        non-negative integers.
      weights: weights of the same shape (or structure) as ``values``, or None.
      axis: 0 counts over the whole input, -1 per row.
      minlength: the least size of the output's last dimension.
      maxlength: values at or above it are ignored.
      binary_output: 1 for each value present instead of its count.
      name: the name scope.

    Returns:
      The counts: indices ``[row, value]`` (``[value]`` for ``axis=0``).

    Raises:
      ValueError: ``weights`` with ``binary_output``, or an ``axis`` other than 0 / -1.
      InvalidArgumentError: a negative value.
    """
    if weights is not None and binary_output:
        raise ValueError("Arguments `binary_output` and `weights` are mutually exclusive. "
                         "Please specify only one.")
    axis = 0 if axis is None else axis
    if axis not in (0, -1):
        raise ValueError("Unsupported value for argument axis=%s. Only 0 and -1 are "
                         "currently supported." % axis)
    attrs = {"minlength": -1 if minlength is None else int(minlength),
             "maxlength": -1 if maxlength is None else int(maxlength),
             "binary_output": bool(binary_output)}
    with name_scope(name, "count"):
        if not isinstance(values, (SparseTensor, RaggedTensor)):
            values = convert_to_tensor(values, name="values")
        if axis == 0:
            if isinstance(values, SparseTensor):
                weights = weights.values if isinstance(weights, SparseTensor) else weights
                values = values.values
            elif isinstance(values, RaggedTensor):
                weights = weights.flat_values if isinstance(weights, RaggedTensor) else weights
                values = values.flat_values
            if weights is not None:
                weights = reshape(weights, [-1])
            values = reshape(values, [-1])
        if weights is None:
            vals = values.values if isinstance(values, SparseTensor) else (
                values.flat_values if isinstance(values, RaggedTensor) else values)
            weights = convert_to_tensor(np.zeros(0, vals.dtype.as_numpy_dtype))
        elif isinstance(weights, SparseTensor):
            weights = weights.values
        elif isinstance(weights, RaggedTensor):
            weights = weights.flat_values
        else:
            weights = convert_to_tensor(weights, name="weights")
        if isinstance(values, SparseTensor):
            out = apply_op("SparseCountSparseOutput", [values.indices, values.values,
                                                       values.dense_shape, weights], attrs)
        elif isinstance(values, RaggedTensor):
            out = apply_op("RaggedCountSparseOutput", [values.row_splits, values.flat_values,
                                                       reshape(weights, [-1])], attrs)
        else:
            out = apply_op("DenseCountSparseOutput", [values, reshape(weights, [-1])], attrs)
        return SparseTensor(*out)


__all__ = ["sparse_bincount"]
