"""Convolution ops: Conv2D and DepthwiseConv2dNative with their backprop ops; conv1d,
conv2d_transpose, separable and atrous convolutions built on them.

Kernels work in NHWC (NCHW is transposed in and out) on a zero-padded copy of the
input, in batch chunks whose work arrays stay in the cache (about 2 MB; a chunk's
columns are read by the GEMM right after they are written). Conv2D is im2col + one GEMM
per chunk: a strided window view (N, OH, OW, KH, KW, C) of the padded input is copied
into a reused column buffer and multiplied by the filter reshaped to (KH*KW*C, O).
Conv2DBackpropInput is one (M, O) x (O, C) GEMM per window tap added into a strided
slice of the padded gradient (GEMM + col2im when C = 1); Conv2DBackpropFilter is the
same column matrix, transposed in one GEMM with dy (columns.T @ dy, summed over the
chunks), when C >= 8, else one GEMM on transposed columns. The depthwise ops
multiply-add whole arrays, one window tap at a time.
``benchmarks/bench_cnn.py`` records the measurements behind these choices.

The backprop ops are ops of their own with registered gradients (each is linear in
its two tensor inputs, so its gradients are again Conv2D/backprop ops), so every
convolution can be differentiated to any order."""
from __future__ import annotations

import threading
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import as_strided

from flowgrad.framework import threads
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.errors import EAGER_ERROR_CLASSES, InvalidArgumentError, ShapeRuleError
from flowgrad.framework.graph import name_scope
from flowgrad.framework.op_call import apply_op, argument_error
from flowgrad.framework.registry import defop
from flowgrad.framework.shape_rules import shape_from_value
from flowgrad.framework.tensor import convert_to_tensor, is_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops import conv_nd, conv_winograd
from flowgrad.ops.conv3d_ops import conv3d_transpose_v2, conv3d_v2
from flowgrad.ops.conv_gradients import conv_gradients
from flowgrad.ops.conv_nd import _output_sizes, output_size
from flowgrad.ops.array_ops import (
    _as_value,
    concat,
    expand_dims,
    squeeze,
)
from flowgrad.ops.nn_ops import _input
from collections.abc import Sequence
from flowgrad.framework.type_hints import DTypeLike, ShapeLike, TensorLike

# --------------------------------------------------------------------------------------
# Window geometry (shared with pooling_ops)

def spatial_axes(data_format: str) -> tuple:
    """The (H, W) axes of a rank-4 tensor in ``data_format``."""
    return (1, 2) if data_format == "NHWC" else (2, 3)


def to_nhwc(x: np.ndarray, data_format: str) -> np.ndarray:
    return x if data_format == "NHWC" else x.transpose(0, 2, 3, 1)


def from_nhwc(x: np.ndarray, data_format: str) -> np.ndarray:
    return x if data_format == "NHWC" else x.transpose(0, 3, 1, 2)


def window_geometry(in_hw: tuple, k_hw: tuple, strides: tuple, dilations: tuple,
                    padding: str, explicit: tuple = ((0, 0), (0, 0))) -> tuple:
    """((OH, OW), ((top, bottom), (left, right))) of a 2-D window op."""
    h = output_size(in_hw[0], k_hw[0], strides[0], dilations[0], padding, explicit[0])
    w = output_size(in_hw[1], k_hw[1], strides[1], dilations[1], padding, explicit[1])
    return (h[0], w[0]), (h[1], w[1])


_buffers = threading.local()
_SCRATCH_BYTES = 1 << 28        # work arrays kept per thread (the oldest go first)
_CHUNK_ELEMENTS = 1 << 24       # a convolution's batch is cut so its column matrix stays below
_CACHE_ELEMENTS = 1 << 19       # ... and below this (2 MB of float32) where a chunk should stay
                                # in the cache between its copy and its GEMM


def scratch(shape: tuple, dtype: DTypeLike, slot: str) -> np.ndarray:
    """A reused, uninitialised work array (per thread and slot): never returned from a kernel."""
    cache = getattr(_buffers, "cache", None)
    if cache is None:
        cache = _buffers.cache = {}
    key = (slot, shape, np.dtype(dtype))
    buf = cache.get(key)
    if buf is None:
        buf = cache[key] = np.empty(shape, dtype)
        total = sum(b.nbytes for b in cache.values())
        while total > _SCRATCH_BYTES and len(cache) > 1:
            old = cache.pop(next(iter(cache)))
            total -= old.nbytes
    return buf


def batch_chunks(n: int, per_example: int, cached: bool = False) -> list:
    """Slices of a batch of ``n`` whose work arrays (``per_example`` elements each) stay small
    (with ``cached``, small enough to stay in the cache; at least one example each)."""
    step = max(1, (_CACHE_ELEMENTS if cached else _CHUNK_ELEMENTS) // max(per_example, 1))
    return [slice(b, min(b + step, n)) for b in range(0, n, step)] or [slice(0, 0)]


def pad_nhwc(x: np.ndarray, pads: tuple, value: TensorLike = 0, slot: str = "pad") -> np.ndarray:
    """``x`` padded in H and W (into a reused buffer); ``x`` itself when there is no padding."""
    (top, bottom), (left, right) = pads
    if not (top or bottom or left or right):
        return x
    n, h, w, c = x.shape
    xp = scratch((n, h + top + bottom, w + left + right, c), x.dtype, slot)
    xp[:, :top] = value
    xp[:, top + h:] = value
    xp[:, top:top + h, :left] = value
    xp[:, top:top + h, left + w:] = value
    xp[:, top:top + h, left:left + w] = x
    return xp


def windows(xp: np.ndarray, k_hw: tuple, strides: tuple, dilations: tuple,
            out_hw: tuple) -> np.ndarray:
    """Read-only strided view (N, OH, OW, KH, KW, C) of the windows of padded NHWC ``xp``."""
    n, _, _, c = xp.shape
    s0, s1, s2, s3 = xp.strides
    return as_strided(xp, (n, out_hw[0], out_hw[1], k_hw[0], k_hw[1], c),
                      (s0, s1 * strides[0], s2 * strides[1], s1 * dilations[0],
                       s2 * dilations[1], s3), writeable=False)


def tap_slice(i: int, j: int, strides: tuple, dilations: tuple, out_hw: tuple) -> tuple:
    """Index of the padded-input positions that window tap (i, j) reads, for every output."""
    h0, w0 = i * dilations[0], j * dilations[1]
    return (slice(None), slice(h0, h0 + (out_hw[0] - 1) * strides[0] + 1, strides[0]),
            slice(w0, w0 + (out_hw[1] - 1) * strides[1] + 1, strides[1]))


def crop(xp: np.ndarray, pads: tuple, in_hw: tuple) -> np.ndarray:
    (top, _), (left, _) = pads
    return xp[:, top:top + in_hw[0], left:left + in_hw[1]]


# --------------------------------------------------------------------------------------
# Conv2D and its backprop ops


def _conv_setup(attrs: dict, in_hw: tuple, k_hw: tuple) -> tuple:
    """(strides, dilations, out_hw, pads) in NHWC terms from an op's attrs."""
    fmt = attrs["data_format"]
    a, b = spatial_axes(fmt)
    s, d, e = attrs["strides"], attrs["dilations"], attrs["explicit_paddings"]
    strides, dilations = (s[a], s[b]), (d[a], d[b])
    explicit = ((e[2 * a], e[2 * a + 1]), (e[2 * b], e[2 * b + 1])) if e else ((0, 0), (0, 0))
    try:
        out_hw, pads = window_geometry(in_hw, k_hw, strides, dilations, attrs["padding"],
                                       explicit)
    except ValueError as err:
        raise InvalidArgumentError(None, None, str(err)) from None
    return strides, dilations, out_hw, pads


def _columns(x: np.ndarray, k_hw: tuple, strides: tuple, dilations: tuple, out_hw: tuple,
             pads: tuple) -> np.ndarray:
    """im2col: the (N*OH*OW, KH*KW*C) matrix of input windows (a reused buffer)."""
    win = windows(pad_nhwc(x, pads), k_hw, strides, dilations, out_hw)
    cols = scratch(win.shape, x.dtype, "cols")
    np.copyto(cols, win)
    n, oh, ow, kh, kw, c = win.shape
    return cols.reshape(n * oh * ow, kh * kw * c)


def col2im(dcols: np.ndarray, in_shape: tuple, k_hw: tuple, strides: tuple,
           dilations: tuple, out_hw: tuple, pads: tuple) -> np.ndarray:
    """Adds (N, OH, OW, KH, KW, C) window values back onto an (N, H, W, C) input (new array)."""
    dxp, dx = _padded_zeros(in_shape, pads, dcols.dtype)
    for i in range(k_hw[0]):
        for j in range(k_hw[1]):
            dxp[tap_slice(i, j, strides, dilations, out_hw)] += dcols[:, :, :, i, j]
    return dx if dx is not None else crop(dxp, pads, in_shape[1:3]).copy()


def _conv2d_kernel(x: np.ndarray, f: np.ndarray, **attrs: Any) -> np.ndarray:
    threads.check()
    fmt = attrs["data_format"]
    x = to_nhwc(x, fmt)
    kh, kw, c, o = f.shape
    _check_depth(x.shape[3], c, o)
    strides, dilations, out_hw, pads = _conv_setup(attrs, x.shape[1:3], (kh, kw))
    if x.shape[3] != c:     # feature groups
        return from_nhwc(conv_nd.conv(x, f, strides, dilations, out_hw, pads), fmt)
    if conv_winograd.applies(f.shape, np.result_type(x, f), strides, dilations) and \
            conv_winograd.finite(x, f):
        return from_nhwc(_winograd(pad_nhwc(x, pads), f, out_hw), fmt)
    f2 = f.reshape(kh * kw * c, o)
    out = np.empty((x.shape[0], out_hw[0], out_hw[1], o), np.result_type(x, f))
    # chunks whose columns stay in the cache from their copy to the GEMM; the chunks do not
    # depend on the BLAS threads, so a busy machine computes what an idle one does
    for b in batch_chunks(x.shape[0], out_hw[0] * out_hw[1] * kh * kw * c, cached=True):
        cols = _columns(x[b], (kh, kw), strides, dilations, out_hw, pads)
        np.matmul(cols, f2, out=out[b].reshape(cols.shape[0], o))
    return from_nhwc(out, fmt)


def _conv2d_backprop_input_kernel(input_sizes: Any, f: np.ndarray, dy: np.ndarray,
                                  **attrs: Any) -> np.ndarray:
    threads.check()
    fmt = attrs["data_format"]
    in_shape = _nhwc_shape(input_sizes, fmt)
    dy = to_nhwc(dy, fmt)
    kh, kw, c, o = f.shape
    strides, dilations, out_hw, pads = _conv_setup(attrs, in_shape[1:3], (kh, kw))
    _check_out_backprop("Conv2DBackpropInput", dy.shape, in_shape[0], out_hw, o)
    if in_shape[3] != c:    # feature groups
        _check_depth(in_shape[3], c, o)
        return from_nhwc(conv_nd.backprop_input(dy, f, in_shape, strides, dilations, pads), fmt)
    (top, bottom), (left, right) = pads
    if conv_winograd.applies((kh, kw, o, c), np.result_type(f, dy), strides, dilations) and \
            max(top, bottom, left, right) <= 2 and conv_winograd.finite(dy, f):
        # the input gradient of a stride-1 3x3 convolution is the VALID convolution of dy,
        # padded by 2 less the forward's padding, with the filter turned 180 degrees
        dyp = pad_nhwc(dy, ((2 - top, 2 - bottom), (2 - left, 2 - right)), slot="wino_pad")
        return from_nhwc(_winograd(dyp, f[::-1, ::-1].transpose(0, 1, 3, 2), in_shape[1:3]),
                         fmt)
    geom = ((kh, kw), strides, dilations, out_hw, pads)
    per = out_hw[0] * out_hw[1] * (kh * kw * c if c == 1 else c + o)
    dx = np.empty(in_shape, np.result_type(f, dy))
    for b in batch_chunks(in_shape[0], per, cached=True):
        dx[b] = _backprop_input(dy[b], f, (dy[b].shape[0],) + in_shape[1:], geom)
    return from_nhwc(dx, fmt)


def _backprop_input(dy: np.ndarray, f: np.ndarray, in_shape: tuple, geom: tuple) -> np.ndarray:
    """Conv2DBackpropInput of one batch chunk, NHWC (maybe a view of a reused buffer)."""
    k_hw, strides, dilations, out_hw, pads = geom
    kh, kw, c, o = f.shape
    n, oh, ow, _ = dy.shape
    dy2 = dy.reshape(n * oh * ow, o)
    if c == 1:      # one GEMM into columns, then col2im
        dcols = np.matmul(dy2, f.reshape(kh * kw * c, o).T)
        return col2im(dcols.reshape(n, oh, ow, kh, kw, c), in_shape, k_hw, strides, dilations,
                      out_hw, pads)
    # one (M, O) x (O, C) GEMM per tap, added straight into the padded input gradient
    dxp, dx = _padded_zeros(in_shape, pads, dy.dtype)
    tap = scratch((n * oh * ow, c), dy.dtype, "tap")
    for i in range(kh):
        for j in range(kw):
            np.matmul(dy2, f[i, j].T, out=tap)
            dxp[tap_slice(i, j, strides, dilations, out_hw)] += tap.reshape(n, oh, ow, c)
    return dx if dx is not None else crop(dxp, pads, in_shape[1:3])


def _winograd(xp: np.ndarray, f: np.ndarray, out_hw: tuple) -> np.ndarray:
    """The VALID 3x3 convolution of padded NHWC ``xp`` by ``f`` as Winograd F(2x2, 3x3)."""
    dt = np.result_type(xp, f)
    return conv_winograd.conv3x3(xp, conv_winograd.filter_transform(f), out_hw,
                                 lambda shape, slot: scratch(shape, dt, slot))


def _padded_zeros(in_shape: tuple, pads: tuple, dtype: Any) -> tuple:
    """(zeroed padded buffer, the result array itself when there is no padding, else None)."""
    n, h, w, c = in_shape
    (top, bottom), (left, right) = pads
    if not (top or bottom or left or right):
        dx = np.zeros(in_shape, dtype)
        return dx, dx
    dxp = scratch((n, h + top + bottom, w + left + right, c), dtype, "dpad")
    dxp.fill(0)
    return dxp, None


def _conv2d_backprop_filter_kernel(x: np.ndarray, filter_sizes: Any, dy: np.ndarray,
                                   **attrs: Any) -> np.ndarray:
    threads.check()
    fmt = attrs["data_format"]
    x, dy = to_nhwc(x, fmt), to_nhwc(dy, fmt)
    kh, kw, c, o = (int(v) for v in filter_sizes)
    _check_depth(x.shape[3], c, o)
    strides, dilations, out_hw, pads = _conv_setup(attrs, x.shape[1:3], (kh, kw))
    _check_out_backprop("Conv2DBackpropFilter", dy.shape, x.shape[0], out_hw, o)
    if x.shape[3] != c:     # feature groups
        return conv_nd.backprop_filter(x, (kh, kw, c, o), dy, strides, dilations, pads)
    geom = ((kh, kw), strides, dilations, out_hw, pads)
    dw = None
    # chunks whose columns stay in the cache (as Conv2D's)
    for b in batch_chunks(x.shape[0], out_hw[0] * out_hw[1] * kh * kw * c, cached=True):
        part = _backprop_filter(x[b], dy[b], o, geom)
        dw = part if dw is None else np.add(dw, part, out=dw)
    return dw


def _backprop_filter(x: np.ndarray, dy: np.ndarray, o: int, geom: tuple) -> np.ndarray:
    """Conv2DBackpropFilter of one batch chunk, NHWC."""
    (kh, kw), strides, dilations, out_hw, pads = geom
    n, oh, ow, _ = dy.shape
    c = x.shape[3]
    dy2 = dy.reshape(n * oh * ow, o)
    if c < 8:       # transposed columns (KH*KW*C, M): one GEMM with a long inner dimension
        win = windows(pad_nhwc(x, pads), (kh, kw), strides, dilations, out_hw)
        cols = scratch((kh, kw, c, n, oh, ow), x.dtype, "colsT")
        np.copyto(cols, win.transpose(3, 4, 5, 0, 1, 2))
        return np.matmul(cols.reshape(kh * kw * c, n * oh * ow), dy2).reshape(kh, kw, c, o)
    # the forward's column matrix, transposed in the GEMM: columns.T @ dy
    cols = _columns(x, (kh, kw), strides, dilations, out_hw, pads)
    return np.matmul(cols.T, dy2).reshape(kh, kw, c, o)


def _nhwc_shape(sizes: Any, fmt: str) -> tuple:
    n, a, b, c = (int(v) for v in sizes)
    return (n, a, b, c) if fmt == "NHWC" else (n, b, c, a)


def _check_depth(x_depth: int, f_depth: int, o: int | None = None) -> None:
    """The input depth is the filter's (depthwise, ``o`` None), or the filter's times a number
    of feature groups that divides the output depth ``o``."""
    if x_depth == f_depth:
        return
    if o is None:
        raise InvalidArgumentError(None, None, "input depth must be evenly divisible by filter "
                                   "depth: %d vs %d" % (x_depth, f_depth))
    conv_nd.groups_of(x_depth, f_depth, o)


def _check_out_backprop(op_type: str, dy_shape: tuple, n: int, out_hw: tuple, o: int) -> None:
    if tuple(dy_shape) != (n, out_hw[0], out_hw[1], o):
        raise InvalidArgumentError(None, None, "%s: out_backprop has shape %s (NHWC), expected "
                                   "%s" % (op_type, list(dy_shape), [n, *out_hw, o]))


# Shape rules: unknown ranks and dimensions give unknown output dimensions.


def _dims4(shape: TensorShape, what: str, op_type: str) -> list:
    if shape.rank is None:
        return [None] * 4
    if shape.rank != 4:
        raise ValueError("Shape must be rank 4 but is rank %d for '%s' (%s shape %s)"
                         % (shape.rank, op_type, what, shape))
    return shape.as_list()


def _infer_output(x_shape: TensorShape, f_shape: TensorShape, attrs: dict, op_type: str,
                  depthwise: bool = False) -> TensorShape:
    """Output shape of Conv2D/DepthwiseConv2dNative from input and filter shapes."""
    fmt = attrs["data_format"]
    a, b = spatial_axes(fmt)
    xd = _dims4(x_shape, "input", op_type)
    kh, kw, fc, fo = _dims4(f_shape, "filter", op_type)
    c = xd[3 if fmt == "NHWC" else 1]
    if c is not None and fc is not None and (c != fc if depthwise else fc == 0 or c % fc):
        raise ShapeRuleError("Depth of input (%d) does not match the input depth of the filter "
                             "(%d) for '%s' with input shapes: %s, %s"
                             % (c, fc, op_type, x_shape, f_shape),
                             ("input and filter must have the same depth: %d vs %d" if depthwise
                              else "input depth must be evenly divisible by filter depth: "
                              "%d vs %d") % (c, fc))
    if not depthwise and c is not None and fc and fo is not None and fo % (c // fc):
        raise ValueError("Depth of output (%d) is not a multiple of the number of groups (%d) "
                         "for '%s' with input shapes: %s, %s" % (fo, c // fc, op_type, x_shape,
                                                                 f_shape))
    if kh is None or kw is None:
        oh = ow = None
    else:
        s, d, e = attrs["strides"], attrs["dilations"], attrs["explicit_paddings"]
        explicit = ((e[2 * a], e[2 * a + 1]), (e[2 * b], e[2 * b + 1])) if e else ((0, 0),) * 2
        (oh, ow), _ = window_geometry((xd[a], xd[b]), (kh, kw), (s[a], s[b]), (d[a], d[b]),
                                      attrs["padding"], explicit)
    if depthwise:
        o = None if fc is None or fo is None else fc * fo
    else:
        o = fo
    dims = [xd[0], oh, ow, o] if fmt == "NHWC" else [xd[0], o, oh, ow]
    return TensorShape(dims)


def _conv2d_infer(ins: list, attrs: dict) -> tuple:
    return ins[0].dtype.base_dtype, _infer_output(ins[0].shape, ins[1].shape, attrs, "Conv2D")


def _sizes_infer(ins: list, attrs: dict) -> tuple:
    """Backprop ops: the output shape is the value of the sizes input (index 0 or 1)."""
    k = 0 if ins[0].dtype.is_integer else 1
    data = ins[1] if k == 0 else ins[0]
    shape = shape_from_value(ins[k])
    if shape.rank is None:
        shape = TensorShape([None] * 4)
    return data.dtype.base_dtype, shape


def _attrs(op: Any) -> dict:
    return {k: op.get_attr(k) for k in ("strides", "padding", "explicit_paddings",
                                        "data_format", "dilations")}


def _conv_attrs(op: Any) -> dict:
    a = _attrs(op)
    a["use_cudnn_on_gpu"] = op.get_attr("use_cudnn_on_gpu")
    return a


_CONV2D_GRADS = conv_gradients("Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter",
                               _conv_attrs)
defop("Conv2D", _conv2d_kernel, _conv2d_infer, same_dtype=True, fresh_output=True,
      input_names=("input", "filter"), batching="images")(_CONV2D_GRADS[0])
defop("Conv2DBackpropInput", _conv2d_backprop_input_kernel, _sizes_infer, fresh_output=True,
      input_names=("input_sizes", "filter", "out_backprop"))(_CONV2D_GRADS[1])
defop("Conv2DBackpropFilter", _conv2d_backprop_filter_kernel, _sizes_infer,
      fresh_output=True, input_names=("input", "filter_sizes", "out_backprop"))(_CONV2D_GRADS[2])


# --------------------------------------------------------------------------------------
# DepthwiseConv2dNative and its backprop ops: filter (KH, KW, C, M), output C*M channels


def _depthwise_kernel(x: np.ndarray, f: np.ndarray, **attrs: Any) -> np.ndarray:
    fmt = attrs["data_format"]
    x = to_nhwc(x, fmt)
    kh, kw, c, m = f.shape
    _check_depth(x.shape[3], c)
    strides, dilations, out_hw, pads = _conv_setup(attrs, x.shape[1:3], (kh, kw))
    xp = pad_nhwc(x, pads)
    n = x.shape[0]
    dt = np.result_type(x, f)
    out = np.zeros((m, n, out_hw[0], out_hw[1], c), dt)     # per multiplier: contiguous
    tmp = scratch(out.shape[1:], dt, "tap")
    for i in range(kh):         # multiply-adds of whole arrays, one per tap and multiplier
        for j in range(kw):
            xs = xp[tap_slice(i, j, strides, dilations, out_hw)]
            for k in range(m):
                out[k] += np.multiply(xs, f[i, j, :, k], out=tmp)
    out = out.transpose(1, 2, 3, 4, 0).reshape(n, out_hw[0], out_hw[1], c * m)
    return from_nhwc(out, fmt)


def _depthwise_backprop_input_kernel(input_sizes: Any, f: np.ndarray, dy: np.ndarray,
                                     **attrs: Any) -> np.ndarray:
    fmt = attrs["data_format"]
    in_shape = _nhwc_shape(input_sizes, fmt)
    dy = to_nhwc(dy, fmt)
    kh, kw, c, m = f.shape
    strides, dilations, out_hw, pads = _conv_setup(attrs, in_shape[1:3], (kh, kw))
    _check_out_backprop("DepthwiseConv2dNativeBackpropInput", dy.shape, in_shape[0], out_hw,
                        c * m)
    n, oh, ow, _ = dy.shape
    dt = np.result_type(dy, f)
    dym = np.ascontiguousarray(dy.reshape(n, oh, ow, c, m).transpose(4, 0, 1, 2, 3))
    dxp, dx = _padded_zeros(in_shape, pads, dt)
    tmp = scratch((n, oh, ow, c), dt, "tap")
    for i in range(kh):
        for j in range(kw):
            np.multiply(dym[0], f[i, j, :, 0], out=tmp)
            for k in range(1, m):
                tmp += dym[k] * f[i, j, :, k]
            dxp[tap_slice(i, j, strides, dilations, out_hw)] += tmp
    return from_nhwc(dx if dx is not None else crop(dxp, pads, in_shape[1:3]).copy(), fmt)


def _depthwise_backprop_filter_kernel(x: np.ndarray, filter_sizes: Any, dy: np.ndarray,
                                      **attrs: Any) -> np.ndarray:
    fmt = attrs["data_format"]
    x, dy = to_nhwc(x, fmt), to_nhwc(dy, fmt)
    kh, kw, c, m = (int(v) for v in filter_sizes)
    _check_depth(x.shape[3], c)
    strides, dilations, out_hw, pads = _conv_setup(attrs, x.shape[1:3], (kh, kw))
    _check_out_backprop("DepthwiseConv2dNativeBackpropFilter", dy.shape, x.shape[0], out_hw,
                        c * m)
    n, oh, ow, _ = dy.shape
    dy5 = dy.reshape(n, oh, ow, c, m)
    xp = pad_nhwc(x, pads)
    dw = np.empty((kh, kw, c, m), np.result_type(x, dy))
    for i in range(kh):
        for j in range(kw):
            dw[i, j] = np.einsum("nhwc,nhwcm->cm", xp[tap_slice(i, j, strides, dilations,
                                                                  out_hw)], dy5)
    return dw


def _depthwise_infer(ins: list, attrs: dict) -> tuple:
    return ins[0].dtype.base_dtype, _infer_output(ins[0].shape, ins[1].shape, attrs,
                                                  "DepthwiseConv2dNative", depthwise=True)


_DEPTHWISE_GRADS = conv_gradients("DepthwiseConv2dNative", "DepthwiseConv2dNativeBackpropInput",
                                  "DepthwiseConv2dNativeBackpropFilter", _attrs)
defop("DepthwiseConv2dNative", _depthwise_kernel, _depthwise_infer, same_dtype=True,
      input_names=("input", "filter"), batching="images")(_DEPTHWISE_GRADS[0])
defop("DepthwiseConv2dNativeBackpropInput", _depthwise_backprop_input_kernel, _sizes_infer,
      input_names=("input_sizes", "filter", "out_backprop"))(_DEPTHWISE_GRADS[1])
defop("DepthwiseConv2dNativeBackpropFilter", _depthwise_backprop_filter_kernel, _sizes_infer,
      input_names=("input", "filter_sizes", "out_backprop"))(_DEPTHWISE_GRADS[2])


# --------------------------------------------------------------------------------------
# Argument handling of the public functions


def data_format_of(data_format: str | None, op_name: str) -> str:
    """'NHWC' or 'NCHW' (None means NHWC); ValueError otherwise."""
    fmt = "NHWC" if data_format is None else data_format
    if fmt not in ("NHWC", "NCHW"):
        raise ValueError("%s: data_format must be 'NHWC' or 'NCHW', got %r"
                         % (op_name, data_format))
    return fmt


def sequence4(value: TensorLike, data_format: str, name: str, op_name: str) -> tuple:
    """An int or a list of 1, 2 or 4 ints as the 4-tuple of a rank-4 tensor's axes."""
    if value is None:
        return (1, 1, 1, 1)
    vals = [int(value)] if isinstance(value, (int, np.integer)) else [int(v) for v in value]
    if len(vals) == 4:
        return tuple(vals)
    if len(vals) == 1:
        vals = vals * 2
    if len(vals) != 2:
        raise ValueError("%s: %s should be of length 1, 2 or 4 but was %d"
                         % (op_name, name, len(vals)))
    return (1, vals[0], vals[1], 1) if data_format == "NHWC" else (1, 1, vals[0], vals[1])


def check_unit_outer(value: tuple, data_format: str, name: str, op_name: str) -> None:
    """Strides/dilations/ksize must be 1 in the batch and channel dimensions."""
    c = 3 if data_format == "NHWC" else 1
    if value[0] != 1 or value[c] != 1:
        raise ValueError("%s: %s in the batch and depth dimensions must be 1, got %s"
                         % (op_name, name, list(value)))
    if min(value) < 1:
        raise ValueError("%s: %s must be positive, got %s" % (op_name, name, list(value)))


def padding_attrs(padding: str | Sequence, data_format: str, op_name: str) -> tuple:
    """(padding, explicit_paddings) attrs from 'SAME', 'VALID' or 4 [before, after] pairs."""
    if isinstance(padding, str):
        if padding not in ("SAME", "VALID"):
            raise argument_error(       # eagerly TensorFlow's kernel's class and first line
                "Value for attr 'padding' of \"%s\" is not in the list of allowed values: "
                "\"SAME\", \"VALID\", \"EXPLICIT\" [Op:%s]" % (padding, op_name)
                if executing_eagerly() else "%s: padding must be 'SAME', 'VALID' or a list of 4 "
                "[before, after] pairs, got %r" % (op_name, padding))
        return padding, ()
    pairs = [list(p) for p in padding]
    if len(pairs) != 4 or any(len(p) != 2 for p in pairs):
        raise ValueError("%s: explicit padding must be a list of 4 [before, after] pairs, got %r"
                         % (op_name, padding))
    c = 3 if data_format == "NHWC" else 1
    if pairs[0] != [0, 0] or pairs[c] != [0, 0]:
        raise ValueError("%s: explicit padding in the batch and depth dimensions must be 0, "
                         "got %r" % (op_name, padding))
    flat = tuple(int(v) for p in pairs for v in p)
    if min(flat) < 0:
        raise ValueError("%s: explicit paddings must be non-negative, got %r" % (op_name, padding))
    return "EXPLICIT", flat


def check_rank4(shape: TensorShape, op_type: str, what: str = "input") -> None:
    """ValueError naming the op when ``shape`` is not of rank 4."""
    r = shape.rank
    if r is not None and r != 4:
        raise ValueError("%s: %s must be rank 4, but is rank %d (shape %s)"
                         % (op_type, what, r, shape))


def _window_attrs(op_type: str, strides: Any, padding: Any, data_format: str | None,
                  dilations: Any) -> dict:
    fmt = data_format_of(data_format, op_type)
    s = sequence4(strides, fmt, "strides", op_type)
    d = sequence4(dilations, fmt, "dilations", op_type)
    check_unit_outer(s, fmt, "strides", op_type)
    check_unit_outer(d, fmt, "dilations", op_type)
    pad, explicit = padding_attrs(padding, fmt, op_type)
    return {"strides": s, "padding": pad, "explicit_paddings": explicit, "data_format": fmt,
            "dilations": d}


def _conv_inputs(op_type: str, input: Any, filters: Any, attrs: dict) -> tuple:
    x = _input(input, op_type, "input")
    f = _input(filters, op_type, "filter", dtype=x.dtype.base_dtype)
    check_rank4(x.shape, op_type, "input")
    check_rank4(f.shape, op_type, "filter")
    try:
        _infer_output(x.shape, f.shape, attrs, op_type, op_type != "Conv2D")
    except ShapeRuleError as e:
        if not executing_eagerly():
            raise
        raise EAGER_ERROR_CLASSES[ValueError](None, None, "%s [Op:%s]" % (e.kernel_message,
                                                                          op_type)) from None
    return x, f


# --------------------------------------------------------------------------------------
# Public functions


def conv2d_v2(input: TensorLike, filters: TensorLike, strides: int | Sequence[int],
              padding: str | Sequence, data_format: str = "NHWC",
              dilations: int | Sequence[int] | None = None, name: str | None = None) -> Any:
    """2-D convolution (cross-correlation) of a rank-4 ``input`` with (KH, KW, C, O) ``filters``.

    Args:
        input: The input: a [batch, height, width, in_channels] tensor (see ``data_format``).
        filters: The filters: [height, width, in_channels, out_channels].
        strides: The stride of the sliding window: an int or one per dimension.
        padding: ``"SAME"``, ``"VALID"``, or a list of explicit (before, after) pairs.
        data_format: Where the channels are: ``"NHWC"`` (last) or ``"NCHW"`` (after the batch), with
            the 1-D and 3-D analogues.
        dilations: The dilation rate of the filters: an int or one per dimension (1: none).
        name: A name for the operation (optional).
    """
    attrs = _window_attrs("Conv2D", strides, padding, data_format, dilations)
    attrs["use_cudnn_on_gpu"] = True
    x, f = _conv_inputs("Conv2D", input, filters, attrs)
    return apply_op("Conv2D", (x, f), attrs, name=name)


def conv2d(input: TensorLike, filter: TensorLike | None = None,
           strides: int | Sequence[int] | None = None, padding: str | Sequence | None = None,
           use_cudnn_on_gpu: bool = True, data_format: str = "NHWC",
           dilations: int | Sequence[int] | None = None, name: str | None = None,
           filters: TensorLike | None = None) -> Any:
    """TF1 form of ``conv2d`` (``filter=``; ``filters=`` also accepted).

    Args:
        input: The input: a [batch, height, width, in_channels] tensor (see ``data_format``).
        filter: The filters: [height, width, in_channels, out_channels].
        strides: The stride of the sliding window: an int or one per dimension.
        padding: ``"SAME"``, ``"VALID"``, or a list of explicit (before, after) pairs.
        use_cudnn_on_gpu: Accepted for TensorFlow's signature (no GPUs).
        data_format: Where the channels are: ``"NHWC"`` (last) or ``"NCHW"`` (after the batch), with
            the 1-D and 3-D analogues.
        dilations: The dilation rate of the filters: an int or one per dimension (1: none).
        name: A name for the operation (optional).
        filters: TensorFlow 2's name for ``filter``.
    """
    if filter is not None and filters is not None:
        raise ValueError("conv2d: specify only one of filter and filters")
    f = filters if filter is None else filter
    if f is None:
        raise ValueError("conv2d: filter (or filters) must be given")
    if padding is None:
        raise ValueError("conv2d: padding must be given ('SAME', 'VALID' or explicit pairs)")
    attrs = _window_attrs("Conv2D", strides, padding, data_format, dilations)
    attrs["use_cudnn_on_gpu"] = bool(use_cudnn_on_gpu)
    x, f = _conv_inputs("Conv2D", input, f, attrs)
    return apply_op("Conv2D", (x, f), attrs, name=name)


def conv2d_backprop_input(input_sizes: Any, filter: TensorLike | None = None,
                          out_backprop: TensorLike | None = None,
                          strides: int | Sequence[int] | None = None,
                          padding: str | Sequence | None = None, use_cudnn_on_gpu: bool = True,
                          data_format: str = "NHWC", dilations: int | Sequence[int] | None = None,
                          name: str | None = None, filters: TensorLike | None = None) -> Any:
    """The gradient of conv2d with respect to its input (of shape ``input_sizes``).

    Args:
        input_sizes: The shape of the input (a 1-D int32 tensor).
        filter: The filters: [height, width, in_channels, out_channels].
        out_backprop: The gradient with respect to the convolution's output.
        strides: The stride of the sliding window: an int or one per dimension.
        padding: ``"SAME"``, ``"VALID"``, or a list of explicit (before, after) pairs.
        use_cudnn_on_gpu: Accepted for TensorFlow's signature (no GPUs).
        data_format: Where the channels are: ``"NHWC"`` (last) or ``"NCHW"`` (after the batch), with
            the 1-D and 3-D analogues.
        dilations: The dilation rate of the filters: an int or one per dimension (1: none).
        name: A name for the operation (optional).
        filters: TensorFlow 2's name for ``filter``.
    """
    filter = filters if filter is None else filter
    if filter is None or out_backprop is None or padding is None:
        raise ValueError("conv2d_backprop_input: filter, out_backprop and padding must be given")
    attrs = _window_attrs("Conv2DBackpropInput", strides, padding, data_format, dilations)
    attrs["use_cudnn_on_gpu"] = bool(use_cudnn_on_gpu)
    dy = _input(out_backprop, "Conv2DBackpropInput", "out_backprop")
    f = _input(filter, "Conv2DBackpropInput", "filter", dtype=dy.dtype.base_dtype)
    check_rank4(dy.shape, "Conv2DBackpropInput", "out_backprop")
    check_rank4(f.shape, "Conv2DBackpropInput", "filter")
    sizes = _output_sizes(input_sizes)
    out_shape = shape_from_value(sizes)
    if out_shape.rank is not None:
        check_rank4(out_shape, "Conv2DBackpropInput", "input_sizes")
        if out_shape.is_fully_defined():
            expect = _infer_output(out_shape, f.shape, attrs, "Conv2DBackpropInput")
            if not expect.is_compatible_with(dy.shape):
                raise ValueError("Conv2DBackpropInput: out_backprop has shape %s, but an input "
                                 "of shape %s gives outputs of shape %s"
                                 % (dy.shape, out_shape, expect))
    return apply_op("Conv2DBackpropInput", (sizes, f, dy), attrs, name=name)


def conv2d_backprop_filter(input: TensorLike, filter_sizes: Any, out_backprop: TensorLike,
                           strides: int | Sequence[int], padding: str | Sequence,
                           use_cudnn_on_gpu: bool = True, data_format: str = "NHWC",
                           dilations: int | Sequence[int] | None = None,
                           name: str | None = None) -> Any:
    """The gradient of conv2d with respect to its filter (of shape ``filter_sizes``).

    Args:
        input: The convolution's input.
        filter_sizes: The shape of the filters (a 1-D int32 tensor).
        out_backprop: The gradient with respect to the convolution's output.
        strides: The stride of the sliding window: an int or one per dimension.
        padding: ``"SAME"``, ``"VALID"``, or a list of explicit (before, after) pairs.
        use_cudnn_on_gpu: Accepted for TensorFlow's signature (no GPUs).
        data_format: Where the channels are: ``"NHWC"`` (last) or ``"NCHW"`` (after the batch), with
            the 1-D and 3-D analogues.
        dilations: The dilation rate of the filters: an int or one per dimension (1: none).
        name: A name for the operation (optional).
    """
    attrs = _window_attrs("Conv2DBackpropFilter", strides, padding, data_format, dilations)
    attrs["use_cudnn_on_gpu"] = bool(use_cudnn_on_gpu)
    x = _input(input, "Conv2DBackpropFilter", "input")
    dy = _input(out_backprop, "Conv2DBackpropFilter", "out_backprop", dtype=x.dtype.base_dtype)
    check_rank4(x.shape, "Conv2DBackpropFilter", "input")
    check_rank4(dy.shape, "Conv2DBackpropFilter", "out_backprop")
    return apply_op("Conv2DBackpropFilter", (x, _output_sizes(filter_sizes), dy), attrs,
                    name=name)


def conv2d_transpose_v2(input: TensorLike, filters: TensorLike,
                        output_shape: ShapeLike | TensorLike, strides: int | Sequence[int],
                        padding: str = "SAME", data_format: str = "NHWC",
                        dilations: int | Sequence[int] | None = None,
                        name: str | None = None) -> Any:
    """The transpose of conv2d (Conv2DBackpropInput): ``filters`` is (KH, KW, out_C, in_C).

    Args:
        input: The input: a [batch, height, width, in_channels] tensor (see ``data_format``).
        filters: The filters: [height, width, out_channels, in_channels].
        output_shape: The output's full shape (a 1-D tensor or a list).
        strides: The stride of the sliding window: an int or one per dimension.
        padding: ``"SAME"``, ``"VALID"``, or a list of explicit (before, after) pairs.
        data_format: Where the channels are: ``"NHWC"`` (last) or ``"NCHW"`` (after the batch), with
            the 1-D and 3-D analogues.
        dilations: The dilation rate of the filters: an int or one per dimension (1: none).
        name: A name for the operation (optional).
    """
    with name_scope(name, "conv2d_transpose", [input, filters, output_shape]) as scope:
        return conv2d_backprop_input(output_shape, filters, input, strides, padding,
                                     data_format=data_format, dilations=dilations, name=scope)


def conv2d_transpose(value: TensorLike | None = None, filter: TensorLike | None = None,
                     output_shape: ShapeLike | TensorLike | None = None,
                     strides: int | Sequence[int] | None = None, padding: str = "SAME",
                     data_format: str = "NHWC", name: str | None = None,
                     input: TensorLike | None = None, filters: TensorLike | None = None,
                     dilations: int | Sequence[int] | None = None) -> Any:
    """TF1 form of ``conv2d_transpose`` (``value``/``filter``; ``input``/``filters`` too).

    Args:
        value: The input: a [batch, height, width, in_channels] tensor.
        filter: The filters: [height, width, out_channels, in_channels].
        output_shape: The output's full shape (a 1-D tensor or a list).
        strides: The stride of the sliding window: an int or one per dimension.
        padding: ``"SAME"``, ``"VALID"``, or a list of explicit (before, after) pairs.
        data_format: Where the channels are: ``"NHWC"`` (last) or ``"NCHW"`` (after the batch), with
            the 1-D and 3-D analogues.
        name: A name for the operation (optional).
        input: TensorFlow 2's name for ``value``.
        filters: TensorFlow 2's name for ``filter``.
        dilations: The dilation rate of the filters: an int or one per dimension (1: none).
    """
    x = value if input is None else input
    f = filter if filters is None else filters
    if x is None or f is None or output_shape is None:
        raise ValueError("conv2d_transpose: value, filter and output_shape must be given")
    return conv2d_transpose_v2(x, f, output_shape, strides, padding, data_format, dilations,
                               name)


def _conv1d_formats(data_format: str | None) -> tuple:
    fmt = "NWC" if data_format is None else data_format
    if fmt in ("NWC", "NHWC"):
        return "NHWC", 1
    if fmt in ("NCW", "NCHW"):
        return "NCHW", 2
    raise ValueError("conv1d: data_format must be 'NWC' or 'NCW', got %r" % (data_format,))


def conv1d_v2(input: TensorLike, filters: TensorLike, stride: Any, padding: str | Sequence,
              data_format: str = "NWC", dilations: int | Sequence[int] | None = None,
              name: str | None = None) -> Any:
    """1-D convolution of a rank-3 ``input`` with (K, C, O) ``filters``, as conv2d on H = 1.

    Args:
        input: The input: a [batch, width, in_channels] tensor (see ``data_format``).
        filters: The filters: [width, in_channels, out_channels].
        stride: The stride of the sliding window along the width.
        padding: ``"SAME"``, ``"VALID"``, or a list of explicit (before, after) pairs.
        data_format: Where the channels are: ``"NHWC"`` (last) or ``"NCHW"`` (after the batch), with
            the 1-D and 3-D analogues.
        dilations: The dilation rate of the filters: an int or one per dimension (1: none).
        name: A name for the operation (optional).
    """
    fmt, axis = _conv1d_formats(data_format)
    with name_scope(name, "conv1d", [input, filters]) as scope:
        x = _input(input, "Conv2D", "input")
        f = _input(filters, "Conv2D", "filter", dtype=x.dtype.base_dtype)
        for t, what in ((x, "input"), (f, "filters")):
            if t.shape.rank is not None and t.shape.rank != 3:
                raise ValueError("conv1d: %s must be rank 3, but is rank %d (shape %s)"
                                 % (what, t.shape.rank, t.shape))
        stride = _one(stride, "stride")
        dil = 1 if dilations is None else _one(dilations, "dilations")
        if isinstance(padding, str):
            pad = padding
        else:
            pairs = [list(p) for p in padding]
            pad = pairs[:axis] + [[0, 0]] + pairs[axis:]
        y = conv2d_v2(expand_dims(x, axis), expand_dims(f, 0), [1, stride], pad, fmt, [1, dil])
        return squeeze(y, [axis], name=scope)


def _one(v: Any, what: str) -> int:
    vals = [int(v)] if isinstance(v, (int, np.integer)) else [int(a) for a in v]
    if len(vals) == 3:
        vals = vals[1:2]
    if len(vals) != 1:
        raise ValueError("conv1d: %s should be an int or a list of 1 or 3 ints, got %r"
                         % (what, v))
    return vals[0]


def conv1d(value: TensorLike | None = None, filters: TensorLike | None = None, stride: Any = None,
           padding: str | Sequence | None = None, use_cudnn_on_gpu: Any = None,
           data_format: str | None = None, name: str | None = None, input: TensorLike | None = None,
           dilations: int | Sequence[int] | None = None) -> Any:
    """TF1 form of ``conv1d`` (``value=``; ``input=`` also accepted).

    Args:
        value: The input: a [batch, width, in_channels] tensor (see ``data_format``).
        filters: The filters: [width, in_channels, out_channels].
        stride: The stride of the sliding window along the width.
        padding: ``"SAME"``, ``"VALID"``, or a list of explicit (before, after) pairs.
        use_cudnn_on_gpu: Accepted for TensorFlow's signature (no GPUs).
        data_format: Where the channels are: ``"NHWC"`` (last) or ``"NCHW"`` (after the batch), with
            the 1-D and 3-D analogues.
        name: A name for the operation (optional).
        input: TensorFlow 2's name for ``value``.
        dilations: The dilation rate of the filters: an int or one per dimension (1: none).
    """
    x = value if input is None else input
    if x is None or filters is None or stride is None or padding is None:
        raise ValueError("conv1d: value, filters, stride and padding must be given")
    return conv1d_v2(x, filters, stride, padding, data_format or "NWC", dilations, name)


def conv1d_transpose(input: TensorLike, filters: TensorLike, output_shape: ShapeLike | TensorLike,
                     strides: int | Sequence[int], padding: str = "SAME", data_format: str = "NWC",
                     dilations: int | Sequence[int] | None = None, name: str | None = None) -> Any:
    """The transpose of conv1d: ``filters`` is (K, out_C, in_C), ``output_shape`` rank 3.

    Args:
        input: The input: a [batch, width, in_channels] tensor (see ``data_format``).
        filters: The filters: [width, out_channels, in_channels].
        output_shape: The output's full shape (a 1-D tensor or a list).
        strides: The stride along the width.
        padding: ``"SAME"``, ``"VALID"``, or a list of explicit (before, after) pairs.
        data_format: Where the channels are: ``"NHWC"`` (last) or ``"NCHW"`` (after the batch), with
            the 1-D and 3-D analogues.
        dilations: The dilation rate of the filters: an int or one per dimension (1: none).
        name: A name for the operation (optional).
    """
    fmt, axis = _conv1d_formats(data_format)
    with name_scope(name, "conv1d_transpose", [input, filters, output_shape]) as scope:
        x = _input(input, "Conv2DBackpropInput", "out_backprop")
        f = _input(filters, "Conv2DBackpropInput", "filter", dtype=x.dtype.base_dtype)
        if is_tensor(output_shape):
            shape4 = concat([output_shape[:axis], [1], output_shape[axis:]], 0)
        else:
            dims = list(output_shape.as_list() if isinstance(output_shape, TensorShape)
                        else output_shape)
            if len(dims) != 3:
                raise ValueError("conv1d_transpose: output_shape must have 3 elements, got %r"
                                 % (output_shape,))
            shape4 = dims[:axis] + [1] + dims[axis:]
        stride = _one(strides, "strides")
        dil = 1 if dilations is None else _one(dilations, "dilations")
        y = conv2d_transpose_v2(expand_dims(x, axis), expand_dims(f, 0), shape4, [1, stride],
                                padding, fmt, [1, dil])
        return squeeze(y, [axis], name=scope)


def depthwise_conv2d_native(input: TensorLike, filter: TensorLike, strides: int | Sequence[int],
                            padding: str | Sequence, data_format: str = "NHWC",
                            dilations: int | Sequence[int] | None = None,
                            name: str | None = None) -> Any:
    """Depthwise 2-D convolution: each input channel convolved with its own M filters.

    Args:
        input: The input: a [batch, height, width, in_channels] tensor (see ``data_format``).
        filter: The filters: [height, width, in_channels, channel_multiplier].
        strides: The stride of the sliding window: an int or one per dimension.
        padding: ``"SAME"``, ``"VALID"``, or a list of explicit (before, after) pairs.
        data_format: Where the channels are: ``"NHWC"`` (last) or ``"NCHW"`` (after the batch), with
            the 1-D and 3-D analogues.
        dilations: The dilation rate of the filters: an int or one per dimension (1: none).
        name: A name for the operation (optional).
    """
    attrs = _window_attrs("DepthwiseConv2dNative", strides, padding, data_format, dilations)
    x, f = _conv_inputs("DepthwiseConv2dNative", input, filter, attrs)
    return apply_op("DepthwiseConv2dNative", (x, f), attrs, name=name)


def depthwise_conv2d_backprop_input(input_sizes: Any, filter: TensorLike, out_backprop: TensorLike,
                                    strides: int | Sequence[int], padding: str | Sequence,
                                    data_format: str = "NHWC",
                                    dilations: int | Sequence[int] | None = None,
                                    name: str | None = None) -> Any:
    """The gradient of depthwise_conv2d with respect to its input (of shape ``input_sizes``).

    Args:
        input_sizes: The shape of the input (a 1-D int32 tensor).
        filter: The filters: [height, width, in_channels, channel_multiplier].
        out_backprop: The gradient with respect to the convolution's output.
        strides: The stride of the sliding window: an int or one per dimension.
        padding: ``"SAME"``, ``"VALID"``, or a list of explicit (before, after) pairs.
        data_format: Where the channels are: ``"NHWC"`` (last) or ``"NCHW"`` (after the batch), with
            the 1-D and 3-D analogues.
        dilations: The dilation rate of the filters: an int or one per dimension (1: none).
        name: A name for the operation (optional).
    """
    op = "DepthwiseConv2dNativeBackpropInput"
    attrs = _window_attrs(op, strides, padding, data_format, dilations)
    dy = _input(out_backprop, op, "out_backprop")
    f = _input(filter, op, "filter", dtype=dy.dtype.base_dtype)
    check_rank4(dy.shape, op, "out_backprop")
    check_rank4(f.shape, op, "filter")
    return apply_op(op, (_output_sizes(input_sizes), f, dy), attrs, name=name)


def depthwise_conv2d_backprop_filter(input: TensorLike, filter_sizes: Any, out_backprop: TensorLike,
                                     strides: int | Sequence[int], padding: str | Sequence,
                                     data_format: str = "NHWC",
                                     dilations: int | Sequence[int] | None = None,
                                     name: str | None = None) -> Any:
    """The gradient of depthwise_conv2d with respect to its filter (of shape ``filter_sizes``).

    Args:
        input: The convolution's input.
        filter_sizes: The shape of the filters (a 1-D int32 tensor).
        out_backprop: The gradient with respect to the convolution's output.
        strides: The stride of the sliding window: an int or one per dimension.
        padding: ``"SAME"``, ``"VALID"``, or a list of explicit (before, after) pairs.
        data_format: Where the channels are: ``"NHWC"`` (last) or ``"NCHW"`` (after the batch), with
            the 1-D and 3-D analogues.
        dilations: The dilation rate of the filters: an int or one per dimension (1: none).
        name: A name for the operation (optional).
    """
    op = "DepthwiseConv2dNativeBackpropFilter"
    attrs = _window_attrs(op, strides, padding, data_format, dilations)
    x = _input(input, op, "input")
    dy = _input(out_backprop, op, "out_backprop", dtype=x.dtype.base_dtype)
    check_rank4(x.shape, op, "input")
    check_rank4(dy.shape, op, "out_backprop")
    return apply_op(op, (x, _output_sizes(filter_sizes), dy), attrs, name=name)


def depthwise_conv2d_v2(input: TensorLike, filter: TensorLike, strides: int | Sequence[int],
                        padding: str | Sequence, data_format: str | None = None,
                        dilations: int | Sequence[int] | None = None,
                        name: str | None = None) -> Any:
    """Depthwise 2-D convolution with (KH, KW, C, M) ``filter``: C*M output channels.

    Args:
        input: The input: a [batch, height, width, in_channels] tensor (see ``data_format``).
        filter: The filters: [height, width, in_channels, channel_multiplier].
        strides: The stride of the sliding window: an int or one per dimension.
        padding: ``"SAME"``, ``"VALID"``, or a list of explicit (before, after) pairs.
        data_format: Where the channels are: ``"NHWC"`` (last) or ``"NCHW"`` (after the batch), with
            the 1-D and 3-D analogues.
        dilations: The dilation rate of the filters: an int or one per dimension (1: none).
        name: A name for the operation (optional).
    """
    with name_scope(name, "depthwise", [input, filter]) as scope:
        return depthwise_conv2d_native(input, filter, strides, padding, data_format or "NHWC",
                                       dilations, name=scope)


def depthwise_conv2d(input: TensorLike, filter: TensorLike, strides: int | Sequence[int],
                     padding: str | Sequence, rate: TensorLike | None = None,
                     name: str | None = None, data_format: str | None = None,
                     dilations: int | Sequence[int] | None = None) -> Any:
    """TF1 form of ``depthwise_conv2d`` (``rate`` is the dilation).

    Args:
        input: The input: a [batch, height, width, in_channels] tensor (see ``data_format``).
        filter: The filters: [height, width, in_channels, channel_multiplier].
        strides: The stride of the sliding window: an int or one per dimension.
        padding: ``"SAME"``, ``"VALID"``, or a list of explicit (before, after) pairs.
        rate: The dilation rate: one per spatial dimension (TF1's name for ``dilations``).
        name: A name for the operation (optional).
        data_format: Where the channels are: ``"NHWC"`` (last) or ``"NCHW"`` (after the batch), with
            the 1-D and 3-D analogues.
        dilations: The dilation rate of the filters: an int or one per dimension (1: none).
    """
    if rate is not None and dilations is not None:
        raise ValueError("depthwise_conv2d: specify only one of rate and dilations")
    return depthwise_conv2d_v2(input, filter, strides, padding, data_format,
                               dilations if rate is None else rate, name)


def separable_conv2d_v2(input: TensorLike, depthwise_filter: Any, pointwise_filter: Any,
                        strides: int | Sequence[int], padding: str | Sequence,
                        data_format: str | None = None,
                        dilations: int | Sequence[int] | None = None,
                        name: str | None = None) -> Any:
    """A depthwise convolution followed by a 1x1 convolution with ``pointwise_filter``.

    Args:
        input: The input: a [batch, height, width, in_channels] tensor (see ``data_format``).
        depthwise_filter: The depthwise filters: [height, width, in_channels, channel_multiplier].
        pointwise_filter: The 1x1 filters: [1, 1, in_channels * channel_multiplier, out_channels].
        strides: The stride of the sliding window: an int or one per dimension.
        padding: ``"SAME"``, ``"VALID"``, or a list of explicit (before, after) pairs.
        data_format: Where the channels are: ``"NHWC"`` (last) or ``"NCHW"`` (after the batch), with
            the 1-D and 3-D analogues.
        dilations: The dilation rate of the filters: an int or one per dimension (1: none).
        name: A name for the operation (optional).
    """
    with name_scope(name, "separable_conv2d", [input, depthwise_filter, pointwise_filter]) \
            as scope:
        p = _input(pointwise_filter, "Conv2D", "filter")
        dims = p.shape.as_tuple()
        if dims is not None and (len(dims) != 4 or dims[:2] != (1, 1)):
            raise ValueError("separable_conv2d: pointwise_filter must have shape "
                             "[1, 1, in_channels * channel_multiplier, out_channels], got %s"
                             % p.shape)
        fmt = data_format or "NHWC"
        y = depthwise_conv2d_v2(input, depthwise_filter, strides, padding, fmt, dilations)
        return conv2d_v2(y, p, 1, "VALID", fmt, name=scope)


def separable_conv2d(input: TensorLike, depthwise_filter: Any, pointwise_filter: Any,
                     strides: int | Sequence[int], padding: str | Sequence,
                     rate: TensorLike | None = None, name: str | None = None,
                     data_format: str | None = None,
                     dilations: int | Sequence[int] | None = None) -> Any:
    """TF1 form of ``separable_conv2d`` (``rate`` is the dilation).

    Args:
        input: The input: a [batch, height, width, in_channels] tensor (see ``data_format``).
        depthwise_filter: The depthwise filters: [height, width, in_channels, channel_multiplier].
        pointwise_filter: The 1x1 filters: [1, 1, in_channels * channel_multiplier, out_channels].
        strides: The stride of the sliding window: an int or one per dimension.
        padding: ``"SAME"``, ``"VALID"``, or a list of explicit (before, after) pairs.
        rate: The dilation rate of the depthwise step (TF1's name for ``dilations``).
        name: A name for the operation (optional).
        data_format: Where the channels are: ``"NHWC"`` (last) or ``"NCHW"`` (after the batch), with
            the 1-D and 3-D analogues.
        dilations: The dilation rate of the filters: an int or one per dimension (1: none).
    """
    if rate is not None and dilations is not None:
        raise ValueError("separable_conv2d: specify only one of rate and dilations")
    return separable_conv2d_v2(input, depthwise_filter, pointwise_filter, strides, padding,
                               data_format, dilations if rate is None else rate, name)


def atrous_conv2d(value: TensorLike, filters: TensorLike, rate: int, padding: str | Sequence,
                  name: str | None = None) -> Any:
    """conv2d with stride 1 and dilation ``rate`` (NHWC).

    Args:
        value: The input: a [batch, height, width, in_channels] tensor.
        filters: The filters: [height, width, in_channels, out_channels].
        rate: The dilation rate (a positive int).
        padding: ``"SAME"``, ``"VALID"``, or a list of explicit (before, after) pairs.
        name: A name for the operation (optional).
    """
    return conv2d_v2(value, filters, 1, padding, dilations=rate, name=name)


def convolution_v2(input: TensorLike, filters: TensorLike,
                   strides: int | Sequence[int] | None = None, padding: str | Sequence = "VALID",
                   data_format: str | None = None, dilations: int | Sequence[int] | None = None,
                   name: str | None = None) -> Any:
    """N-D convolution for N = 1, 2 and 3 (rank-3, rank-4 and rank-5 input).

    Args:
        input: The input: a tensor of rank N + 2 (batch, N spatial dimensions, channels; see
            ``data_format``).
        filters: The filters: [spatial..., in_channels, out_channels].
        strides: The stride of the sliding window: an int or one per dimension.
        padding: ``"SAME"``, ``"VALID"``, or a list of explicit (before, after) pairs.
        data_format: Where the channels are: ``"NHWC"`` (last) or ``"NCHW"`` (after the batch), with
            the 1-D and 3-D analogues.
        dilations: The dilation rate of the filters: an int or one per dimension (1: none).
        name: A name for the operation (optional).
    """
    x = _input(input, "Conv2D", "input")
    rank = x.shape.rank
    if rank == 3:
        return conv1d_v2(x, filters, 1 if strides is None else strides, padding,
                         data_format or "NWC", dilations, name)
    if rank == 4:
        return conv2d_v2(x, filters, strides, padding, data_format or "NHWC", dilations, name)
    if rank == 5:
        return conv3d_v2(x, filters, strides, padding, data_format or "NDHWC", dilations, name)
    raise ValueError("convolution: input must be rank 3, 4 or 5, got shape %s" % x.shape)


def convolution(input: TensorLike, filter: TensorLike | None = None,
                padding: str | Sequence | None = None, strides: int | Sequence[int] | None = None,
                dilation_rate: int | Sequence[int] | None = None, name: str | None = None,
                data_format: str | None = None, filters: TensorLike | None = None,
                dilations: int | Sequence[int] | None = None) -> Any:
    """TF1 form of ``convolution`` (``filter``/``dilation_rate``; ``filters``/``dilations``).

    Args:
        input: The input: a tensor of rank N + 2 (batch, N spatial dimensions, channels; see
            ``data_format``).
        filter: The filters: [spatial..., in_channels, out_channels].
        padding: ``"SAME"``, ``"VALID"``, or a list of explicit (before, after) pairs.
        strides: The stride of the sliding window: an int or one per dimension.
        dilation_rate: TF1's name for ``dilations``.
        name: A name for the operation (optional).
        data_format: Where the channels are: ``"NHWC"`` (last) or ``"NCHW"`` (after the batch), with
            the 1-D and 3-D analogues.
        filters: TensorFlow 2's name for ``filter``.
        dilations: The dilation rate of the filters: an int or one per dimension (1: none).
    """
    f = filters if filter is None else filter
    if f is None or padding is None:
        raise ValueError("convolution: filter and padding must be given")
    return convolution_v2(input, f, strides, padding, data_format,
                          dilations if dilation_rate is None else dilation_rate, name)




def conv_transpose(input: TensorLike, filters: TensorLike, output_shape: ShapeLike | TensorLike,  # noqa: A002
                   strides: int | Sequence[int], padding: str = "SAME",
                   data_format: str | None = None, dilations: int | Sequence[int] | None = None,
                   name: str | None = None) -> Any:
    """The transpose of a 1-D, 2-D or 3-D convolution, by the rank of ``output_shape``
    (``conv1d_transpose``, ``conv2d_transpose`` or ``conv3d_transpose``).

    Args:
      input: A rank-3, rank-4 or rank-5 tensor.
      filters: ``(K, out_C, in_C)``, ``(KH, KW, out_C, in_C)`` or ``(KD, KH, KW, out_C, in_C)``.
      output_shape: The output's shape (3, 4 or 5 entries).
      strides: The strides.
      padding: ``"SAME"`` or ``"VALID"``.
      data_format: Channels last by default.
      dilations: The dilations.
      name: A name for the operation.

    Returns:
      The transposed convolution.

    Raises:
      ValueError: for another rank.
    """
    n = len(output_shape) if isinstance(output_shape, (list, tuple)) else \
        convert_to_tensor(_as_value(output_shape)).shape.as_list()[0]
    if n == 3:
        return conv1d_transpose(input, filters, output_shape, strides, padding,
                                data_format or "NWC", dilations, name)
    if n == 4:
        return conv2d_transpose_v2(input, filters, output_shape, strides, padding,
                                   data_format or "NHWC", dilations, name)
    if n == 5:
        return conv3d_transpose_v2(input, filters, output_shape, strides, padding,
                                   data_format or "NDHWC", dilations, name)
    raise ValueError("conv_transpose: output_shape must have 3, 4 or 5 entries, got %d" % n)

__all__ = ["conv2d", "conv1d", "conv2d_transpose", "depthwise_conv2d",
           "depthwise_conv2d_native", "conv2d_backprop_input", "conv2d_backprop_filter",
           "separable_conv2d", "atrous_conv2d", "convolution", "depthwise_conv2d_backprop_input",
           "depthwise_conv2d_backprop_filter", "conv1d_transpose", "conv_transpose"]
