"""Rearranging and inspecting tensors: ``Roll``, ``ReverseSequence``, ``Unique`` /
``UniqueV2`` / ``UniqueWithCounts`` / ``UniqueWithCountsV2``, ``Bitcast``, ``EnsureShape`` and
``BroadcastArgs`` (``tf.broadcast_dynamic_shape``), with ``tf.repeat``, ``tf.sequence_mask``,
``tf.broadcast_static_shape`` and ``tf.get_static_value`` made of them and other ops, as in
TensorFlow.

Roll and ReverseSequence permute entries, so their gradients permute back; EnsureShape
passes its gradient through. Unique, Bitcast and BroadcastArgs have no gradient in TensorFlow
(none is registered), and none here."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dispatch, dtypes
from flowgrad.framework.errors import InvalidArgumentError, dims_text
from flowgrad.framework.graph import name_scope
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import defop, register_jvp, register_op
from flowgrad.framework.shape_rules import constant_value
from flowgrad.framework.tensor import convert_to_tensor, is_tensor
from flowgrad.framework.tensor_shape import TensorShape, broadcast_shapes
from flowgrad.ops.arithmetic_ops import negative
from flowgrad.ops.array_ops import (_as_value, expand_dims, gather, linear_in_first_jvp,
                                    range, reshape, shape, transpose)
from flowgrad.ops.bucket_ops import searchsorted
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.comparison_ops import less
from flowgrad.ops.reduction_ops import cumsum, reduce_max
from flowgrad.ops.shape_ops import broadcast_to
from flowgrad.ops.sum_ops import reduce_sum
from flowgrad.ops.op_results import Unique, UniqueWithCounts
from flowgrad.framework.type_hints import AxisLike, DTypeLike, ShapeLike, TensorLike

# --------------------------------------------------------------------------------------
# Roll


def _roll_kernel(x: Any, shift: Any, axis: Any) -> np.ndarray:
    x, shift, axis = np.asarray(x), np.asarray(shift), np.asarray(axis)
    if shift.shape != axis.shape or shift.ndim > 1:
        raise InvalidArgumentError(None, None, "Roll: shift and axis must be scalars or vectors "
                                   "of the same size, got %s and %s"
                                   % (list(shift.shape), list(axis.shape)))
    if np.any((axis < -x.ndim) | (axis >= max(x.ndim, 1))):
        raise InvalidArgumentError(None, None, "Roll: axis %s is out of range for a tensor of "
                                   "rank %d" % (axis.tolist(), x.ndim))
    return np.roll(x, tuple(shift.reshape(-1).tolist()), tuple(axis.reshape(-1).tolist()))


@defop("Roll", _roll_kernel, lambda ins, attrs: (ins[0].dtype.base_dtype, ins[0].shape),
       input_names=("input", "shift", "axis"))
def _roll_grad(op: Any, grad: Any) -> Any:
    _, shift, axis = op.inputs
    return apply_op("Roll", (grad, negative(shift), axis)), None, None


register_jvp("Roll", linear_in_first_jvp)


def roll(input: TensorLike, shift: Any, axis: AxisLike, name: str | None = None) -> Any:  # noqa: A002
    """Entries shifted cyclically by ``shift`` along ``axis`` (both scalars or vectors).

    Args:
      input: A tensor.
      shift: int32/int64 shifts (negative: towards the start).
      axis: The axes to shift, one per shift.
      name: A name for the operation.

    Returns:
      A tensor of ``input``'s shape and dtype.

    Raises:
      InvalidArgumentError: if ``shift`` and ``axis`` differ in size or an axis is out of range.
    """
    x = convert_to_tensor(_as_value(input), name="input")
    s = convert_to_tensor(_as_value(shift), name="shift")
    a = convert_to_tensor(_as_value(axis), name="axis")
    return apply_op("Roll", (x, s, a), name=name)


# --------------------------------------------------------------------------------------
# ReverseSequence


def _reverse_sequence_kernel(x: Any, lengths: Any, *, seq_dim: int, batch_dim: int) -> Any:
    x, lengths = np.asarray(x), np.asarray(lengths)
    if lengths.ndim != 1 or lengths.shape[0] != x.shape[batch_dim]:
        raise InvalidArgumentError(None, None, "ReverseSequence: seq_lengths must be a vector of "
                                   "length input.dims(%d) = %d, got shape %s"
                                   % (batch_dim, x.shape[batch_dim], list(lengths.shape)))
    if np.any(lengths > x.shape[seq_dim]) or np.any(lengths < 0):
        raise InvalidArgumentError(None, None, "ReverseSequence: seq_lengths must be in [0, "
                                   "input.dims(%d) = %d], got %s"
                                   % (seq_dim, x.shape[seq_dim], lengths.tolist()))
    out = np.array(x, copy=True)
    moved = np.moveaxis(out, (batch_dim, seq_dim), (0, 1))
    src = np.moveaxis(x, (batch_dim, seq_dim), (0, 1))
    for b, n in enumerate(lengths.tolist()):
        moved[b, :n] = src[b, :n][::-1]
    return out


@defop("ReverseSequence", _reverse_sequence_kernel,
       lambda ins, attrs: (ins[0].dtype.base_dtype, ins[0].shape),
       input_names=("input", "seq_lengths"))
def _reverse_sequence_grad(op: Any, grad: Any) -> Any:
    return apply_op("ReverseSequence", (grad, op.inputs[1]), dict(op._attrs)), None


register_jvp("ReverseSequence", linear_in_first_jvp)


def reverse_sequence(input: TensorLike, seq_lengths: TensorLike, seq_axis: int | None = None,  # noqa: A002
                     batch_axis: int | None = None, name: str | None = None) -> Any:
    """Reverses the first ``seq_lengths[b]`` entries along ``seq_axis`` of each batch entry b.

    Args:
      input: A tensor.
      seq_lengths: An int32/int64 vector, one length per entry of ``batch_axis``.
      seq_axis: The axis to reverse.
      batch_axis: The axis of the batch (0 by default).
      name: A name for the operation.

    Returns:
      A tensor of ``input``'s shape and dtype.

    Raises:
      InvalidArgumentError: if a length exceeds the sequence axis.
    """
    x = convert_to_tensor(_as_value(input), name="input")
    lengths = convert_to_tensor(_as_value(seq_lengths), name="seq_lengths")
    rank = x.shape.rank
    seq = int(seq_axis) % rank if rank else int(seq_axis)
    batch = int(batch_axis or 0) % rank if rank else int(batch_axis or 0)
    return apply_op("ReverseSequence", (x, lengths), {"seq_dim": seq, "batch_dim": batch},
                    name=name)


def reverse_sequence_v1(input: TensorLike, seq_lengths: TensorLike, seq_axis: int | None = None,  # noqa: A002
                        batch_axis: int | None = None, name: str | None = None,
                        seq_dim: int | None = None, batch_dim: int | None = None) -> Any:
    """TF1's ``reverse_sequence``: also takes the old names ``seq_dim``/``batch_dim``.

    Args:
        input: A tensor.
        seq_lengths: A 1-D int tensor: how many elements of each batch entry to reverse.
        seq_axis: The axis reversed.
        batch_axis: The batch axis.
        name: A name for the operation (optional).
        seq_dim: TF1's name for ``seq_axis``.
        batch_dim: TF1's name for ``batch_axis``.
    """
    return reverse_sequence(input, seq_lengths, seq_dim if seq_axis is None else seq_axis,
                            batch_dim if batch_axis is None else batch_axis, name)


# --------------------------------------------------------------------------------------
# Unique


def _unique_along(x: np.ndarray, axis: int | None, out_idx: Any) -> tuple:
    """(values, idx, counts) in order of first occurrence."""
    if axis is None:
        if x.ndim != 1:
            raise InvalidArgumentError(None, None, "Unique: unique expects a 1D vector, got "
                                       "shape %s" % (list(x.shape),))
        axis = 0
    if not -x.ndim <= axis < max(x.ndim, 1):
        raise InvalidArgumentError(None, None, "UniqueV2: axis %d is out of range for a tensor "
                                   "of rank %d" % (axis, x.ndim))
    axis %= max(x.ndim, 1)
    # a vector without axis: every NaN is its own value, as in TensorFlow's hash map
    uniq, first, inverse, counts = np.unique(x, axis=None if x.ndim == 1 else axis,
                                             return_index=True, return_inverse=True,
                                             return_counts=True, equal_nan=False)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    values = np.take(uniq, order, axis=axis)
    idx = rank[np.asarray(inverse).reshape(-1)].astype(out_idx.np)
    return values, idx, counts[order].astype(out_idx.np)


def _axis_of(axis: Any) -> int | None:
    a = np.asarray(axis).reshape(-1)
    return int(a[0]) if a.size else None


def _unique_infer(ins: list, attrs: dict, counts: bool) -> list:
    """Unique: a vector of unknown length and one index per entry. UniqueV2 with a known
    axis: ``x``'s shape with that dimension unknown, one index per slice along it."""
    s, idx_t = ins[0].shape, attrs["out_idx"]
    values, idx = TensorShape([None]), TensorShape([s.num_elements()])
    if len(ins) == 2:
        a = constant_value(ins[1])
        if a is None or s.rank is None:
            values, idx = TensorShape(None), TensorShape([None])
        elif np.size(a):
            axis = _axis_of(a) % max(s.rank, 1)
            dims = s.as_list()
            idx = TensorShape([dims[axis]])
            dims[axis] = None
            values = TensorShape(dims)
    out = [(ins[0].dtype.base_dtype, values), (idx_t, idx)]
    return out + [(idx_t, TensorShape([None]))] if counts else out


def _unique_v2_values(x: np.ndarray, axis: Any, out_idx: Any) -> tuple:
    a = _axis_of(axis)
    if a is None:
        return _unique_along(x.reshape(-1), None, out_idx)
    return _unique_along(x, a, out_idx)


register_op("Unique", lambda x, *, out_idx: _unique_along(np.asarray(x), None, out_idx)[:2],
            lambda ins, attrs: _unique_infer(ins, attrs, False), num_outputs=2,
            input_names=("x",))
register_op("UniqueV2", lambda x, a, *, out_idx: _unique_v2_values(np.asarray(x), a,
                                                                   out_idx)[:2],
            lambda ins, attrs: _unique_infer(ins, attrs, False), num_outputs=2,
            input_names=("x", "axis"))
register_op("UniqueWithCounts",
            lambda x, *, out_idx: _unique_along(np.asarray(x), None, out_idx),
            lambda ins, attrs: _unique_infer(ins, attrs, True), num_outputs=3,
            input_names=("x",))
register_op("UniqueWithCountsV2",
            lambda x, a, *, out_idx: _unique_v2_values(np.asarray(x), a, out_idx),
            lambda ins, attrs: _unique_infer(ins, attrs, True), num_outputs=3,
            input_names=("x", "axis"))


def unique(x: TensorLike, out_idx: DTypeLike = dtypes.int32, name: str | None = None) -> tuple:
    """The distinct values of a vector in order of first occurrence, and each entry's index
    among them.

    Args:
      x: A 1-D tensor.
      out_idx: int32 or int64, the dtype of the indices.
      name: A name for the operation.

    Returns:
      ``Unique(y, idx)`` with ``x == gather(y, idx)``.

    Raises:
      InvalidArgumentError: if ``x`` is not 1-D.
    """
    t = convert_to_tensor(_as_value(x), name="x")
    return Unique(*apply_op("Unique", (t,), {"out_idx": dtypes.as_dtype(out_idx)}, name=name))


def unique_with_counts(x: TensorLike, out_idx: DTypeLike = dtypes.int32,
                       name: str | None = None) -> tuple:
    """``unique`` and how often each distinct value occurs: ``UniqueWithCounts(y, idx, count)``.

    Args:
        x: A 1-D tensor.
        out_idx: int32 or int64: the dtype of the indices and counts.
        name: A name for the operation (optional).
    """
    t = convert_to_tensor(_as_value(x), name="x")
    return UniqueWithCounts(*apply_op("UniqueWithCounts", (t,),
                                      {"out_idx": dtypes.as_dtype(out_idx)}, name=name))


# --------------------------------------------------------------------------------------
# Bitcast


def _bitcast_kernel(x: Any, *, type: Any) -> np.ndarray:  # noqa: A002 - TensorFlow's attr
    x = np.ascontiguousarray(x)
    out = np.dtype(type.np)
    if x.dtype.itemsize == out.itemsize:
        return x.view(out)
    if x.dtype.itemsize > out.itemsize:
        return x.view(out).reshape(x.shape + (x.dtype.itemsize // out.itemsize,))
    if not x.shape or x.shape[-1] != out.itemsize // x.dtype.itemsize:
        raise InvalidArgumentError(None, None, "Bitcast: cannot bitcast from %s to %s: the "
                                   "last dimension must be %d, got shape %s"
                                   % (x.dtype, out, out.itemsize // x.dtype.itemsize,
                                      list(x.shape)))
    return x.view(out).reshape(x.shape[:-1])


def _bitcast_infer(ins: list, attrs: dict) -> tuple:
    src, dst = ins[0].dtype.base_dtype, attrs["type"]
    a, b = np.dtype(src.np).itemsize, np.dtype(dst.np).itemsize
    s = ins[0].shape
    if s.rank is None or a == b:
        return dst, s
    if a > b:
        return dst, TensorShape(s.as_list() + [a // b])
    return dst, TensorShape(s.as_list()[:-1])


register_op("Bitcast", _bitcast_kernel, _bitcast_infer, input_names=("input",))


def bitcast(input: TensorLike, type: Any, name: str | None = None) -> Any:  # noqa: A002
    """The same bytes read as another dtype (a smaller type adds a last axis, a larger one
    consumes it).

    Args:
      input: A numeric tensor.
      type: The dtype to read the bytes as.
      name: A name for the operation.

    Returns:
      A tensor of dtype ``type``.

    Raises:
      InvalidArgumentError: if the last axis does not fit the larger type.
    """
    x = convert_to_tensor(_as_value(input), name="input")
    return apply_op("Bitcast", (x,), {"type": dtypes.as_dtype(type)}, name=name)


# --------------------------------------------------------------------------------------
# EnsureShape


def _ensure_shape_kernel(x: Any, *, shape: tuple) -> Any:
    x = np.asarray(x)
    if not TensorShape(list(x.shape)).is_compatible_with(TensorShape(shape)):
        raise InvalidArgumentError(None, None, "Shape of tensor input %s is not compatible "
                                   "with expected shape %s." % (dims_text(x.shape),
                                                                dims_text(shape)))
    return x


def _ensure_shape_infer(ins: list, attrs: dict) -> tuple:
    s = ins[0].shape
    want = TensorShape(attrs["shape"])
    if not s.is_compatible_with(want):
        raise ValueError("Shape %s of %s is not compatible with the expected shape %s "
                         "(ensure_shape)" % (s, ins[0].name, want))
    return ins[0].dtype.base_dtype, s.merge_with(want)


@defop("EnsureShape", _ensure_shape_kernel, _ensure_shape_infer, input_names=("input",))
def _ensure_shape_grad(op: Any, grad: Any) -> Any:
    return grad


register_jvp("EnsureShape", lambda op, t: t)


def ensure_shape(x: TensorLike, shape: ShapeLike | TensorLike, name: str | None = None) -> Any:
    """``x``, checked to have a shape compatible with ``shape`` (None entries match anything).

    Args:
      x: A tensor.
      shape: A TensorShape or list (None for unknown dimensions).
      name: A name for the operation.

    Returns:
      ``x``, with the static shape refined by ``shape``.

    Raises:
      ValueError: if the static shapes are incompatible.
      InvalidArgumentError: if the value's shape is incompatible when it runs.
    """
    t = convert_to_tensor(_as_value(x), name="x")
    want = shape if isinstance(shape, TensorShape) else TensorShape(shape)
    dims = tuple(want.as_list()) if want.rank is not None else None
    return apply_op("EnsureShape", (t,), {"shape": dims}, name=name)


# --------------------------------------------------------------------------------------
# BroadcastArgs, broadcast_static_shape, get_static_value


def _broadcast_args_kernel(s0: Any, s1: Any) -> np.ndarray:
    s0, s1 = np.asarray(s0), np.asarray(s1)
    try:
        out = np.broadcast_shapes(tuple(s0.tolist()), tuple(s1.tolist()))
    except ValueError:
        raise InvalidArgumentError(None, None, "Incompatible shapes: %s vs. %s"
                                   % (s0.tolist(), s1.tolist())) from None
    return np.asarray(out, dtype=s0.dtype)


register_op("BroadcastArgs", _broadcast_args_kernel,
            lambda ins, attrs: (ins[0].dtype.base_dtype, TensorShape([None])),
            same_dtype=True, input_names=("s0", "s1"))


@dispatch.add_dispatch_support
def broadcast_dynamic_shape(shape_x: Any, shape_y: Any) -> Any:
    """The broadcast of two shapes given as int32/int64 vectors.

    Args:
      shape_x: A 1-D integer tensor.
      shape_y: A 1-D integer tensor of the same dtype.

    Returns:
      The broadcast shape, a 1-D tensor.

    Raises:
      InvalidArgumentError: if the shapes do not broadcast.
    """
    x = convert_to_tensor(_as_value(shape_x), name="shape_x")
    y = convert_to_tensor(_as_value(shape_y), x.dtype.base_dtype, name="shape_y")
    return apply_op("BroadcastArgs", (x, y))


def broadcast_static_shape(shape_x: TensorShape, shape_y: TensorShape) -> TensorShape:
    """The broadcast of two TensorShapes (unknown dimensions stay unknown).

    Args:
        shape_x: A TensorShape.
        shape_y: A TensorShape.

    Raises:
      ValueError: if the shapes do not broadcast.
    """
    try:
        return broadcast_shapes(TensorShape(shape_x), TensorShape(shape_y))
    except ValueError:
        raise ValueError("Incompatible shapes for broadcasting. Two shapes are compatible if "
                         "for each dimension pair they are either equal or one of them is 1. "
                         "Received: %s and %s." % (shape_x, shape_y)) from None


def get_static_value(tensor: TensorLike, partial: bool = False) -> Any:
    """The value of ``tensor`` as a NumPy array if known without running anything, else None.

    Args:
      tensor: A tensor (or a value convertible to one).
      partial: Accepted for TensorFlow's signature (partial values are not computed).

    Returns:
      A NumPy array, or None.
    """
    del partial
    if not is_tensor(tensor):
        return np.asarray(convert_to_tensor(tensor)._value)
    value = constant_value(tensor)
    return None if value is None else np.asarray(value)


# --------------------------------------------------------------------------------------
# sequence_mask, repeat


def sequence_mask(lengths: Any, maxlen: Any = None, dtype: DTypeLike = dtypes.bool,
                  name: str | None = None) -> Any:
    """``mask[..., j] = j < lengths[...]``.

    Args:
      lengths: An integer tensor.
      maxlen: The mask's last dimension (``max(lengths)`` by default).
      dtype: The mask's dtype.
      name: A name for the operation.

    Returns:
      A tensor of shape ``lengths.shape + [maxlen]``.
    """
    with name_scope(name, "SequenceMask", [lengths, maxlen]) as scope:
        n = convert_to_tensor(_as_value(lengths), name="lengths")
        m = reduce_max(n) if maxlen is None else convert_to_tensor(_as_value(maxlen),
                                                                   name="maxlen")
        row = range(cast(m, n.dtype.base_dtype))
        mask = less(row, expand_dims(n, -1))
        if dtypes.as_dtype(dtype) == dtypes.bool:
            return reshape(mask, shape(mask), name=scope)
        return cast(mask, dtype, name=scope)


def repeat(input: TensorLike, repeats: TensorLike, axis: AxisLike = None,  # noqa: A002
           name: str | None = None) -> Any:
    """Each slice of ``input`` along ``axis`` repeated ``repeats`` times (a gather, so
    differentiable).

    Args:
      input: A tensor.
      repeats: A non-negative int scalar, or one count per slice along ``axis``.
      axis: The axis; None flattens ``input`` first.
      name: A name for the operation.

    Returns:
      The repeated tensor.
    """
    with name_scope(name, "Repeat", [input, repeats]) as scope:
        x = convert_to_tensor(_as_value(input), name="input")
        if axis is None:
            x, axis = reshape(x, [-1]), 0
        reps = convert_to_tensor(_as_value(repeats), name="repeats")
        known, dims = constant_value(reps), x.shape.as_list() if x.shape.rank else None
        if known is not None and dims is not None and dims[axis] is not None:
            counts = np.broadcast_to(np.reshape(known, [-1]), [dims[axis]])
            idx = np.repeat(np.arange(dims[axis], dtype=np.int32), counts)
            return gather(x, idx, axis=axis, name=scope)
        n = shape(x, out_type=reps.dtype.base_dtype)[axis]
        reps = broadcast_to(reshape(reps, [-1]), reshape(n, [1]))
        idx = searchsorted(cumsum(reps), range(reduce_sum(reps)), side="right")
        return gather(x, idx, axis=axis, name=scope)


# --------------------------------------------------------------------------------------
# SpaceToDepth / DepthToSpace


def _block_check(op_type: str, x: np.ndarray, b: int) -> None:
    if x.ndim != 4:
        raise InvalidArgumentError(None, None, "%s: input rank should be 4 instead of %d"
                                   % (op_type, x.ndim))
    if b < 2:
        raise InvalidArgumentError(None, None, "%s: block_size should be > 1, got %d"
                                   % (op_type, b))


def _space_to_depth_kernel(x: Any, *, block_size: int, data_format: str = "NHWC") -> Any:
    x, b = np.asarray(x), block_size
    _block_check("SpaceToDepth", x, b)
    n, h, w, c = x.shape
    if h % b or w % b:
        raise InvalidArgumentError(None, None, "SpaceToDepth: image width %d and height %d "
                                   "should be divisible by block_size: %d" % (w, h, b))
    y = x.reshape(n, h // b, b, w // b, b, c).transpose(0, 1, 3, 2, 4, 5)
    return np.ascontiguousarray(y).reshape(n, h // b, w // b, b * b * c)


def _depth_to_space_kernel(x: Any, *, block_size: int, data_format: str = "NHWC") -> Any:
    x, b = np.asarray(x), block_size
    _block_check("DepthToSpace", x, b)
    n, h, w, c = x.shape
    if c % (b * b):
        raise InvalidArgumentError(None, None, "DepthToSpace: input depth %d should be "
                                   "divisible by block_size * block_size: %d" % (c, b * b))
    y = x.reshape(n, h, w, b, b, c // (b * b)).transpose(0, 1, 3, 2, 4, 5)
    return np.ascontiguousarray(y).reshape(n, h * b, w * b, c // (b * b))


def _block_infer(to_depth: bool) -> Any:
    def infer(ins: list, attrs: dict) -> tuple:
        s, b = ins[0].shape, attrs["block_size"]
        if s.rank is None:
            return ins[0].dtype.base_dtype, s
        if s.rank != 4:
            raise ValueError("%s: input must be rank 4, got shape %s"
                             % ("SpaceToDepth" if to_depth else "DepthToSpace", s))
        n, h, w, c = s.as_list()

        def scale(d: int | None, f: float) -> int | None:
            return None if d is None else int(d * f)
        if to_depth:
            dims = [n, scale(h, 1 / b), scale(w, 1 / b), scale(c, b * b)]
        else:
            dims = [n, scale(h, b), scale(w, b), scale(c, 1 / (b * b))]
        return ins[0].dtype.base_dtype, TensorShape(dims)
    return infer


@defop("SpaceToDepth", _space_to_depth_kernel, _block_infer(True), input_names=("input",))
def _space_to_depth_grad(op: Any, grad: Any) -> Any:
    return apply_op("DepthToSpace", (grad,), dict(op._attrs))


@defop("DepthToSpace", _depth_to_space_kernel, _block_infer(False), input_names=("input",))
def _depth_to_space_grad(op: Any, grad: Any) -> Any:
    return apply_op("SpaceToDepth", (grad,), dict(op._attrs))


register_jvp("SpaceToDepth", linear_in_first_jvp)
register_jvp("DepthToSpace", linear_in_first_jvp)


def _block_op(op_type: str, input: Any, block_size: int, data_format: str,  # noqa: A002
              name: str | None) -> Any:
    if data_format not in ("NHWC", "NCHW"):
        raise ValueError("%s: data_format must be 'NHWC' or 'NCHW', got %r"
                         % (op_type, data_format))
    with name_scope(name, op_type, [input]) as scope:
        x = convert_to_tensor(_as_value(input), name="input")
        if data_format == "NCHW":
            x = transpose(x, [0, 2, 3, 1])
        y = apply_op(op_type, (x,), {"block_size": int(block_size), "data_format": "NHWC"})
        if data_format == "NCHW":
            return transpose(y, [0, 3, 1, 2], name=scope)
        return reshape(y, shape(y), name=scope)


def space_to_depth(input: TensorLike, block_size: int, data_format: str = "NHWC",  # noqa: A002
                   name: str | None = None) -> Any:
    """Moves ``block_size x block_size`` blocks of pixels into the channels.

    Args:
      input: A rank-4 tensor whose height and width are multiples of ``block_size``.
      block_size: The block's side, at least 2.
      data_format: ``"NHWC"`` or ``"NCHW"``.
      name: A name for the operation.

    Returns:
      A tensor of ``[N, H / b, W / b, C * b * b]`` (NHWC).

    Raises:
      InvalidArgumentError: if the sizes are not multiples of ``block_size``.
    """
    return _block_op("SpaceToDepth", input, block_size, data_format, name)


def depth_to_space(input: TensorLike, block_size: int, data_format: str = "NHWC",  # noqa: A002
                   name: str | None = None) -> Any:
    """The inverse of :func:`space_to_depth`: channels into ``block_size x block_size``
    blocks of pixels (``[N, H * b, W * b, C / (b * b)]``).

    Args:
        input: A 4-D tensor.
        block_size: The block size (2 or more).
        data_format: ``"NHWC"`` or ``"NCHW"``.
        name: A name for the operation (optional).
    """
    return _block_op("DepthToSpace", input, block_size, data_format, name)


def space_to_depth_v1(input: TensorLike, block_size: int, name: str | None = None,  # noqa: A002
                      data_format: str = "NHWC") -> Any:
    """TF1's argument order of :func:`space_to_depth` (``name`` before ``data_format``).

    Args:
        input: A 4-D tensor.
        block_size: The block size (2 or more).
        name: A name for the operation (optional).
        data_format: ``"NHWC"`` or ``"NCHW"``.
    """
    return space_to_depth(input, block_size, data_format, name)


def depth_to_space_v1(input: TensorLike, block_size: int, name: str | None = None,  # noqa: A002
                      data_format: str = "NHWC") -> Any:
    """TF1's argument order of :func:`depth_to_space` (``name`` before ``data_format``).

    Args:
        input: A 4-D tensor.
        block_size: The block size (2 or more).
        name: A name for the operation (optional).
        data_format: ``"NHWC"`` or ``"NCHW"``.
    """
    return depth_to_space(input, block_size, data_format, name)
