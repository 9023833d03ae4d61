"""3-D convolution: the Conv3D, Conv3DBackpropInputV2 and Conv3DBackpropFilterV2 ops
(kernels in flowgrad/ops/conv_nd.py, NDHWC or NCDHW, feature groups as TensorFlow's XLA
path allows them) and ``tf.nn.conv3d``/``conv3d_transpose``.

As for Conv2D, each backprop op is linear in its two tensor inputs, so its gradients are
again Conv3D/backprop ops and a 3-D convolution can be differentiated to any order."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework.errors import InvalidArgumentError
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import defop
from flowgrad.framework.shape_rules import shape_from_value
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops import conv_nd
from flowgrad.ops.conv_gradients import conv_gradients
from flowgrad.ops.conv_nd import _output_sizes, output_size
from flowgrad.ops.nn_ops import _input
from collections.abc import Sequence
from flowgrad.framework.type_hints import ShapeLike, TensorLike

_FORMATS = ("NDHWC", "NCDHW")


def spatial3(data_format: str) -> tuple:
    """The (D, H, W) axes of a rank-5 tensor in ``data_format``."""
    return (1, 2, 3) if data_format == "NDHWC" else (2, 3, 4)


def to_ndhwc(x: np.ndarray, data_format: str) -> np.ndarray:
    return x if data_format == "NDHWC" else x.transpose(0, 2, 3, 4, 1)


def from_ndhwc(x: np.ndarray, data_format: str) -> np.ndarray:
    return x if data_format == "NDHWC" else x.transpose(0, 4, 1, 2, 3)


def ndhwc_shape(sizes: TensorLike, data_format: str) -> tuple:
    """A shape in ``data_format`` as the NDHWC shape."""
    s = tuple(int(v) for v in sizes)
    return s if data_format == "NDHWC" else (s[0], s[2], s[3], s[4], s[1])


def geometry3(attrs: dict, in_sp: tuple, k_sp: tuple, with_dilations: bool = True) -> tuple:
    """(strides, dilations, output sizes, pads) over (D, H, W) from a 3-D op's attrs.

    Raises:
      InvalidArgumentError: an output size would be negative.
    """
    axes = spatial3(attrs["data_format"])
    strides = tuple(attrs["strides"][a] for a in axes)
    dilations = tuple(attrs["dilations"][a] for a in axes) if with_dilations else (1, 1, 1)
    outs, pads = [], []
    for n, k, s, d in zip(in_sp, k_sp, strides, dilations):
        try:
            o, p = output_size(n, k, s, d, attrs["padding"])
        except ValueError as err:
            raise InvalidArgumentError(None, None, str(err)) from None
        outs.append(o)
        pads.append(p)
    return strides, dilations, tuple(outs), tuple(pads)


def _check_dy(op_type: str, dy_shape: tuple, n: int, out_sp: tuple, o: int) -> None:
    if tuple(dy_shape) != (n, *out_sp, o):
        raise InvalidArgumentError(None, None, "%s: out_backprop has shape %s (NDHWC), expected "
                                   "%s" % (op_type, list(dy_shape), [n, *out_sp, o]))


def _conv3d_kernel(x: np.ndarray, f: np.ndarray, **attrs: Any) -> np.ndarray:
    fmt = attrs["data_format"]
    x = to_ndhwc(x, fmt)
    strides, dilations, out_sp, pads = geometry3(attrs, x.shape[1:4], f.shape[:3])
    return from_ndhwc(conv_nd.conv(x, f, strides, dilations, out_sp, pads), fmt)


def _conv3d_backprop_input_kernel(input_sizes: Any, f: np.ndarray, dy: np.ndarray,
                                  **attrs: Any) -> np.ndarray:
    fmt = attrs["data_format"]
    in_shape = ndhwc_shape(input_sizes, fmt)
    dy = to_ndhwc(dy, fmt)
    strides, dilations, out_sp, pads = geometry3(attrs, in_shape[1:4], f.shape[:3])
    _check_dy("Conv3DBackpropInputV2", dy.shape, in_shape[0], out_sp, f.shape[4])
    return from_ndhwc(conv_nd.backprop_input(dy, f, in_shape, strides, dilations, pads), fmt)


def _conv3d_backprop_filter_kernel(x: np.ndarray, filter_sizes: Any, dy: np.ndarray,
                                   **attrs: Any) -> np.ndarray:
    fmt = attrs["data_format"]
    x, dy = to_ndhwc(x, fmt), to_ndhwc(dy, fmt)
    f_shape = tuple(int(v) for v in filter_sizes)
    strides, dilations, out_sp, pads = geometry3(attrs, x.shape[1:4], f_shape[:3])
    _check_dy("Conv3DBackpropFilterV2", dy.shape, x.shape[0], out_sp, f_shape[4])
    return conv_nd.backprop_filter(x, f_shape, dy, strides, dilations, pads)


def _dims5(shape: TensorShape, what: str, op_type: str) -> list:
    if shape.rank is None:
        return [None] * 5
    if shape.rank != 5:
        raise ValueError("Shape must be rank 5 but is rank %d for '%s' (%s shape %s)"
                         % (shape.rank, op_type, what, shape))
    return shape.as_list()


def _conv3d_infer(ins: list, attrs: dict) -> tuple:
    fmt = attrs["data_format"]
    axes = spatial3(fmt)
    xd = _dims5(ins[0].shape, "input", "Conv3D")
    fd = _dims5(ins[1].shape, "filter", "Conv3D")
    c, fc, fo = xd[4 if fmt == "NDHWC" else 1], fd[3], fd[4]
    if c is not None and fc is not None and (fc == 0 or c % fc):
        raise ValueError("Depth of input (%d) is not a multiple of input depth of filter (%d) "
                         "for 'Conv3D' with input shapes: %s, %s" % (c, fc, ins[0].shape,
                                                                    ins[1].shape))
    outs = []
    for a, k in zip(axes, fd[:3]):
        if xd[a] is None or k is None:
            outs.append(None)
        else:
            outs.append(output_size(xd[a], k, attrs["strides"][a], attrs["dilations"][a],
                                    attrs["padding"])[0])
    dims = [xd[0], *outs, fo] if fmt == "NDHWC" else [xd[0], fo, *outs]
    return ins[0].dtype.base_dtype, TensorShape(dims)


def _sizes_infer(ins: list, attrs: dict) -> tuple:
    """Backprop ops: the output shape is the value of the sizes input (index 0 or 1)."""
    k = 0 if ins[0].dtype.is_integer else 1
    data = ins[1] if k == 0 else ins[0]
    shape = shape_from_value(ins[k])
    return data.dtype.base_dtype, TensorShape([None] * 5) if shape.rank is None else shape


def _attrs(op: Any) -> dict:
    return {k: op.get_attr(k) for k in ("strides", "padding", "data_format", "dilations")}


_CONV3D_GRADS = conv_gradients("Conv3D", "Conv3DBackpropInputV2", "Conv3DBackpropFilterV2",
                               _attrs)
defop("Conv3D", _conv3d_kernel, _conv3d_infer, same_dtype=True,
      input_names=("input", "filter"))(_CONV3D_GRADS[0])
defop("Conv3DBackpropInputV2", _conv3d_backprop_input_kernel, _sizes_infer,
      input_names=("input_sizes", "filter", "out_backprop"))(_CONV3D_GRADS[1])
defop("Conv3DBackpropFilterV2", _conv3d_backprop_filter_kernel, _sizes_infer,
      input_names=("input", "filter_sizes", "out_backprop"))(_CONV3D_GRADS[2])


# --------------------------------------------------------------------------------------
# Public functions


def sequence5(value: TensorLike, data_format: str, name: str, op_name: str) -> tuple:
    """An int or a list of 1, 3 or 5 ints as the 5-tuple of a rank-5 tensor's axes.

    Raises:
      ValueError: another length, or a value other than 1 in the batch or channel axis.
    """
    if value is None:
        return (1,) * 5
    vals = [int(value)] if isinstance(value, (int, np.integer)) else [int(v) for v in value]
    if len(vals) == 1:
        vals = vals * 3
    if len(vals) == 3:
        vals = [1, *vals, 1] if data_format == "NDHWC" else [1, 1, *vals]
    if len(vals) != 5:
        raise ValueError("%s: %s should be of length 1, 3 or 5 but was %d"
                         % (op_name, name, len(vals)))
    c = 4 if data_format == "NDHWC" else 1
    if vals[0] != 1 or vals[c] != 1:
        raise ValueError("%s: %s in the batch and depth dimensions must be 1, got %s"
                         % (op_name, name, vals))
    if min(vals) < 1:
        raise ValueError("%s: %s must be positive, got %s" % (op_name, name, vals))
    return tuple(vals)


def conv3d_attrs(op_name: str, strides: int | Sequence[int], padding: str | Sequence,
                 data_format: str | None, dilations: int | Sequence[int]) -> dict:
    """The attrs of a 3-D convolution op from a public function's arguments.

    Raises:
      ValueError: a bad data_format, padding, stride or dilation.
    """
    fmt = data_format or "NDHWC"
    if fmt not in _FORMATS:
        raise ValueError("%s: data_format must be 'NDHWC' or 'NCDHW', got %r"
                         % (op_name, data_format))
    if padding not in ("SAME", "VALID"):
        raise ValueError("%s: padding must be 'SAME' or 'VALID', got %r" % (op_name, padding))
    return {"strides": sequence5(strides, fmt, "strides", op_name), "padding": padding,
            "data_format": fmt, "dilations": sequence5(dilations, fmt, "dilations", op_name)}


def _rank5(t: Any, op_name: str, what: str) -> None:
    r = t.shape.rank
    if r is not None and r != 5:
        raise ValueError("%s: %s must be rank 5, but is rank %d (shape %s)"
                         % (op_name, what, r, t.shape))


def conv3d_v2(input: TensorLike, filters: TensorLike, strides: int | Sequence[int], padding: str,  # noqa: A002
              data_format: str = "NDHWC", dilations: int | Sequence[int] | None = None,
              name: str | None = None) -> Any:
    """3-D convolution (cross-correlation) of a rank-5 ``input`` with (KD, KH, KW, C, O)
    ``filters``, as ``tf.nn.conv3d``.

    Args:
      input: [batch, depth, height, width, in_channels] (see ``data_format``).
      filters: [depth, height, width, in_channels, out_channels].
      strides: The window's stride: an int or 3 or 5 ints (1 in batch and channels).
      padding: ``"SAME"`` or ``"VALID"``.
      data_format: ``"NDHWC"`` (channels last) or ``"NCDHW"``.
      dilations: The filters' dilation rate: an int or 3 or 5 ints (1: none).
      name: A name for the operation.

    Returns:
      The rank-5 convolution of ``input``'s dtype.

    Raises:
      ValueError: bad arguments or shapes that do not fit.
    """
    attrs = conv3d_attrs("Conv3D", strides, padding, data_format, dilations)
    x = _input(input, "Conv3D", "input")
    f = _input(filters, "Conv3D", "filter", dtype=x.dtype.base_dtype)
    _rank5(x, "Conv3D", "input")
    _rank5(f, "Conv3D", "filter")
    _conv3d_infer([x, f], attrs)
    return apply_op("Conv3D", (x, f), attrs, name=name)


def conv3d(input: TensorLike, filter: TensorLike | None = None,  # noqa: A002
           strides: int | Sequence[int] | None = None, padding: str | None = None,
           data_format: str = "NDHWC", dilations: int | Sequence[int] | None = None,
           name: str | None = None, filters: TensorLike | None = None) -> Any:
    """TF1 form of ``conv3d`` (``filter=``; ``filters=`` also accepted).

    Args:
      input: [batch, depth, height, width, in_channels] (see ``data_format``).
      filter: [depth, height, width, in_channels, out_channels].
      strides: The window's stride: 5 ints (1 in batch and channels).
      padding: ``"SAME"`` or ``"VALID"``.
      data_format: ``"NDHWC"`` (channels last) or ``"NCDHW"``.
      dilations: The filters' dilation rate (1: none).
      name: A name for the operation.
      filters: TensorFlow 2's name for ``filter``.

    Returns:
      The rank-5 convolution of ``input``'s dtype.

    Raises:
      ValueError: bad arguments or shapes that do not fit.
    """
    if filter is not None and filters is not None:
        raise ValueError("conv3d: specify only one of filter and filters")
    f = filters if filter is None else filter
    if f is None or padding is None:
        raise ValueError("conv3d: filter and padding must be given")
    return conv3d_v2(input, f, strides, padding, data_format, dilations, name)


def conv3d_transpose_v2(input: TensorLike, filters: TensorLike,  # noqa: A002
                        output_shape: ShapeLike | TensorLike, strides: int | Sequence[int],
                        padding: str = "SAME", data_format: str = "NDHWC",
                        dilations: int | Sequence[int] | None = None,
                        name: str | None = None) -> Any:
    """The transpose of ``conv3d`` (the gradient of a 3-D convolution with respect to its
    input), as ``tf.nn.conv3d_transpose``.

    Args:
      input: [batch, depth, height, width, in_channels] (see ``data_format``).
      filters: [depth, height, width, output_channels, in_channels].
      output_shape: The output's shape (5 entries; a list or a 1-D int tensor).
      strides: The stride: an int or 3 or 5 ints.
      padding: ``"SAME"`` or ``"VALID"``.
      data_format: ``"NDHWC"`` or ``"NCDHW"``.
      dilations: The filters' dilation rate (1: none).
      name: A name for the operation.

    Returns:
      A tensor of shape ``output_shape``.

    Raises:
      ValueError: bad arguments or shapes that do not fit.
    """
    attrs = conv3d_attrs("conv3d_transpose", strides, padding, data_format, dilations)
    dy = _input(input, "Conv3DBackpropInputV2", "input")
    f = _input(filters, "Conv3DBackpropInputV2", "filter", dtype=dy.dtype.base_dtype)
    _rank5(dy, "conv3d_transpose", "input")
    _rank5(f, "conv3d_transpose", "filters")
    sizes = _output_sizes(output_shape)
    return apply_op("Conv3DBackpropInputV2", (sizes, f, dy), attrs, name=name)


def conv3d_transpose(value: TensorLike | None = None, filter: TensorLike | None = None,  # noqa: A002
                     output_shape: ShapeLike | TensorLike | None = None,
                     strides: int | Sequence[int] | None = None, padding: str = "SAME",
                     data_format: str = "NDHWC", name: str | None = None,
                     input: TensorLike | None = None, filters: TensorLike | None = None,
                     dilations: int | Sequence[int] | None = None) -> Any:
    """TF1 form of ``conv3d_transpose`` (``value``/``filter``; ``input``/``filters`` too).

    Args:
      value: [batch, depth, height, width, in_channels] (see ``data_format``).
      filter: [depth, height, width, output_channels, in_channels].
      output_shape: The output's shape (5 entries).
      strides: The stride: 5 ints.
      padding: ``"SAME"`` or ``"VALID"``.
      data_format: ``"NDHWC"`` or ``"NCDHW"``.
      name: A name for the operation.
      input: TensorFlow 2's name for ``value``.
      filters: TensorFlow 2's name for ``filter``.
      dilations: The filters' dilation rate (1: none).

    Returns:
      A tensor of shape ``output_shape``.

    Raises:
      ValueError: bad arguments or shapes that do not fit.
    """
    x = input if value is None else value
    f = filters if filter is None else filter
    return conv3d_transpose_v2(x, f, output_shape, strides, padding, data_format, dilations,
                               name)


__all__ = ["conv3d", "conv3d_transpose"]
