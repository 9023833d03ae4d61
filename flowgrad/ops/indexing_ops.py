"""Indexing ops: gather, embedding_lookup, unsorted_segment_sum (gather's gradient),
where (coordinates), boolean_mask, and ``Tensor.__getitem__``."""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from flowgrad.framework import dtypes, hooks
from flowgrad.framework.graph import name_scope
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import _NO_GRADIENT, defop, register_jvp, register_op
from flowgrad.framework.shape_rules import constant_value
from flowgrad.framework.tensor import convert_to_tensor, is_tensor
from flowgrad.framework.tensor_shape import Dimension, TensorShape, dimension_value
from flowgrad.ops.array_op_util import (_as_value, _check_int_indices, _fmt, _int_tensor, _invalid,
                                        _known_scalar, _norm_axis, _with_nones,
                                        linear_in_first_jvp, static_shape)
from flowgrad.ops.concat_ops import concat
from flowgrad.ops.fill_ops import fill, zeros_like
from flowgrad.ops.scatter_nd_ops import batch_gather
from flowgrad.ops.shape_ops import expand_dims, rank, reshape, shape, size, squeeze, transpose
from flowgrad.ops.slicing_ops import _SS_MASKS, strided_slice
from flowgrad.framework.type_hints import AxisLike, TensorLike
from flowgrad.framework import dispatch


# --------------------------------------------------------------------------------------
# Tensor.__getitem__


newaxis = None


_SLICE_TYPE_ERROR = ("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and "
                     "scalar tf.int32/tf.int64 tensors are valid indices")


def _check_index(idx: Any) -> None:
    """Raises TypeError unless ``idx`` can be a strided-slice index."""
    if isinstance(idx, (int, np.integer, Dimension)):
        return
    dtype = getattr(idx, "dtype", None)
    try:
        ok = dtype is not None and dtypes.as_dtype(dtype).base_dtype in (dtypes.int32,
                                                                       dtypes.int64)
    except TypeError:
        ok = False
    scalar = idx.shape.rank in (0, None) if is_tensor(idx) else np.ndim(idx) == 0
    if not ok or not scalar:
        raise TypeError(_SLICE_TYPE_ERROR + f", got {idx!r}")


def _index_value(idx: Any) -> Any:
    return int(dimension_value(idx)) if isinstance(idx, (int, np.integer, Dimension)) \
        else _as_value(idx)


def _slice_helper(tensor: Any, slice_spec: Any) -> Any:
    """``tensor[slice_spec]`` (``Tensor.__getitem__``): NumPy basic indexing as TF does it.

    Indices may be ints (negative count from the end), slices with steps, ``...``,
    ``tf.newaxis`` and scalar int32/int64 tensors; a bool mask selects as boolean_mask."""
    tensor = _as_value(tensor)
    if isinstance(slice_spec, (bool, np.bool_)) or \
            isinstance(slice_spec, np.ndarray) and slice_spec.dtype == np.bool_ or \
            is_tensor(slice_spec) and _as_value(slice_spec).dtype.base_dtype is dtypes.bool:
        return boolean_mask(tensor, slice_spec)
    if not isinstance(slice_spec, (list, tuple)):
        slice_spec = [slice_spec]
    begin, end, strides = [], [], []
    masks = dict.fromkeys(_SS_MASKS, 0)
    for i, s in enumerate(slice_spec):
        bit = 1 << i
        if isinstance(s, builtins.slice):
            for v, lst, mask in ((s.start, begin, "begin_mask"), (s.stop, end, "end_mask")):
                if v is None:
                    lst.append(0)
                    masks[mask] |= bit
                else:
                    _check_index(v)
                    lst.append(_index_value(v))
            if s.step is not None:
                _check_index(s.step)
            strides.append(1 if s.step is None else _index_value(s.step))
        elif s is Ellipsis or s is None:
            begin.append(0)
            end.append(0)
            strides.append(1)
            masks["ellipsis_mask" if s is Ellipsis else "new_axis_mask"] |= bit
        else:
            _check_index(s)
            v = _index_value(s)
            begin.append(v)
            end.append(v + 1 if isinstance(v, int) else hooks.add(v, 1))
            strides.append(1)
            masks["shrink_axis_mask"] |= bit
    return strided_slice(tensor, begin, end, strides, name="strided_slice", **masks)


# --------------------------------------------------------------------------------------
# gather, embedding_lookup, unsorted_segment_sum


def _check_range(ids: Any, n: int, what: str, interval: str) -> None:
    """InvalidArgumentError naming the first element of ``ids`` outside [0, n)."""
    if ids.size and (ids.min() < 0 or ids.max() >= n):
        bad = np.argwhere((ids < 0) | (ids >= n))[0]
        where = "[%s]" % ",".join(map(str, bad)) if ids.ndim else ""    # a scalar: "indices"
        raise _invalid("%s%s = %d is %s [0, %d)" % (what, where, ids[tuple(bad)], interval, n))


def _gather_kernel(params: Any, indices: Any, *, axis: int) -> Any:
    if axis == 0 and type(params) is np.ndarray and params.ndim and np.ndim(indices) == 0:
        i = int(indices)    # one row (a TensorArray read in a loop): np.take's copy, less
        if 0 <= i < len(params):    # its overhead (the range check was 3/4 of the time)
            return params[i].copy()
    indices = np.asarray(indices)
    _check_range(indices, np.shape(params)[axis], "indices", "not in")
    return np.take(params, indices, axis=axis)


def _gather_infer(ins: list, attrs: dict) -> tuple:
    p, i = ins
    _check_int_indices(i, "indices")
    dt, pd, idd, a = p.dtype.base_dtype, p.shape.as_tuple(), i.shape.as_tuple(), attrs["axis"]
    if pd is not None:
        if not pd:
            raise ValueError("Shape must be at least rank 1 but is rank 0 (params of GatherV2)")
        if not 0 <= a < len(pd):
            raise ValueError("Expected axis in the range [%d, %d), but got %d"
                             % (-len(pd), len(pd), a))
    if pd is None or idd is None:
        return dt, TensorShape(None)
    return dt, TensorShape(pd[:a] + idd + pd[a + 1:])


@defop("GatherV2", _gather_kernel, _gather_infer, input_names=("params", "indices"))
def _gather_grad(op: Any, grad: Any) -> Any:
    from flowgrad.framework.indexed_slices import IndexedSlices
    params, indices = op.inputs
    a = op.get_attr("axis")
    grad = convert_to_tensor(_as_value(grad))
    flat = indices if indices.shape.rank == 1 else reshape(indices, [-1])
    pd = params.shape.as_tuple()
    if a == 0:
        inner = pd[1:] if pd is not None else None
        n = indices.shape.num_elements()
        if n is not None and inner is not None and None not in inner:
            vshape: Any = [n, *inner]
        else:
            vshape = concat([expand_dims(size(indices), 0), shape(params)[1:]], 0)
        static = isinstance(vshape, list) and grad.shape.as_tuple() == tuple(vshape)
        values = grad if static else reshape(grad, vshape)
        return [IndexedSlices(values, flat, shape(params)), None]
    if pd is None:      # rank known only at run time (axis may be negative)
        return [apply_op("GatherGradAlongAxis", [grad, indices, params], {"axis": a}), None]
    r = len(pd)
    dims = [d if d is not None else shape(params)[i] for i, d in enumerate(pd)]
    values = reshape(grad, dims[:a] + [-1] + dims[a + 1:])
    perm = [a] + list(builtins.range(a)) + list(builtins.range(a + 1, r))
    summed = unsorted_segment_sum(transpose(values, perm), flat, dims[a])
    inv = list(builtins.range(1, a + 1)) + [0] + list(builtins.range(a + 1, r))
    return [transpose(summed, inv), None]


register_jvp("GatherV2", linear_in_first_jvp)


def _gather_grad_along_axis(grad: Any, indices: Any, like: Any, *, axis: int) -> Any:
    """The gradient of GatherV2 w.r.t. params of ``like``'s shape: ``grad`` scattered back
    (summed) to positions ``indices`` along ``axis``."""
    shape_p = np.shape(like)
    a = axis % len(shape_p)
    out = np.zeros(shape_p, np.asarray(grad).dtype)
    g = np.reshape(grad, shape_p[:a] + (-1,) + shape_p[a + 1:])
    np.add.at(np.moveaxis(out, a, 0), np.ravel(indices), np.moveaxis(g, a, 0))
    return out


@defop("GatherGradAlongAxis", _gather_grad_along_axis,
       lambda ins, attrs: (ins[0].dtype.base_dtype, ins[2].shape),
       input_names=("grad", "indices", "params"))
def _gather_grad_along_axis_grad(op: Any, grad: Any) -> Any:
    return [gather(grad, op.inputs[1], axis=op.get_attr("axis")), None, None]


def gather(params: TensorLike, indices: TensorLike, validate_indices: bool | None = None,
           name: str | None = None, axis: AxisLike = None, batch_dims: int = 0) -> Any:
    """Slices of ``params`` along ``axis`` at ``indices``: params[..., indices, ...].

    Indices outside [0, params.shape[axis]) are an InvalidArgumentError when run. The
    gradient w.r.t. params is an IndexedSlices for axis 0.

    Args:
        params: The tensor to gather from.
        indices: An int tensor of indices into ``axis``.
        validate_indices: Accepted for TensorFlow's signature.
        name: A name for the operation (optional).
        axis: The axis to gather along; ``batch_dims`` when None.
        batch_dims: The number of leading batch dimensions ``params`` and ``indices`` share.
    """
    if batch_dims != 0:     # a GatherNd over the batch coordinates (same op layer)
        return batch_gather(params, indices, batch_dims if axis is None else axis, batch_dims,
                            name)
    p = convert_to_tensor(_as_value(params))
    idx = _as_value(indices)
    idx = idx if is_tensor(idx) else convert_to_tensor(idx)
    a = 0 if axis is None else _known_scalar(axis, "gather axis")
    if a is None:
        raise ValueError("gather: axis must be known when the graph is built, got %s" % (axis,))
    r = p.shape.rank
    if r is not None and -r <= a < 0:   # with unknown rank a negative axis is kept
        a += r
    return apply_op("GatherV2", [p, idx], {"axis": a}, name=name)


@dispatch.add_dispatch_support
def embedding_lookup(params: TensorLike, ids: TensorLike, partition_strategy: str = "mod",
                     name: str | None = None, validate_indices: bool = True,
                     max_norm: Any = None) -> Any:
    """Rows ``ids`` of the embedding table ``params`` (a tensor or a list of one shard).

    The gradient w.r.t. the table is an IndexedSlices, as in TensorFlow.

    Args:
        params: The embedding table (a tensor or variable), or a list of shards.
        ids: An int tensor of row ids.
        partition_strategy: ``"mod"`` or ``"div"``: how ids map to shards.
        name: A name for the operation (optional).
        validate_indices: Accepted for TensorFlow's signature.
        max_norm: Rows with a larger L2 norm are scaled down to it; None leaves them.
    """
    if hasattr(params, "_get_variable_list"):        # a PartitionedVariable: its parts
        params = list(params._get_variable_list())
    if max_norm is not None:
        raise NotImplementedError("embedding_lookup: max_norm is not supported")
    if isinstance(params, (list, tuple)) and len(params) == 1:
        params = params[0]
    if not isinstance(params, (list, tuple)):
        with name_scope(name, "embedding_lookup") as scope:
            return gather(params, ids, name=scope or None)
    if partition_strategy not in ("mod", "div"):
        raise ValueError("Unrecognized partition strategy: " + partition_strategy)
    if not params:
        raise ValueError("Need at least one param")
    with name_scope(name, "embedding_lookup") as scope:
        return gather(concat(params, 0), _shard_rows(params, ids, partition_strategy),
                      name=scope or None)


def _shard_rows(params: list, ids: Any, strategy: str) -> Any:
    """The rows of the shards ``params`` concatenated that TensorFlow's ``mod``/``div``
    partition strategy assigns to ``ids``."""
    sizes = []
    for p in params:
        n = dimension_value(TensorShape(p.shape if hasattr(p, "shape") else np.shape(p))[0])
        if n is None:
            raise ValueError("embedding_lookup: the shards' first dimensions must be known "
                             "to look ids up across them")
        sizes.append(int(n))
    ids = convert_to_tensor(ids)
    n = len(params)
    if strategy == "div":       # contiguous blocks: the shards concatenated are the table
        return ids
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(ids.dtype.base_dtype.np)
    return gather(convert_to_tensor(starts), ids % n) + ids // n


def _unsorted_segment_sum_kernel(data: Any, segment_ids: Any, num_in: Any = None, *,
                                 num_segments: int | None = None) -> Any:
    n = num_segments if num_in is None else int(num_in)
    data, ids = np.asarray(data), np.asarray(segment_ids)
    if data.shape[:ids.ndim] != ids.shape:
        raise _invalid("data.shape = %s does not start with segment_ids.shape = %s"
                       % (_fmt(data.shape), _fmt(ids.shape)))
    if ids.size and ids.max() >= n:
        _check_range(np.where(ids < 0, 0, ids), n, "segment_ids", "out of range")
    inner = data.shape[ids.ndim:]
    out = np.zeros((n,) + inner, data.dtype)
    flat, values = ids.reshape(-1), data.reshape((ids.size,) + inner)
    keep = flat >= 0
    if not keep.all():
        flat, values = flat[keep], values[keep]
    np.add.at(out, flat, values)
    return out


def _unsorted_segment_sum_infer(ins: list, attrs: dict) -> tuple:
    data, ids = ins[0], ins[1]
    _check_int_indices(ids, "segment_ids")
    dt, dd, idd = data.dtype.base_dtype, data.shape.as_tuple(), ids.shape.as_tuple()
    if dd is None or idd is None:
        return dt, TensorShape(None)
    if not TensorShape(dd[:len(idd)]).is_compatible_with(TensorShape(idd)):
        raise ValueError("data.shape = %s does not start with segment_ids.shape = %s"
                         % (_fmt(dd), _fmt(idd)))
    n = attrs.get("num_segments")          # absent in a node imported from TensorFlow
    if n is None and len(ins) > 2:
        c = constant_value(ins[2])
        n = None if c is None else int(c)
    return dt, TensorShape((n,) + dd[len(idd):])


@defop("UnsortedSegmentSum", _unsorted_segment_sum_kernel, _unsorted_segment_sum_infer,
       input_names=("data", "segment_ids", "num_segments"))
def _unsorted_segment_sum_grad(op: Any, grad: Any) -> Any:
    ids = op.inputs[1]
    c = constant_value(ids)
    if c is not None and (np.size(c) == 0 or np.min(c) >= 0):
        g = gather(grad, ids)
    else:
        g = _gather_drop_negatives(grad, ids)
    return _with_nones(g, op)


def _gather_drop_negatives(params: Any, ids: Any) -> Any:
    """gather(params, ids) with zero rows where an id is negative."""
    keep = hooks.greater(ids, -1)
    gathered = gather(params, hooks.where(keep, ids, zeros_like(ids)))
    ids_shape, r = static_shape(ids), params.shape.rank
    if ids_shape is not None and r is not None:
        mask_shape: Any = list(ids_shape) + [1] * (r - 1)
    else:
        ones_ = fill(expand_dims(hooks.subtract(rank(params), 1), 0), 1)
        mask_shape = concat([shape(ids), ones_], 0)
    mask = reshape(keep, mask_shape)
    return hooks.where(mask, gathered, zeros_like(gathered))


@dispatch.add_dispatch_support
def unsorted_segment_sum(data: TensorLike, segment_ids: TensorLike, num_segments: TensorLike,
                         name: str | None = None) -> Any:
    """Sums of ``data`` rows by segment: out[i] = sum of data[j] with segment_ids[j] == i.

    Negative ids are dropped; ids >= num_segments are an InvalidArgumentError when run.

    Args:
        data: The values: a tensor whose first dimensions match ``segment_ids``.
        segment_ids: An int32 or int64 tensor: the segment of each row of ``data`` (a prefix of its
            shape).
        num_segments: The number of segments (a scalar).
        name: A name for the operation (optional).
    """
    data = _as_value(data)
    ids = _as_value(segment_ids)
    ids = ids if is_tensor(ids) else convert_to_tensor(ids)
    n = _known_scalar(num_segments, "num_segments")
    if n is not None:
        return apply_op("UnsortedSegmentSum", [data, ids], {"num_segments": n}, name=name)
    return apply_op("UnsortedSegmentSum", [data, ids, _int_tensor(num_segments)],
                    {"num_segments": None}, name=name)


# --------------------------------------------------------------------------------------
# where (coordinates), boolean_mask


register_op("Where", lambda x: np.argwhere(x).astype(np.int64, copy=False),
            lambda ins, attrs: (dtypes.int64, TensorShape([None, ins[0].shape.rank])),
            grad=_NO_GRADIENT, input_names=("input",))


def _where_indices(condition: Any, name: str | None = None) -> Any:
    """The coordinates (int64, [num_true, rank]) of the true (non-zero) elements.

    The one-argument form of ``tf.where``; math_ops.where delegates here."""
    return apply_op("Where", [_as_value(condition)], name=name)


def boolean_mask(tensor: TensorLike, mask: TensorLike, name: str = "boolean_mask",
                 axis: AxisLike = None) -> Any:
    """The elements (or slices) of ``tensor`` where the bool ``mask`` is true, flattened.

    ``mask`` covers the dimensions axis .. axis + mask.ndim - 1 of ``tensor``.

    Args:
        tensor: A tensor.
        mask: A bool tensor of the shape of ``tensor``'s first dimensions (from ``axis``).
        name: A name for the operation (optional).
        axis: The first axis ``mask`` applies to; 0 when None.
    """
    with name_scope(name, "boolean_mask"):
        t = convert_to_tensor(_as_value(tensor))
        m = convert_to_tensor(_as_value(mask))
        if m.dtype.base_dtype is not dtypes.bool:
            raise TypeError("boolean_mask: mask must be a bool tensor, got %s"
                            % m.dtype.base_dtype.name)
        k = m.shape.rank
        if k is None:
            raise ValueError("Number of mask dimensions must be specified, even if some "
                             "dimensions are None.  E.g. shape=[None] is ok, but shape=None is "
                             "not.")
        if k == 0:
            raise ValueError("mask cannot be scalar.")
        dims = t.shape.as_tuple()
        if dims is None:
            raise ValueError("boolean_mask needs a tensor of known rank, got %s" % t.name)
        a = 0 if axis is None else _known_scalar(axis, "boolean_mask axis")
        a = _norm_axis(a, len(dims), "boolean_mask")
        covered = TensorShape(dims[a:a + k])
        if covered.rank != k or not covered.is_compatible_with(m.shape):
            raise ValueError("Shapes %s and %s are incompatible" % (covered, m.shape))
        lead = covered.num_elements()
        parts = [d if d is not None else shape(t)[i] for i, d in enumerate(dims)]
        flat = reshape(t, parts[:a] + [-1 if lead is None else lead] + parts[a + k:])
        picked = squeeze(_where_indices(reshape(m, [-1])), axis=[1])
        return gather(flat, picked, axis=a)


# --------------------------------------------------------------------------------------
# TensorFlow 2 argument orders (the TF2 face imports these under the plain names)


@dispatch.add_dispatch_support
def gather_v2(params: TensorLike, indices: TensorLike, validate_indices: bool | None = None,
              axis: AxisLike = None, batch_dims: int = 0, name: str | None = None) -> Any:
    """``gather`` with TensorFlow 2's argument order (axis before name).

    Args:
        params: The tensor to gather from.
        indices: An int tensor of indices into ``axis``.
        validate_indices: Accepted for TensorFlow's signature.
        axis: The axis to gather along; ``batch_dims`` when None.
        batch_dims: The number of leading batch dimensions ``params`` and ``indices`` share.
        name: A name for the operation (optional).
    """
    return gather(params, indices, validate_indices, name, axis, batch_dims)


@dispatch.add_dispatch_support
def boolean_mask_v2(tensor: TensorLike, mask: TensorLike, axis: AxisLike = None,
                    name: str = "boolean_mask") -> Any:
    """``boolean_mask`` with TensorFlow 2's argument order (axis before name).

    Args:
        tensor: A tensor.
        mask: A bool tensor of the shape of ``tensor``'s first dimensions (from ``axis``).
        axis: The first axis ``mask`` applies to; 0 when None.
        name: A name for the operation (optional).
    """
    return boolean_mask(tensor, mask, name, axis)


@dispatch.add_dispatch_support
def embedding_lookup_v2(params: TensorLike, ids: TensorLike, max_norm: Any = None,
                        name: str | None = None) -> Any:
    """``tf.nn.embedding_lookup`` of TensorFlow 2: (params, ids, max_norm, name).

    Args:
        params: The embedding table (a tensor or variable), or a list of shards.
        ids: An int tensor of row ids.
        max_norm: Rows with a larger L2 norm are scaled down to it; None leaves them.
        name: A name for the operation (optional).
    """
    return embedding_lookup(params, ids, partition_strategy="div", name=name, max_norm=max_norm)
