"""``tf.sets``: set operations on the last dimension of dense or sparse tensors
(DenseToDenseSetOperation, DenseToSparseSetOperation, SparseToSparseSetOperation, SetSize).

Every row (an index of all but the last dimension) is a set: of all its entries for a dense
tensor, of its present entries for a SparseTensor. Results are SparseTensors whose rows hold
the sorted elements, as TensorFlow's kernels give them; the ops have no gradient, as in
TensorFlow."""
from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from flowgrad.framework import dtypes, errors
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import NotDifferentiable, register_op
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.sparse_tensor import SparseTensor
from flowgrad.framework.type_hints import TensorLike

_OPERATIONS = ("a-b", "b-a", "intersection", "union")


def _dense_rows(x: np.ndarray) -> tuple:
    x = np.asarray(x)
    if x.ndim < 2:
        raise errors.InvalidArgumentError(None, None, "Shape %s has rank %d < 2"
                                          % (list(x.shape), x.ndim))
    rows = {idx: set(x[idx].tolist()) for idx in itertools.product(*map(range, x.shape[:-1]))}
    return rows, tuple(x.shape[:-1])


def _sparse_rows(indices: Any, values: Any, shape: Any) -> tuple:
    shape = [int(d) for d in np.asarray(shape)]
    if len(shape) < 2:
        raise errors.InvalidArgumentError(None, None, "Shape %s has rank %d < 2"
                                          % (shape, len(shape)))
    rows: dict = {idx: set() for idx in itertools.product(*map(range, shape[:-1]))}
    for index, value in zip(np.asarray(indices).tolist(), np.asarray(values).tolist()):
        rows[tuple(index[:-1])].add(value)
    return rows, tuple(shape[:-1])


def _combine(a: tuple, b: tuple, operation: str, dtype: Any) -> tuple:
    (rows_a, batch_a), (rows_b, batch_b) = a, b
    if batch_a != batch_b:
        raise errors.InvalidArgumentError(
            None, None, "Shapes of the two sets differ in their first %d dimensions: %s vs %s"
            % (len(batch_a), list(batch_a), list(batch_b)))
    pick = {"a-b": lambda x, y: x - y, "b-a": lambda x, y: y - x,
            "intersection": lambda x, y: x & y, "union": lambda x, y: x | y}[operation]
    return _result({idx: pick(rows_a[idx], rows_b[idx]) for idx in rows_a}, batch_a, dtype)


def _result(rows: dict, batch: tuple, dtype: Any) -> tuple:
    indices, values, width = [], [], 0
    for idx in sorted(rows):
        members = sorted(rows[idx])
        width = max(width, len(members))
        for j, v in enumerate(members):
            indices.append(list(idx) + [j])
            values.append(v)
    out_values = np.array(values, dtype=object if dtype is object else dtype)
    return (np.array(indices, np.int64).reshape(-1, len(batch) + 1), out_values,
            np.array(list(batch) + [width], np.int64))


def _np_dtype(x: np.ndarray) -> Any:
    return object if np.asarray(x).dtype == object else np.asarray(x).dtype


def _dense_dense(a: Any, b: Any, *, set_operation: str, validate_indices: bool) -> tuple:
    return _combine(_dense_rows(a), _dense_rows(b), set_operation, _np_dtype(a))


def _dense_sparse(a: Any, bi: Any, bv: Any, bs: Any, *, set_operation: str,
                  validate_indices: bool) -> tuple:
    return _combine(_dense_rows(a), _sparse_rows(bi, bv, bs), set_operation, _np_dtype(a))


def _sparse_sparse(ai: Any, av: Any, as_: Any, bi: Any, bv: Any, bs: Any, *,
                   set_operation: str, validate_indices: bool) -> tuple:
    return _combine(_sparse_rows(ai, av, as_), _sparse_rows(bi, bv, bs), set_operation,
                    _np_dtype(av))


def _set_size(indices: Any, values: Any, shape: Any, *, validate_indices: bool) -> np.ndarray:
    rows, batch = _sparse_rows(indices, values, shape)
    out = np.zeros(batch, np.int32)
    for idx, members in rows.items():
        out[idx] = len(members)
    return out


def _infer(values_at: int) -> Any:
    def infer(ins: list, attrs: dict) -> list:
        return [(dtypes.int64, TensorShape([None, None])),
                (ins[values_at].dtype.base_dtype, TensorShape([None])),
                (dtypes.int64, TensorShape([None]))]
    return infer


register_op("DenseToDenseSetOperation", _dense_dense, _infer(0), num_outputs=3,
            input_names=("set1", "set2"))
register_op("DenseToSparseSetOperation", _dense_sparse, _infer(0), num_outputs=3,
            input_names=("set1", "set2_indices", "set2_values", "set2_shape"))
register_op("SparseToSparseSetOperation", _sparse_sparse, _infer(1), num_outputs=3,
            input_names=("set1_indices", "set1_values", "set1_shape", "set2_indices",
                         "set2_values", "set2_shape"))
register_op("SetSize", _set_size, lambda ins, attrs: (dtypes.int32, TensorShape(None)),
            input_names=("set_indices", "set_values", "set_shape"))
for _op in ("DenseToDenseSetOperation", "DenseToSparseSetOperation",
            "SparseToSparseSetOperation", "SetSize"):
    NotDifferentiable(_op)


def _parts(x: Any) -> list:
    return [x.indices, x.values, x.dense_shape]


def _set_operation(a: Any, b: Any, operation: str, validate_indices: bool) -> SparseTensor:
    attrs = {"set_operation": operation, "validate_indices": bool(validate_indices)}
    if not isinstance(a, SparseTensor):
        a = convert_to_tensor(a)
    if not isinstance(b, SparseTensor):
        b = convert_to_tensor(b, a.dtype)
    if a.dtype.base_dtype != b.dtype.base_dtype:
        raise TypeError("Types don't match, %s vs %s." % (a.dtype, b.dtype))
    if isinstance(a, SparseTensor) and not isinstance(b, SparseTensor):
        # TensorFlow swaps the arguments so that the dense one comes first
        a, b = b, a
        operation = {"a-b": "b-a", "b-a": "a-b"}.get(operation, operation)
        attrs["set_operation"] = operation
    if isinstance(a, SparseTensor):
        out = apply_op("SparseToSparseSetOperation", _parts(a) + _parts(b), attrs)
    elif isinstance(b, SparseTensor):
        out = apply_op("DenseToSparseSetOperation", [a] + _parts(b), attrs)
    else:
        out = apply_op("DenseToDenseSetOperation", [a, b], attrs)
    return SparseTensor(*out)


def set_intersection(a: TensorLike, b: TensorLike, validate_indices: bool = True) -> SparseTensor:
    """The elements each row of ``a`` and ``b`` share.

    Args:
      a: a dense or sparse tensor of rank >= 2 (rows on the last dimension).
      b: the same, with the same leading dimensions and dtype.
      validate_indices: accepted, as in TensorFlow.

    Returns:
      A SparseTensor whose rows hold the sorted common elements.

    Raises:
      TypeError: the dtypes differ.
      InvalidArgumentError: a rank below 2, or different leading dimensions.
    """
    return _set_operation(a, b, "intersection", validate_indices)


def set_union(a: TensorLike, b: TensorLike, validate_indices: bool = True) -> SparseTensor:
    """The elements of each row of ``a`` or ``b``.

    Args:
      a: a dense or sparse tensor of rank >= 2 (rows on the last dimension).
      b: the same, with the same leading dimensions and dtype.
      validate_indices: accepted, as in TensorFlow.

    Returns:
      A SparseTensor of the sorted elements.
    """
    return _set_operation(a, b, "union", validate_indices)


def set_difference(a: TensorLike, b: TensorLike, aminusb: bool = True,
                   validate_indices: bool = True) -> SparseTensor:
    """The elements of each row of ``a`` not in ``b``.

    Args:
      a: a dense or sparse tensor of rank >= 2 (rows on the last dimension).
      b: the same, with the same leading dimensions and dtype.
      aminusb: False gives the elements of ``b`` not in ``a``.
      validate_indices: accepted, as in TensorFlow.

    Returns:
      A SparseTensor of the sorted elements.
    """
    return _set_operation(a, b, "a-b" if aminusb else "b-a", validate_indices)


def set_size(a: SparseTensor, validate_indices: bool = True) -> Any:
    """The number of distinct elements in each row of a SparseTensor.

    Args:
      a: the SparseTensor (rank >= 2).
      validate_indices: accepted, as in TensorFlow.

    Returns:
      int32 counts, one per row.

    Raises:
      TypeError: ``a`` is not a SparseTensor (as TensorFlow says).
    """
    if not isinstance(a, SparseTensor):
        raise TypeError("Expected `SparseTensor`, got %s." % (a,))
    return apply_op("SetSize", _parts(a), {"validate_indices": bool(validate_indices)})


__all__ = ["set_difference", "set_intersection", "set_size", "set_union"]
