"""More of ``tf.sparse``: ``segment_sum``/``segment_mean``/``segment_sqrt_n`` (rows of a dense
tensor picked by ``indices`` and combined by sorted segment ids, as the embedding combiners
do), ``softmax`` (over the entries present in each innermost row), ``split``,
``to_indicator``, ``eye``, ``reset_shape``, ``mask`` (of IndexedSlices) and
``sampled_addmm``. Each is written with gathers, segment sums and the SparseSlice op, so the
values differentiate (TensorFlow's SparseSegment* and SparseSoftmax gradients are these same
gathers and segment sums)."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes, errors
from flowgrad.framework.indexed_slices import IndexedSlices
from flowgrad.framework.tensor import EagerTensor, TensorBase, constant, convert_to_tensor
from flowgrad.ops import (comparison_ops, concat_ops, fill_ops, indexing_ops, reduction_ops,
                          segment_ops, shape_ops)
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.elementwise_ops import exp, sqrt
from flowgrad.ops.scatter_nd_ops import tensor_scatter_nd_update
from flowgrad.ops.sparse_slice import sparse_slice
from flowgrad.ops.sparse_tensor import SparseTensor
from flowgrad.ops.sum_ops import reduce_sum


def _segment(kind: str, data: Any, indices: Any, segment_ids: Any, num_segments: Any,
             name: str | None) -> TensorBase:
    del name
    data = convert_to_tensor(data)
    indices = convert_to_tensor(indices)
    segment_ids = convert_to_tensor(segment_ids)
    if isinstance(indices, EagerTensor):
        idx = np.asarray(indices.numpy())
        rows = data.shape.as_list()[0]
        if rows is not None and idx.size and (idx.min() < 0 or idx.max() >= rows):
            bad = idx[(idx < 0) | (idx >= rows)][0]
            raise errors.InvalidArgumentError(
                None, None, "indices[%d] == %d out of range [0, %d)" % (
                    int(np.argmax((idx < 0) | (idx >= rows))), int(bad), rows))
    ids = cast(segment_ids, dtypes.int64)
    if num_segments is None:
        num_segments = reduction_ops.reduce_max(
            concat_ops.concat([ids, constant([-1], dtypes.int64)], 0)) + 1
    n = cast(num_segments, dtypes.int64)
    picked = indexing_ops.gather_v2(data, indices)
    total = indexing_ops.unsorted_segment_sum(picked, ids, n)
    if kind == "sum":
        return total
    count = indexing_ops.unsorted_segment_sum(
        fill_ops.ones_like(ids, dtype=data.dtype.base_dtype), ids, n)
    count = comparison_ops.where(count > 0, count, fill_ops.ones_like(count))
    scale = count if kind == "mean" else sqrt(count)
    return total / shape_ops.reshape(scale, concat_ops.concat(
        [shape_ops.shape(scale), fill_ops.ones([data.shape.rank - 1], dtypes.int32)], 0))


def segment_sum(data: Any, indices: Any, segment_ids: Any, num_segments: Any = None,
                name: str | None = None) -> TensorBase:
    """``out[s] = sum(data[indices[j]] for j with segment_ids[j] == s)``, as
    ``tf.sparse.segment_sum``.

    Args:
      data: A tensor.
      indices: A 1-D int tensor: the rows of ``data`` used.
      segment_ids: A 1-D sorted int tensor of ``indices``'s length.
      num_segments: The number of output rows (``max(segment_ids) + 1`` by default).
      name: A name for the operation.

    Returns:
      A tensor ``[num_segments] + data.shape[1:]``.

    Raises:
      InvalidArgumentError: An index out of ``data``'s rows.
    """
    return _segment("sum", data, indices, segment_ids, num_segments, name)


def segment_mean(data: Any, indices: Any, segment_ids: Any, num_segments: Any = None,
                 name: str | None = None) -> TensorBase:
    """The mean of ``data[indices[j]]`` per segment (0 for an empty one), as
    ``tf.sparse.segment_mean``.

    Args:
      data: A float tensor.
      indices: A 1-D int tensor: the rows of ``data`` used.
      segment_ids: A 1-D sorted int tensor of ``indices``'s length.
      num_segments: The number of output rows.
      name: A name for the operation.

    Returns:
      A tensor ``[num_segments] + data.shape[1:]``.

    Raises:
      InvalidArgumentError: An index out of ``data``'s rows.
    """
    return _segment("mean", data, indices, segment_ids, num_segments, name)


def segment_sqrt_n(data: Any, indices: Any, segment_ids: Any, num_segments: Any = None,
                   name: str | None = None) -> TensorBase:
    """The sum of ``data[indices[j]]`` per segment divided by the square root of its size,
    as ``tf.sparse.segment_sqrt_n``.

    Args:
      data: A float tensor.
      indices: A 1-D int tensor: the rows of ``data`` used.
      segment_ids: A 1-D sorted int tensor of ``indices``'s length.
      num_segments: The number of output rows.
      name: A name for the operation.

    Returns:
      A tensor ``[num_segments] + data.shape[1:]``.

    Raises:
      InvalidArgumentError: An index out of ``data``'s rows.
    """
    return _segment("sqrt_n", data, indices, segment_ids, num_segments, name)


def _row_keys(sp: SparseTensor) -> TensorBase:
    """The linear index of each entry's row (every coordinate but the last)."""
    idx = cast(sp.indices, dtypes.int64)
    shape = cast(sp.dense_shape, dtypes.int64)
    rank = idx.shape.as_list()[1]
    key = fill_ops.zeros_like(idx[:, 0])
    for k in range(rank - 1):
        key = key * shape[k] + idx[:, k]
    return key


def softmax(sp_input: SparseTensor, name: str | None = None) -> SparseTensor:
    """The softmax over the entries present in each innermost row (absent entries count as
    absent, not as zeros), as ``tf.sparse.softmax``.

    Args:
      sp_input: A SparseTensor of rank 2 or more, in canonical order.
      name: A name for the operation.

    Returns:
      A SparseTensor with ``sp_input``'s indices.
    """
    del name
    keys = _row_keys(sp_input)
    n = reduction_ops.reduce_prod(cast(sp_input.dense_shape, dtypes.int64)[:-1])
    values = sp_input.values
    top = segment_ops.unsorted_segment_max(values, keys, n)
    e = exp(values - indexing_ops.gather_v2(top, keys))
    total = indexing_ops.unsorted_segment_sum(e, keys, n)
    return SparseTensor(sp_input.indices, e / indexing_ops.gather_v2(total, keys),
                        sp_input.dense_shape)


def split(sp_input: SparseTensor = None, num_split: int = None, axis: int = None,
          name: str | None = None) -> list:
    """``sp_input`` cut into ``num_split`` pieces along ``axis`` (the first
    ``size % num_split`` pieces one longer), as ``tf.sparse.split``.

    Args:
      sp_input: A SparseTensor.
      num_split: How many pieces.
      axis: The axis cut.
      name: A name for the operation.

    Returns:
      A list of SparseTensors.

    Raises:
      ValueError: A missing argument.
    """
    del name
    if sp_input is None or num_split is None or axis is None:
        raise ValueError("sp_input, num_split and axis are required.")
    if not isinstance(sp_input.dense_shape, EagerTensor):
        raise ValueError("flowgrad's tf.sparse.split needs a SparseTensor of known dense "
                         "shape (eager)")
    shape = np.asarray(sp_input.dense_shape.numpy())
    rank = shape.size
    axis = int(axis) % rank
    dim = int(shape[axis])
    base, extra = divmod(dim, int(num_split))
    pieces, start = [], 0
    for i in range(int(num_split)):
        size = base + (1 if i < extra else 0)
        begin = [0] * rank
        begin[axis] = start
        extent = shape.tolist()
        extent[axis] = size
        pieces.append(sparse_slice(sp_input, begin, extent))
        start += size
    return pieces


def to_indicator(sp_input: SparseTensor, vocab_size: int, name: str | None = None) -> TensorBase:
    """A dense boolean indicator of the ids each row holds: ``out[..., v]`` is true when the
    row's entries include the value ``v``, as ``tf.sparse.to_indicator``.

    Args:
      sp_input: A SparseTensor of int32/int64 ids.
      vocab_size: The size of the last output axis.
      name: A name for the operation.

    Returns:
      A bool tensor ``dense_shape[:-1] + [vocab_size]``.
    """
    del name
    idx = cast(sp_input.indices, dtypes.int64)
    rows = idx[:, :-1]
    target = concat_ops.concat([rows, shape_ops.expand_dims(cast(sp_input.values,
                                                                  dtypes.int64), 1)], 1)
    shape = concat_ops.concat([cast(sp_input.dense_shape, dtypes.int64)[:-1],
                               constant([int(vocab_size)], dtypes.int64)], 0)
    base = fill_ops.fill(shape, False)
    return tensor_scatter_nd_update(base, target, fill_ops.fill(
        shape_ops.shape(target, out_type=dtypes.int64)[:1], True))


def eye(num_rows: int, num_columns: int | None = None, dtype: Any = dtypes.float32,
        name: str | None = None) -> SparseTensor:
    """The identity as a SparseTensor (ones on the main diagonal), as ``tf.sparse.eye``.

    Args:
      num_rows: Rows.
      num_columns: Columns (``num_rows`` by default).
      dtype: The values' dtype.
      name: A name for the operation.

    Returns:
      A SparseTensor ``[num_rows, num_columns]``.
    """
    del name
    cols = num_rows if num_columns is None else num_columns
    n = min(int(num_rows), int(cols))
    diag = np.arange(n, dtype=np.int64)
    return SparseTensor(constant(np.stack([diag, diag], 1).reshape(n, 2)),
                        fill_ops.ones([n], dtypes.as_dtype(dtype)),
                        constant(np.asarray([num_rows, cols], np.int64)))


def reset_shape(sp_input: SparseTensor, new_shape: Any = None) -> SparseTensor:
    """``sp_input`` with a new dense shape: the tightest one holding its indices when
    ``new_shape`` is None, else ``new_shape`` (which must be as large), as
    ``tf.sparse.reset_shape``.

    Args:
      sp_input: A SparseTensor.
      new_shape: The new dense shape, or None.

    Returns:
      A SparseTensor.

    Raises:
      ValueError: ``new_shape`` has another rank or is smaller than the current shape.
    """
    idx = cast(sp_input.indices, dtypes.int64)
    if new_shape is None:
        tight = reduction_ops.reduce_max(concat_ops.concat(
            [idx, fill_ops.fill([1, idx.shape.as_list()[1]], constant(-1, dtypes.int64))], 0),
            axis=0) + 1
        return SparseTensor(sp_input.indices, sp_input.values, tight)
    shape = convert_to_tensor(new_shape, dtypes.int64)
    old = sp_input.dense_shape
    if isinstance(shape, EagerTensor) and isinstance(old, EagerTensor):
        want, have = np.asarray(shape.numpy()), np.asarray(old.numpy())
        if want.shape != have.shape:
            raise ValueError("Shapes (%d,) and (%d,) are incompatible" % (want.size,
                                                                        have.size))
        if np.any(want < have):
            raise ValueError("Requested new_shape should have dimension sizes >= "
                             "sp_input.shape.  Found new_shape (%s), sp_input.shape (%s)."
                             % (", ".join(map(str, want)), ", ".join(map(str, have))))
    return SparseTensor(sp_input.indices, sp_input.values, shape)


def mask(a: IndexedSlices, mask_indices: Any, name: str | None = None) -> IndexedSlices:
    """``a`` without the slices whose index is in ``mask_indices``, as ``tf.sparse.mask``.

    Args:
      a: An IndexedSlices.
      mask_indices: A 1-D tensor of indices to drop.
      name: A name for the operation.

    Returns:
      An IndexedSlices.
    """
    del name
    indices = a.indices
    drop = convert_to_tensor(mask_indices, indices.dtype.base_dtype)
    hit = comparison_ops.equal(shape_ops.expand_dims(indices, 1), shape_ops.expand_dims(drop, 0))
    keep = comparison_ops.logical_not(reduction_ops.reduce_any(hit, axis=1))
    return IndexedSlices(indexing_ops.boolean_mask_v2(a.values, keep),
                         indexing_ops.boolean_mask_v2(indices, keep), a.dense_shape)


def sampled_addmm(indices: Any, values: Any, dense_shape: Any, mat1: Any, mat2: Any,
                  beta: float = 1.0, alpha: float = 1.0,
                  output_type: Any = dtypes.float32) -> tuple:
    """``beta * values + alpha * (mat1 @ mat2)`` at ``indices`` only, as
    ``tf.sparse.sampled_addmm``.

    Args:
      indices: ``[N, 2]`` (or batched ``[..., N, 2]``) positions.
      values: ``[N]`` values there.
      dense_shape: The dense shape.
      mat1: ``[M, K]``.
      mat2: ``[K, N]``.
      beta: The scale of ``values``.
      alpha: The scale of the product.
      output_type: The values' dtype.

    Returns:
      ``(indices, values, dense_shape)`` of the result.
    """
    indices = convert_to_tensor(indices)
    values = cast(convert_to_tensor(values), output_type)
    dense_shape = convert_to_tensor(dense_shape)
    mat1 = cast(convert_to_tensor(mat1), output_type)
    mat2 = cast(convert_to_tensor(mat2), output_type)
    batch = indices.shape.rank - 2
    rows = indexing_ops.gather_v2(mat1, indices[..., 0], axis=batch, batch_dims=batch)
    cols = indexing_ops.gather_v2(shape_ops.transpose(
        mat2, list(range(batch)) + [batch + 1, batch]), indices[..., 1], axis=batch,
        batch_dims=batch)
    product = reduce_sum(rows * cols, axis=-1)
    return indices, beta * values + alpha * product, dense_shape
