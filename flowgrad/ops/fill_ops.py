"""Ops that make tensors from sizes and values: fill, zeros, ones, zeros_like,
ones_like, range, one_hot."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes, errors, hooks
from flowgrad.framework.graph import Operation
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import _NO_GRADIENT, defop, register_op
from flowgrad.framework.shape_rules import constant_value, shape_from_value, unary
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.errors import ShapeRuleError
from flowgrad.framework.tensor import constant, convert_to_tensor, is_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.framework.type_hints import DTypeLike, TensorLike
from flowgrad.framework.tensor import TensorBase
from flowgrad.ops.array_op_util import (_as_value, _check_int_indices, _fmt, _int_tensor,
                                        _invalid, _known_scalar, _static_int_list, reapply,
                                        static_shape)
from flowgrad.framework.type_hints import ShapeLike
from flowgrad.framework import dispatch


# --------------------------------------------------------------------------------------
# The JVP rule of ops linear in all their inputs (needs zeros_like; the other JVP
# helpers are in array_op_util)


def linear_in_all_jvp(op: Operation, *ts: Any) -> Any:
    """JVP rule of ops whose output is a sum of linear functions of each input (missing
    tangents: 0).

    Args:
        op: The op whose JVP is taken.
        *ts: The tangents of its inputs (None: zero).

    Returns:
        The output tangent, or None when every tangent is zero.
    """
    if all(t is None for t in ts):
        return None
    filled = [zeros_like(x) if t is None else t for x, t in zip(op.inputs, ts)]
    return reapply(op, filled)


# --------------------------------------------------------------------------------------
# fill, zeros, ones, zeros_like, ones_like


def _fill_kernel(value: Any, dims: Any = None, *, shape: Any = None) -> Any:
    return np.full(shape if dims is None else tuple(dims), value)


def _fill_infer(ins: list, attrs: dict) -> tuple:
    if "shape" in attrs:
        bad = [d for d in attrs["shape"] if d < 0]
        if bad:
            raise ShapeRuleError("Fill dimensions must be >= 0 (shape %s)" % list(attrs["shape"]),
                                 "Dimension %d must be >= 0" % bad[0])
        return ins[0].dtype.base_dtype, TensorShape(attrs["shape"])
    return ins[0].dtype.base_dtype, shape_from_value(ins[1])


@defop("Fill", _fill_kernel, _fill_infer, input_names=("value", "dims"))
def _fill_grad(op: Any, grad: Any) -> Any:
    return [hooks.reduce_sum(grad), None][:len(op.inputs)]


@dispatch.add_dispatch_support
def fill(dims: Any, value: TensorLike, name: str | None = None) -> Any:
    """A tensor of shape ``dims`` filled with the scalar ``value``.

    Args:
        dims: The output's shape: a 1-D int tensor or a list.
        value: The scalar to fill with.
        name: A name for the operation (optional).
    """
    static = _static_int_list(dims)
    if static is not None:
        return apply_op("Fill", [value], {"shape": tuple(static)}, name=name)
    dims = convert_to_tensor(dims)
    if dims.dtype.base_dtype not in (dtypes.int32, dtypes.int64):  # TF's index_type
        dims = convert_to_tensor(dims, dtypes.int32)
    return apply_op("Fill", [value, dims], name=name)


def _zeros(shape: Any, np_dtype: np.dtype) -> np.ndarray:
    """``np.zeros``; a string's zero is b"" as in TensorFlow."""
    return np.full(shape, b"", object) if np_dtype.kind == "O" else np.zeros(shape, np_dtype)


def _check_dims(dims: list) -> None:
    """TensorFlow's Fill error for a negative dimension of tf.zeros/tf.ones."""
    bad = [d for d in dims if d < 0]
    if bad:
        if executing_eagerly():
            raise errors.InvalidArgumentError(None, None, "Dimension %d must be >= 0 [Op:Fill]"
                                              % bad[0])
        raise ShapeRuleError("Fill dimensions must be >= 0 (shape %s)" % dims)


@dispatch.add_dispatch_support
def zeros(shape: ShapeLike | TensorLike, dtype: DTypeLike = dtypes.float32,
          name: str | None = None) -> Any:
    """Creates a tensor of zeros (empty strings for ``tf.string``), as ``tf.zeros``.

    Args:
        shape: The shape of the result: a list of ints or a 1-D int tensor.
        dtype: The element type of the result.
        name: A name for the operation.

    Returns:
        A tensor of ``dtype`` and ``shape``.
    """
    dtype = dtypes.as_dtype(dtype)
    static = _static_int_list(shape)
    if static is not None:
        _check_dims(static)
        return constant(_zeros(static, dtype.np), name=name or "zeros")
    return fill(shape, _zeros((), dtype.np), name=name or "zeros")


@dispatch.add_dispatch_support
def ones(shape: ShapeLike | TensorLike, dtype: DTypeLike = dtypes.float32,
         name: str | None = None) -> Any:
    """Creates a tensor of ones, as ``tf.ones``.

    Args:
        shape: The shape of the result: a list of ints or a 1-D int tensor.
        dtype: The element type of the result.
        name: A name for the operation.

    Returns:
        A tensor of ``dtype`` and ``shape``.
    """
    dtype = dtypes.as_dtype(dtype)
    static = _static_int_list(shape)
    if static is not None:
        _check_dims(static)
        return constant(np.ones(static, dtype.np), name=name or "ones")
    return fill(shape, np.ones((), dtype.np), name=name or "ones")


register_op("ZerosLike", lambda x: _zeros(x.shape, x.dtype), unary, grad=_NO_GRADIENT,
            input_names=("x",), batching="elementwise")


register_op("OnesLike", lambda x: np.ones_like(x), unary, grad=_NO_GRADIENT,
            input_names=("x",), batching="elementwise")


def _filled_like(op_type: str, fill: Any, tensor: Any, dtype: Any, name: str,
                 optimize: bool) -> Any:
    """A constant (static shape) or ``op_type`` op with the shape of ``tensor``."""
    t = convert_to_tensor(_as_value(tensor))
    s = static_shape(t)
    dt = dtypes.as_dtype(dtype) if dtype is not None else t.dtype.base_dtype
    if s is not None and optimize:
        return constant(fill(s, dt.np), name=name)
    out = apply_op(op_type, [t], name=name)
    return out if dt is t.dtype.base_dtype else hooks.cast(out, dt)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def zeros_like(tensor: TensorLike, dtype: DTypeLike | None = None, name: str | None = None,
               optimize: bool = True) -> Any:
    """Zeros with the shape (and dtype, unless given) of ``tensor``.

    Args:
        tensor: A tensor.
        dtype: The output's dtype; ``tensor``'s when None.
        name: A name for the operation (optional).
        optimize: Accepted for TensorFlow's signature.
    """
    return _filled_like("ZerosLike", _zeros, tensor, dtype, name or "zeros_like", optimize)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def ones_like(tensor: TensorLike, dtype: DTypeLike | None = None, name: str | None = None,
              optimize: bool = True) -> Any:
    """Ones with the shape (and dtype, unless given) of ``tensor``.

    Args:
        tensor: A tensor.
        dtype: The output's dtype; ``tensor``'s when None.
        name: A name for the operation (optional).
        optimize: Accepted for TensorFlow's signature.
    """
    return _filled_like("OnesLike", np.ones, tensor, dtype, name or "ones_like", optimize)


# --------------------------------------------------------------------------------------
# one_hot, range


def _one_hot_kernel(indices: Any, *rest: Any, depth: int | None = None, axis: int = -1) -> Any:
    if depth is None:
        depth, rest = int(rest[0]), rest[1:]
    if depth < 0:
        raise _invalid("depth must be non-negative, got: %d" % depth)
    on, off = rest
    out = np.where(np.expand_dims(indices, -1) == np.arange(depth), on, off)
    return out if axis == -1 else np.moveaxis(out, -1, axis)


def _one_hot_infer(ins: list, attrs: dict) -> tuple:
    indices, depth, axis = ins[0], attrs["depth"], attrs["axis"]
    on, off = ins[-2:]
    _check_int_indices(indices, "indices", (dtypes.uint8, dtypes.int32, dtypes.int64))
    dt = on.dtype.base_dtype
    if off.dtype.base_dtype is not dt:
        raise TypeError("dtype %s of on_value does not match dtype %s of off_value"
                        % (dt.name, off.dtype.base_dtype.name))
    if depth is not None and depth < 0:
        raise ValueError("depth must be non-negative, got: %d" % depth)
    dims = indices.shape.as_tuple()
    if dims is None:
        return dt, TensorShape(None)
    if not -1 <= axis <= len(dims):
        raise ValueError("Expected axis to be -1 or between [0, %d).  But received: %d"
                         % (len(dims) + 1, axis))
    a = len(dims) if axis == -1 else axis
    return dt, TensorShape(dims[:a] + (depth,) + dims[a:])


register_op("OneHot", _one_hot_kernel, _one_hot_infer, grad=_NO_GRADIENT,
            input_names=("indices", "depth", "on_value", "off_value"))


@dispatch.add_dispatch_support
def one_hot(indices: TensorLike, depth: int | TensorLike, on_value: TensorLike | None = None,
            off_value: TensorLike | None = None, axis: int | None = None,
            dtype: DTypeLike | None = None, name: str | None = None) -> TensorBase:
    """A tensor with ``on_value`` where the new ``axis`` (last by default) equals the index.

    Out-of-range indices give a row of ``off_value``. The dtype is that of on/off_value,
    else ``dtype``, else float32.

    Example:

        >>> print(tf.one_hot([0, 2], depth=3).numpy())
        [[1. 0. 0.]
         [0. 0. 1.]]

    Args:
        indices: An int tensor of class ids (uint8, int8, int32 or int64).
        depth: The number of classes.
        on_value: The value at each id; 1 when None.
        off_value: The value elsewhere; 0 when None.
        axis: Where the new axis goes; the last when None.
        dtype: The output's dtype; from ``on_value``/``off_value``, else float32.
        name: A name for the operation (optional).
    """
    idx = _as_value(indices)
    idx = idx if is_tensor(idx) else convert_to_tensor(idx)
    _check_int_indices(idx, "indices", (dtypes.uint8, dtypes.int8, dtypes.int32, dtypes.int64))
    dtype = dtypes.as_dtype(dtype) if dtype is not None else None
    on = _one_hot_value(on_value, dtype)
    off = _one_hot_value(off_value, dtype)
    for v, what in ((on, "on_value"), (off, "off_value")):
        if v is not None and dtype is not None and v.dtype.base_dtype is not dtype:
            raise TypeError("dtype %s of %s does not match dtype parameter %s"
                            % (v.dtype.base_dtype.name, what, dtype.name))
    if dtype is None:
        given = on if on is not None else off
        dtype = given.dtype.base_dtype if given is not None else dtypes.float32
    on = on if on is not None else convert_to_tensor(1, dtype, name="on_value")
    off = off if off is not None else convert_to_tensor(0, dtype, name="off_value")
    attrs = {"axis": -1 if axis is None else int(axis)}
    d = _known_scalar(depth, "one_hot depth")
    if d is not None:
        return apply_op("OneHot", [idx, on, off], dict(attrs, depth=d), name=name)
    return apply_op("OneHot", [idx, _int_tensor(depth), on, off], dict(attrs, depth=None),
                    name=name)


def _one_hot_value(v: Any, dtype: Any) -> Any:
    if v is None:
        return None
    v = _as_value(v)
    return v if is_tensor(v) else convert_to_tensor(v, dtype_hint=dtype)


def _range_kernel(start: Any, limit: Any, delta: Any) -> Any:
    if delta == 0:
        raise _invalid("Requires delta != 0: %s" % delta)
    if delta > 0 and start > limit:
        raise _invalid("Requires start <= limit when delta > 0: %s/%s" % (start, limit))
    if delta < 0 and start < limit:
        raise _invalid("Requires start >= limit when delta < 0: %s/%s" % (start, limit))
    dt = np.asarray(start).dtype
    if dt.kind in "iu":
        n = (abs(int(limit) - int(start)) + abs(int(delta)) - 1) // abs(int(delta))
    else:
        n = int(np.ceil(np.abs((limit - start) / delta)))
    return (start + np.arange(n, dtype=dt) * delta).astype(dt, copy=False)


def _range_infer(ins: list, attrs: dict) -> tuple:
    for t, what in zip(ins, ("start", "limit", "delta")):
        if t.shape.rank not in (0, None):
            raise ValueError("%s must be a scalar, not shape %s" % (what, _fmt(t.shape)))
    vals = [constant_value(t) for t in ins]
    if any(v is None for v in vals):
        return ins[0].dtype.base_dtype, TensorShape([None])
    try:
        n = _range_kernel(*[np.asarray(v)[()] for v in vals]).shape[0]
    except errors.InvalidArgumentError as e:
        raise ValueError(e.message) from None
    return ins[0].dtype.base_dtype, TensorShape([n])


register_op("Range", _range_kernel, _range_infer, grad=_NO_GRADIENT, same_dtype=True,
            input_names=("start", "limit", "delta"))


_RANGE_DTYPES = (dtypes.int32, dtypes.int64, dtypes.float16, dtypes.float32, dtypes.float64)


def range(start: Any, limit: Any = None, delta: TensorLike = 1, dtype: DTypeLike | None = None,  # noqa: A001
          name: str = "range") -> Any:
    """The numbers start, start + delta, ... up to (excluding) limit; ``range(n)`` is 0..n-1.

    The dtype is ``dtype`` if given, else the widest of the arguments' (int32 for Python
    ints, float32 if any is a float).

    Args:
        start: The first number, or, if ``limit`` is None, the limit (starting at 0).
        limit: The exclusive upper (or, with a negative ``delta``, lower) bound.
        delta: The increment; not 0.
        dtype: The dtype of the result.
        name: A name for the operation.

    Returns:
        A 1-D tensor.

    Raises:
        InvalidArgumentError: ``delta`` is 0 or points away from ``limit``.
    """
    if limit is None:
        start, limit = 0, start
    dt = dtypes.as_dtype(dtype) if dtype is not None else None
    args = []
    for v, what in ((start, "start"), (limit, "limit"), (delta, "delta")):
        v = _as_value(v)
        args.append(v if is_tensor(v) else convert_to_tensor(v, dt, name=what))
    if dt is None:
        for t in args:
            if t.dtype.base_dtype not in _RANGE_DTYPES:
                raise TypeError("range: unsupported dtype %s (expected one of %s)"
                                % (t.dtype.base_dtype.name,
                                   ", ".join(d.name for d in _RANGE_DTYPES)))
        dt = max((t.dtype.base_dtype for t in args), key=_RANGE_DTYPES.index)
    # tensors of another dtype are cast to the requested one, as TensorFlow does
    args = [t if t.dtype.base_dtype == dt else hooks.cast(t, dt) for t in args]
    return apply_op("Range", args, name=name)
