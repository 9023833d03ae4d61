"""Sparse tensors as strings: ``tf.io.serialize_sparse``, ``serialize_many_sparse`` and
``deserialize_many_sparse`` (TensorFlow's ``SerializeSparse``, ``SerializeManySparse`` and
``DeserializeManySparse``).

A sparse tensor becomes three serialized TensorProtos (its indices, values and dense shape),
byte for byte as TensorFlow writes them; ``serialize_many_sparse`` does so for each entry of
the first dimension (a ``[N, 3]`` string matrix) and ``deserialize_many_sparse`` puts such a
matrix back together, its dense shape the largest of the entries' shapes. TensorFlow registers
no gradient for these ops (a tape asking for one raises LookupError); neither does flowgrad."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes, errors
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import register_op
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.io_ops import _parse_tensor_kernel, tensor_proto_bytes
from flowgrad.ops.sparse_tensor import SparseTensor
from flowgrad.framework.type_hints import DTypeLike


def _triple(indices: np.ndarray, values: np.ndarray, shape: np.ndarray,
            dt: dtypes.DType) -> list:
    return [tensor_proto_bytes(np.asarray(indices, np.int64), dtypes.int64),
            tensor_proto_bytes(np.asarray(values, dt.np), dt),
            tensor_proto_bytes(np.asarray(shape, np.int64), dtypes.int64)]


def _serialize_kernel(sparse_indices: Any, sparse_values: Any, sparse_shape: Any, *,
                      T: dtypes.DType, out_type: dtypes.DType) -> np.ndarray:  # noqa: N803
    return np.array(_triple(sparse_indices, sparse_values, sparse_shape, T), dtype=object)


def _serialize_many_kernel(sparse_indices: Any, sparse_values: Any, sparse_shape: Any, *,
                           T: dtypes.DType, out_type: dtypes.DType) -> np.ndarray:  # noqa: N803
    indices = np.asarray(sparse_indices, np.int64)
    values = np.asarray(sparse_values)
    shape = np.asarray(sparse_shape, np.int64)
    if shape.size < 2:
        raise errors.InvalidArgumentError(
            None, None, "SparseTensor must have rank >= 2, but got rank %d" % shape.size)
    for k in range(1, len(indices)):        # TensorFlow's check: row-major order
        if tuple(indices[k]) <= tuple(indices[k - 1]):
            raise errors.InvalidArgumentError(
                None, None, "indices[%d] = [%s] is out of order. Many sparse ops require "
                "sorted indices.\n    Use `tf.sparse.reorder` to create a correctly ordered "
                "copy.\n\n" % (k, ",".join(str(int(i)) for i in indices[k])))
    n = int(shape[0])
    out = np.empty((n, 3), dtype=object)
    first = indices[:, 0] if len(indices) else np.zeros(0, np.int64)
    if len(first) and (first.min() < 0 or first.max() >= n):
        raise errors.InvalidArgumentError(None, None, "Index out of range: an index of the "
                                          "first dimension is not in [0, %d)" % n)
    order = np.argsort(first, kind="stable")
    for i in range(n):
        rows = order[first[order] == i]
        out[i] = _triple(indices[rows, 1:].reshape(len(rows), shape.size - 1), values[rows],
                         shape[1:], T)
    return out


def _serialize_rule(ins: list, attrs: dict) -> tuple:
    return attrs["out_type"], TensorShape([3])


def _serialize_many_rule(ins: list, attrs: dict) -> tuple:
    return attrs["out_type"], TensorShape([None, 3])


register_op("SerializeSparse", _serialize_kernel, _serialize_rule,
            input_names=("sparse_indices", "sparse_values", "sparse_shape"))
register_op("SerializeManySparse", _serialize_many_kernel, _serialize_many_rule,
            input_names=("sparse_indices", "sparse_values", "sparse_shape"))


def _deserialize_many_kernel(serialized_sparse: Any, *, dtype: dtypes.DType,
                             rank: int | None = None) -> tuple:
    rows = np.asarray(serialized_sparse, dtype=object)
    if rows.ndim != 2 or rows.shape[1] != 3:
        raise errors.InvalidArgumentError(
            None, None, "Serialized sparse should be a matrix with 3 columns, got shape %s"
            % list(rows.shape))
    parts, shapes = [], []
    for i, (ind, val, shp) in enumerate(rows):
        ind = _parse_tensor_kernel(ind, out_type=dtypes.int64)
        val = _parse_tensor_kernel(val, out_type=dtype)
        shp = _parse_tensor_kernel(shp, out_type=dtypes.int64)
        if shapes and len(shp) != len(shapes[0]):
            raise errors.InvalidArgumentError(
                None, None, "Inconsistent shape across SparseTensors: rank prior to "
                "SparseTensor[%d] was: %d but rank of SparseTensor[%d] is: %d"
                % (i, len(shapes[0]), i, len(shp)))
        shapes.append(shp)
        parts.append((np.concatenate([np.full((len(ind), 1), i, np.int64),
                                      ind.reshape(len(ind), len(shp))], 1), val))
    rank = len(shapes[0]) if shapes else 0
    indices = np.concatenate([p[0] for p in parts]) if parts else np.zeros((0, rank + 1),
                                                                           np.int64)
    values = np.concatenate([p[1] for p in parts]) if parts else np.zeros(0, dtype.np)
    dense = np.concatenate([[len(rows)], np.max(shapes, axis=0) if shapes else []])
    return indices.astype(np.int64), values.astype(dtype.np), dense.astype(np.int64)


def _deserialize_many_rule(ins: list, attrs: dict) -> tuple:
    rank = attrs.get("rank")
    return [(dtypes.int64, TensorShape([None, rank])), (attrs["dtype"], TensorShape([None])),
            (dtypes.int64, TensorShape([rank]))]


register_op("DeserializeManySparse", _deserialize_many_kernel, _deserialize_many_rule,
            input_names=("serialized_sparse",), num_outputs=3)


def _sparse_inputs(sp_input: Any, out_type: Any, what: str) -> tuple:
    if not isinstance(sp_input, SparseTensor):
        raise TypeError("Input must be a SparseTensor, got %r" % (sp_input,))
    out_type = dtypes.as_dtype(out_type)
    if out_type != dtypes.string:
        raise errors.UnimplementedError(None, None, "%s: flowgrad writes out_type=tf.string "
                                        "only, got %s" % (what, out_type.name))
    return (sp_input.indices, sp_input.values, sp_input.dense_shape), out_type


def serialize_sparse(sp_input: SparseTensor, out_type: DTypeLike = dtypes.string,
                     name: str | None = None) -> Any:
    """A string vector of 3: ``sp_input``'s indices, values and dense shape, each a
    serialized TensorProto.

    Args:
        sp_input: The SparseTensor.
        out_type: tf.string.
        name: A name for the operation (optional).

    Returns:
        A string tensor of shape [3].

    Raises:
        TypeError: ``sp_input`` is not a SparseTensor.
    """
    ins, out_type = _sparse_inputs(sp_input, out_type, "SerializeSparse")
    return apply_op("SerializeSparse", ins, {"T": ins[1].dtype.base_dtype,
                                             "out_type": out_type}, name=name)


def serialize_many_sparse(sp_input: SparseTensor, out_type: DTypeLike = dtypes.string,
                          name: str | None = None) -> Any:
    """A ``[N, 3]`` string matrix: row ``i`` is ``serialize_sparse`` of the entries of
    ``sp_input`` whose first index is ``i`` (with that index dropped).

    Args:
        sp_input: A SparseTensor of rank >= 2 whose first dimension is ``N``.
        out_type: tf.string.
        name: A name for the operation (optional).

    Returns:
        A string tensor of shape [N, 3].

    Raises:
        TypeError: ``sp_input`` is not a SparseTensor.
    """
    ins, out_type = _sparse_inputs(sp_input, out_type, "SerializeManySparse")
    return apply_op("SerializeManySparse", ins, {"T": ins[1].dtype.base_dtype,
                                                 "out_type": out_type}, name=name)


def deserialize_many_sparse(serialized_sparse: Any, dtype: DTypeLike, rank: int | None = None,
                            name: str | None = None) -> SparseTensor:
    """The SparseTensor of ``serialize_many_sparse``'s ``[N, 3]`` string matrix: entry
    ``i`` of the first dimension is row ``i``'s sparse tensor, the dense shape is ``N`` and
    the largest of the rows' shapes.

    Args:
        serialized_sparse: A string tensor of shape [N, 3].
        dtype: The dtype of the values.
        rank: The rank of the result (optional; fixes the static shapes).
        name: A name for the operation (optional).

    Returns:
        A SparseTensor.

    Raises:
        InvalidArgumentError: the matrix has not 3 columns, or its rows differ in rank.
    """
    t = convert_to_tensor(serialized_sparse, dtypes.string)
    indices, values, shape = apply_op(
        "DeserializeManySparse", [t], {"dtype": dtypes.as_dtype(dtype), "rank": rank},
        name=name)
    return SparseTensor(indices, values, shape)


__all__ = ["serialize_sparse", "serialize_many_sparse", "deserialize_many_sparse"]
