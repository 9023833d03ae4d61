"""``tf.edit_distance``: the Levenshtein distance between the sequences of two SparseTensors
(TensorFlow's EditDistance op, which TensorFlow does not differentiate)."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.errors import InternalError, InvalidArgumentError
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import _NO_GRADIENT, register_op
from flowgrad.framework.shape_rules import constant_value
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.sparse_tensor import SparseTensor, SparseTensorValue


def _levenshtein(a: list, b: list) -> int:
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
    return row[-1]


def _sequences(indices: Any, values: Any, shape: Any, out_shape: Any, what: str) -> dict:
    """{index of the first R-1 dimensions: the values in index order}; an index outside
    ``out_shape`` is TensorFlow's InternalError (the last dimension is not checked)."""
    indices, values = np.asarray(indices, np.int64), np.asarray(values)
    shape = np.asarray(shape, np.int64)
    if indices.ndim != 2 or indices.shape[1] != shape.size or len(values) != len(indices):
        raise InvalidArgumentError(None, None, "%s indices should be a matrix with one column "
                                   "per dimension of %s_shape and one row per value; got "
                                   "indices %s, values %s, shape %s"
                                   % (what, what, list(indices.shape), list(values.shape),
                                      list(shape.shape)))
    groups: dict = {}
    for row in indices[:, :-1]:
        if np.any(row < 0) or np.any(row >= out_shape):
            strides = np.cumprod((1,) + tuple(out_shape[:0:-1]))[::-1]
            raise InternalError(None, None, "Got an inner product %d which would require "
                                "writing to outside of the buffer for the output tensor (max "
                                "elements %d)" % (int(np.dot(row, strides)),
                                                  int(np.prod(out_shape))))
    for k in np.lexsort(indices.T[::-1]) if len(indices) else ():
        groups.setdefault(tuple(indices[k, :-1]), []).append(values[k])
    return groups


def _edit_distance_kernel(h_indices: Any, h_values: Any, h_shape: Any, t_indices: Any,
                          t_values: Any, t_shape: Any, *, normalize: bool = True) -> np.ndarray:
    h_shape, t_shape = np.asarray(h_shape, np.int64), np.asarray(t_shape, np.int64)
    if h_shape.size != t_shape.size:
        raise InvalidArgumentError(None, None, "hypothesis and truth have different ranks: %d "
                                   "vs. %d" % (h_shape.size, t_shape.size))
    if h_shape.size < 2:
        raise InvalidArgumentError(None, None, "Input SparseTensors must have rank at least 2, "
                                   "but truth_shape rank is: %d" % t_shape.size)
    out = np.zeros(np.maximum(h_shape, t_shape)[:-1], np.float32)
    hyp = _sequences(h_indices, h_values, h_shape, out.shape, "hypothesis")
    truth = _sequences(t_indices, t_values, t_shape, out.shape, "truth")
    for key in set(hyp) | set(truth):
        h, t = hyp.get(key, []), truth.get(key, [])
        d = np.float32(_levenshtein(h, t))
        out[key] = d / np.float32(len(t)) if normalize and t else (
            np.float32(np.inf) if normalize and d else d)
    return out


def _edit_distance_infer(ins: list, attrs: dict) -> list:
    shapes = [constant_value(ins[2]), constant_value(ins[5])]
    if all(s is not None for s in shapes):
        if np.size(shapes[0]) != np.size(shapes[1]):
            raise ValueError("Num elements of hypothesis_shape does not match truth_shape: "
                             "%d vs. %d" % (np.size(shapes[0]), np.size(shapes[1])))
        return [(dtypes.float32, TensorShape(
            [int(d) for d in np.maximum(shapes[0], shapes[1])[:-1]]))]
    rank = ins[0].shape.as_list()[1] if ins[0].shape.rank == 2 else None
    return [(dtypes.float32, TensorShape(None) if rank is None else TensorShape([None] * (
        rank - 1)))]


register_op("EditDistance", _edit_distance_kernel, _edit_distance_infer, grad=_NO_GRADIENT,
            input_names=("hypothesis_indices", "hypothesis_values", "hypothesis_shape",
                         "truth_indices", "truth_values", "truth_shape"))


def _as_sparse(x: Any, what: str) -> Any:
    if not isinstance(x, (SparseTensor, SparseTensorValue)):
        raise TypeError("%s must be a SparseTensor." % what)
    return x


def edit_distance(hypothesis: Any, truth: Any, normalize: bool = True,
                  name: str = "edit_distance") -> Any:
    """The Levenshtein distance between the sequences of ``hypothesis`` and ``truth``.

    Each index of the first ``R - 1`` dimensions holds one sequence (the values along the
    last dimension, in index order). With ``normalize`` the distance is divided by the
    truth's length: an empty truth gives ``inf`` (``0`` if the hypothesis is empty too).

    Args:
        hypothesis: A ``SparseTensor`` of the hypothesis sequences.
        truth: A ``SparseTensor`` of the truth sequences, of the same rank and dtype.
        normalize: Whether to divide each distance by the length of its truth.
        name: A name for the operation.

    Returns:
        A float32 tensor of rank ``R - 1``: the elementwise maximum of the two dense shapes
        without their last dimension.

    Raises:
        TypeError: ``hypothesis`` or ``truth`` is not a SparseTensor.
        ValueError: the dense shapes are known and of different ranks.
        InvalidArgumentError: the ranks differ (when run).
        InternalError: an index of the first ``R - 1`` dimensions is outside the shape
            (when run), as TensorFlow's kernel reports it.
    """
    hypothesis = _as_sparse(hypothesis, "Hypothesis")
    truth = _as_sparse(truth, "Truth")
    ins = [convert_to_tensor(v, dtype=dt) for v, dt in (
        (hypothesis.indices, dtypes.int64), (hypothesis.values, None),
        (hypothesis.dense_shape, dtypes.int64), (truth.indices, dtypes.int64),
        (truth.values, None), (truth.dense_shape, dtypes.int64))]
    if ins[1].dtype.base_dtype != ins[4].dtype.base_dtype:
        raise TypeError("edit_distance: hypothesis values are %s but truth values are %s"
                        % (ins[1].dtype.name, ins[4].dtype.name))
    return apply_op("EditDistance", ins, {"normalize": bool(normalize)}, name=name)
