"""Colour ops of ``tf.image``: the kernels TensorFlow has under its op type names
(AdjustContrastv2, AdjustSaturation, AdjustHue, RGBToHSV, HSVToRGB) and the functions built on
them and on ordinary ops (convert_image_dtype with TensorFlow's scale and saturate rules, the
adjust_* functions, grayscale/YUV/YIQ conversions, per_image_standardization).

As in TensorFlow, RGBToHSV has a gradient (built from ops, so it can be differentiated
again); HSVToRGB is not differentiable; AdjustContrastv2, AdjustSaturation and AdjustHue have
no gradient (asking for one is an error, as TensorFlow's LookupError)."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.errors import InvalidArgumentError
from flowgrad.framework.graph import name_scope
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import _NO_GRADIENT, defop, register_op
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops.array_ops import expand_dims, identity, stack, tile, unstack
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.comparison_ops import where
from flowgrad.ops.einsum_ops import tensordot
from flowgrad.ops.math_ops import (
    add,
    clip_by_value,
    equal,
    floordiv,
    greater,
    logical_and,
    logical_not,
    logical_or,
    maximum,
    multiply,
    pow,
    reduce_mean,
    reduce_min,
    reduce_prod,
    reduce_std,
    rsqrt,
    subtract,
    truediv,
)
from flowgrad.ops.shape_ops import shape
from flowgrad.framework.type_hints import DTypeLike, TensorLike
from flowgrad.framework import dispatch

_F32 = np.float32

# --------------------------------------------------------------------------------------
# HSV in NumPy, as TensorFlow's kernels compute it


def _check_rgb(op_type: str, x: np.ndarray) -> None:
    if x.ndim < 1 or x.shape[-1] != 3:
        raise InvalidArgumentError(None, None, "%s: input must have 3 channels (last "
                                   "dimension) but input only has %s" % (
                                       op_type, x.shape[-1] if x.ndim else "no dimensions"))


def _rgb_to_hsv_np(x: np.ndarray) -> np.ndarray:
    r, g, b = x[..., 0], x[..., 1], x[..., 2]
    v = np.maximum(np.maximum(r, g), b)
    rng = v - np.minimum(np.minimum(r, g), b)
    one = x.dtype.type(1)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.where(v > 0, rng / v, 0).astype(x.dtype)
        norm = (one / rng) * (one / x.dtype.type(6))
        h = np.where(r == v, norm * (g - b),
                     np.where(g == v, norm * (b - r) + x.dtype.type(2.0 / 6.0),
                              norm * (r - g) + x.dtype.type(4.0 / 6.0)))
    h = np.where(rng > 0, h, 0).astype(x.dtype)
    h = np.where(h < 0, h + one, h)
    return np.stack([h, s, v], -1)


def _hsv_to_rgb_np(x: np.ndarray) -> np.ndarray:
    h, s, v = x[..., 0], x[..., 1], x[..., 2]
    c = s * v
    m = v - c
    dh = h * x.dtype.type(6)
    cat = np.trunc(dh)
    fmodu = np.mod(dh, x.dtype.type(2))
    xx = c * (1 - np.abs(fmodu - 1))
    zero = np.zeros_like(c)
    sel = [cat == k for k in range(6)]
    r = np.select([sel[0] | sel[5], sel[1] | sel[4]], [c, xx], zero)
    g = np.select([sel[1] | sel[2], sel[0] | sel[3]], [c, xx], zero)
    b = np.select([sel[3] | sel[4], sel[2] | sel[5]], [c, xx], zero)
    return np.stack([r + m, g + m, b + m], -1).astype(x.dtype)


def _rgb_to_hsv_kernel(images: np.ndarray) -> np.ndarray:
    _check_rgb("RGBToHSV", images)
    return _rgb_to_hsv_np(images)


def _hsv_to_rgb_kernel(images: np.ndarray) -> np.ndarray:
    _check_rgb("HSVToRGB", images)
    return _hsv_to_rgb_np(images)


def _like_input(ins: list, attrs: dict) -> tuple:
    return ins[0].dtype.base_dtype, ins[0].shape


def _one_hot3(masks: tuple, dtype: Any) -> Any:
    return stack([cast(m, dtype) for m in masks], -1)


@defop("RGBToHSV", _rgb_to_hsv_kernel, _like_input, input_names=("images",))
def _rgb_to_hsv_grad(op: Any, grad: Any) -> Any:
    # H, S and V are smooth where the largest and smallest channels are unique; the
    # derivative picks the channels the kernel picked (red before green before blue).
    x, hsv = op.inputs[0], op.outputs[0]
    dt = x.dtype.base_dtype
    r, g, b = unstack(x, 3, axis=-1)
    v = unstack(hsv, 3, axis=-1)[2]
    lo = reduce_min(x, -1)
    is_r = equal(r, v)
    is_g = logical_and(logical_not(is_r), equal(g, v))
    is_b = logical_not(logical_or(is_r, is_g))
    lo_r = equal(r, lo)
    lo_g = logical_and(logical_not(lo_r), equal(g, lo))
    lo_b = logical_not(logical_or(lo_r, lo_g))
    dv = _one_hot3((is_r, is_g, is_b), dt)
    dlo = _one_hot3((lo_r, lo_g, lo_b), dt)
    c = subtract(v, lo)
    c_pos = greater(c, 0)
    v_pos = greater(v, 0)
    safe_c = where(c_pos, c, 1 + 0 * c)
    safe_v = where(v_pos, v, 1 + 0 * v)
    num = where(is_r, g - b, where(is_g, b - r, r - g))
    dnum = (cast(is_r, dt)[..., None] * convert_to_tensor(np.array([0, 1, -1]), dt)
            + cast(is_g, dt)[..., None] * convert_to_tensor(np.array([-1, 0, 1]), dt)
            + cast(is_b, dt)[..., None] * convert_to_tensor(np.array([1, -1, 0]), dt))
    dh = (dnum / (6 * safe_c[..., None])
          - (num / (6 * safe_c * safe_c))[..., None] * (dv - dlo)) * cast(c_pos, dt)[..., None]
    ds = (-dlo / safe_v[..., None] + (lo / (safe_v * safe_v))[..., None] * dv) \
        * cast(v_pos, dt)[..., None]
    gh, gs, gv = unstack(grad, 3, axis=-1)
    return gh[..., None] * dh + gs[..., None] * ds + gv[..., None] * dv


register_op("HSVToRGB", _hsv_to_rgb_kernel, _like_input, input_names=("images",),
            grad=_NO_GRADIENT)


def _adjust_contrast_kernel(images: np.ndarray, factor: Any) -> np.ndarray:
    if images.ndim < 3:
        raise InvalidArgumentError(None, None, "AdjustContrastv2: input must be at least 3-D, "
                                   "got shape %s" % list(images.shape))
    x = images.astype(_F32)
    mean = x.mean(axis=(-3, -2), keepdims=True, dtype=_F32)
    return ((x - mean) * _F32(factor) + mean).astype(images.dtype)


def _hsv_adjust_kernel(op_type: str, adjust: Any) -> Any:
    def kernel(images: np.ndarray, amount: Any) -> np.ndarray:
        _check_rgb(op_type, images)
        hsv = _rgb_to_hsv_np(images.astype(_F32))
        adjust(hsv, _F32(amount))
        return _hsv_to_rgb_np(hsv).astype(images.dtype)
    return kernel


def _shift_hue(hsv: np.ndarray, delta: np.float32) -> None:
    h = hsv[..., 0] + delta
    hsv[..., 0] = h - np.floor(h)


def _scale_saturation(hsv: np.ndarray, scale: np.float32) -> None:
    hsv[..., 1] = np.clip(hsv[..., 1] * scale, 0, 1)


register_op("AdjustContrastv2", _adjust_contrast_kernel, _like_input,
            input_names=("images", "contrast_factor"))
register_op("AdjustHue", _hsv_adjust_kernel("AdjustHue", _shift_hue), _like_input,
            input_names=("images", "delta"))
register_op("AdjustSaturation", _hsv_adjust_kernel("AdjustSaturation", _scale_saturation),
            _like_input, input_names=("images", "scale"))

# --------------------------------------------------------------------------------------
# convert_image_dtype


def saturate_cast(value: TensorLike, dtype: DTypeLike, name: str | None = None) -> Any:
    """``value`` cast to ``dtype``, clipped first to the range both dtypes can hold."""
    value = convert_to_tensor(value)
    dtype = dtypes.as_dtype(dtype).base_dtype
    src = value.dtype.base_dtype
    with name_scope(name or "saturate_cast"):
        src_np = src.np.type
        promoted = np.promote_types(src.np, dtype.np)
        lo = src_np(max(src.min, dtype.min))
        if np.array(lo, promoted) < np.array(dtype.min, promoted):  # rounded out of range
            lo = np.nextafter(lo, src_np(0), dtype=src.np)
        hi = src_np(min(float(src.max), float(dtype.max)))
        if np.array(hi, promoted) > np.array(dtype.max, promoted):
            hi = np.nextafter(hi, src_np(0), dtype=src.np)
        value = clip_by_value(value, np.array(lo, src.np), np.array(hi, src.np))
        return cast(value, dtype)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def convert_image_dtype(image: TensorLike, dtype: DTypeLike, saturate: bool = False,
                        name: str | None = None) -> Any:
    """Converts ``image`` to ``dtype``, rescaling its values (TensorFlow's rules).

    Floats are in [0, 1), integers in [0, MAX]: float -> int multiplies by MAX + 0.5 and
    casts; int -> float multiplies by 1 / MAX; int -> int shifts by the ratio of the ranges.

    Args:
        image: An image tensor.
        dtype: The dtype to convert to.
        saturate: Clip to the target dtype's range before casting.
        name: A name for the operation.

    Returns:
        ``image`` converted to ``dtype``.

    Raises:
        AttributeError: If either dtype is neither floating point nor integer.
    """
    image = convert_to_tensor(image, name="image")
    dtype = dtypes.as_dtype(dtype).base_dtype
    src = image.dtype.base_dtype
    if not (dtype.is_floating or dtype.is_integer):
        raise AttributeError("dtype must be either floating point or integer")
    if not (src.is_floating or src.is_integer):
        raise AttributeError("image dtype must be either floating point or integer")
    if dtype == src:
        return identity(image, name=name)
    with name_scope(name or "convert_image"):
        if src.is_integer and dtype.is_integer:
            if src.max > dtype.max:
                scaled = floordiv(image, np.array((src.max + 1) // (dtype.max + 1), src.np))
                return saturate_cast(scaled, dtype) if saturate else cast(scaled, dtype)
            c = saturate_cast(image, dtype) if saturate else cast(image, dtype)
            return multiply(c, np.array((dtype.max + 1) // (src.max + 1), dtype.np))
        if src.is_floating and dtype.is_floating:
            return cast(image, dtype)
        if src.is_integer:
            return multiply(cast(image, dtype), np.array(1.0 / src.max, dtype.np))
        scaled = multiply(image, np.array(dtype.max + 0.5, src.np))
        return saturate_cast(scaled, dtype) if saturate else cast(scaled, dtype)


def _as_float(image: Any) -> tuple:
    """(image as float16/float32, its original dtype), as the adjust_* functions convert."""
    image = convert_to_tensor(image, name="image")
    orig = image.dtype.base_dtype
    if orig in (dtypes.float16, dtypes.float32):
        return image, orig
    return convert_image_dtype(image, dtypes.float32), orig


# --------------------------------------------------------------------------------------
# Adjustments


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def adjust_brightness(image: TensorLike, delta: TensorLike) -> Any:
    """Adds ``delta`` to every component of ``image`` (converted to float and back).

    Args:
        image: RGB image or images, at least 3-D.
        delta: A scalar to add.

    Returns:
        The brightness-adjusted image, of ``image``'s dtype.
    """
    with name_scope("adjust_brightness"):
        flt, orig = _as_float(image)
        adjusted = add(flt, cast(delta, flt.dtype))
        return convert_image_dtype(adjusted, orig, saturate=True)


def adjust_contrast(images: TensorLike, contrast_factor: Any) -> Any:
    """(x - mean) * contrast_factor + mean, per channel of each image (AdjustContrastv2).

    Args:
        images: Images, at least 3-D, the last three dimensions [height, width, channels].
        contrast_factor: A float multiplier.

    Returns:
        The contrast-adjusted images, of ``images``' dtype.
    """
    with name_scope("adjust_contrast"):
        flt, orig = _as_float(images)
        adjusted = apply_op("AdjustContrastv2",
                            (flt, convert_to_tensor(contrast_factor, dtypes.float32)), {})
        return convert_image_dtype(adjusted, orig, saturate=True)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def adjust_gamma(image: TensorLike, gamma: TensorLike = 1, gain: Any = 1) -> Any:
    """gain * image ** gamma (gamma correction), on the image converted to float.

    Args:
        image: An image tensor.
        gamma: A non-negative exponent.
        gain: A multiplier.

    Returns:
        The gamma-adjusted image, of ``image``'s dtype.

    Raises:
        ValueError: If ``gamma`` is a negative Python number.
    """
    with name_scope("adjust_gamma"):
        flt, orig = _as_float(image)
        if isinstance(gamma, (int, float)) and gamma < 0:
            raise ValueError("Gamma should be a non-negative real number.")
        adjusted = multiply(cast(gain, flt.dtype), pow(flt, cast(gamma, flt.dtype)))
        return convert_image_dtype(adjusted, orig, saturate=True)


def adjust_hue(image: TensorLike, delta: TensorLike, name: str | None = None) -> Any:
    """Rotates the hue of RGB images by ``delta`` (a fraction of the colour circle).

    Args:
        image: RGB images (last dimension 3).
        delta: A float in [-1, 1].
        name: A name for the operation.

    Returns:
        The hue-adjusted images, of ``image``'s dtype.
    """
    with name_scope(name or "adjust_hue"):
        flt, orig = _as_float(image)
        adjusted = apply_op("AdjustHue", (flt, convert_to_tensor(delta, dtypes.float32)), {})
        return convert_image_dtype(adjusted, orig)


def adjust_saturation(image: TensorLike, saturation_factor: Any, name: str | None = None) -> Any:
    """Multiplies the saturation of RGB images by ``saturation_factor`` (clipped to [0, 1]).

    Args:
        image: RGB images (last dimension 3).
        saturation_factor: A float multiplier.
        name: A name for the operation.

    Returns:
        The saturation-adjusted images, of ``image``'s dtype.
    """
    with name_scope(name or "adjust_saturation"):
        flt, orig = _as_float(image)
        adjusted = apply_op("AdjustSaturation",
                            (flt, convert_to_tensor(saturation_factor, dtypes.float32)), {})
        return convert_image_dtype(adjusted, orig)


# --------------------------------------------------------------------------------------
# Colour spaces


def rgb_to_hsv(images: TensorLike, name: str | None = None) -> Any:
    """RGB images (floats in [0, 1]) as HSV (RGBToHSV), last dimension 3.

    Args:
        images: Float RGB images.
        name: A name for the operation.

    Returns:
        HSV images of the same shape and dtype.
    """
    return apply_op("RGBToHSV", (convert_to_tensor(images),), {}, name=name)


def hsv_to_rgb(images: TensorLike, name: str | None = None) -> Any:
    """HSV images (floats in [0, 1]) as RGB (HSVToRGB), last dimension 3.

    Args:
        images: Float HSV images.
        name: A name for the operation.

    Returns:
        RGB images of the same shape and dtype.
    """
    return apply_op("HSVToRGB", (convert_to_tensor(images),), {}, name=name)


def rgb_to_grayscale(images: TensorLike, name: str | None = None) -> Any:
    """Luma of RGB images (0.2989 R + 0.587 G + 0.114 B); the last dimension becomes 1.

    Args:
        images: RGB images (last dimension 3).
        name: A name for the operation.

    Returns:
        Grayscale images of ``images``' dtype.
    """
    with name_scope(name or "rgb_to_grayscale"):
        images = convert_to_tensor(images, name="images")
        orig = images.dtype.base_dtype
        flt = convert_image_dtype(images, dtypes.float32)
        gray = tensordot(flt, np.array([0.2989, 0.5870, 0.1140], np.float32), [[-1], [-1]])
        return convert_image_dtype(expand_dims(gray, -1), orig)


def grayscale_to_rgb(images: TensorLike, name: str | None = None) -> Any:
    """Grayscale images (last dimension 1) repeated into 3 channels.

    Args:
        images: Grayscale images.
        name: A name for the operation.

    Returns:
        RGB images of ``images``' dtype.

    Raises:
        ValueError: If the last dimension is known and not 1.
    """
    with name_scope(name or "grayscale_to_rgb"):
        images = convert_to_tensor(images, name="images")
        last = images.shape.as_list()[-1] if images.shape.rank else None
        if last is not None and last != 1:
            raise ValueError("Dimensions must be equal, but are %d and 1 for the last "
                             "dimension of the images" % last)
        rank = images.shape.rank
        return tile(images, [1] * (rank - 1) + [3])


_RGB_TO_YUV = [[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512],
               [0.114, 0.43601035, -0.10001026]]
_YUV_TO_RGB = [[1, 1, 1], [0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0]]
_RGB_TO_YIQ = [[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617],
               [0.114, -0.32134392, 0.31119955]]
_YIQ_TO_RGB = [[1, 1, 1], [0.95598634, -0.27201283, -1.10674021],
               [0.6208248, -0.64720424, 1.70423049]]


def _colour_matrix(images: Any, kernel: list) -> Any:
    images = convert_to_tensor(images, name="images")
    k = np.array(kernel, images.dtype.base_dtype.np)
    return tensordot(images, k, [[images.shape.rank - 1], [0]])


def rgb_to_yuv(images: TensorLike) -> Any:
    """RGB images as YUV (TensorFlow's matrix).

    Args:
        images: Float RGB images.

    Returns:
        YUV images.
    """
    return _colour_matrix(images, _RGB_TO_YUV)


def yuv_to_rgb(images: TensorLike) -> Any:
    """YUV images as RGB (TensorFlow's matrix).

    Args:
        images: Float YUV images.

    Returns:
        RGB images.
    """
    return _colour_matrix(images, _YUV_TO_RGB)


def rgb_to_yiq(images: TensorLike) -> Any:
    """RGB images as YIQ (TensorFlow's matrix).

    Args:
        images: Float RGB images.

    Returns:
        YIQ images.
    """
    return _colour_matrix(images, _RGB_TO_YIQ)


def yiq_to_rgb(images: TensorLike) -> Any:
    """YIQ images as RGB (TensorFlow's matrix).

    Args:
        images: Float YIQ images.

    Returns:
        RGB images.
    """
    return _colour_matrix(images, _YIQ_TO_RGB)


def per_image_standardization(image: TensorLike) -> Any:
    """(x - mean) / max(stddev, 1/sqrt(N)) over each image's pixels and channels, as float32.

    Args:
        image: Images, at least 3-D.

    Returns:
        The standardized float32 images.

    Raises:
        ValueError: If ``image`` is known to have fewer than 3 dimensions.
    """
    with name_scope("per_image_standardization"):
        image = convert_to_tensor(image, name="image")
        if image.shape.rank is not None and image.shape.rank < 3:
            raise ValueError("'image' (shape %s) must be at least three-dimensional."
                             % image.shape)
        image = cast(image, dtypes.float32)
        num_pixels = reduce_prod(shape(image)[-3:])
        mean = reduce_mean(image, axis=[-1, -2, -3], keepdims=True)
        stddev = reduce_std(image, axis=[-1, -2, -3], keepdims=True)
        adjusted = maximum(stddev, rsqrt(cast(num_pixels, dtypes.float32)))
        return truediv(image - mean, adjusted)
