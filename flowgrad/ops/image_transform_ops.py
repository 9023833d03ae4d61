"""Projective image transforms: TensorFlow's ``ImageProjectiveTransformV2`` / ``V3`` (the
ops Keras's ``RandomRotation``, ``RandomZoom``, ``RandomTranslation``, ``RandomShear`` and
``keras.ops.image.affine_transform`` / ``perspective_transform`` call).

Each output pixel ``(x, y)`` (column, row) reads the input at ``((a0 x + a1 y + a2) / k,
(b0 x + b1 y + b2) / k)`` with ``k = c0 x + c1 y + 1`` for the transform ``[a0, a1, a2, b0,
b1, b2, c0, c1]`` (one per image, or one for all). A point outside the input is mapped back
into it by ``fill_mode`` (``REFLECT``, ``WRAP``, ``NEAREST``; ``CONSTANT`` reads
``fill_value``), then read with ``NEAREST`` (rounded half away from zero) or ``BILINEAR``
interpolation, in float32 as TensorFlow's kernel (``image_ops.h``) computes it.

The gradient is TensorFlow's: the output gradient transformed back by the inverse transform
(exact where the transform permutes pixels, as integer translations do)."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework.errors import InvalidArgumentError
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import defop, register_jvp
from flowgrad.framework.shape_rules import constant_value
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.array_ops import concat, ones, reshape, shape
from flowgrad.ops.linalg_ops import inv

_F32 = np.float32
_MODES = ("REFLECT", "WRAP", "CONSTANT", "NEAREST")
_INTERPOLATIONS = ("NEAREST", "BILINEAR")


def _map_coordinate(c: np.ndarray, n: int, mode: str) -> np.ndarray:
    """TensorFlow's MapCoordinate: an input coordinate brought into ``[0, n - 1]``."""
    if mode == "CONSTANT":
        return c
    if n <= 1:
        return np.zeros_like(c)
    if mode == "NEAREST":
        return np.clip(c, _F32(0), _F32(n - 1))
    c = c.copy()
    low, high = c < 0, c > n - 1
    if mode == "REFLECT":
        sz2 = 2 * n
        v = c[low]
        v = np.where(v < sz2, sz2 * np.trunc(-v / sz2) + v, v)
        c[low] = np.where(v < -n, v + sz2, -v - 1)
        v = c[high]
        v = v - sz2 * np.trunc(v / sz2)
        c[high] = np.where(v >= n, sz2 - v - 1, v)
    else:                                                  # WRAP
        sz = n - 1
        v = c[low]
        c[low] = v + n * (np.trunc(-v / sz) + 1)
        v = c[high]
        c[high] = v - n * np.trunc(v / sz)
    return np.clip(c, _F32(0), _F32(n - 1)).astype(_F32)


def _round_half_away(v: np.ndarray) -> np.ndarray:
    """``std::round`` (half away from zero), exact for float32 values."""
    w = v.astype(np.float64)
    return np.where(w < 0, -np.floor(-w + 0.5), np.floor(w + 0.5))


def _check_attrs(interpolation: str, fill_mode: str) -> str | None:
    """TensorFlow's message for an unknown interpolation or fill mode (which TensorFlow's
    kernel only logs before returning zeros), or None."""
    if interpolation not in _INTERPOLATIONS:
        return "Invalid interpolation %s. Supported types: NEAREST, BILINEAR" % interpolation
    if fill_mode not in _MODES:
        return "Invalid mode %s. Supported types: REFLECT, WRAP, CONSTANT, NEAREST" % fill_mode
    return None


def _transform_kernel(images: np.ndarray, transforms: Any, output_shape: Any,
                      fill_value: Any = 0.0, *, interpolation: str,
                      fill_mode: str = "CONSTANT") -> np.ndarray:
    bad = _check_attrs(interpolation, fill_mode)
    if bad:
        raise InvalidArgumentError(None, None, bad)
    images = np.asarray(images)
    transforms = np.asarray(transforms, _F32)
    if images.ndim != 4:
        raise InvalidArgumentError(None, None, "Input images must have rank 4")
    if transforms.ndim != 2 or transforms.shape[0] not in (1, images.shape[0]) or \
            transforms.shape[1] != 8:
        raise InvalidArgumentError(None, None,
                                   "Input transform should be num_images x 8 or 1 x 8")
    out_h, out_w = (int(v) for v in np.asarray(output_shape).reshape(-1))
    if out_h <= 0 or out_w <= 0:
        raise InvalidArgumentError(None, None, "output dimensions must be positive")
    b, h, w, c = images.shape
    ys, xs = np.meshgrid(np.arange(out_h, dtype=_F32), np.arange(out_w, dtype=_F32),
                         indexing="ij")
    t = np.broadcast_to(transforms, (b, 8))[:, :, None, None]
    projection = t[:, 6] * xs + t[:, 7] * ys + _F32(1)
    infinite = projection == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        in_x = (t[:, 0] * xs + t[:, 1] * ys + t[:, 2]) / projection
        in_y = (t[:, 3] * xs + t[:, 4] * ys + t[:, 5]) / projection
    in_x = _map_coordinate(np.where(infinite, _F32(0), in_x).astype(_F32), w, fill_mode)
    in_y = _map_coordinate(np.where(infinite, _F32(0), in_y).astype(_F32), h, fill_mode)
    fill = np.asarray(fill_value, _F32).astype(images.dtype)
    flat = images.reshape(b, h * w, c)
    batch = np.arange(b)[:, None, None]

    def read(yy: np.ndarray, xx: np.ndarray) -> tuple:
        inside = (yy >= 0) & (yy < h) & (xx >= 0) & (xx < w)
        index = np.clip(yy, 0, h - 1).astype(np.int64) * w + np.clip(xx, 0, w - 1).astype(
            np.int64)
        return flat[batch, index], inside[..., None]

    if interpolation == "NEAREST":
        got, inside = read(_round_half_away(in_y), _round_half_away(in_x))
        out = np.where(inside, got, fill)
    else:
        y0, x0 = np.floor(in_y), np.floor(in_x)
        y1, x1 = y0 + 1, x0 + 1
        fill32 = np.asarray(fill, _F32)

        def value(yy: np.ndarray, xx: np.ndarray) -> np.ndarray:
            got, inside = read(yy, xx)
            return np.where(inside, got.astype(_F32), fill32)
        wx0, wx1 = (x1 - in_x)[..., None], (in_x - x0)[..., None]
        top = wx0 * value(y0, x0) + wx1 * value(y0, x1)
        bottom = wx0 * value(y1, x0) + wx1 * value(y1, x1)
        out = ((y1 - in_y)[..., None] * top + (in_y - y0)[..., None] * bottom)
        out = out.astype(images.dtype) if images.dtype.kind == "f" else \
            np.trunc(out).astype(images.dtype)
    return np.where(infinite[..., None], fill, out).astype(images.dtype)


def _transform_infer(ins: list, attrs: dict) -> tuple:
    images, transforms, output_shape = ins[:3]
    bad = _check_attrs(attrs.get("interpolation"), attrs.get("fill_mode", "CONSTANT"))
    if bad:
        raise ValueError(bad)
    if images.shape.rank is not None and images.shape.rank != 4:
        raise ValueError("Shape must be rank 4 but is rank %d for 'images'"
                         % images.shape.rank)
    size = constant_value(output_shape)
    hw = [None, None] if size is None else [int(v) for v in np.asarray(size).reshape(-1)]
    dims = images.shape.as_list() if images.shape.rank is not None else [None] * 4
    return images.dtype.base_dtype, TensorShape([dims[0], *hw, dims[3]])


def _inverse_transforms(transforms: Any) -> Any:
    """TensorFlow's flat transforms inverted: to 3x3 matrices, their inverse, back to
    8 numbers (divided by the last entry)."""
    t = reshape(transforms, [-1, 8])
    matrices = reshape(concat([t, ones([shape(t)[0], 1], t.dtype)], axis=1), [-1, 3, 3])
    flat = reshape(inv(matrices), [-1, 9])
    return (flat / flat[:, 8:9])[:, :8]


def _attrs(op: Any) -> dict:
    return {"interpolation": op.get_attr("interpolation"),
            "fill_mode": op.get_attr("fill_mode")}


def _back(op: Any, grad: Any, op_type: str, extra: tuple) -> Any:
    images, transforms = op.inputs[0], op.inputs[1]
    return apply_op(op_type, (grad, _inverse_transforms(transforms), shape(images)[1:3])
                    + extra, _attrs(op))


@defop("ImageProjectiveTransformV2", _transform_kernel, _transform_infer,
       input_names=("images", "transforms", "output_shape"))
def _transform_v2_grad(op: Any, grad: Any) -> Any:
    return _back(op, grad, "ImageProjectiveTransformV2", ()), None, None


@defop("ImageProjectiveTransformV3", _transform_kernel, _transform_infer,
       input_names=("images", "transforms", "output_shape", "fill_value"))
def _transform_v3_grad(op: Any, grad: Any) -> Any:
    zero = np.float32(0.0)
    return _back(op, grad, "ImageProjectiveTransformV3", (zero,)), None, None, None


def _linear_jvp(op: Any, t: Any, *rest: Any) -> Any:
    """Linear in the images (for a fixed transform; a fill value is a constant offset)."""
    if t is None:
        return None
    inputs = (t, *op.inputs[1:3])
    if op.type == "ImageProjectiveTransformV3":
        inputs += (np.float32(0.0),)
    return apply_op(op.type, inputs, _attrs(op))


for _t in ("ImageProjectiveTransformV2", "ImageProjectiveTransformV3"):
    register_jvp(_t, _linear_jvp)

__all__: list = []
