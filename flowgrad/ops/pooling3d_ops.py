"""3-D pooling: MaxPool3D, AvgPool3D and their gradient ops (NDHWC or NCDHW), and
``tf.nn.max_pool3d``/``avg_pool3d``.

As the 2-D kernels (flowgrad/ops/pooling_ops.py), they loop over the KD*KH*KW window taps,
each a strided slice of the padded input covering every output at once. MaxPool3DGrad
routes each output's gradient to the first maximum of its window in row-major order;
SAME average windows divide by their in-bounds elements only. The gradient ops have
gradients of their own (MaxPool3DGrad <-> MaxPool3DGradGrad, AvgPool3DGrad -> AvgPool3D),
so a 3-D pooling can be differentiated to any order."""
from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from flowgrad.framework.errors import InvalidArgumentError
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import defop, register_op
from flowgrad.framework.shape_rules import shape_from_value
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops import conv_nd
from flowgrad.ops.conv3d_ops import (_dims5, from_ndhwc, geometry3, ndhwc_shape, sequence5,
                                     spatial3, to_ndhwc)
from flowgrad.ops.conv_nd import _sizes, output_size
from flowgrad.ops.nn_ops import _input
from flowgrad.ops.pool_gradients import _like_input, _pool_attrs, max_pool_gradients
from collections.abc import Sequence
from flowgrad.framework.type_hints import TensorLike


def _setup(attrs: dict, in_sp: tuple) -> tuple:
    """(taps, output sizes, pads) of a 3-D pooling op over NDHWC input sizes ``in_sp``."""
    axes = spatial3(attrs["data_format"])
    k = tuple(attrs["ksize"][a] for a in axes)
    strides, _, out_sp, pads = geometry3(attrs, in_sp, k, with_dilations=False)
    taps = [conv_nd.tap(idx, strides, (1, 1, 1), out_sp)
            for idx in itertools.product(*(range(n) for n in k))]
    return taps, out_sp, pads


def _lowest(dtype: Any) -> Any:
    dt = np.dtype(dtype)
    return -np.inf if dt.kind == "f" else np.iinfo(dt).min


def _pool3d_infer(ins: list, attrs: dict) -> tuple:
    fmt = attrs["data_format"]
    d = _dims5(ins[0].shape, "input", "pooling")
    outs = [None if d[a] is None else
            output_size(d[a], attrs["ksize"][a], attrs["strides"][a], 1, attrs["padding"])[0]
            for a in spatial3(fmt)]
    dims = [d[0], *outs, d[4]] if fmt == "NDHWC" else [d[0], d[1], *outs]
    return ins[0].dtype.base_dtype, TensorShape(dims)


def _check_pooled(op_type: str, shapes: list, x_shape: tuple, out_sp: tuple) -> None:
    expect = (x_shape[0], *out_sp, x_shape[4])
    if any(tuple(s) != expect for s in shapes):
        raise InvalidArgumentError(None, None, "%s: orig_output and grad must have the pooled "
                                   "shape %s (NDHWC), got %s" % (
                                       op_type, list(expect), [list(s) for s in shapes]))


# --------------------------------------------------------------------------------------
# MaxPool3D, MaxPool3DGrad, MaxPool3DGradGrad


def _max_pool3d_kernel(x: np.ndarray, **attrs: Any) -> np.ndarray:
    fmt = attrs["data_format"]
    x = to_ndhwc(x, fmt)
    taps, _, pads = _setup(attrs, x.shape[1:4])
    xp = conv_nd.pad(x, pads, _lowest(x.dtype))
    out = xp[taps[0]].copy()
    for t in taps[1:]:
        np.maximum(out, xp[t], out=out)
    return from_ndhwc(out, fmt)


def _first_max_masks(xp: np.ndarray, y: np.ndarray, taps: list) -> Any:
    """For each tap, where it holds its window's first maximum (row-major order)."""
    taken = np.zeros(y.shape, bool)
    for t in taps:
        m = (xp[t] == y) & ~taken
        taken |= m
        yield t, m


def _max_pool3d_grad_kernel(x: np.ndarray, y: np.ndarray, g: np.ndarray,
                            **attrs: Any) -> np.ndarray:
    fmt = attrs["data_format"]
    x, y, g = to_ndhwc(x, fmt), to_ndhwc(y, fmt), to_ndhwc(g, fmt)
    taps, out_sp, pads = _setup(attrs, x.shape[1:4])
    _check_pooled("MaxPool3DGrad", [y.shape, g.shape], x.shape, out_sp)
    xp = conv_nd.pad(x, pads, _lowest(x.dtype))
    dxp = np.zeros(xp.shape, g.dtype)
    zero = np.zeros((), g.dtype)
    for t, m in _first_max_masks(xp, y, taps):
        dxp[t] += np.where(m, g, zero)
    return from_ndhwc(np.ascontiguousarray(conv_nd.crop(dxp, pads, x.shape[1:4])), fmt)


def _max_pool3d_grad_grad_kernel(x: np.ndarray, y: np.ndarray, gg: np.ndarray,
                                 **attrs: Any) -> np.ndarray:
    fmt = attrs["data_format"]
    x, y, gg = to_ndhwc(x, fmt), to_ndhwc(y, fmt), to_ndhwc(gg, fmt)
    taps, out_sp, pads = _setup(attrs, x.shape[1:4])
    if gg.shape != x.shape:
        raise InvalidArgumentError(None, None, "MaxPool3DGradGrad: grad has shape %s (NDHWC), "
                                   "expected the input's %s" % (list(gg.shape), list(x.shape)))
    _check_pooled("MaxPool3DGradGrad", [y.shape], x.shape, out_sp)
    xp = conv_nd.pad(x, pads, _lowest(x.dtype))
    ggp = conv_nd.pad(gg, pads, 0)
    out = np.zeros(y.shape, gg.dtype)
    for t, m in _first_max_masks(xp, y, taps):
        np.copyto(out, ggp[t], where=m)
    return from_ndhwc(out, fmt)


_MAX_POOL3D_GRADS = max_pool_gradients("MaxPool3D")
register_op("MaxPool3D", _max_pool3d_kernel, _pool3d_infer, grad=_MAX_POOL3D_GRADS[0],
            input_names=("input",))
register_op("MaxPool3DGrad", _max_pool3d_grad_kernel, _like_input(0), grad=_MAX_POOL3D_GRADS[1],
            same_dtype=True, input_names=("orig_input", "orig_output", "grad"))
register_op("MaxPool3DGradGrad", _max_pool3d_grad_grad_kernel, _like_input(1),
            grad=_MAX_POOL3D_GRADS[2], same_dtype=True,
            input_names=("orig_input", "orig_output", "grad"))


# --------------------------------------------------------------------------------------
# AvgPool3D, AvgPool3DGrad


def _counts(in_sp: tuple, attrs: dict, out_sp: tuple, pads: tuple, dtype: Any) -> np.ndarray:
    """(1, OD, OH, OW, 1) number of in-bounds input elements of each window."""
    axes = spatial3(attrs["data_format"])
    per_axis = []
    for a, n, o, (before, _) in zip(axes, in_sp, out_sp, pads):
        start = np.arange(o) * attrs["strides"][a] - before
        per_axis.append(np.minimum(start + attrs["ksize"][a], n) - np.maximum(start, 0))
    c = per_axis[0][:, None, None] * per_axis[1][None, :, None] * per_axis[2][None, None, :]
    return c.astype(dtype)[None, ..., None]


def _avg_pool3d_kernel(x: np.ndarray, **attrs: Any) -> np.ndarray:
    fmt = attrs["data_format"]
    x = to_ndhwc(x, fmt)
    taps, out_sp, pads = _setup(attrs, x.shape[1:4])
    xp = conv_nd.pad(x, pads, 0)
    out = xp[taps[0]].copy()
    for t in taps[1:]:
        out += xp[t]
    out /= _counts(x.shape[1:4], attrs, out_sp, pads, x.dtype)
    return from_ndhwc(out, fmt)


def _avg_pool3d_grad_kernel(sizes: Any, g: np.ndarray, **attrs: Any) -> np.ndarray:
    fmt = attrs["data_format"]
    shape = ndhwc_shape(sizes, fmt)
    g = to_ndhwc(g, fmt)
    taps, out_sp, pads = _setup(attrs, shape[1:4])
    _check_pooled("AvgPool3DGrad", [g.shape], shape, out_sp)
    gs = g / _counts(shape[1:4], attrs, out_sp, pads, g.dtype)
    dxp = np.zeros((shape[0],) + tuple(n + a + b for n, (a, b) in zip(shape[1:4], pads))
                   + (shape[4],), g.dtype)
    for t in taps:
        dxp[t] += gs
    return from_ndhwc(np.ascontiguousarray(conv_nd.crop(dxp, pads, shape[1:4])), fmt)


def _avg_pool3d_grad_infer(ins: list, attrs: dict) -> tuple:
    shape = shape_from_value(ins[0])
    return ins[1].dtype.base_dtype, TensorShape([None] * 5) if shape.rank is None else shape


@defop("AvgPool3D", _avg_pool3d_kernel, _pool3d_infer, input_names=("input",))
def _avg_pool3d_grad(op: Any, grad: Any) -> Any:
    return apply_op("AvgPool3DGrad", (_sizes(op.inputs[0]), grad), _pool_attrs(op))


@defop("AvgPool3DGrad", _avg_pool3d_grad_kernel, _avg_pool3d_grad_infer,
       input_names=("orig_input_shape", "grad"))
def _avg_pool3d_grad_grad(op: Any, grad: Any) -> Any:
    return None, apply_op("AvgPool3D", (grad,), _pool_attrs(op))


# --------------------------------------------------------------------------------------
# Public functions


def pool3d(op_type: str, input: TensorLike, ksize: int | Sequence[int],  # noqa: A002
           strides: int | Sequence[int], padding: str, data_format: str | None,
           name: str | None) -> Any:
    """A MaxPool3D or AvgPool3D op from a public function's arguments.

    Raises:
      ValueError: a bad data_format, padding, ksize, stride or input rank.
    """
    fmt = data_format or "NDHWC"
    if fmt not in ("NDHWC", "NCDHW"):
        raise ValueError("%s: data_format must be 'NDHWC' or 'NCDHW', got %r"
                         % (op_type, data_format))
    if padding not in ("SAME", "VALID"):
        raise ValueError("%s: padding must be 'SAME' or 'VALID', got %r" % (op_type, padding))
    attrs = {"ksize": sequence5(ksize, fmt, "ksize", op_type),
             "strides": sequence5(strides, fmt, "strides", op_type), "padding": padding,
             "data_format": fmt}
    x = _input(input, op_type, "input")
    if x.shape.rank is not None and x.shape.rank != 5:
        raise ValueError("%s: input must be rank 5, but is rank %d (shape %s)"
                         % (op_type, x.shape.rank, x.shape))
    _pool3d_infer([x], attrs)
    return apply_op(op_type, (x,), attrs, name=name)


def max_pool3d(input: TensorLike, ksize: int | Sequence[int], strides: int | Sequence[int],  # noqa: A002
               padding: str, data_format: str = "NDHWC", name: str | None = None) -> Any:
    """The maximum of each 3-D window of a rank-5 tensor, as ``tf.nn.max_pool3d``.

    Args:
      input: [batch, depth, height, width, channels] (see ``data_format``).
      ksize: The window's size: an int or 3 or 5 ints (1 in batch and channels).
      strides: The window's stride: an int or 3 or 5 ints.
      padding: ``"SAME"`` or ``"VALID"``.
      data_format: ``"NDHWC"`` (channels last) or ``"NCDHW"``.
      name: A name for the operation.

    Returns:
      The pooled tensor, of ``input``'s dtype.

    Raises:
      ValueError: bad arguments.
    """
    return pool3d("MaxPool3D", input, ksize, strides, padding, data_format, name)


def avg_pool3d(input: TensorLike, ksize: int | Sequence[int], strides: int | Sequence[int],  # noqa: A002
               padding: str, data_format: str = "NDHWC", name: str | None = None) -> Any:
    """The mean of each 3-D window of a rank-5 tensor (SAME windows over their in-bounds
    elements), as ``tf.nn.avg_pool3d``.

    Args:
      input: [batch, depth, height, width, channels] (see ``data_format``).
      ksize: The window's size: an int or 3 or 5 ints (1 in batch and channels).
      strides: The window's stride: an int or 3 or 5 ints.
      padding: ``"SAME"`` or ``"VALID"``.
      data_format: ``"NDHWC"`` (channels last) or ``"NCDHW"``.
      name: A name for the operation.

    Returns:
      The pooled tensor, of ``input``'s dtype.

    Raises:
      ValueError: bad arguments.
    """
    return pool3d("AvgPool3D", input, ksize, strides, padding, data_format, name)


__all__ = ["max_pool3d", "avg_pool3d"]
