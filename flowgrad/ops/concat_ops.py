"""Joining and splitting ops: concat, split, tile."""
from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any

import numpy as np

from flowgrad.framework import dtypes, hooks
from flowgrad.framework.errors import ShapeRuleError, dims_text
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.graph import name_scope
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import _NO_GRADIENT, defop, register_jvp, register_op
from flowgrad.framework.tensor import convert_to_tensor, is_tensor
from flowgrad.framework.shape_rules import shape_from_value
from flowgrad.framework.tensor_shape import Dimension, TensorShape, dimension_value
from flowgrad.framework.type_hints import TensorLike
from flowgrad.framework.tensor import TensorBase
from flowgrad.ops.array_op_util import (_as_value, _fmt, _int_tensor, _invalid, _known_ints,
                                        _known_scalar, _norm_axis, _vector_length,
                                        _with_nones, linear_in_first_jvp, reapply, static_shape)
from flowgrad.ops.constant_ops import identity
from flowgrad.ops.fill_ops import range, zeros_like
from flowgrad.ops.shape_ops import reshape, shape, size, stack, transpose
from flowgrad.ops.slicing_ops import slice
from flowgrad.framework.type_hints import AxisLike
from flowgrad.framework import dispatch


# --------------------------------------------------------------------------------------
# concat, split


def _concat_kernel(*xs: Any, N: int, axis: int | None) -> Any:
    if axis is None:
        return np.concatenate(xs[:N], axis=int(xs[N]))
    return np.concatenate(xs, axis=axis)


def _position(values: list, v: Any) -> int:
    """The index of ``v`` in ``values`` by identity (``==`` of tensors is elementwise)."""
    return next(i for i, u in enumerate(values) if u is v)


def _concat_infer(ins: list, attrs: dict) -> tuple:
    values, axis = ins[:attrs["N"]], attrs["axis"]
    dt = values[0].dtype.base_dtype
    if any(v.dtype.base_dtype is not dt for v in values):
        raise TypeError("Tensors in list passed to 'values' of 'ConcatV2' Op have types [%s] "
                        "that don't all match." % ", ".join(v.dtype.base_dtype.name
                                                            for v in values))
    known = [v for v in values if v.shape.rank is not None]
    if not known:
        return dt, TensorShape(None)
    first = known[0]
    r = first.shape.rank
    if r == 0:
        raise ValueError("Can't concatenate scalars (use tf.stack instead)")
    for v in known:
        if v.shape.rank != r:
            raise ShapeRuleError(
                "Shape must be rank %d but is rank %d: concat of tensors with shapes %s and %s"
                % (r, v.shape.rank, _fmt(first.shape), _fmt(v.shape)),
                "ConcatOp : Ranks of all input tensors should match: shape[0] = %s vs. "
                "shape[%d] = %s" % (dims_text(first.shape.as_tuple()), _position(values, v),
                                    dims_text(v.shape.as_tuple())))
    if axis is None:
        return dt, TensorShape([None] * r)
    if not -r <= axis < r:
        raise ShapeRuleError("Expected concatenating dimensions in the range [%d, %d), but got "
                             "%d" % (-r, r, axis),
                             "ConcatOp : Expected concatenating dimensions in the range [%d, "
                             "%d), but got %d" % (-r, r, axis))
    a = axis % r
    out = list(first.shape.as_tuple())
    for v in known[1:]:
        dims = v.shape.as_tuple()
        for i, (p, q) in enumerate(zip(out, dims)):
            if i != a and p is not None and q is not None and p != q:
                raise ShapeRuleError(
                    "Dimension %d in both shapes must be equal, but are %d and %d. Shapes are "
                    "%s and %s." % (i, p, q, _fmt(first.shape), _fmt(v.shape)),
                    "ConcatOp : Dimension %d in both shapes must be equal: shape[0] = %s vs. "
                    "shape[%d] = %s" % (i, dims_text(first.shape.as_tuple()),
                                        _position(values, v), dims_text(dims)))
            if i != a and p is None:
                out[i] = q
    sizes = [v.shape.as_tuple()[a] if v.shape.rank is not None else None for v in values]
    out[a] = None if None in sizes else sum(sizes)
    return dt, TensorShape(out)


@defop("ConcatV2", _concat_kernel, _concat_infer, input_names=("values", "axis"))
def _concat_grad(op: Any, grad: Any) -> Any:
    n, axis = op.get_attr("N"), op.get_attr("axis")
    values, nones = op.inputs[:n], [None] * (len(op.inputs) - n)
    if axis is not None:
        sizes = [v.shape.as_tuple()[axis] if v.shape.rank else None for v in values]
        if None not in sizes:
            return split(grad, sizes, axis) + nones
    axis_t = op.inputs[n] if axis is None else axis
    offsets = apply_op("ConcatOffset", [axis_t] + [shape(v) for v in values], {"N": n},
                       dtype=dtypes.int32)
    return [slice(grad, o, shape(v)) for o, v in zip(offsets, values)] + nones


def _concat_jvp(op: Any, *ts: Any) -> Any:
    n = op.get_attr("N")            # the axis is an attribute, or input N
    if all(t is None for t in ts[:n]):
        return None
    filled = [zeros_like(x) if t is None else t for x, t in zip(op.inputs[:n], ts)]
    return reapply(op, filled + list(op.inputs[n:]))


register_jvp("ConcatV2", _concat_jvp)


def _concat_offset_kernel(axis: Any, *shapes: Any, N: int) -> tuple:
    r = len(shapes[0])
    a = int(axis)
    if not -r <= a < r:
        raise _invalid("Concat dim is out of range: %d vs. %d" % (a, r))
    a %= r
    out, offset = [], 0
    for s in shapes:
        o = np.zeros(r, np.asarray(s).dtype)
        o[a] = offset
        offset += int(s[a])
        out.append(o)
    return tuple(out)


register_op("ConcatOffset", _concat_offset_kernel,
            lambda ins, attrs: [(ins[1].dtype.base_dtype, ins[1].shape)] * attrs["N"],
            num_outputs=lambda attrs: attrs["N"], grad=_NO_GRADIENT,
            input_names=("concat_dim", "shape"))


@dispatch.add_dispatch_support
def concat(values: Sequence[TensorLike], axis: int | TensorLike,
           name: str = "concat") -> TensorBase:
    """Concatenates tensors along one dimension, as ``tf.concat``.

    Example:

        >>> a, b = tf.constant([[1, 2]]), tf.constant([[3, 4]])
        >>> print(tf.concat([a, b], axis=0).numpy())
        [[1 2]
         [3 4]]
        >>> print(tf.concat([a, b], axis=1).numpy())
        [[1 2 3 4]]

    Args:
        values: A list of tensors of one dtype and rank, equal in every dimension but
            ``axis``.
        axis: The dimension to join along; negative values count from the end.
        name: A name for the operation.

    Returns:
        A tensor holding ``values`` one after another along ``axis``.

    Raises:
        InvalidArgumentError: the shapes do not match outside ``axis``.
    """
    if not isinstance(values, (list, tuple)):
        values = [values]
    values = [_as_value(v) for v in values]
    if not values:
        raise ValueError("concat needs at least one tensor")
    if len(values) == 1:
        return identity(values[0], name=name)
    dt = next((v.dtype.base_dtype for v in values if is_tensor(v)), None)
    a = _known_scalar(axis, "concat axis")
    if a is not None:
        if all(is_tensor(v) for v in values) or executing_eagerly():
            return apply_op("ConcatV2", values, {"N": len(values), "axis": a}, name=name,
                            dtype=dt)
        # TensorFlow's names for converted values (concat/values_1): the axis is an attribute
        # here, and a GraphDef writes it as the Const concat/axis
        with name_scope(name) as scope:
            values = [v if is_tensor(v) else convert_to_tensor(v, dt, name="values")
                      for v in values]
            return apply_op("ConcatV2", values, {"N": len(values), "axis": a}, name=scope)
    values = [v if is_tensor(v) else convert_to_tensor(v, dt) for v in values]
    return apply_op("ConcatV2", values + [_int_tensor(axis)], {"N": len(values), "axis": None},
                    name=name)


def _split_parts(parts: list, num_split: int) -> Any:
    return parts[0] if num_split == 1 else tuple(parts)


def _pieces(x: Any, bounds: list, axis: int) -> list:
    """The views ``x[..., bounds[k]:bounds[k + 1], ...]`` along ``axis`` (what ``np.split``
    returns, without its Python overhead: an LSTM splits its gates this way every step)."""
    x = np.asarray(x)
    index = [np.s_[:]] * x.ndim     # (this module's ``slice`` is the op)
    out = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        index[axis] = np.s_[lo:hi]
        out.append(x[tuple(index)])
    return out


def _split_kernel(x: Any, axis_in: Any = None, *, num_split: int, axis: int | None) -> Any:
    a = axis if axis_in is None else int(axis_in)
    n = np.shape(x)[a]
    if n % num_split:
        raise _invalid("Number of ways to split should evenly divide the split dimension, but "
                       "got split_dim %d (size = %d) and num_split %d" % (a, n, num_split))
    k = n // num_split
    return _split_parts(_pieces(x, (np.arange(num_split + 1) * k).tolist(), a), num_split)


def _split_infer(ins: list, attrs: dict) -> list:
    x, n, axis = ins[0], attrs["num_split"], attrs["axis"]
    dt, dims = x.dtype.base_dtype, x.shape.as_tuple()
    if dims is None:
        return [(dt, TensorShape(None))] * n
    if axis is None:
        return [(dt, TensorShape([None] * len(dims)))] * n
    a = _norm_axis(axis, len(dims), "split")
    out = list(dims)
    if dims[a] is not None:
        if dims[a] % n:
            raise ValueError("Dimension size must be evenly divisible by %d but is %d (splitting "
                             "a tensor of shape %s along axis %d)" % (n, dims[a], _fmt(x.shape),
                                                                      axis))
        out[a] = dims[a] // n
    return [(dt, TensorShape(out))] * n


def _resolve_sizes(sizes: list, n: int | None, err: Any) -> list:
    """The split sizes with a -1 entry resolved against the dimension size ``n``."""
    if sizes.count(-1) > 1 or any(s < -1 for s in sizes):
        raise err("size_splits must be non-negative, with at most one -1, got %s" % (sizes,))
    if n is None:
        return [None if s == -1 else s for s in sizes]
    known = sum(s for s in sizes if s != -1)
    if -1 in sizes and known <= n:
        sizes = [n - known if s == -1 else s for s in sizes]
    elif known != n:
        raise err("Determined shape must either match input shape along split_dim exactly if "
                  "fully specified, or be less than the size of the input along split_dim if "
                  "not fully specified.  Got: %d (size_splits %s for a dimension of size %d)"
                  % (known, sizes, n))
    return sizes


def _splitv_kernel(x: Any, *spec: Any, size_splits: tuple | None, axis: int | None,
                   num_split: int) -> Any:
    if size_splits is None:
        size_splits, axis = [int(s) for s in spec[0]], int(spec[1])
    sizes = _resolve_sizes(list(size_splits), np.shape(x)[axis], _invalid)
    return _split_parts(_pieces(x, [0] + np.cumsum(sizes).tolist(), axis), num_split)


def _splitv_infer(ins: list, attrs: dict) -> list:
    x, n, axis, sizes = ins[0], attrs["num_split"], attrs["axis"], attrs["size_splits"]
    dt, dims = x.dtype.base_dtype, x.shape.as_tuple()
    if dims is None:
        return [(dt, TensorShape(None))] * n
    if axis is None:
        return [(dt, TensorShape([None] * len(dims)))] * n
    a = _norm_axis(axis, len(dims), "split")
    sizes = _resolve_sizes(list(sizes), dims[a], ValueError)
    return [(dt, TensorShape(dims[:a] + (s,) + dims[a + 1:])) for s in sizes]


def _split_grad(op: Any, *grads: Any) -> Any:
    grads = [g if g is not None else zeros_like(o) for g, o in zip(grads, op.outputs)]
    axis = op.get_attr("axis")
    return _with_nones(concat(grads, op.inputs[-1] if axis is None else axis), op)


register_op("Split", _split_kernel, _split_infer, grad=_split_grad, view=True,
            num_outputs=lambda attrs: attrs["num_split"], input_names=("value", "split_dim"),
            batching="axis")


register_op("SplitV", _splitv_kernel, _splitv_infer, grad=_split_grad, view=True,
            num_outputs=lambda attrs: attrs["num_split"],
            input_names=("value", "size_splits", "split_dim"), batching="axis")


@dispatch.add_dispatch_support
def split(value: TensorLike, num_or_size_splits: Any, axis: AxisLike = 0, num: int | None = None,
          name: str = "split") -> list:
    """Splits ``value`` along ``axis`` into equal parts (an int) or parts of given sizes.

    A list of sizes may hold one -1, which takes what the others leave.

    Args:
        value: The tensor to split.
        num_or_size_splits: The number of equal pieces, or a list of their sizes (one may be -1).
        axis: The axis to split along.
        num: The number of pieces, when ``num_or_size_splits`` is a tensor of unknown length.
        name: A name for the operation (optional).
    """
    value = _as_value(value)
    a = _known_scalar(axis, "split axis")
    if isinstance(num_or_size_splits, (int, np.integer, Dimension)) and \
            not isinstance(num_or_size_splits, bool):
        n = int(dimension_value(num_or_size_splits))
        if n < 1:
            raise ValueError("split: num_or_size_splits must be at least 1, got %d" % n)
        if a is not None:
            out = apply_op("Split", [value], {"num_split": n, "axis": a}, name=name)
        else:
            out = apply_op("Split", [value, _int_tensor(axis)], {"num_split": n, "axis": None},
                           name=name)
        return [out] if n == 1 else list(out)
    if (num_or_size_splits.shape.rank if is_tensor(num_or_size_splits)
            else np.ndim(num_or_size_splits)) == 0:
        raise ValueError("Rank-0 tensors are not supported as the num_or_size_splits argument "
                         "to split. Argument provided: %s" % (num_or_size_splits,))
    sizes = _known_ints(num_or_size_splits, "size_splits")
    if sizes is not None and a is not None:
        n = len(sizes)
        out = apply_op("SplitV", [value], {"size_splits": tuple(sizes), "axis": a,
                                           "num_split": n}, name=name)
    else:
        sizes_t = _int_tensor(num_or_size_splits)
        n = num if num is not None else _vector_length(sizes_t)
        if n is None:
            raise ValueError("Cannot infer argument `num` from shape %s" % sizes_t.shape)
        out = apply_op("SplitV", [value, sizes_t, _int_tensor(axis)],
                       {"size_splits": None, "axis": None, "num_split": n}, name=name)
    return [out] if n == 1 else list(out)


# --------------------------------------------------------------------------------------
# tile


def _tile_kernel(x: Any, multiples_in: Any = None, *, multiples: tuple | None = None) -> Any:
    m = multiples if multiples_in is None else [int(v) for v in multiples_in]
    _check_multiples(np.ndim(x), m, _invalid)
    return np.tile(x, m)


def _check_multiples(r: int, m: Any, err: Any) -> None:
    if len(m) != r:
        raise err("Expected multiples argument to be a vector of length %d but got length %d"
                  % (r, len(m)))
    for i, v in enumerate(m):
        if v < 0:
            raise err("Expected multiples[%d] >= 0, but got %d" % (i, v))


def _tile_infer(ins: list, attrs: dict) -> tuple:
    x, m = ins[0], attrs["multiples"]
    dt, dims = x.dtype.base_dtype, x.shape.as_tuple()
    if m is None:
        known = shape_from_value(ins[1]).as_tuple()       # [n, 1]: the 1 is known
        r = len(dims) if dims is not None else _vector_length(ins[1])
        if dims is not None and known is not None and len(known) == len(dims):
            return dt, TensorShape([None if d is None or k is None else d * k
                                    for d, k in zip(dims, known)])
        return dt, TensorShape(None if r is None else [None] * r)
    if dims is None:
        return dt, TensorShape([None] * len(m))
    _check_multiples(len(dims), m, ValueError)
    return dt, TensorShape([None if d is None else d * k for d, k in zip(dims, m)])


@defop("Tile", _tile_kernel, _tile_infer, input_names=("input", "multiples"))
def _tile_grad(op: Any, grad: Any) -> Any:
    x, m = op.inputs[0], op.get_attr("multiples")
    xs, r = static_shape(x), x.shape.rank
    if m is not None and xs is not None:
        if not xs:
            return grad
        split_shape: Any = [v for pair in zip(m, xs) for v in pair]
    else:
        mt = op.inputs[1] if m is None else _int_tensor(list(m))
        split_shape = reshape(transpose(stack([mt, shape(x, out_type=mt.dtype)])), [-1])
    axes = list(builtins.range(0, 2 * r, 2)) if r is not None else \
        range(0, size(split_shape), 2)
    return _with_nones(hooks.reduce_sum(reshape(grad, split_shape), axes), op)


register_jvp("Tile", linear_in_first_jvp)


@dispatch.add_dispatch_support
def tile(input: TensorLike, multiples: TensorLike, name: str | None = None) -> Any:
    """``input`` repeated ``multiples[i]`` times along each dimension i.

    Args:
        input: A tensor.
        multiples: How often to repeat each axis: a 1-D int tensor of length rank.
        name: A name for the operation (optional).
    """
    x = _as_value(input)
    m = _known_ints(multiples, "tile multiples")
    if m is not None:
        return apply_op("Tile", [x], {"multiples": tuple(m)}, name=name)
    return apply_op("Tile", [x, _int_tensor(multiples)], {"multiples": None}, name=name)
