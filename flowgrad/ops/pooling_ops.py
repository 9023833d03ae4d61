"""Pooling ops: MaxPool, AvgPool, MaxPoolWithArgmax and their gradient ops.

Kernels work in NHWC (NCHW is transposed in and out). They loop over the KH*KW window
taps, each a strided slice of the padded input covering every output at once (a 2x2
pool is 4 whole-array operations). MaxPoolGrad routes each output's gradient to the
first maximum of its window in row-major order, as TensorFlow's CPU kernel does.

Unlike TensorFlow, the gradient ops have gradients of their own: MaxPoolGrad is linear
in its gradient input, and its gradient is MaxPoolGradGrad (the gradient gathered at
each window's maximum), whose gradient is MaxPoolGrad again; AvgPoolGrad's gradient is
AvgPool. So every pooling can be differentiated to any order."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.errors import InvalidArgumentError, UnimplementedError
from flowgrad.framework.graph import name_scope
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import defop, register_op
from flowgrad.framework.shape_rules import shape_from_value
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.array_ops import expand_dims, squeeze, zeros_like
from flowgrad.ops.pool_gradients import _like_input, _pool_attrs, max_pool_gradients
from flowgrad.ops.conv_nd import _sizes
from flowgrad.ops.conv_ops import (
    _dims4,
    check_rank4,
    check_unit_outer,
    crop,
    data_format_of,
    from_nhwc,
    pad_nhwc,
    sequence4,
    spatial_axes,
    tap_slice,
    to_nhwc,
    window_geometry,
)
from flowgrad.ops.nn_ops import _input
from flowgrad.ops.op_results import MaxPoolWithArgmax
from flowgrad.ops.pooling3d_ops import pool3d
from collections.abc import Sequence
from flowgrad.framework.type_hints import DTypeLike, TensorLike

# --------------------------------------------------------------------------------------
# Geometry


def _pool_setup(attrs: dict, in_hw: tuple) -> tuple:
    """(k_hw, strides, out_hw, pads) in NHWC terms from a pooling op's attrs."""
    a, b = spatial_axes(attrs["data_format"])
    k, s = attrs["ksize"], attrs["strides"]
    k_hw, strides = (k[a], k[b]), (s[a], s[b])
    try:
        out_hw, pads = window_geometry(in_hw, k_hw, strides, (1, 1), attrs["padding"])
    except ValueError as err:
        raise InvalidArgumentError(None, None, str(err)) from None
    return k_hw, strides, out_hw, pads


def _taps(k_hw: tuple, strides: tuple, out_hw: tuple) -> list:
    return [tap_slice(i, j, strides, (1, 1), out_hw)
            for i in range(k_hw[0]) for j in range(k_hw[1])]


def _lowest(dtype: Any) -> Any:
    dt = np.dtype(dtype)
    return -np.inf if dt.kind == "f" else np.iinfo(dt).min


def _tiled(x: np.ndarray, k_hw: tuple, strides: tuple, out_hw: tuple, pads: tuple) -> bool:
    """Whether the windows tile ``x`` exactly (no overlap, no padding, nothing left over)."""
    return (k_hw == strides and not any(pads[0] + pads[1])
            and x.shape[1] == out_hw[0] * k_hw[0] and x.shape[2] == out_hw[1] * k_hw[1])


def _blocks(x: np.ndarray, k_hw: tuple, out_hw: tuple) -> np.ndarray:
    """Tiled ``x`` as an (N, OH, KH, OW, KW, C) view."""
    return x.reshape(x.shape[0], out_hw[0], k_hw[0], out_hw[1], k_hw[1], x.shape[3])


def _pool_infer(ins: list, attrs: dict) -> tuple:
    fmt = attrs["data_format"]
    a, b = spatial_axes(fmt)
    d = _dims4(ins[0].shape, "input", "pooling")
    (oh, ow), _ = window_geometry((d[a], d[b]), (attrs["ksize"][a], attrs["ksize"][b]),
                                  (attrs["strides"][a], attrs["strides"][b]), (1, 1),
                                  attrs["padding"])
    dims = [d[0], oh, ow, d[3]] if fmt == "NHWC" else [d[0], d[1], oh, ow]
    return ins[0].dtype.base_dtype, TensorShape(dims)


# --------------------------------------------------------------------------------------
# MaxPool, MaxPoolGrad, MaxPoolGradGrad


def _max_pool_kernel(x: np.ndarray, **attrs: Any) -> np.ndarray:
    fmt = attrs["data_format"]
    x = to_nhwc(x, fmt)
    k_hw, strides, out_hw, pads = _pool_setup(attrs, x.shape[1:3])
    xp = pad_nhwc(x, pads, _lowest(x.dtype), "mpad")
    taps = _taps(k_hw, strides, out_hw)
    out = xp[taps[0]].copy()
    for t in taps[1:]:
        np.maximum(out, xp[t], out=out)
    return from_nhwc(out, fmt)


def _first_max_masks(xp: np.ndarray, y: np.ndarray, taps: list) -> Any:
    """For each tap, where it holds its window's first maximum (row-major order)."""
    taken = np.zeros(y.shape, bool)
    m = np.empty(y.shape, bool)
    for t in taps:
        np.equal(xp[t], y, out=m)
        np.greater(m, taken, out=m)         # m and not taken
        taken |= m
        yield t, m


def _masked(g: np.ndarray, mask: np.ndarray, finite: bool) -> np.ndarray:
    """g where mask, else 0 (a multiplication when g is finite: 0 * inf would be nan)."""
    return np.multiply(mask, g) if finite else np.where(mask, g, np.zeros((), g.dtype))


def _max_pool_grad_kernel(x: np.ndarray, y: np.ndarray, g: np.ndarray,
                          **attrs: Any) -> np.ndarray:
    fmt = attrs["data_format"]
    x, y, g = to_nhwc(x, fmt), to_nhwc(y, fmt), to_nhwc(g, fmt)
    k_hw, strides, out_hw, pads = _pool_setup(attrs, x.shape[1:3])
    _check_pooled("MaxPoolGrad", y.shape, g.shape, x.shape, out_hw)
    finite = bool(np.isfinite(g).all())
    if _tiled(x, k_hw, strides, out_hw, pads):
        # one comparison of the whole input with its window's maximum; ties are then
        # resolved in place, tap by tap, so that only the first maximum keeps its mark
        eq = _blocks(x, k_hw, out_hw) == y[:, :, None, :, None, :]
        taken = np.zeros(y.shape, bool)
        for i in range(k_hw[0]):
            for j in range(k_hw[1]):
                m = eq[:, :, i, :, j]
                np.greater(m, taken, out=m)
                taken |= m
        dx = _masked(g[:, :, None, :, None, :], eq, finite).reshape(x.shape)
        return from_nhwc(dx, fmt)
    xp = pad_nhwc(x, pads, _lowest(x.dtype), "mpad")
    dxp = np.zeros(xp.shape, g.dtype)
    for t, m in _first_max_masks(xp, y, _taps(k_hw, strides, out_hw)):
        dxp[t] += _masked(g, m, finite)
    return from_nhwc(crop(dxp, pads, x.shape[1:3]), fmt)


def _max_pool_grad_grad_kernel(x: np.ndarray, y: np.ndarray, gg: np.ndarray,
                               **attrs: Any) -> np.ndarray:
    fmt = attrs["data_format"]
    x, y, gg = to_nhwc(x, fmt), to_nhwc(y, fmt), to_nhwc(gg, fmt)
    k_hw, strides, out_hw, pads = _pool_setup(attrs, x.shape[1:3])
    if gg.shape != x.shape:
        raise InvalidArgumentError(None, None, "MaxPoolGradGrad: grad has shape %s (NHWC), "
                                   "expected the input's %s" % (list(gg.shape), list(x.shape)))
    xp = pad_nhwc(x, pads, _lowest(x.dtype), "mpad")
    ggp = pad_nhwc(gg, pads, 0, "mpad2")
    out = np.zeros(y.shape, gg.dtype)
    for t, m in _first_max_masks(xp, y, _taps(k_hw, strides, out_hw)):
        np.copyto(out, ggp[t], where=m)
    return from_nhwc(out, fmt)


def _check_pooled(op_type: str, y_shape: tuple, g_shape: tuple, x_shape: tuple,
                  out_hw: tuple) -> None:
    expect = (x_shape[0], out_hw[0], out_hw[1], x_shape[3])
    if tuple(y_shape) != expect or tuple(g_shape) != expect:
        raise InvalidArgumentError(None, None, "%s: orig_output and grad must have the pooled "
                                   "shape %s (NHWC), got %s and %s" % (
                                       op_type, list(expect), list(y_shape), list(g_shape)))


_MAX_POOL_GRADS = max_pool_gradients("MaxPool")
register_op("MaxPool", _max_pool_kernel, _pool_infer, grad=_MAX_POOL_GRADS[0],
            fresh_output=True, input_names=("input",), batching="images")
register_op("MaxPoolGrad", _max_pool_grad_kernel, _like_input(0), grad=_MAX_POOL_GRADS[1],
            same_dtype=True, fresh_output=True, input_names=("orig_input", "orig_output", "grad"))
register_op("MaxPoolGradGrad", _max_pool_grad_grad_kernel, _like_input(1),
            grad=_MAX_POOL_GRADS[2], same_dtype=True,
            input_names=("orig_input", "orig_output", "grad"))


# --------------------------------------------------------------------------------------
# AvgPool, AvgPoolGrad: SAME windows average over their in-bounds elements only


def _counts(in_hw: tuple, k_hw: tuple, strides: tuple, out_hw: tuple, pads: tuple,
            dtype: Any) -> np.ndarray:
    """(1, OH, OW, 1) number of in-bounds input elements of each window."""
    per_axis = []
    for n, k, s, o, (before, _) in zip(in_hw, k_hw, strides, out_hw, pads):
        start = np.arange(o) * s - before
        per_axis.append(np.minimum(start + k, n) - np.maximum(start, 0))
    return np.multiply.outer(*per_axis).astype(dtype)[None, :, :, None]


def _avg_pool_kernel(x: np.ndarray, **attrs: Any) -> np.ndarray:
    fmt = attrs["data_format"]
    x = to_nhwc(x, fmt)
    k_hw, strides, out_hw, pads = _pool_setup(attrs, x.shape[1:3])
    xp = pad_nhwc(x, pads, 0, "mpad")
    taps = _taps(k_hw, strides, out_hw)
    out = xp[taps[0]].copy()
    for t in taps[1:]:
        out += xp[t]
    out /= _counts(x.shape[1:3], k_hw, strides, out_hw, pads, x.dtype)
    return from_nhwc(out, fmt)


def _avg_pool_grad_kernel(sizes: Any, g: np.ndarray, **attrs: Any) -> np.ndarray:
    fmt = attrs["data_format"]
    n, a, b, c = (int(v) for v in sizes)
    shape = (n, a, b, c) if fmt == "NHWC" else (n, b, c, a)
    n = shape[0]
    g = to_nhwc(g, fmt)
    k_hw, strides, out_hw, pads = _pool_setup(attrs, shape[1:3])
    _check_pooled("AvgPoolGrad", g.shape, g.shape, shape, out_hw)
    gs = g / _counts(shape[1:3], k_hw, strides, out_hw, pads, g.dtype)
    (t, bt), (lf, r) = pads
    dxp = np.zeros((n, shape[1] + t + bt, shape[2] + lf + r, shape[3]), g.dtype)
    for tap in _taps(k_hw, strides, out_hw):
        dxp[tap] += gs
    return from_nhwc(crop(dxp, pads, shape[1:3]), fmt)


def _avg_pool_grad_infer(ins: list, attrs: dict) -> tuple:
    shape = shape_from_value(ins[0])
    return ins[1].dtype.base_dtype, TensorShape([None] * 4) if shape.rank is None else shape


@defop("AvgPool", _avg_pool_kernel, _pool_infer, input_names=("value",), batching="images")
def _avg_pool_grad(op: Any, grad: Any) -> Any:
    return apply_op("AvgPoolGrad", (_sizes(op.inputs[0]), grad), _pool_attrs(op))


@defop("AvgPoolGrad", _avg_pool_grad_kernel, _avg_pool_grad_infer,
       input_names=("orig_input_shape", "grad"))
def _avg_pool_grad_grad(op: Any, grad: Any) -> Any:
    return None, apply_op("AvgPool", (grad,), _pool_attrs(op))


# --------------------------------------------------------------------------------------
# MaxPoolWithArgmax: argmax is the flat NHWC index ((b * H + y) * W + x) * C + c, the batch
# term only with include_batch_in_index


def _argmax_attrs(op: Any) -> dict:
    return {k: op.get_attr(k) for k in ("ksize", "strides", "padding",
                                        "include_batch_in_index")}


def _nhwc_attrs(attrs: dict) -> dict:
    return {"ksize": attrs["ksize"], "strides": attrs["strides"], "padding": attrs["padding"],
            "data_format": "NHWC"}


def _max_pool_argmax_kernel(x: np.ndarray, **attrs: Any) -> tuple:
    n, h, w, c = x.shape
    k_hw, strides, out_hw, pads = _pool_setup(_nhwc_attrs(attrs), (h, w))
    xp = pad_nhwc(x, pads, _lowest(x.dtype), "mpad")
    out = np.full((n, out_hw[0], out_hw[1], c), _lowest(x.dtype), x.dtype)
    arg = np.zeros(out.shape, np.int64)
    rows = np.arange(out_hw[0]) * strides[0] - pads[0][0]
    cols = np.arange(out_hw[1]) * strides[1] - pads[1][0]
    chan = np.arange(c)
    for i in range(k_hw[0]):
        for j in range(k_hw[1]):
            idx = ((rows[:, None, None] + i) * w + cols[None, :, None] + j) * c + chan
            s = xp[tap_slice(i, j, strides, (1, 1), out_hw)]
            better = s > out
            np.copyto(out, s, where=better)
            np.copyto(arg, np.broadcast_to(idx, arg.shape), where=better)
    if attrs["include_batch_in_index"]:
        arg += (np.arange(n) * (h * w * c))[:, None, None, None]
    return out, arg.astype(attrs["Targmax"].np, copy=False)


def _flat_argmax(x: np.ndarray, arg: np.ndarray, include_batch: bool) -> np.ndarray:
    """argmax as indices into the flattened whole batch."""
    arg = arg.astype(np.int64, copy=False)
    if include_batch:
        return arg
    n = x.shape[0]
    return arg + (np.arange(n) * (x.size // max(n, 1)))[:, None, None, None]


def _max_pool_grad_argmax_kernel(x: np.ndarray, g: np.ndarray, arg: np.ndarray,
                                 **attrs: Any) -> np.ndarray:
    idx = _flat_argmax(x, arg, attrs["include_batch_in_index"])
    if g.shape != idx.shape:
        raise InvalidArgumentError(None, None, "MaxPoolGradWithArgmax: grad has shape %s, "
                                   "argmax %s" % (list(g.shape), list(idx.shape)))
    dx = np.bincount(idx.ravel(), weights=g.ravel(), minlength=x.size)
    return dx.astype(g.dtype, copy=False).reshape(x.shape)


def _max_pool_grad_grad_argmax_kernel(x: np.ndarray, gg: np.ndarray, arg: np.ndarray,
                                      **attrs: Any) -> np.ndarray:
    idx = _flat_argmax(x, arg, attrs["include_batch_in_index"])
    return gg.reshape(-1)[idx]


def _argmax_infer(ins: list, attrs: dict) -> list:
    dt, s = _pool_infer(ins, dict(_nhwc_attrs(attrs)))
    return [(dt, s), (attrs["Targmax"], s)]


@defop("MaxPoolWithArgmax", _max_pool_argmax_kernel, _argmax_infer, num_outputs=2,
       input_names=("input",))
def _max_pool_argmax_grad(op: Any, grad: Any, _: Any) -> Any:
    return apply_op("MaxPoolGradWithArgmax", (op.inputs[0], grad, op.outputs[1]),
                    _argmax_attrs(op))


@defop("MaxPoolGradWithArgmax", _max_pool_grad_argmax_kernel, _like_input(0),
       input_names=("input", "grad", "argmax"))
def _max_pool_grad_argmax_grad(op: Any, grad: Any) -> Any:
    x, _, arg = op.inputs
    return (zeros_like(x), apply_op("MaxPoolGradGradWithArgmax", (x, grad, arg),
                                    _argmax_attrs(op)), None)


@defop("MaxPoolGradGradWithArgmax", _max_pool_grad_grad_argmax_kernel,
       lambda ins, attrs: (ins[1].dtype.base_dtype, ins[2].shape),
       input_names=("input", "grad", "argmax"))
def _max_pool_grad_grad_argmax_grad(op: Any, grad: Any) -> Any:
    x, _, arg = op.inputs
    return (zeros_like(x), apply_op("MaxPoolGradWithArgmax", (x, grad, arg), _argmax_attrs(op)),
            None)


# --------------------------------------------------------------------------------------
# Public functions


def _pool_op_attrs(op_type: str, ksize: Any, strides: Any, padding: Any,
                   data_format: str | None) -> dict:
    fmt = data_format_of(data_format, op_type)
    k = sequence4(ksize, fmt, "ksize", op_type)
    s = sequence4(strides, fmt, "strides", op_type)
    check_unit_outer(k, fmt, "ksize", op_type)
    check_unit_outer(s, fmt, "strides", op_type)
    if padding not in ("SAME", "VALID"):
        raise ValueError("%s: padding must be 'SAME' or 'VALID', got %r" % (op_type, padding))
    return {"ksize": k, "strides": s, "padding": padding, "data_format": fmt}


def _pool2d(op_type: str, input: Any, ksize: Any, strides: Any, padding: Any,
            data_format: str | None, name: str | None) -> Any:
    attrs = _pool_op_attrs(op_type, ksize, strides, padding, data_format)
    x = _input(input, op_type, "input", floating_only=op_type == "AvgPool")
    check_rank4(x.shape, op_type, "input")
    _pool_infer([x], attrs)
    return apply_op(op_type, (x,), attrs, name=name)


def _pool_nd(op_type: str, input: Any, ksize: Any, strides: Any, padding: Any,
             data_format: str | None, name: str | None) -> Any:
    """TF2 ``max_pool``/``avg_pool``: rank 3 pools 1-D (NWC/NCW), rank 4 2-D, rank 5 3-D."""
    x = _input(input, op_type, "input", floating_only=op_type == "AvgPool")
    rank = x.shape.rank
    if rank == 3:
        return _pool1d(op_type, x, ksize, strides, padding, data_format or "NWC", name)
    if rank == 5:
        return pool3d(op_type + "3D", x, ksize, strides, padding, data_format, name)
    if rank is not None and rank != 4:
        raise ValueError("%s: input must be rank 3, 4 or 5, but is rank %d (shape %s)"
                         % (op_type, rank, x.shape))
    return _pool2d(op_type, x, ksize, strides, padding, data_format, name)


def _pool1d(op_type: str, input: Any, ksize: Any, strides: Any, padding: Any,
            data_format: str, name: str | None) -> Any:
    if data_format not in ("NWC", "NCW"):
        raise ValueError("%s: 1-D data_format must be 'NWC' or 'NCW', got %r"
                         % (op_type, data_format))
    axis = 1 if data_format == "NWC" else 2
    with name_scope(name, op_type.lower() + "1d", [input]) as scope:
        x = _input(input, op_type, "input", floating_only=op_type == "AvgPool")
        if x.shape.rank is not None and x.shape.rank != 3:
            raise ValueError("%s: 1-D pooling input must be rank 3, but is rank %d (shape %s)"
                             % (op_type, x.shape.rank, x.shape))
        k = [1, _single(ksize, op_type, "ksize")]
        s = [1, _single(strides, op_type, "strides")]
        fmt = "NHWC" if axis == 1 else "NCHW"
        y = _pool2d(op_type, expand_dims(x, axis), k, s, padding, fmt, None)
        return squeeze(y, [axis], name=scope)


def _single(v: Any, op_type: str, what: str) -> int:
    vals = [int(v)] if isinstance(v, (int, np.integer)) else [int(a) for a in v]
    if len(vals) == 3:
        vals = vals[1:2]
    if len(vals) != 1:
        raise ValueError("%s: %s of 1-D pooling should be an int or a list of 1 or 3 ints, "
                         "got %r" % (op_type, what, v))
    return vals[0]


def max_pool2d(input: TensorLike, ksize: int | Sequence[int], strides: int | Sequence[int],
               padding: str, data_format: str = "NHWC", name: str | None = None) -> Any:
    """Max over KH x KW windows of a rank-4 ``input``.

    Args:
        input: The input: a [batch, height, width, channels] tensor (see ``data_format``).
        ksize: The size of the pooling window: an int or one per dimension.
        strides: The stride of the sliding window: an int or one per dimension.
        padding: ``"SAME"``, ``"VALID"``, or a list of explicit (before, after) pairs.
        data_format: Where the channels are: ``"NHWC"`` (last) or ``"NCHW"`` (after the batch), with
            the 1-D and 3-D analogues.
        name: A name for the operation (optional).
    """
    return _pool2d("MaxPool", input, ksize, strides, padding, data_format, name)


def avg_pool2d(input: TensorLike, ksize: int | Sequence[int], strides: int | Sequence[int],
               padding: str, data_format: str = "NHWC", name: str | None = None) -> Any:
    """Mean over KH x KW windows of a rank-4 ``input`` (SAME: of the in-bounds elements).

    Args:
        input: The input: a [batch, height, width, channels] tensor (see ``data_format``).
        ksize: The size of the pooling window: an int or one per dimension.
        strides: The stride of the sliding window: an int or one per dimension.
        padding: ``"SAME"``, ``"VALID"``, or a list of explicit (before, after) pairs.
        data_format: Where the channels are: ``"NHWC"`` (last) or ``"NCHW"`` (after the batch), with
            the 1-D and 3-D analogues.
        name: A name for the operation (optional).
    """
    return _pool2d("AvgPool", input, ksize, strides, padding, data_format, name)


def max_pool1d(input: TensorLike, ksize: int | Sequence[int], strides: int | Sequence[int],
               padding: str, data_format: str = "NWC", name: str | None = None) -> Any:
    """Max over windows of a rank-3 ``input``.

    Args:
        input: The input: a [batch, width, channels] tensor (see ``data_format``).
        ksize: The size of the pooling window: an int or one per dimension.
        strides: The stride of the sliding window: an int or one per dimension.
        padding: ``"SAME"``, ``"VALID"``, or a list of explicit (before, after) pairs.
        data_format: Where the channels are: ``"NHWC"`` (last) or ``"NCHW"`` (after the batch), with
            the 1-D and 3-D analogues.
        name: A name for the operation (optional).
    """
    return _pool1d("MaxPool", input, ksize, strides, padding, data_format, name)


def avg_pool1d(input: TensorLike, ksize: int | Sequence[int], strides: int | Sequence[int],
               padding: str, data_format: str = "NWC", name: str | None = None) -> Any:
    """Mean over windows of a rank-3 ``input``.

    Args:
        input: The input: a [batch, width, channels] tensor (see ``data_format``).
        ksize: The size of the pooling window: an int or one per dimension.
        strides: The stride of the sliding window: an int or one per dimension.
        padding: ``"SAME"``, ``"VALID"``, or a list of explicit (before, after) pairs.
        data_format: Where the channels are: ``"NHWC"`` (last) or ``"NCHW"`` (after the batch), with
            the 1-D and 3-D analogues.
        name: A name for the operation (optional).
    """
    return _pool1d("AvgPool", input, ksize, strides, padding, data_format, name)


def max_pool_v2(input: TensorLike, ksize: int | Sequence[int], strides: int | Sequence[int],
                padding: str, data_format: str | None = None, name: str | None = None) -> Any:
    """TF2 ``max_pool``: 1-D or 2-D max pooling by the rank of ``input``.

    Args:
        input: The input: a tensor of rank N + 2 (batch, N spatial dimensions, channels; see
            ``data_format``).
        ksize: The size of the pooling window: an int or one per dimension.
        strides: The stride of the sliding window: an int or one per dimension.
        padding: ``"SAME"``, ``"VALID"``, or a list of explicit (before, after) pairs.
        data_format: Where the channels are: ``"NHWC"`` (last) or ``"NCHW"`` (after the batch), with
            the 1-D and 3-D analogues.
        name: A name for the operation (optional).
    """
    return _pool_nd("MaxPool", input, ksize, strides, padding, data_format, name)


def avg_pool_v2(input: TensorLike, ksize: int | Sequence[int], strides: int | Sequence[int],
                padding: str, data_format: str | None = None, name: str | None = None) -> Any:
    """TF2 ``avg_pool``: 1-D or 2-D average pooling by the rank of ``input``.

    Args:
        input: The input: a tensor of rank N + 2 (batch, N spatial dimensions, channels; see
            ``data_format``).
        ksize: The size of the pooling window: an int or one per dimension.
        strides: The stride of the sliding window: an int or one per dimension.
        padding: ``"SAME"``, ``"VALID"``, or a list of explicit (before, after) pairs.
        data_format: Where the channels are: ``"NHWC"`` (last) or ``"NCHW"`` (after the batch), with
            the 1-D and 3-D analogues.
        name: A name for the operation (optional).
    """
    return _pool_nd("AvgPool", input, ksize, strides, padding, data_format, name)


def _tf1_value(value: Any, input: Any, fn: str) -> Any:
    if value is not None and input is not None:
        raise ValueError("%s: specify only one of value and input" % fn)
    x = value if input is None else input
    if x is None:
        raise ValueError("%s: value (or input) must be given" % fn)
    return x


def max_pool(value: TensorLike | None = None, ksize: int | Sequence[int] | None = None,
             strides: int | Sequence[int] | None = None, padding: str | Sequence | None = None,
             data_format: str = "NHWC", name: str | None = None,
             input: TensorLike | None = None) -> Any:
    """TF1 ``max_pool`` of a rank-4 ``value`` (``input=`` also accepted).

    Args:
        value: The input: a [batch, height, width, channels] tensor (see ``data_format``).
        ksize: The size of the pooling window: an int or one per dimension.
        strides: The stride of the sliding window: an int or one per dimension.
        padding: ``"SAME"``, ``"VALID"``, or a list of explicit (before, after) pairs.
        data_format: Where the channels are: ``"NHWC"`` (last) or ``"NCHW"`` (after the batch), with
            the 1-D and 3-D analogues.
        name: A name for the operation (optional).
        input: TensorFlow 2's name for ``value``.
    """
    return max_pool2d(_tf1_value(value, input, "max_pool"), ksize, strides, padding,
                      data_format, name)


def avg_pool(value: TensorLike | None = None, ksize: int | Sequence[int] | None = None,
             strides: int | Sequence[int] | None = None, padding: str | Sequence | None = None,
             data_format: str = "NHWC", name: str | None = None,
             input: TensorLike | None = None) -> Any:
    """TF1 ``avg_pool`` of a rank-4 ``value`` (``input=`` also accepted).

    Args:
        value: The input: a [batch, height, width, channels] tensor (see ``data_format``).
        ksize: The size of the pooling window: an int or one per dimension.
        strides: The stride of the sliding window: an int or one per dimension.
        padding: ``"SAME"``, ``"VALID"``, or a list of explicit (before, after) pairs.
        data_format: Where the channels are: ``"NHWC"`` (last) or ``"NCHW"`` (after the batch), with
            the 1-D and 3-D analogues.
        name: A name for the operation (optional).
        input: TensorFlow 2's name for ``value``.
    """
    return avg_pool2d(_tf1_value(value, input, "avg_pool"), ksize, strides, padding,
                      data_format, name)


def max_pool_with_argmax_v2(input: TensorLike, ksize: int | Sequence[int],
                            strides: int | Sequence[int], padding: str, data_format: str = "NHWC",
                            output_dtype: DTypeLike = dtypes.int64,
                            include_batch_in_index: bool = False, name: str | None = None) -> Any:
    """(max pool, flat index of each maximum); NHWC only, as in TensorFlow.

    Args:
        input: The input: a [batch, height, width, channels] tensor.
        ksize: The size of the pooling window: an int or one per dimension.
        strides: The stride of the sliding window: an int or one per dimension.
        padding: ``"SAME"``, ``"VALID"``, or a list of explicit (before, after) pairs.
        data_format: Where the channels are: ``"NHWC"`` (last) or ``"NCHW"`` (after the batch), with
            the 1-D and 3-D analogues.
        output_dtype: int32 or int64: the dtype of the argmax indices.
        include_batch_in_index: Whether the flattened indices count the batch dimension too.
        name: A name for the operation (optional).
    """
    if data_format != "NHWC":
        raise ValueError("max_pool_with_argmax: data_format must be 'NHWC', got %r"
                         % (data_format,))
    attrs = _pool_op_attrs("MaxPoolWithArgmax", ksize, strides, padding, data_format)
    del attrs["data_format"]
    targ = dtypes.as_dtype(output_dtype)
    if targ not in (dtypes.int32, dtypes.int64):
        raise TypeError("max_pool_with_argmax: output_dtype must be int32 or int64, got %s"
                        % targ.name)
    attrs["Targmax"] = targ
    attrs["include_batch_in_index"] = bool(include_batch_in_index)
    x = _input(input, "MaxPoolWithArgmax", "input", floating_only=False)
    check_rank4(x.shape, "MaxPoolWithArgmax", "input")
    _argmax_infer([x], attrs)
    return MaxPoolWithArgmax(*apply_op("MaxPoolWithArgmax", (x,), attrs, name=name))


def max_pool_with_argmax(input: TensorLike, ksize: int | Sequence[int],  # noqa: N803
                         strides: int | Sequence[int], padding: str, data_format: str = "NHWC",
                         Targmax: Any = None, name: str | None = None,
                         output_dtype: DTypeLike | None = None,
                         include_batch_in_index: bool = False) -> Any:
    """TF1 form of ``max_pool_with_argmax`` (``Targmax`` or ``output_dtype``).

    Args:
        input: The input: a [batch, height, width, channels] tensor.
        ksize: The size of the pooling window: an int or one per dimension.
        strides: The stride of the sliding window: an int or one per dimension.
        padding: ``"SAME"``, ``"VALID"``, or a list of explicit (before, after) pairs.
        data_format: Where the channels are: ``"NHWC"`` (last) or ``"NCHW"`` (after the batch), with
            the 1-D and 3-D analogues.
        Targmax: TF1's name for ``output_dtype``.
        name: A name for the operation (optional).
        output_dtype: int32 or int64: the dtype of the argmax indices (int64 when None).
        include_batch_in_index: Whether the flattened indices count the batch dimension too.
    """
    if Targmax is not None and output_dtype is not None and Targmax != output_dtype:
        raise ValueError("max_pool_with_argmax: Targmax and output_dtype differ")
    dt = Targmax or output_dtype or dtypes.int64
    return max_pool_with_argmax_v2(input, ksize, strides, padding, data_format, dt,
                                   include_batch_in_index, name)




def pool(input: TensorLike, window_shape: Any, pooling_type: str,  # noqa: A002
         strides: int | Sequence[int] | None = None, padding: str = "VALID",
         data_format: str | None = None, dilations: int | Sequence[int] | None = None,
         name: str | None = None) -> Any:
    """Max or average pooling over 1, 2 or 3 spatial dimensions (``tf.nn.pool``).

    Args:
      input: A tensor of rank ``len(window_shape) + 2``.
      window_shape: The window's size along each spatial dimension.
      pooling_type: ``"MAX"`` or ``"AVG"``.
      strides: The strides (all 1 by default).
      padding: ``"VALID"`` or ``"SAME"``.
      data_format: ``"NWC"``/``"NHWC"``/``"NDHWC"`` (channels last, the default) or the
        channels-first form.
      dilations: Window dilations; only 1 is supported.
      name: A name for the operation.

    Returns:
      The pooled tensor.

    Raises:
      ValueError: for an unknown ``pooling_type``, mismatched lengths or another rank.
      UnimplementedError: for dilations other than 1.
    """
    window = [int(w) for w in window_shape]
    n = len(window)
    strides = [1] * n if strides is None else [int(v) for v in np.ravel(strides)]
    if pooling_type not in ("MAX", "AVG"):
        raise ValueError("pooling_type must be 'MAX' or 'AVG', got %r" % (pooling_type,))
    if len(strides) != n or n not in (1, 2, 3):
        raise ValueError("window_shape and strides must have 1, 2 or 3 entries alike, got %s "
                         "and %s" % (window, strides))
    if dilations is not None and any(int(d) != 1 for d in np.ravel(dilations)):
        raise UnimplementedError(None, None, "tf.nn.pool: dilations other than 1 are not "
                                 "supported by flowgrad, got %s" % (list(np.ravel(dilations)),))
    op_type = "MaxPool" if pooling_type == "MAX" else "AvgPool"
    channels_first = data_format is not None and data_format.startswith("NC")
    with name_scope(name, "%s_pool" % pooling_type.lower(), [input]) as scope:
        x = _input(input, op_type, "input", floating_only=op_type == "AvgPool")
        if x.shape.rank is not None and x.shape.rank != n + 2:
            raise ValueError("tf.nn.pool: input must have rank %d for a window of %d "
                             "dimensions, got shape %s" % (n + 2, n, x.shape))
        if n == 1:
            return _pool1d(op_type, x, window[0], strides[0], padding,
                           "NCW" if channels_first else "NWC", scope)
        if n == 2:
            return _pool2d(op_type, x, window, strides, padding,
                           "NCHW" if channels_first else "NHWC", scope)
        return pool3d(op_type + "3D", x, window, strides, padding,
                      "NCDHW" if channels_first else "NDHWC", scope)

__all__ = ["max_pool", "max_pool2d", "max_pool1d", "avg_pool", "avg_pool2d", "avg_pool1d",
           "max_pool_with_argmax", "pool"]
