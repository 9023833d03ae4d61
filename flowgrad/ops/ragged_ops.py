"""``tf.ragged``'s functions and the RaggedTensor methods built on ops: ``tf.ragged.range``,
``stack``, ``boolean_mask``, ``stack_dynamic_partitions``, ``row_splits_to_segment_ids``,
``segment_ids_to_row_splits``; row ids and starts, bounding shapes, ``merge_dims``,
``to_sparse``; concatenation and reductions of ragged tensors (TensorFlow's ragged dispatch of
``tf.concat`` and ``tf.reduce_*``, registered by flowgrad/ops/ragged_dispatch.py). Everything is
written with ops (segment sums, gathers, cumulative sums), so it runs in graphs and
differentiates through the values."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.tensor import TensorBase, constant, convert_to_tensor
from flowgrad.ops import (arithmetic_ops, comparison_ops, concat_ops, fill_ops, indexing_ops,
                          reduction_ops, segment_ops, shape_ops, sort_ops, sum_ops)
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.manip_ops import repeat
from flowgrad.ops.ragged_tensor import RaggedTensor
from flowgrad.framework.type_hints import AxisLike, DTypeLike, TensorLike


def _int_tensor(x: Any, dtype: Any = dtypes.int64) -> TensorBase:
    if isinstance(x, TensorBase):
        return x
    return convert_to_tensor(np.asarray(x), dtype)


def row_splits_to_segment_ids(splits: Any, name: str | None = None,
                              out_type: DTypeLike | None = None) -> TensorBase:
    """The row of each value from row splits, as ``tf.ragged.row_splits_to_segment_ids``.

    Args:
      splits: A 1-D integer tensor of row splits.
      name: A name for the operation.
      out_type: The result's dtype (``splits``'s by default).

    Returns:
      A 1-D tensor ``[splits[-1]]``.
    """
    del name
    splits = _int_tensor(splits)
    out = splits.dtype.base_dtype if out_type is None else dtypes.as_dtype(out_type)
    n = shape_ops.size(splits, out_type=splits.dtype) - 1
    rows = fill_ops.range(constant(0, splits.dtype), n, constant(1, splits.dtype),
                          dtype=splits.dtype)
    return cast(repeat(rows, splits[1:] - splits[:-1], axis=0), out)


def segment_ids_to_row_splits(segment_ids: TensorLike, num_segments: TensorLike | None = None,
                              out_type: DTypeLike | None = None,
                              name: str | None = None) -> TensorBase:
    """Row splits from sorted segment ids, as ``tf.ragged.segment_ids_to_row_splits``.

    Args:
      segment_ids: A 1-D sorted integer tensor.
      num_segments: The number of rows (``max(segment_ids) + 1`` by default).
      out_type: The dtype of the splits (``segment_ids``'s by default; int64 for a list).
      name: A name for the operation.

    Returns:
      A 1-D tensor ``[num_segments + 1]``.
    """
    del name
    ids = _int_tensor(segment_ids)
    out = dtypes.as_dtype(out_type) if out_type is not None else ids.dtype.base_dtype
    ids64 = cast(ids, dtypes.int64)
    if num_segments is None:
        num_segments = reduction_ops.reduce_max(
            concat_ops.concat([ids64, constant([-1], dtypes.int64)], 0)) + 1
    counts = indexing_ops.unsorted_segment_sum(fill_ops.ones_like(ids64), ids64,
                                               cast(num_segments, dtypes.int64))
    splits = concat_ops.concat([constant([0], dtypes.int64), reduction_ops.cumsum(counts)], 0)
    return cast(splits, out)


def ragged_range(starts: Any, limits: Any = None, deltas: Any = 1, dtype: DTypeLike | None = None,
                 name: str | None = None,
                 row_splits_dtype: DTypeLike = dtypes.int64) -> RaggedTensor:
    """Row ``i`` is ``range(starts[i], limits[i], deltas[i])`` (arguments broadcast), as
    ``tf.ragged.range``.

    Args:
      starts: Starts (or the limits, with ``limits`` None).
      limits: Limits (exclusive).
      deltas: Steps (non-zero).
      dtype: The values' dtype (inferred from the arguments by default).
      name: A name for the operation.
      row_splits_dtype: int64 or int32.

    Returns:
      A RaggedTensor of ragged rank 1.
    """
    del name
    if limits is None:
        starts, limits = 0, starts
    args = [convert_to_tensor(v) if not isinstance(v, TensorBase) else v
            for v in (starts, limits, deltas)]
    if dtype is None:
        order = [dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64]
        dtype = max((a.dtype.base_dtype for a in args), key=order.index)
    dtype = dtypes.as_dtype(dtype)
    starts, limits, deltas = (shape_ops.reshape(cast(a, dtype), [-1]) if a.shape.rank == 0
                              else cast(a, dtype) for a in args)
    n = max(int(np.prod(a.shape.as_list())) for a in (starts, limits, deltas))
    starts, limits, deltas = (shape_ops.broadcast_to(a, [n]) for a in (starts, limits, deltas))
    work = dtypes.float64
    span = (cast(limits, work) - cast(starts, work)) / cast(deltas, work)
    from flowgrad.ops.elementwise_ops import ceil
    lengths = cast(arithmetic_ops.maximum(ceil(span), constant(0.0, work)), dtypes.int64)
    splits = concat_ops.concat([constant([0], dtypes.int64), reduction_ops.cumsum(lengths)], 0)
    rowids = row_splits_to_segment_ids(splits)
    pos = fill_ops.range(constant(0, dtypes.int64), splits[-1], constant(1, dtypes.int64),
                         dtype=dtypes.int64) - indexing_ops.gather_v2(splits, rowids)
    values = indexing_ops.gather_v2(starts, rowids) + cast(pos, dtype) * indexing_ops.gather_v2(
        deltas, rowids)
    return RaggedTensor.from_row_splits(values, cast(splits, dtypes.as_dtype(row_splits_dtype)),
                                        validate=False)


# ---- methods ----

def value_rowids(rt: RaggedTensor, name: str | None = None) -> TensorBase:
    """The row of each value (``RaggedTensor.value_rowids``).

    Args:
      rt: A RaggedTensor.
      name: A name for the operation.

    Returns:
      A 1-D tensor of the row splits' dtype.
    """
    del name
    return row_splits_to_segment_ids(rt.row_splits)


def bounding_shape(rt: RaggedTensor, axis: AxisLike = None, name: str | None = None,
                   out_type: DTypeLike | None = None) -> TensorBase:
    """The smallest dense shape holding ``rt`` (``RaggedTensor.bounding_shape``).

    Args:
      rt: A RaggedTensor.
      axis: An axis (or axes) to return alone.
      name: A name for the operation.
      out_type: The dtype (the row splits' by default).

    Returns:
      A 1-D tensor (a scalar for one ``axis``).
    """
    del name
    out = rt.row_splits.dtype.base_dtype if out_type is None else dtypes.as_dtype(out_type)
    dims = [cast(rt.nrows(), dtypes.int64)]
    level = rt
    while isinstance(level, RaggedTensor):
        lengths = level.row_splits[1:] - level.row_splits[:-1]
        dims.append(reduction_ops.reduce_max(concat_ops.concat(
            [cast(lengths, dtypes.int64), constant([0], dtypes.int64)], 0)))
        level = level.values
    inner = shape_ops.shape(level, out_type=dtypes.int64)[1:]
    result = cast(concat_ops.concat([shape_ops.stack(dims), inner], 0), out)
    if axis is None:
        return result
    return indexing_ops.gather_v2(result, axis)


def merge_dims(rt: Any, outer_axis: int, inner_axis: int) -> Any:
    """``rt`` with the axes ``outer_axis..inner_axis`` merged into one
    (``RaggedTensor.merge_dims``).

    Args:
      rt: A RaggedTensor (or a dense tensor).
      outer_axis: The first axis merged.
      inner_axis: The last axis merged (negative counts from the end).

    Returns:
      A RaggedTensor, or a dense tensor when the rows are merged with every ragged axis.

    Raises:
      ValueError: ``outer_axis`` is after ``inner_axis`` or the rank is unknown.
    """
    rank = rt.shape.rank
    if rank is None:
        raise ValueError("merge_dims requires a tensor of known rank")
    outer = outer_axis + rank if outer_axis < 0 else outer_axis
    inner = inner_axis + rank if inner_axis < 0 else inner_axis
    if not 0 <= outer <= inner < rank:
        raise ValueError("Expected outer_axis (%d) to be less than or equal to inner_axis (%d)"
                         % (outer_axis, inner_axis))
    if outer == inner:
        return rt
    if not isinstance(rt, RaggedTensor):
        dims = rt.shape.as_list()
        return shape_ops.reshape(rt, dims[:outer] + [-1] + dims[inner + 1:])
    if outer == 0:
        values, depth = rt, inner
        while depth > 0 and isinstance(values, RaggedTensor):
            values, depth = values.values, depth - 1
        return merge_dims(values, 0, depth) if depth else values
    if outer > 1:
        return rt.with_values(merge_dims(rt.values, outer - 1, inner - 1))
    splits, values, depth = rt.row_splits, rt.values, inner - 1
    while depth > 0 and isinstance(values, RaggedTensor):
        splits = indexing_ops.gather_v2(cast(values.row_splits, splits.dtype), splits)
        values, depth = values.values, depth - 1
    if depth:
        splits = splits * cast(int(np.prod(values.shape.as_list()[1:depth + 1])), splits.dtype)
    return RaggedTensor.from_row_splits(merge_dims(rt.values, 0, inner - 1), splits,
                                        validate=False)


def to_sparse(rt: RaggedTensor, name: str | None = None) -> Any:
    """``rt`` as a SparseTensor of its bounding shape (``RaggedTensor.to_sparse``).

    Args:
      rt: A RaggedTensor.
      name: A name for the operation.

    Returns:
      A SparseTensor with int64 indices.
    """
    del name
    from flowgrad.ops.sparse_tensor import SparseTensor
    flat = rt.flat_values
    # Index columns of each flat value, outermost first.
    columns: list = []
    level, count = rt, None
    ids_chain = []
    while isinstance(level, RaggedTensor):
        splits = cast(level.row_splits, dtypes.int64)
        rowids = row_splits_to_segment_ids(splits)
        n = shape_ops.size(rowids, out_type=dtypes.int64)
        pos = fill_ops.range(constant(0, dtypes.int64), n, constant(1, dtypes.int64),
                             dtype=dtypes.int64) - indexing_ops.gather_v2(splits, rowids)
        ids_chain.append((rowids, pos))
        level = level.values
        count = n
    del count
    # Compose: the flat value j sits at level L's position pos_L[j]; its row at level L-1 is
    # rowids_L[j], whose own position is pos_{L-1}[rowids_L[j]], and so on.
    index = None
    for rowids, pos in reversed(ids_chain):
        if index is None:
            columns.insert(0, pos)
            index = rowids
        else:
            columns.insert(0, indexing_ops.gather_v2(pos, index))
            index = indexing_ops.gather_v2(rowids, index)
    columns.insert(0, index)
    inner = flat.shape.as_list()[1:]
    idx = shape_ops.stack(columns, axis=1)
    values = flat
    if inner:
        # Each flat value is a block of the inner dimensions: one index per element.
        width = int(np.prod(inner))
        grid = np.stack(np.meshgrid(*[np.arange(d) for d in inner], indexing="ij"),
                        -1).reshape(width, len(inner)).astype(np.int64)
        outer_idx = repeat(idx, width, axis=0)
        n = shape_ops.shape(idx, out_type=dtypes.int64)[:1]
        inner_idx = concat_ops.tile(constant(grid), concat_ops.concat(
            [n, constant([1], dtypes.int64)], 0))
        idx = concat_ops.concat([outer_idx, inner_idx], 1)
        values = shape_ops.reshape(flat, [-1])
    return SparseTensor(idx, values, bounding_shape(rt, out_type=dtypes.int64))


# ---- stacking, masking, partitions ----

def _as_ragged(x: Any, ragged_rank: int = 1) -> Any:
    if isinstance(x, RaggedTensor):
        return x
    t = convert_to_tensor(x)
    if t.shape.rank is not None and t.shape.rank < 2:
        return t
    dims = t.shape.as_list()
    rt = RaggedTensor.from_uniform_row_length(shape_ops.reshape(t, [-1] + dims[2:]), dims[1],
                                              validate=False)
    return rt if ragged_rank <= 1 else _deepen(rt, ragged_rank)


def _deepen(rt: RaggedTensor, ragged_rank: int) -> RaggedTensor:
    if rt.ragged_rank >= ragged_rank:
        return rt
    return rt.with_values(_as_ragged(rt.values, ragged_rank - 1))


def concat_rows(values: list) -> Any:
    """RaggedTensors (or dense tensors) joined along axis 0.

    Args:
      values: RaggedTensors of one ragged rank (dense ones are converted).

    Returns:
      A RaggedTensor.
    """
    if not any(isinstance(v, RaggedTensor) for v in values):
        return concat_ops.concat([convert_to_tensor(v) for v in values], 0)
    depth = max(v.ragged_rank for v in values if isinstance(v, RaggedTensor))
    rts = [_deepen(_as_ragged(v, depth), depth) for v in values]
    splits_dtype = rts[0].row_splits.dtype
    parts, offset = [rts[0].row_splits], rts[0].row_splits[-1]
    for r in rts[1:]:
        s = cast(r.row_splits, splits_dtype)
        parts.append(s[1:] + offset)
        offset = offset + s[-1]
    return RaggedTensor.from_row_splits(concat_rows([r.values for r in rts]),
                                        concat_ops.concat(parts, 0), validate=False)


def _gather_rows(rt: RaggedTensor, indices: TensorBase) -> RaggedTensor:
    starts = indexing_ops.gather_v2(rt.row_splits[:-1], indices)
    limits = indexing_ops.gather_v2(rt.row_splits[1:], indices)
    picks = ragged_range(starts, limits, constant(1, starts.dtype.base_dtype),
                         row_splits_dtype=rt.row_splits.dtype)
    values = rt.values
    taken = _gather_rows(values, picks.values) if isinstance(values, RaggedTensor) else \
        indexing_ops.gather_v2(values, picks.values)
    return RaggedTensor.from_row_splits(taken, picks.row_splits, validate=False)


def stack(values: list, axis: int = 0, name: str | None = None) -> RaggedTensor:
    """Tensors (ragged or dense) of one rank stacked along a new ``axis``, as
    ``tf.ragged.stack`` (axis 0, or 1 for rank-2 inputs).

    Args:
      values: A non-empty list of tensors or RaggedTensors.
      axis: Where the new axis goes.
      name: A name for the operation.

    Returns:
      A RaggedTensor.

    Raises:
      ValueError: An empty list or an axis other than 0 and 1.
    """
    del name
    values = list(values)
    if not values:
        raise ValueError("values must not be empty")
    all_dense = not any(isinstance(v, RaggedTensor) for v in values)
    if axis == 0:
        if all_dense and all(convert_to_tensor(v).shape.rank == 1 for v in values):
            tensors = [convert_to_tensor(v) for v in values]
            lengths = constant([t.shape.as_list()[0] for t in tensors], dtypes.int32)
            return RaggedTensor.from_row_lengths(concat_ops.concat(tensors, 0), lengths,
                                                 validate=False)
        rows = concat_rows(values)
        lengths = shape_ops.stack([cast(_nrows(v), dtypes.int64) for v in values])
        return RaggedTensor.from_row_lengths(rows, lengths, validate=False)
    if axis == 1:
        rts = [_as_ragged(v) for v in values]
        k = len(rts)
        n = _nrows(rts[0])
        rows = concat_rows(rts)
        order = shape_ops.reshape(shape_ops.transpose(shape_ops.reshape(
            fill_ops.range(constant(0, dtypes.int64), cast(n, dtypes.int64) * k,
                           constant(1, dtypes.int64), dtype=dtypes.int64),
            shape_ops.stack([constant(k, dtypes.int64), cast(n, dtypes.int64)])), [1, 0]),
            [-1])
        inner = _gather_rows(rows, order)
        splits = fill_ops.range(constant(0, dtypes.int64), cast(n, dtypes.int64) * k + 1,
                                constant(k, dtypes.int64), dtype=dtypes.int64)
        return RaggedTensor.from_row_splits(inner, splits, validate=False)
    raise ValueError("tf.ragged.stack supports axis 0 and 1 in flowgrad; got %r" % (axis,))


def _nrows(v: Any) -> TensorBase:
    if isinstance(v, RaggedTensor):
        return v.nrows()
    return shape_ops.shape(convert_to_tensor(v), out_type=dtypes.int64)[0]


def boolean_mask(data: TensorLike, mask: TensorLike, name: str | None = None) -> Any:
    """The elements of ``data`` where ``mask`` is true, keeping ``mask``'s rows: a ragged
    result, as ``tf.ragged.boolean_mask``.

    Args:
      data: A tensor or RaggedTensor.
      mask: A boolean tensor or RaggedTensor whose shape is a prefix of ``data``'s.
      name: A name for the operation.

    Returns:
      A RaggedTensor (a tensor for a 1-D mask of dense data).
    """
    del name
    if not isinstance(mask, RaggedTensor):
        mask = convert_to_tensor(mask, dtypes.bool)
        if mask.shape.rank == 1:
            if isinstance(data, RaggedTensor):
                keep = shape_ops.reshape(comparison_ops.where(mask), [-1])
                return _gather_rows(data, keep)
            return indexing_ops.boolean_mask_v2(data, mask)
        mask = _as_ragged(mask)
    data = _as_ragged(data)
    values = data.values
    flat_mask = mask.values
    if isinstance(flat_mask, RaggedTensor):
        inner = boolean_mask(values, flat_mask)
    else:
        inner = indexing_ops.boolean_mask_v2(values, flat_mask)
    rowids = value_rowids(mask)
    lengths = indexing_ops.unsorted_segment_sum(cast(flat_mask if not isinstance(
        flat_mask, RaggedTensor) else fill_ops.ones_like(rowids), dtypes.int64), rowids,
        mask.nrows()) if not isinstance(flat_mask, RaggedTensor) else mask.row_lengths()
    return RaggedTensor.from_row_lengths(inner, cast(lengths, data.row_splits.dtype),
                                         validate=False)


def stack_dynamic_partitions(data: TensorLike, partitions: Any, num_partitions: int,
                             name: str | None = None) -> RaggedTensor:
    """Row ``i`` holds the elements of ``data`` whose partition is ``i``, in order, as
    ``tf.ragged.stack_dynamic_partitions``.

    Args:
      data: A tensor.
      partitions: An int tensor of ``data``'s outer shape, in ``[0, num_partitions)``.
      num_partitions: How many rows.
      name: A name for the operation.

    Returns:
      A RaggedTensor with int32 row splits.
    """
    del name
    data = convert_to_tensor(data)
    partitions = convert_to_tensor(partitions)
    prank = partitions.shape.rank
    partitions = shape_ops.reshape(partitions, [-1])
    order = sort_ops.argsort(partitions, stable=True)
    values = indexing_ops.gather_v2(
        shape_ops.reshape(data, [-1] + data.shape.as_list()[prank:]), order)
    rows = cast(indexing_ops.gather_v2(partitions, order), dtypes.int64)
    splits = segment_ids_to_row_splits(rows, num_partitions, out_type=dtypes.int32)
    return RaggedTensor.from_row_splits(values, splits, validate=False)


# ---- reductions ----

_SEGMENT = {
    "sum": indexing_ops.unsorted_segment_sum, "max": segment_ops.unsorted_segment_max,
    "min": segment_ops.unsorted_segment_min, "prod": segment_ops.unsorted_segment_prod,
}
_DENSE = {
    "sum": sum_ops.reduce_sum, "max": reduction_ops.reduce_max,
    "min": reduction_ops.reduce_min, "prod": reduction_ops.reduce_prod,
    "mean": reduction_ops.reduce_mean, "any": reduction_ops.reduce_any,
    "all": reduction_ops.reduce_all, "std": reduction_ops.reduce_std,
    "variance": reduction_ops.reduce_variance,
}


def _segment_reduce(kind: str, data: TensorBase, ids: TensorBase, n: Any) -> TensorBase:
    if kind in _SEGMENT:
        return _SEGMENT[kind](data, ids, n)
    if kind in ("any", "all"):
        flag = data if kind == "any" else comparison_ops.logical_not(data)
        hits = indexing_ops.unsorted_segment_sum(cast(flag, dtypes.int32), ids, n)
        return hits > 0 if kind == "any" else comparison_ops.equal(hits, 0)
    total = indexing_ops.unsorted_segment_sum(data, ids, n)
    count = indexing_ops.unsorted_segment_sum(fill_ops.ones_like(data), ids, n)
    mean = total / count
    if kind == "mean":
        return mean
    centred = data - indexing_ops.gather_v2(mean, ids)
    var = indexing_ops.unsorted_segment_sum(centred * centred, ids, n) / count
    if kind == "variance":
        return var
    from flowgrad.ops.elementwise_ops import sqrt
    return sqrt(var)


def reduce(kind: str, rt: RaggedTensor, axis: AxisLike = None, keepdims: bool = False) -> Any:
    """A reduction of a RaggedTensor (TensorFlow's ragged ``tf.reduce_*``).

    Args:
      kind: ``"sum"``, ``"mean"``, ``"max"``, ``"min"``, ``"prod"``, ``"any"``, ``"all"``,
        ``"std"`` or ``"variance"``.
      rt: A RaggedTensor.
      axis: None (every value), or one axis.
      keepdims: Whether a reduced axis stays with size one (dense results).

    Returns:
      A tensor or a RaggedTensor.

    Raises:
      NotImplementedError: Several axes, or axis 0 of a tensor of ragged rank 2 or more.
    """
    if axis is None:
        return _DENSE[kind](rt.flat_values, keepdims=False)
    if isinstance(axis, (list, tuple)):
        if len(axis) != 1:
            raise NotImplementedError("flowgrad reduces a RaggedTensor along one axis at a "
                                      "time")
        axis = axis[0]
    rank = rt.shape.rank
    axis = int(axis) + rank if int(axis) < 0 else int(axis)
    out = _reduce_axis(kind, rt, axis)
    if keepdims and not isinstance(out, RaggedTensor):
        out = shape_ops.expand_dims(out, axis)
    return out


def _reduce_axis(kind: str, rt: RaggedTensor, axis: int) -> Any:
    rr = rt.ragged_rank
    if axis > rr:
        return rt.with_flat_values(_DENSE[kind](rt.flat_values, axis=axis - rr))
    if axis == 0:
        if rr != 1:
            raise NotImplementedError("flowgrad reduces axis 0 of ragged rank 1 tensors only")
        rowids = value_rowids(rt)
        n = shape_ops.size(rowids, out_type=rt.row_splits.dtype)
        pos = fill_ops.range(constant(0, rt.row_splits.dtype), n,
                             constant(1, rt.row_splits.dtype), dtype=rt.row_splits.dtype) - \
            indexing_ops.gather_v2(rt.row_splits, rowids)
        width = reduction_ops.reduce_max(concat_ops.concat(
            [rt.row_splits[1:] - rt.row_splits[:-1], constant([0], rt.row_splits.dtype)], 0))
        return _segment_reduce(kind, rt.values, pos, width)
    if axis == 1 and rr == 1:
        return _segment_reduce(kind, rt.values, value_rowids(rt), rt.nrows())
    if axis == 1 and rr == 2:
        inner = rt.values
        outer_of_inner = value_rowids(rt)
        inner_ids = value_rowids(inner)
        lengths = inner.row_splits[1:] - inner.row_splits[:-1]
        width = arithmetic_ops.maximum(segment_ops.unsorted_segment_max(
            lengths, outer_of_inner, rt.nrows()), constant(0, lengths.dtype.base_dtype))
        splits = concat_ops.concat([constant([0], lengths.dtype.base_dtype),
                                    reduction_ops.cumsum(width)], 0)
        n = shape_ops.size(inner_ids, out_type=lengths.dtype.base_dtype)
        pos = fill_ops.range(constant(0, n.dtype), n, constant(1, n.dtype), dtype=n.dtype) - \
            indexing_ops.gather_v2(inner.row_splits, inner_ids)
        seg = indexing_ops.gather_v2(splits, indexing_ops.gather_v2(outer_of_inner,
                                                                    inner_ids)) + pos
        values = _segment_reduce(kind, inner.values, seg, splits[-1])
        return RaggedTensor.from_row_splits(values, cast(splits, rt.row_splits.dtype),
                                            validate=False)
    if axis >= 2:
        return rt.with_values(_reduce_axis(kind, rt.values, axis - 1))
    raise NotImplementedError("flowgrad cannot reduce axis %d of a RaggedTensor of ragged "
                              "rank %d" % (axis, rr))


# ---- the RaggedTensor methods written here (flowgrad/ops/ragged_tensor.py cannot import
# this module: it is below it) ----

def _row_starts(self: RaggedTensor, name: str | None = None) -> TensorBase:
    """Where each row starts in ``values``."""
    return self.row_splits[:-1]


def _row_limits(self: RaggedTensor, name: str | None = None) -> TensorBase:
    """Where each row ends in ``values``."""
    return self.row_splits[1:]


def _nested_row_lengths(self: RaggedTensor, name: str | None = None) -> tuple:
    """The row lengths of every ragged dimension, outermost first."""
    out, level = [], self
    while isinstance(level, RaggedTensor):
        out.append(level.row_splits[1:] - level.row_splits[:-1])
        level = level.values
    return tuple(out)


def _nested_value_rowids(self: RaggedTensor, name: str | None = None) -> tuple:
    """The value row ids of every ragged dimension, outermost first."""
    out, level = [], self
    while isinstance(level, RaggedTensor):
        out.append(value_rowids(level))
        level = level.values
    return tuple(out)


def _with_row_splits_dtype(self: RaggedTensor, dtype: Any) -> RaggedTensor:
    """``self`` with every level's row splits cast to ``dtype`` (int32 or int64)."""
    dtype = dtypes.as_dtype(dtype)
    if dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError("dtype must be int32 or int64")
    values = self.values
    if isinstance(values, RaggedTensor):
        values = _with_row_splits_dtype(values, dtype)
    return RaggedTensor.from_row_splits(values, cast(self.row_splits, dtype), validate=False)


def _from_nested_row_lengths(cls: type, flat_values: Any, nested_row_lengths: Any,
                             name: str | None = None, validate: bool = True) -> RaggedTensor:
    """Several ragged dimensions from their row lengths, outermost first."""
    result = flat_values
    for lengths in reversed(list(nested_row_lengths)):
        result = cls.from_row_lengths(result, lengths, validate=validate)
    return result


def _from_nested_value_rowids(cls: type, flat_values: Any, nested_value_rowids: Any,
                              nested_nrows: Any = None, name: str | None = None,
                              validate: bool = True) -> RaggedTensor:
    """Several ragged dimensions from their value row ids (and row counts), outermost
    first."""
    rowids = list(nested_value_rowids)
    nrows = [None] * len(rowids) if nested_nrows is None else list(nested_nrows)
    if len(nrows) != len(rowids):
        raise ValueError("Argument `nested_nrows` must have the same length as argument "
                         "`nested_value_rowids`. len(nested_nrows) = %d vs. "
                         "len(nested_values_rowids) = %d." % (len(nrows), len(rowids)))
    result = flat_values
    for ids, n in reversed(list(zip(rowids, nrows))):
        have = np.shape(ids)[0] if isinstance(ids, (list, tuple, np.ndarray)) else None
        want = _static_rows(result)
        if have is not None and want is not None and have != want:
            raise ValueError("Shapes (%d,) and (%d,) are incompatible: value_rowids and the "
                             "values they index" % (have, want))
        result = cls.from_value_rowids(result, ids, nrows=n, validate=validate)
    return result


def _static_rows(values: Any) -> int | None:
    if isinstance(values, RaggedTensor):
        n = values.row_splits.shape.as_list()[0]
        return None if n is None else n - 1
    shape = np.shape(values) if isinstance(values, (list, tuple, np.ndarray)) else \
        values.shape.as_list()
    return shape[0] if shape else None


RaggedTensor.value_rowids = value_rowids
RaggedTensor.row_starts = _row_starts
RaggedTensor.row_limits = _row_limits
RaggedTensor.nested_row_lengths = _nested_row_lengths
RaggedTensor.nested_value_rowids = _nested_value_rowids
RaggedTensor.bounding_shape = bounding_shape
RaggedTensor.merge_dims = merge_dims
RaggedTensor.to_sparse = to_sparse
RaggedTensor.with_row_splits_dtype = _with_row_splits_dtype
RaggedTensor.get_shape = lambda self: self.shape
RaggedTensor.from_nested_row_lengths = classmethod(_from_nested_row_lengths)
RaggedTensor.from_nested_value_rowids = classmethod(_from_nested_value_rowids)


def _cross_input(x: Any) -> Any:
    """A cross input as a SparseTensor, keeping every dense entry (so the inputs' order is
    the crosses' order, as TensorFlow's RaggedCross keeps it)."""
    from flowgrad.ops.sparse_tensor import SparseTensor
    if isinstance(x, RaggedTensor):
        return x.to_sparse()
    if isinstance(x, SparseTensor):
        return x
    t = convert_to_tensor(x)
    idx = comparison_ops.where(fill_ops.ones_like(t, dtype=dtypes.bool))
    return SparseTensor(idx, shape_ops.reshape(t, [-1]),
                        shape_ops.shape(t, out_type=dtypes.int64))


def cross(inputs: list, name: str | None = None) -> RaggedTensor:
    """The string crosses of the features of each row of ragged or dense inputs, joined by
    ``"_X_"`` in the inputs' order, as ``tf.ragged.cross``.

    Args:
      inputs: RaggedTensors and rank-2 tensors (string or integer), one row per example.
      name: A name for the operation.

    Returns:
      A string RaggedTensor.
    """
    from flowgrad.ops.sparse_cross_ops import sparse_cross
    out = sparse_cross([_cross_input(x) for x in inputs], name=name)
    return RaggedTensor.from_sparse(out)


def cross_hashed(inputs: list, num_buckets: int = 0, hash_key: int | None = None,
                 name: str | None = None) -> RaggedTensor:
    """The hashed crosses (TensorFlow's FingerprintCat64 chain) of the features of each row,
    as ``tf.ragged.cross_hashed``.

    Args:
      inputs: RaggedTensors and rank-2 tensors (string or integer), one row per example.
      num_buckets: The ids are taken modulo this (0: no modulo).
      hash_key: The key the fingerprints start from (TensorFlow's default if None).
      name: A name for the operation.

    Returns:
      An int64 RaggedTensor.
    """
    from flowgrad.ops.sparse_cross_ops import sparse_cross_hashed
    out = sparse_cross_hashed([_cross_input(x) for x in inputs], num_buckets, hash_key,
                              name=name)
    return RaggedTensor.from_sparse(out)
