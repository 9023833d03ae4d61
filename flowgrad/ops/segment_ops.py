"""Segment reductions: ``tf.math.segment_sum/mean/max/min`` (sorted ids) and
``tf.math.unsorted_segment_mean/max/min`` (``unsorted_segment_sum`` is in array_ops).

New ops: SegmentSum (sorted, non-negative ids; an InvalidArgumentError otherwise, as on
TensorFlow's CPU), UnsortedSegmentMax and UnsortedSegmentMin (empty segments hold the
dtype's lowest/highest value). Max and min gradients are shared evenly among ties, as
in TensorFlow; means are sums divided by counts, so their gradients come for free."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.errors import InvalidArgumentError
from flowgrad.framework.graph import name_scope
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import defop
from flowgrad.framework.shape_rules import constant_value
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.array_ops import (_as_value, _gather_drop_negatives, _int_tensor,
                                    _known_scalar, concat, gather, ones_like, reshape, shape,
                                    unsorted_segment_sum, zeros_like)
from flowgrad.ops.fill_ops import fill
from flowgrad.ops.shape_ops import rank
from flowgrad.ops.math_ops import (cast, div_no_nan, equal, greater, logical_and, maximum,
                                   sqrt, where)
from flowgrad.framework.type_hints import TensorLike
from flowgrad.framework import dispatch


def _segment_rows(data: TensorShape, ids: TensorShape, n: Any) -> TensorShape:
    """Output shape [n] + data.shape[ids.rank:]."""
    if data.rank is None or ids.rank is None:
        return TensorShape(None)
    if not TensorShape(data.as_list()[:ids.rank]).is_compatible_with(ids):
        raise ValueError("data.shape = %s does not start with segment_ids.shape = %s"
                         % (data, ids))
    return TensorShape([n] + data.as_list()[ids.rank:])


def _check_ids(ids: Any, what: str) -> Any:
    t = convert_to_tensor(_as_value(ids))
    if t.dtype.base_dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError("Value passed to parameter 'segment_ids' has DataType %s not in list "
                        "of allowed values: int32, int64 (%s)" % (t.dtype.name, what))
    return t


# --------------------------------------------------------------------------------------
# SegmentSum (sorted ids)


def _check_sorted(op_type: str, data: np.ndarray, ids: np.ndarray) -> None:
    if ids.ndim != 1 or data.ndim < 1 or data.shape[0] != ids.shape[0]:
        raise InvalidArgumentError(None, None, "%s: segment_ids should be a vector of "
                                   "the size of data's first dimension, got %s for data %s"
                                   % (op_type, list(ids.shape), list(data.shape)))
    if ids.size and (ids[0] < 0 or np.any(np.diff(ids) < 0)):
        raise InvalidArgumentError(None, None, "%s: segment ids must be non-negative "
                                   "and sorted (not decreasing), got %s"
                                   % (op_type, ids.tolist()))


def _segment_sum_kernel(data: Any, ids: Any) -> Any:
    data, ids = np.asarray(data), np.asarray(ids)
    _check_sorted("SegmentSum", data, ids)
    out = np.zeros((int(ids[-1]) + 1 if ids.size else 0,) + data.shape[1:], data.dtype)
    np.add.at(out, ids, data)
    return out


def _segment_sum_infer(ins: list, attrs: dict) -> tuple:
    ids = constant_value(ins[1])        # known ids give the number of rows
    n = None if ids is None else (int(np.max(ids)) + 1 if np.size(ids) else 0)
    return ins[0].dtype.base_dtype, _segment_rows(ins[0].shape, ins[1].shape, n)


@defop("SegmentSum", _segment_sum_kernel, _segment_sum_infer,
       input_names=("data", "segment_ids"))
def _segment_sum_grad(op: Any, grad: Any) -> Any:
    return gather(grad, op.inputs[1]), None


@dispatch.add_dispatch_support
def segment_sum(data: TensorLike, segment_ids: TensorLike, name: str | None = None) -> Any:
    """Sums of rows of ``data`` by sorted segment ids (output has ids[-1] + 1 rows).

    Args:
        data: The values: a tensor whose first dimensions match ``segment_ids``.
        segment_ids: A sorted int32 or int64 tensor: the segment of each row of ``data``.
        name: A name for the operation (optional).
    """
    ids = _check_ids(segment_ids, "segment_sum")
    return apply_op("SegmentSum", [convert_to_tensor(_as_value(data)), ids], name=name)


def segment_mean(data: TensorLike, segment_ids: TensorLike, name: str | None = None) -> Any:
    """Means of rows of ``data`` by sorted segment ids (0 for an empty segment).

    Args:
        data: The values: a tensor whose first dimensions match ``segment_ids``.
        segment_ids: A sorted int32 or int64 tensor: the segment of each row of ``data``.
        name: A name for the operation (optional).
    """
    with name_scope(name, "SegmentMean", [data, segment_ids]) as scope:
        x = convert_to_tensor(_as_value(data))
        ids = _check_ids(segment_ids, "segment_mean")
        counts = segment_sum(ones_like(x), ids)
        return div_no_nan(segment_sum(x, ids), counts, name=scope)


def _sorted_extreme(op: Any, data: Any, segment_ids: Any, name: str | None,
                    default: str) -> Any:
    """segment_max/min: the unsorted op over ids[-1] + 1 segments, empty segments 0."""
    with name_scope(name, default, [data, segment_ids]) as scope:
        x = convert_to_tensor(_as_value(data))
        ids = _check_ids(segment_ids, default)
        counts = segment_sum(ones_like(x), ids)         # also validates the ids
        n = shape(counts, out_type=ids.dtype.base_dtype)[0]
        m = op(x, ids, n)
        return where(greater(counts, 0), m, zeros_like(m), name=scope)


def segment_max(data: TensorLike, segment_ids: TensorLike, name: str | None = None) -> Any:
    """Maxima of rows of ``data`` by sorted segment ids (0 for an empty segment).

    Args:
        data: The values: a tensor whose first dimensions match ``segment_ids``.
        segment_ids: A sorted int32 or int64 tensor: the segment of each row of ``data``.
        name: A name for the operation (optional).
    """
    return _sorted_extreme(unsorted_segment_max, data, segment_ids, name, "SegmentMax")


def segment_min(data: TensorLike, segment_ids: TensorLike, name: str | None = None) -> Any:
    """Minima of rows of ``data`` by sorted segment ids (0 for an empty segment).

    Args:
        data: The values: a tensor whose first dimensions match ``segment_ids``.
        segment_ids: A sorted int32 or int64 tensor: the segment of each row of ``data``.
        name: A name for the operation (optional).
    """
    return _sorted_extreme(unsorted_segment_min, data, segment_ids, name, "SegmentMin")


# --------------------------------------------------------------------------------------
# UnsortedSegmentMax / UnsortedSegmentMin


def _extreme_kernel(ufunc: Any, op_type: str) -> Any:
    def kernel(data: Any, ids: Any, n_in: Any = None, *, num_segments: Any = None) -> Any:
        data, ids = np.asarray(data), np.asarray(ids)
        n = int(num_segments if n_in is None else n_in)
        if np.any(ids >= n):
            raise InvalidArgumentError(None, None, "%s: segment id %d is out of range [0, %d)"
                                       % (op_type, int(ids.max()), n))
        # an empty segment holds the dtype's lowest (highest) finite value, as TensorFlow
        info = np.finfo(data.dtype) if data.dtype.kind == "f" else np.iinfo(data.dtype)
        fill = info.min if ufunc is np.maximum else info.max
        rows = data.reshape((ids.size,) + data.shape[ids.ndim:])
        flat = ids.reshape(-1)
        keep = flat >= 0
        out = np.full((n,) + data.shape[ids.ndim:], fill, data.dtype)
        ufunc.at(out, flat[keep], rows[keep])
        return out
    return kernel


def _extreme_infer(ins: list, attrs: dict) -> tuple:
    return ins[0].dtype.base_dtype, _segment_rows(ins[0].shape, ins[1].shape,
                                                  attrs.get("num_segments"))


def _extreme_grad(op: Any, grad: Any) -> Any:
    """The gradient goes to the entries equal to their segment's extreme, split among ties."""
    data, ids = op.inputs[0], op.inputs[1]
    is_selected = logical_and(equal(data, _gather_drop_negatives(op.outputs[0], ids)),
                              _positive_like(ids, data))
    num_selected = unsorted_segment_sum(cast(is_selected, grad.dtype), ids,
                                        _num_segments(op))
    weighted = div_no_nan(grad, maximum(num_selected, 1.0))
    gathered = _gather_drop_negatives(weighted, ids)
    return [where(is_selected, gathered, zeros_like(gathered)), None, None][:len(op.inputs)]


def _num_segments(op: Any) -> Any:
    n = op.get_attr("num_segments")
    return n if n is not None else op.inputs[2]


def _positive_like(ids: Any, data: Any) -> Any:
    """ids >= 0, shaped to broadcast against ``data``."""
    keep = greater(ids, -1)
    extra = data.shape.rank - ids.shape.rank if data.shape.rank is not None and \
        ids.shape.rank is not None else None
    if extra is None:           # unknown ranks: the trailing ones are counted at run time
        ones = fill(reshape(rank(data) - rank(ids), [1]), 1)
        return reshape(keep, concat([shape(ids), ones], 0))
    return reshape(keep, concat([shape(ids), np.ones([extra], np.int32)], 0)) if extra else keep


for _op_type, _ufunc in (("UnsortedSegmentMax", np.maximum), ("UnsortedSegmentMin", np.minimum)):
    defop(_op_type, _extreme_kernel(_ufunc, _op_type), _extreme_infer,
          input_names=("data", "segment_ids", "num_segments"))(_extreme_grad)


def _unsorted_extreme(op_type: str, data: Any, segment_ids: Any, num_segments: Any,
                      name: str | None) -> Any:
    x = convert_to_tensor(_as_value(data))
    ids = _check_ids(segment_ids, op_type)
    n = _known_scalar(num_segments, "num_segments")
    if n is not None:
        return apply_op(op_type, [x, ids], {"num_segments": int(n)}, name=name)
    return apply_op(op_type, [x, ids, _int_tensor(num_segments)], {"num_segments": None},
                    name=name)


def unsorted_segment_max(data: TensorLike, segment_ids: TensorLike, num_segments: TensorLike,
                         name: str | None = None) -> Any:
    """Maxima of ``data`` by segment (the dtype's lowest value for an empty segment).

    Args:
        data: The values: a tensor whose first dimensions match ``segment_ids``.
        segment_ids: An int32 or int64 tensor: the segment of each row of ``data`` (a prefix of its
            shape).
        num_segments: The number of segments (a scalar).
        name: A name for the operation (optional).
    """
    return _unsorted_extreme("UnsortedSegmentMax", data, segment_ids, num_segments, name)


def unsorted_segment_min(data: TensorLike, segment_ids: TensorLike, num_segments: TensorLike,
                         name: str | None = None) -> Any:
    """Minima of ``data`` by segment (the dtype's highest value for an empty segment).

    Args:
        data: The values: a tensor whose first dimensions match ``segment_ids``.
        segment_ids: An int32 or int64 tensor: the segment of each row of ``data`` (a prefix of its
            shape).
        num_segments: The number of segments (a scalar).
        name: A name for the operation (optional).
    """
    return _unsorted_extreme("UnsortedSegmentMin", data, segment_ids, num_segments, name)


def unsorted_segment_mean(data: TensorLike, segment_ids: TensorLike, num_segments: TensorLike,
                          name: str | None = None) -> Any:
    """Means of ``data`` by segment (0 for an empty segment).

    Args:
        data: The values: a tensor whose first dimensions match ``segment_ids``.
        segment_ids: An int32 or int64 tensor: the segment of each row of ``data`` (a prefix of its
            shape).
        num_segments: The number of segments (a scalar).
        name: A name for the operation (optional).
    """
    with name_scope(name, "UnsortedSegmentMean", [data, segment_ids]) as scope:
        x = convert_to_tensor(_as_value(data))
        counts = unsorted_segment_sum(ones_like(x), segment_ids, num_segments)
        return div_no_nan(unsorted_segment_sum(x, segment_ids, num_segments),
                          maximum(counts, 1.0), name=scope)


def unsorted_segment_sqrt_n(data: TensorLike, segment_ids: TensorLike, num_segments: TensorLike,
                            name: str | None = None) -> Any:
    """Sums of ``data`` by segment divided by the square root of each segment's count
    (0 for an empty segment; rows with a negative id are dropped), as TensorFlow's.

    Args:
        data: The values: a floating point or complex tensor whose first dimensions match
            ``segment_ids``.
        segment_ids: An int32 or int64 tensor: the segment of each row of ``data`` (a prefix of its
            shape).
        num_segments: The number of segments (a scalar).
        name: A name for the operation (optional).

    Returns:
        A tensor of shape ``[num_segments] + data.shape[segment_ids.ndim:]``.
    """
    with name_scope(name, "UnsortedSegmentSqrtN", [data, segment_ids]) as scope:
        x = convert_to_tensor(_as_value(data))
        counts = unsorted_segment_sum(ones_like(x), segment_ids, num_segments)
        return unsorted_segment_sum(x, segment_ids, num_segments) / sqrt(
            maximum(counts, 1.0), name=scope)


# --------------------------------------------------------------------------------------
# SegmentProd / UnsortedSegmentProd


def _segment_prod_kernel(data: Any, ids: Any) -> Any:
    data, ids = np.asarray(data), np.asarray(ids)
    _check_sorted("SegmentProd", data, ids)
    out = np.ones((int(ids[-1]) + 1 if ids.size else 0,) + data.shape[1:], data.dtype)
    np.multiply.at(out, ids, data)
    return out


def _unsorted_prod_kernel(data: Any, ids: Any, n_in: Any = None, *,
                          num_segments: Any = None) -> Any:
    data, ids = np.asarray(data), np.asarray(ids)
    n = int(num_segments if n_in is None else n_in)
    if np.any(ids >= n):
        raise InvalidArgumentError(None, None, "UnsortedSegmentProd: segment id %d is out of "
                                   "range [0, %d)" % (int(ids.max()), n))
    rows = data.reshape((ids.size,) + data.shape[ids.ndim:])
    flat = ids.reshape(-1)
    keep = flat >= 0
    out = np.ones((n,) + data.shape[ids.ndim:], data.dtype)
    np.multiply.at(out, flat[keep], rows[keep])
    return out


def _prod_grad(op: Any, grad: Any, segment_sum_of: Any, segment_prod_of: Any,
               gather_of: Any) -> Any:
    """TensorFlow's: divide the product by each entry where the segment holds no zero; the
    product of the others at a segment's only zero; 0 in segments with two zeros or more."""
    data = op.inputs[0]
    is_zero = equal(data, zeros_like(data))
    num_zeros = segment_sum_of(cast(is_zero, dtypes.int32))
    grad = where(greater(num_zeros, 1), zeros_like(grad), grad)
    non_zero_data = where(is_zero, ones_like(data), data)
    non_zero_prod = segment_prod_of(non_zero_data)
    partial = where(is_zero, gather_of(non_zero_prod),
                    gather_of(op.outputs[0]) / non_zero_data)
    return gather_of(grad) * partial


@defop("SegmentProd", _segment_prod_kernel, _segment_sum_infer,
       input_names=("data", "segment_ids"))
def _segment_prod_grad(op: Any, grad: Any) -> Any:
    ids = op.inputs[1]
    return _prod_grad(op, grad, lambda x: segment_sum(x, ids), lambda x: segment_prod(x, ids),
                      lambda x: gather(x, ids)), None


@defop("UnsortedSegmentProd", _unsorted_prod_kernel, _extreme_infer,
       input_names=("data", "segment_ids", "num_segments"))
def _unsorted_segment_prod_grad(op: Any, grad: Any) -> Any:
    ids, n = op.inputs[1], _num_segments(op)
    dx = _prod_grad(op, grad, lambda x: unsorted_segment_sum(x, ids, n),
                    lambda x: unsorted_segment_prod(x, ids, n),
                    lambda x: _gather_drop_negatives(x, ids))
    return [dx, None, None][:len(op.inputs)]


def segment_prod(data: TensorLike, segment_ids: TensorLike, name: str | None = None) -> Any:
    """Products of rows of ``data`` by sorted segment ids (1 for an empty segment).

    Args:
      data: A numeric tensor.
      segment_ids: A sorted int32/int64 tensor, a prefix of ``data``'s shape.
      name: A name for the operation.

    Returns:
      A tensor of ``segment_ids[-1] + 1`` rows.

    Raises:
      InvalidArgumentError: if the ids are negative or not sorted.
    """
    ids = _check_ids(segment_ids, "segment_prod")
    return apply_op("SegmentProd", [convert_to_tensor(_as_value(data)), ids], name=name)


def unsorted_segment_prod(data: TensorLike, segment_ids: TensorLike, num_segments: TensorLike,
                          name: str | None = None) -> Any:
    """Products of ``data`` by segment (1 for an empty segment; negative ids are dropped).

    Args:
      data: A numeric tensor.
      segment_ids: An int32/int64 tensor, a prefix of ``data``'s shape.
      num_segments: The number of segments (a scalar).
      name: A name for the operation.

    Returns:
      A tensor of ``num_segments`` rows.

    Raises:
      InvalidArgumentError: if an id is ``num_segments`` or more.
    """
    return _unsorted_extreme("UnsortedSegmentProd", data, segment_ids, num_segments, name)


__all__ = ["segment_max", "segment_mean", "segment_min", "segment_prod", "segment_sum",
           "unsorted_segment_max", "unsorted_segment_mean", "unsorted_segment_min",
           "unsorted_segment_prod", "unsorted_segment_sqrt_n"]
