"""Image resize ops: ResizeBilinear, ResizeNearestNeighbor, ResizeBicubic, ResizeArea,
ScaleAndTranslate and the gradient ops TensorFlow has for them.

Every resize is separable and linear in the image: output = Wy . image . Wx^T over the
height and width axes, where Wy (out_height x in_height) and Wx hold the weights TensorFlow's
CPU kernels use. The weights are computed as those kernels compute them, in float32 (sample
positions, TF's half-pixel and legacy scalers, the 1024-entry cubic coefficient table, the
sampling kernels of ScaleAndTranslate, the renormalisation at the borders), so results match
TensorFlow's to float precision (only the order of the float32 sums differs).

The gradient ops apply the transposed weights. They are linear in the incoming gradient, so
each has a gradient of its own (the forward resize again) and every resize can be
differentiated to any order; TensorFlow leaves its *Grad ops undifferentiated.

A difference from TensorFlow's raw ops: ResizeBilinear, ResizeBicubic, ResizeArea and
ScaleAndTranslate give float32 for every input dtype except float64, for which flowgrad
keeps float64 (TensorFlow rounds to float32). ``tf.image.resize`` casts to float32 as
TensorFlow's results are; the raw ops keep float64 so gradients can be checked in float64.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.errors import InvalidArgumentError
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import defop, register_jvp, register_op
from flowgrad.framework.shape_rules import shape_from_value
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.array_op_util import linear_in_first_jvp
from flowgrad.ops.shape_ops import shape
from flowgrad.ops.slicing_ops import strided_slice

_F32 = np.float32

# --------------------------------------------------------------------------------------
# Weights along one axis: a (out_size, in_size) matrix


def _resize_scale(in_size: int, out_size: int, align_corners: bool) -> np.float32:
    if align_corners and out_size > 1:
        return _F32(in_size - 1) / _F32(out_size - 1)
    return _F32(in_size) / _F32(out_size)


def _positions(out_size: int, scale: np.float32, half_pixel: bool, offset: float) -> np.ndarray:
    """TensorFlow's scalers in float32: (x + 0.5) * scale - offset, or x * scale (legacy)."""
    x = np.arange(out_size, dtype=_F32)
    if half_pixel:
        return (x + _F32(0.5)) * scale - _F32(offset)
    return x * scale


def _bilinear_weights(in_size: int, out_size: int, align_corners: bool,
                      half_pixel: bool) -> np.ndarray:
    pos = _positions(out_size, _resize_scale(in_size, out_size, align_corners), half_pixel, 0.5)
    floor = np.floor(pos)
    lower = np.maximum(floor.astype(np.int64), 0)
    upper = np.minimum(np.ceil(pos).astype(np.int64), in_size - 1)
    lerp = pos - floor
    w = np.zeros((out_size, in_size), _F32)
    rows = np.arange(out_size)
    np.add.at(w, (rows, lower), _F32(1) - lerp)
    np.add.at(w, (rows, upper), lerp)
    return w


def _nearest_indices(in_size: int, out_size: int, align_corners: bool,
                     half_pixel: bool) -> np.ndarray:
    pos = _positions(out_size, _resize_scale(in_size, out_size, align_corners), half_pixel, 0.0)
    # roundf rounds halves away from zero
    idx = np.floor(pos + _F32(0.5)) if align_corners else np.floor(pos)
    idx = np.minimum(idx.astype(np.int64), in_size - 1)
    return np.maximum(idx, 0) if half_pixel else idx


def _nearest_weights(in_size: int, out_size: int, align_corners: bool,
                     half_pixel: bool) -> np.ndarray:
    w = np.zeros((out_size, in_size), _F32)
    w[np.arange(out_size), _nearest_indices(in_size, out_size, align_corners, half_pixel)] = 1
    return w


_TABLE_SIZE = 1024


def _cubic_table(a: float) -> np.ndarray:
    """TensorFlow's coefficient table: entries (2i, 2i+1) are the weights at distance
    x = i/1024 and x + 1 of the cubic convolution kernel with parameter ``a``."""
    x = np.arange(_TABLE_SIZE + 1) / _TABLE_SIZE
    near = (((a + 2) * x - (a + 3)) * x * x + 1).astype(_F32)
    x1 = x + 1.0
    far = (((a * x1 - 5 * a) * x1 + 8 * a) * x1 - 4 * a).astype(_F32)
    return np.stack([near, far], 1).reshape(-1)


_KEYS_TABLE = _cubic_table(-0.5)
_LEGACY_TABLE = _cubic_table(-0.75)


def _bicubic_weights(in_size: int, out_size: int, align_corners: bool,
                     half_pixel: bool) -> np.ndarray:
    pos = _positions(out_size, _resize_scale(in_size, out_size, align_corners), half_pixel, 0.5)
    loc = np.floor(pos)
    offset = np.rint((pos - loc) * _F32(_TABLE_SIZE)).astype(np.int64)
    loc = loc.astype(np.int64)
    table = _KEYS_TABLE if half_pixel else _LEGACY_TABLE
    taps = np.stack([table[offset * 2 + 1], table[offset * 2],
                     table[(_TABLE_SIZE - offset) * 2],
                     table[(_TABLE_SIZE - offset) * 2 + 1]], 1)
    want = loc[:, None] + np.arange(-1, 3)
    idx = np.clip(want, 0, in_size - 1)
    if half_pixel:  # Keys: taps outside the image get no weight; the rest sum to one
        taps = np.where(idx == want, taps, _F32(0))
        total = taps.sum(1, dtype=_F32)
        ok = np.abs(total) >= 1000 * np.finfo(_F32).tiny
        taps = np.where(ok[:, None], taps * (_F32(1) / np.where(ok, total, 1))[:, None], taps)
    w = np.zeros((out_size, in_size), _F32)
    np.add.at(w, (np.repeat(np.arange(out_size), 4), idx.reshape(-1)), taps.reshape(-1))
    return w


def _area_weights(in_size: int, out_size: int, align_corners: bool) -> np.ndarray:
    scale = _resize_scale(in_size, out_size, align_corners)
    w = np.zeros((out_size, in_size), _F32)
    for y in range(out_size):
        lo, hi = _F32(y) * scale, _F32(y + 1) * scale
        for i in range(int(np.floor(lo)), int(np.ceil(hi))):
            if i < lo:
                part = scale if i + 1 > hi else _F32(i + 1) - lo
            else:
                part = hi - _F32(i) if i + 1 > hi else _F32(1)
            w[y, min(max(i, 0), in_size - 1)] += part
    return w / scale


def _lanczos(radius: float) -> Callable:
    def k(x: np.ndarray) -> np.ndarray:
        pi = _F32(3.14159265359)
        with np.errstate(divide="ignore", invalid="ignore"):
            v = (_F32(radius) * np.sin(pi * x) * np.sin(pi * x / _F32(radius))
                 / (pi * pi * x * x)).astype(_F32)
        return np.where(x > radius, _F32(0), np.where(x <= _F32(1e-3), _F32(1), v))
    return k


def _gaussian(x: np.ndarray) -> np.ndarray:
    sigma = _F32(1.5) / _F32(3.0)
    v = np.exp(-x * x / (2.0 * np.float64(sigma) * np.float64(sigma))).astype(_F32)
    return np.where(x >= _F32(1.5), _F32(0), v)


def _box(x: np.ndarray) -> np.ndarray:
    return np.where(x < _F32(0.5), _F32(1), np.where(x == _F32(0.5), _F32(0.5), _F32(0)))


def _triangle(x: np.ndarray) -> np.ndarray:
    return np.where(x < _F32(1), _F32(1) - x, _F32(0))


def _keys_cubic(x: np.ndarray) -> np.ndarray:
    far = ((_F32(-0.5) * x + _F32(2.5)) * x - _F32(4)) * x + _F32(2)
    near = ((_F32(1.5) * x - _F32(2.5)) * x) * x + _F32(1)
    return np.where(x >= 2, _F32(0), np.where(x >= 1, far, near))


def _mitchell_cubic(x: np.ndarray) -> np.ndarray:
    far = ((_F32(-7.0 / 18.0) * x + _F32(2)) * x - _F32(10.0 / 3.0)) * x + _F32(16.0 / 9.0)
    near = ((_F32(7.0 / 6.0) * x - _F32(2)) * x) * x + _F32(8.0 / 9.0)
    return np.where(x >= 2, _F32(0), np.where(x >= 1, far, near))


#: ScaleAndTranslate's sampling kernels: (function of |x|, radius).
SAMPLING_KERNELS = {
    "lanczos1": (_lanczos(1.0), 1.0), "lanczos3": (_lanczos(3.0), 3.0),
    "lanczos5": (_lanczos(5.0), 5.0), "gaussian": (_gaussian, 1.5), "box": (_box, 1.0),
    "triangle": (_triangle, 1.0), "keyscubic": (_keys_cubic, 2.0),
    "mitchellcubic": (_mitchell_cubic, 2.0),
}


def _scale_translate_weights(in_size: int, out_size: int, scale: float, translate: float,
                             kernel_type: str, antialias: bool) -> np.ndarray:
    kernel, radius = SAMPLING_KERNELS[kernel_type]
    inv_scale = _F32(1.0 / np.float64(_F32(scale)))
    inv_translate = -inv_scale * _F32(translate)
    kernel_scale = max(inv_scale, _F32(1)) if antialias else _F32(1)
    reach = _F32(radius) * kernel_scale
    w = np.zeros((out_size, in_size), _F32)
    for x in range(out_size):
        sample = (_F32(x) + _F32(0.5)) * inv_scale + inv_translate
        if sample < 0 or sample > in_size:
            continue
        start = min(max(int(np.ceil(sample - reach - _F32(0.5))), 0), in_size - 1)
        end = min(max(int(np.floor(sample + reach - _F32(0.5))), 0), in_size - 1) + 1
        src = np.arange(start, end, dtype=_F32)
        taps = kernel(np.abs((src + _F32(0.5) - sample) * (_F32(1) / kernel_scale)))
        total = _F32(0)
        for t in taps:  # float32, in TensorFlow's order
            total = _F32(total + t)
        if abs(total) >= 1000 * np.finfo(_F32).tiny:
            w[x, start:end] = taps * (_F32(1) / total)
    return w


# --------------------------------------------------------------------------------------
# Shared machinery


def _check_images(op_type: str, x: np.ndarray, what: str = "input") -> None:
    if x.ndim != 4:
        raise InvalidArgumentError(None, None, "%s: %s must be 4-dimensional, got shape %s"
                                   % (op_type, what, list(x.shape)))


def _size_pair(op_type: str, size: Any) -> tuple:
    s = np.asarray(size)
    if s.shape != (2,):
        raise InvalidArgumentError(None, None, "%s: shape_t must be 1-dimensional with two "
                                   "elements, got shape %s" % (op_type, list(s.shape)))
    h, w = int(s[0]), int(s[1])
    if h <= 0 or w <= 0:
        raise InvalidArgumentError(None, None, "%s: output dimensions must be positive, got "
                                   "%d x %d" % (op_type, h, w))
    return h, w


def _check_centers(op_type: str, align_corners: bool, half_pixel: bool) -> None:
    if align_corners and half_pixel:
        raise InvalidArgumentError(None, None, "%s: If half_pixel_centers is True, "
                                   "align_corners must be False." % op_type)


def _compute_dtype(dtype: np.dtype) -> Any:
    return np.float64 if dtype == np.float64 else _F32


def _apply(x: np.ndarray, wy: np.ndarray, wx: np.ndarray) -> np.ndarray:
    """wy . x . wx^T over axes 1 and 2 of an NHWC array."""
    ct = _compute_dtype(x.dtype)
    x = x.astype(ct, copy=False)
    y = np.einsum("oh,nhwc->nowc", wy.astype(ct), x, optimize=True)
    return np.einsum("pw,nowc->nopc", wx.astype(ct), y, optimize=True)


def _float_out(dtype: Any) -> Any:
    return dtypes.float64 if dtype.base_dtype == dtypes.float64 else dtypes.float32


def _resized_infer(out_dtype: Callable) -> Callable:
    def infer(ins: list, attrs: dict) -> tuple:
        x = ins[0]
        s = shape_from_value(ins[1]) if len(ins) > 1 else TensorShape(None)
        hw = s.as_list() if s.rank == 2 else [None, None]
        dims = x.shape.as_list() if x.shape.rank is not None else [None] * 4
        if x.shape.rank not in (None, 4):
            raise ValueError("Shape must be rank 4 but is rank %d for the images of a resize"
                             % x.shape.rank)
        return out_dtype(x.dtype), TensorShape([dims[0], hw[0], hw[1], dims[3]])
    return infer


def _grad_infer(like: int) -> Callable:
    def infer(ins: list, attrs: dict) -> tuple:
        return ins[like].dtype.base_dtype, ins[like].shape
    return infer


def _hw(t: Any) -> Any:
    """The (height, width) of an NHWC tensor: a constant where both are known statically (as
    TensorFlow's resize gradients take them, so the gradient's shape is static too), else an
    int32 tensor computed at run time."""
    dims = t.shape.as_list() if t.shape.rank == 4 else None
    if dims is not None and dims[1] is not None and dims[2] is not None:
        return np.array(dims[1:3], np.int32)
    return strided_slice(shape(t), [1], [3])


def _corner_attrs(op: Any) -> dict:
    return {"align_corners": op.get_attr("align_corners"),
            "half_pixel_centers": op.get_attr("half_pixel_centers")}


def _register_linear_jvps(*op_types: str) -> None:
    for t in op_types:
        register_jvp(t, linear_in_first_jvp)


# --------------------------------------------------------------------------------------
# ResizeBilinear / ResizeBilinearGrad


def _bilinear_kernel(images: np.ndarray, size: Any, *, align_corners: bool,
                     half_pixel_centers: bool) -> np.ndarray:
    _check_images("ResizeBilinear", images)
    _check_centers("ResizeBilinear", align_corners, half_pixel_centers)
    h, w = _size_pair("ResizeBilinear", size)
    return _apply(images, _bilinear_weights(images.shape[1], h, align_corners, half_pixel_centers),
                  _bilinear_weights(images.shape[2], w, align_corners, half_pixel_centers))


def _bilinear_grad_kernel(grads: np.ndarray, original: np.ndarray, *, align_corners: bool,
                          half_pixel_centers: bool) -> np.ndarray:
    _check_images("ResizeBilinearGrad", grads, "grads")
    wy = _bilinear_weights(original.shape[1], grads.shape[1], align_corners, half_pixel_centers)
    wx = _bilinear_weights(original.shape[2], grads.shape[2], align_corners, half_pixel_centers)
    return _apply(grads, wy.T, wx.T).astype(original.dtype)


@defop("ResizeBilinear", _bilinear_kernel, _resized_infer(_float_out),
       input_names=("images", "size"))
def _resize_bilinear_grad(op: Any, grad: Any) -> Any:
    return apply_op("ResizeBilinearGrad", (grad, op.inputs[0]), _corner_attrs(op)), None


@defop("ResizeBilinearGrad", _bilinear_grad_kernel, _grad_infer(1),
       input_names=("grads", "original_image"))
def _resize_bilinear_grad_grad(op: Any, grad: Any) -> Any:
    g = apply_op("ResizeBilinear", (grad, _hw(op.inputs[0])), _corner_attrs(op))
    return g, None


# --------------------------------------------------------------------------------------
# ResizeNearestNeighbor / ResizeNearestNeighborGrad


def _nearest_kernel(images: np.ndarray, size: Any, *, align_corners: bool,
                    half_pixel_centers: bool) -> np.ndarray:
    _check_images("ResizeNearestNeighbor", images)
    _check_centers("ResizeNearestNeighbor", align_corners, half_pixel_centers)
    h, w = _size_pair("ResizeNearestNeighbor", size)
    iy = _nearest_indices(images.shape[1], h, align_corners, half_pixel_centers)
    ix = _nearest_indices(images.shape[2], w, align_corners, half_pixel_centers)
    return images[:, iy][:, :, ix]


def _nearest_grad_kernel(grads: np.ndarray, size: Any, *, align_corners: bool,
                         half_pixel_centers: bool) -> np.ndarray:
    _check_images("ResizeNearestNeighborGrad", grads, "grads")
    h, w = _size_pair("ResizeNearestNeighborGrad", size)
    wy = _nearest_weights(h, grads.shape[1], align_corners, half_pixel_centers)
    wx = _nearest_weights(w, grads.shape[2], align_corners, half_pixel_centers)
    return _apply(grads, wy.T, wx.T).astype(grads.dtype)


def _same_dtype(dtype: Any) -> Any:
    return dtype.base_dtype


@defop("ResizeNearestNeighbor", _nearest_kernel, _resized_infer(_same_dtype),
       input_names=("images", "size"))
def _resize_nearest_grad(op: Any, grad: Any) -> Any:
    return apply_op("ResizeNearestNeighborGrad", (grad, _hw(op.inputs[0])),
                    _corner_attrs(op)), None


@defop("ResizeNearestNeighborGrad", _nearest_grad_kernel, _resized_infer(_same_dtype),
       input_names=("grads", "size"))
def _resize_nearest_grad_grad(op: Any, grad: Any) -> Any:
    return apply_op("ResizeNearestNeighbor", (grad, _hw(op.inputs[0])), _corner_attrs(op)), None


# --------------------------------------------------------------------------------------
# ResizeBicubic / ResizeBicubicGrad


def _bicubic_kernel(images: np.ndarray, size: Any, *, align_corners: bool,
                    half_pixel_centers: bool) -> np.ndarray:
    _check_images("ResizeBicubic", images)
    _check_centers("ResizeBicubic", align_corners, half_pixel_centers)
    h, w = _size_pair("ResizeBicubic", size)
    return _apply(images, _bicubic_weights(images.shape[1], h, align_corners, half_pixel_centers),
                  _bicubic_weights(images.shape[2], w, align_corners, half_pixel_centers))


def _bicubic_grad_kernel(grads: np.ndarray, original: np.ndarray, *, align_corners: bool,
                         half_pixel_centers: bool) -> np.ndarray:
    _check_images("ResizeBicubicGrad", grads, "grads")
    wy = _bicubic_weights(original.shape[1], grads.shape[1], align_corners, half_pixel_centers)
    wx = _bicubic_weights(original.shape[2], grads.shape[2], align_corners, half_pixel_centers)
    return _apply(grads, wy.T, wx.T).astype(original.dtype)


@defop("ResizeBicubic", _bicubic_kernel, _resized_infer(_float_out),
       input_names=("images", "size"))
def _resize_bicubic_grad(op: Any, grad: Any) -> Any:
    return apply_op("ResizeBicubicGrad", (grad, op.inputs[0]), _corner_attrs(op)), None


@defop("ResizeBicubicGrad", _bicubic_grad_kernel, _grad_infer(1),
       input_names=("grads", "original_image"))
def _resize_bicubic_grad_grad(op: Any, grad: Any) -> Any:
    return apply_op("ResizeBicubic", (grad, _hw(op.inputs[0])), _corner_attrs(op)), None


# --------------------------------------------------------------------------------------
# ResizeArea (no gradient, as in TensorFlow)


def _area_kernel(images: np.ndarray, size: Any, *, align_corners: bool) -> np.ndarray:
    _check_images("ResizeArea", images)
    h, w = _size_pair("ResizeArea", size)
    return _apply(images, _area_weights(images.shape[1], h, align_corners),
                  _area_weights(images.shape[2], w, align_corners))


register_op("ResizeArea", _area_kernel, _resized_infer(_float_out),
            input_names=("images", "size"))


# --------------------------------------------------------------------------------------
# ScaleAndTranslate / ScaleAndTranslateGrad


def _pair(op_type: str, what: str, v: Any) -> tuple:
    v = np.asarray(v, np.float32)
    if v.shape != (2,):
        raise InvalidArgumentError(None, None, "%s: %s must be 1-dimensional with two elements, "
                                   "got shape %s" % (op_type, what, list(v.shape)))
    return v[0], v[1]


def _st_weights(op_type: str, in_hw: tuple, out_hw: tuple, scale: Any, translation: Any,
                kernel_type: str, antialias: bool) -> tuple:
    if kernel_type not in SAMPLING_KERNELS:
        raise InvalidArgumentError(None, None, "%s: Unrecognized kernel type: %s"
                                   % (op_type, kernel_type))
    sy, sx = _pair(op_type, "scale", scale)
    ty, tx = _pair(op_type, "translation", translation)
    if not (sy > 0 and sx > 0):
        raise InvalidArgumentError(None, None, "%s: Scale must be greater than zero." % op_type)
    return (_scale_translate_weights(in_hw[0], out_hw[0], sy, ty, kernel_type, antialias),
            _scale_translate_weights(in_hw[1], out_hw[1], sx, tx, kernel_type, antialias))


def _scale_translate_kernel(images: np.ndarray, size: Any, scale: Any, translation: Any, *,
                            kernel_type: str, antialias: bool) -> np.ndarray:
    _check_images("ScaleAndTranslate", images)
    out_hw = _size_pair("ScaleAndTranslate", size)
    wy, wx = _st_weights("ScaleAndTranslate", images.shape[1:3], out_hw, scale, translation,
                         kernel_type, antialias)
    return _apply(images, wy, wx)


def _scale_translate_grad_kernel(grads: np.ndarray, original: np.ndarray, scale: Any,
                                 translation: Any, *, kernel_type: str,
                                 antialias: bool) -> np.ndarray:
    _check_images("ScaleAndTranslateGrad", grads, "grads")
    wy, wx = _st_weights("ScaleAndTranslateGrad", original.shape[1:3], grads.shape[1:3], scale,
                         translation, kernel_type, antialias)
    return _apply(grads, wy.T, wx.T).astype(original.dtype)


def _st_attrs(op: Any) -> dict:
    return {"kernel_type": op.get_attr("kernel_type"), "antialias": op.get_attr("antialias")}


@defop("ScaleAndTranslate", _scale_translate_kernel, _resized_infer(_float_out),
       input_names=("images", "size", "scale", "translation"))
def _scale_translate_grad(op: Any, grad: Any) -> Any:
    _, _, scale, translation = op.inputs
    return (apply_op("ScaleAndTranslateGrad", (grad, op.inputs[0], scale, translation),
                     _st_attrs(op)), None, None, None)


@defop("ScaleAndTranslateGrad", _scale_translate_grad_kernel, _grad_infer(1),
       input_names=("grads", "original_image", "scale", "translation"))
def _scale_translate_grad_grad(op: Any, grad: Any) -> Any:
    grads, _, scale, translation = op.inputs
    return (apply_op("ScaleAndTranslate", (grad, _hw(grads), scale, translation),
                     _st_attrs(op)), None, None, None)


_register_linear_jvps("ResizeBilinear", "ResizeBilinearGrad", "ResizeNearestNeighbor",
                      "ResizeNearestNeighborGrad", "ResizeBicubic", "ResizeBicubicGrad",
                      "ScaleAndTranslate", "ScaleAndTranslateGrad")
