"""ExtractImagePatches (``tf.image.extract_patches``): every ksize window of an image,
flattened in (row, column, depth) order into the depth of one output pixel.

Its gradient is built from ops, as TensorFlow builds it: the patches of an image of pixel
numbers say where each patch entry came from (0 for padding), and ``unsorted_segment_sum``
adds each entry's gradient back onto its pixel; so the gradient is differentiable again."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework.errors import InvalidArgumentError
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import defop, register_jvp
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.array_op_util import linear_in_first_jvp
from flowgrad.ops.array_ops import reshape, transpose, unsorted_segment_sum
from collections.abc import Sequence
from flowgrad.framework.type_hints import TensorLike


def _geometry(size: int, k: int, s: int, r: int, padding: str) -> tuple:
    """(output size, padding before) along one axis, as TensorFlow's windowed ops."""
    k_eff = k + (k - 1) * (r - 1)
    if padding == "VALID":
        return max(0, -(-(size - k_eff + 1) // s)), 0
    out = -(-size // s)
    return out, max((out - 1) * s + k_eff - size, 0) // 2


def _check(attrs: dict) -> tuple:
    k, s, r = attrs["ksizes"], attrs["strides"], attrs["rates"]
    for what, v in (("ksizes", k), ("strides", s), ("rates", r)):
        if len(v) != 4 or v[0] != 1 or v[3] != 1:
            raise InvalidArgumentError(None, None, "ExtractImagePatches: %s must be [1, r, c, 1]"
                                       ", got %s" % (what, list(v)))
    if attrs["padding"] not in ("SAME", "VALID"):
        raise InvalidArgumentError(None, None, "ExtractImagePatches: padding must be SAME or "
                                   "VALID, got %r" % attrs["padding"])
    return k, s, r


def _patches_kernel(images: np.ndarray, **attrs: Any) -> np.ndarray:
    if images.ndim != 4:
        raise InvalidArgumentError(None, None, "ExtractImagePatches: input must be 4-D, got %s"
                                   % list(images.shape))
    k, s, r = _check(attrs)
    n, h, w, d = images.shape
    oh, ph = _geometry(h, k[1], s[1], r[1], attrs["padding"])
    ow, pw = _geometry(w, k[2], s[2], r[2], attrs["padding"])
    span_h = (oh - 1) * s[1] + (k[1] - 1) * r[1] + 1 if oh else 0
    span_w = (ow - 1) * s[2] + (k[2] - 1) * r[2] + 1 if ow else 0
    xp = np.zeros((n, max(h + ph, span_h), max(w + pw, span_w), d), images.dtype)
    xp[:, ph:ph + h, pw:pw + w] = images
    taps = [xp[:, i * r[1]:i * r[1] + (oh - 1) * s[1] + 1:s[1],
               j * r[2]:j * r[2] + (ow - 1) * s[2] + 1:s[2]]
            for i in range(k[1]) for j in range(k[2])]
    if not oh or not ow:
        return np.zeros((n, oh, ow, k[1] * k[2] * d), images.dtype)
    return np.stack(taps, 3).reshape(n, oh, ow, k[1] * k[2] * d)


def _patches_infer(ins: list, attrs: dict) -> tuple:
    x = ins[0]
    k, s, r = attrs["ksizes"], attrs["strides"], attrs["rates"]
    dims = x.shape.as_list() if x.shape.rank == 4 else [None] * 4

    def out(i: int) -> int | None:
        return None if dims[i] is None else _geometry(dims[i], k[i], s[i], r[i],
                                                      attrs["padding"])[0]
    depth = None if dims[3] is None else k[1] * k[2] * dims[3]
    return x.dtype.base_dtype, TensorShape([dims[0], out(1), out(2), depth])


def _attrs(op: Any) -> dict:
    return {a: op.get_attr(a) for a in ("ksizes", "strides", "rates", "padding")}


@defop("ExtractImagePatches", _patches_kernel, _patches_infer, input_names=("images",))
def _patches_grad(op: Any, grad: Any) -> Any:
    x = op.inputs[0]
    dims = x.shape.as_list()
    if None in dims[1:]:
        raise ValueError("The gradient of ExtractImagePatches needs the image's height, width "
                         "and depth when the graph is built; %s has shape %s" % (x.name, x.shape))
    _, h, w, d = dims
    attrs = _attrs(op)
    ids = np.arange(1, h * w + 1, dtype=np.float64).reshape(1, h, w, 1)
    ids = _patches_kernel(ids, **attrs)[0].astype(np.int64)     # [oh, ow, kh*kw], 0 = padding
    oh, ow, kk = ids.shape
    g = reshape(grad, [-1, oh, ow, kk, d])
    g = reshape(transpose(g, [1, 2, 3, 0, 4]), [oh * ow * kk, -1, d])
    summed = unsorted_segment_sum(g, ids.reshape(-1), h * w + 1)[1:]    # [h*w, n, d]
    return transpose(reshape(summed, [h, w, -1, d]), [2, 0, 1, 3])


register_jvp("ExtractImagePatches", linear_in_first_jvp)


def extract_patches(images: TensorLike, sizes: TensorLike, strides: int | Sequence[int],
                    rates: TensorLike, padding: str, name: str | None = None) -> Any:
    """The ``sizes`` windows of ``images``, each flattened into the depth of one pixel.

    Args:
        images: 4-D images [batch, rows, cols, depth].
        sizes: [1, size_rows, size_cols, 1].
        strides: [1, stride_rows, stride_cols, 1].
        rates: [1, rate_rows, rate_cols, 1]: the dilation of the windows.
        padding: "VALID" or "SAME".
        name: A name for the operation.

    Returns:
        [batch, out_rows, out_cols, size_rows * size_cols * depth].
    """
    return apply_op("ExtractImagePatches", (convert_to_tensor(images, name="images"),),
                    {"ksizes": [int(v) for v in sizes], "strides": [int(v) for v in strides],
                     "rates": [int(v) for v in rates], "padding": padding}, name=name)


def extract_image_patches(images: TensorLike, ksizes: Any = None,
                          strides: int | Sequence[int] | None = None,
                          rates: TensorLike | None = None, padding: str | None = None,
                          name: str | None = None, sizes: TensorLike | None = None) -> Any:
    """TensorFlow 1's ``extract_image_patches`` (``ksizes``, or ``sizes``).

    Args:
        images: A 4-D tensor ``[batch, rows, cols, depth]``.
        ksizes: The patch size ``[1, size_rows, size_cols, 1]``.
        strides: The distance between patch starts, ``[1, stride_rows, stride_cols, 1]``.
        rates: The sampling rate inside a patch, ``[1, rate_rows, rate_cols, 1]``.
        padding: ``"VALID"`` or ``"SAME"``.
        name: A name for the operation (optional).
        sizes: TensorFlow 2's name for ``ksizes``.

    Returns:
        A ``[batch, out_rows, out_cols, size_rows * size_cols * depth]`` tensor.
    """
    return extract_patches(images, ksizes if sizes is None else sizes, strides, rates, padding,
                           name)
