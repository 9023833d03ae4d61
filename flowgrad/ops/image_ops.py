"""``tf.image``'s functions built on the image ops and ordinary ops: resizing (TensorFlow 2's
``resize`` and TensorFlow 1's ``resize_images``/``resize_bilinear``/...), crops, pads, flips,
rotations, random augmentations and image quality measures (total variation, gradients, Sobel
edges, PSNR, SSIM). The resize kernels are in ``image_resize_ops``, the colour functions in
``image_color_ops``.

Crops and pads need the image's height and width when the graph is built (they are always
known eagerly); an unknown size is a ValueError naming the function."""
from __future__ import annotations

import enum
from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.graph import name_scope
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.shape_rules import constant_value
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops import image_resize_ops  # noqa: F401 - registers the resize ops
from flowgrad.ops.array_ops import (
    broadcast_to,
    concat,
    expand_dims,
    pad,
    reshape,
    reverse,
    shape,
    slice,
    squeeze,
    stack,
    strided_slice,
    transpose as _transpose,
    zeros,
)
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.comparison_ops import where
from flowgrad.ops.image_color_ops import adjust_brightness, adjust_contrast, adjust_hue
from flowgrad.ops.image_color_ops import adjust_saturation, convert_image_dtype
from flowgrad.ops.math_ops import (
    abs,
    floormod,
    greater,
    less,
    log,
    pow,
    reduce_mean,
    reduce_prod,
    reduce_sum,
    squared_difference,
)
from flowgrad.ops.nn_ops import relu
from flowgrad.ops.pooling_ops import avg_pool2d
from flowgrad.ops.random_ops import random_uniform
from flowgrad.ops.stateless_random_ops import stateless_random_uniform
from flowgrad.framework.type_hints import TensorLike
from flowgrad.framework import dispatch


class ResizeMethod(str, enum.Enum):
    """TensorFlow 2's resize methods (``tf.image.ResizeMethod``); members are their strings."""

    BILINEAR = "bilinear"
    NEAREST_NEIGHBOR = "nearest"
    BICUBIC = "bicubic"
    AREA = "area"
    LANCZOS3 = "lanczos3"
    LANCZOS5 = "lanczos5"
    GAUSSIAN = "gaussian"
    MITCHELLCUBIC = "mitchellcubic"

    def __str__(self) -> str:
        return self.value


class ResizeMethodV1:
    """TensorFlow 1's resize methods (``tf.compat.v1.image.ResizeMethod``): integers."""

    BILINEAR = 0
    NEAREST_NEIGHBOR = 1
    BICUBIC = 2
    AREA = 3


_SCALE_AND_TRANSLATE = ("lanczos3", "lanczos5", "gaussian", "mitchellcubic")


# --------------------------------------------------------------------------------------
# Shape helpers


def _as_batch(images: Any, what: str = "images") -> tuple:
    """(images as a 4-D batch, whether the input was a batch)."""
    images = convert_to_tensor(images, name=what)
    rank = images.shape.rank
    if rank is None:
        raise ValueError("'%s' contains no shape." % what)
    if rank == 3:
        return expand_dims(images, 0), False
    if rank != 4:
        raise ValueError("'%s' must have either 3 or 4 dimensions." % what)
    return images, True


def _unbatch(images: Any, is_batch: bool) -> Any:
    return images if is_batch else squeeze(images, [0])


def _static_hw(images: Any, fn: str) -> tuple:
    dims = images.shape.as_list()
    h, w = dims[1], dims[2]
    if h is None or w is None:
        raise ValueError("%s needs the image's height and width when the graph is built; "
                         "the images have shape %s" % (fn, images.shape))
    return h, w


def _size_tensor(size: Any) -> Any:
    try:
        size = convert_to_tensor(size, dtypes.int32, name="size")
    except (TypeError, ValueError):
        raise ValueError("'size' must be a 1-D int32 Tensor") from None
    if not size.shape.is_compatible_with([2]):
        raise ValueError("'size' must be a 1-D Tensor of 2 elements: new_height, new_width")
    return size


def _aspect_size(images: Any, size: Any) -> Any:
    """The size that fits inside ``size`` keeping the aspect ratio (float32, as TensorFlow)."""
    h, w = _static_hw(images, "resize(preserve_aspect_ratio=True)")
    target = np.asarray(convert_to_tensor(size).numpy() if hasattr(size, "numpy")
                        else size, np.float32)
    factor = min(target[0] / np.float32(h), target[1] / np.float32(w))
    return [int(np.round(np.float32(factor * np.float32(h)))),
            int(np.round(np.float32(factor * np.float32(w))))]


def _resize_common(images: Any, resizer: Any, size: Any, preserve_aspect_ratio: bool,
                   name: str | None, skip_if_same: bool) -> Any:
    with name_scope(name or "resize"):
        images, is_batch = _as_batch(images)
        if preserve_aspect_ratio:
            size = _aspect_size(images, size)
        size = _size_tensor(size)
        known = constant_value(size)
        hw = images.shape.as_list()[1:3]
        if skip_if_same and known is not None and list(map(int, known)) == hw:
            return _unbatch(images, is_batch)
        return _unbatch(resizer(images, size), is_batch)


def _to_float32(t: Any) -> Any:
    return cast(t, dtypes.float32) if t.dtype.base_dtype == dtypes.float64 else t


def resize(images: TensorLike, size: TensorLike, method: str = ResizeMethod.BILINEAR,
           preserve_aspect_ratio: bool = False, antialias: bool = False,
           name: str | None = None) -> Any:
    """Resizes images to ``size`` with ``method`` (TensorFlow 2's ``tf.image.resize``).

    Args:
        images: 4-D [batch, height, width, channels] or 3-D [height, width, channels].
        size: [new_height, new_width].
        method: A :class:`ResizeMethod` or its string.
        preserve_aspect_ratio: Fit inside ``size`` keeping the aspect ratio.
        antialias: Low-pass filter when downsampling (ScaleAndTranslate).
        name: A name for the operation.

    Returns:
        The resized images: float32, or ``images``' dtype for nearest neighbour.

    Raises:
        ValueError: For a bad shape, size or method.
    """
    method = str(method.value if isinstance(method, ResizeMethod) else method)

    def resizer(x: Any, new_size: Any) -> Any:
        def scaled(kernel: str) -> Any:
            scale = (cast(new_size, dtypes.float32)
                     / cast(_hw_of(x), dtypes.float32))
            return apply_op("ScaleAndTranslate",
                            (x, new_size, scale, zeros([2], dtypes.float32)),
                            {"kernel_type": kernel, "antialias": bool(antialias)})
        hp = {"align_corners": False, "half_pixel_centers": True}
        if method == "bilinear":
            out = scaled("triangle") if antialias else apply_op("ResizeBilinear", (x, new_size),
                                                                 hp)
        elif method == "nearest":
            return apply_op("ResizeNearestNeighbor", (x, new_size), hp)
        elif method == "bicubic":
            out = scaled("keyscubic") if antialias else apply_op("ResizeBicubic", (x, new_size),
                                                                  hp)
        elif method == "area":
            out = apply_op("ResizeArea", (x, new_size), {"align_corners": False})
        elif method in _SCALE_AND_TRANSLATE:
            out = scaled(method)
        else:
            raise ValueError(f"Resize method is not implemented: {method}")
        return _to_float32(out)
    return _resize_common(images, resizer, size, preserve_aspect_ratio, name, False)


def _hw_of(x: Any) -> Any:
    return strided_slice(shape(x), [1], [3])


_V1_OPS = {0: "ResizeBilinear", 1: "ResizeNearestNeighbor", 2: "ResizeBicubic", 3: "ResizeArea",
           "bilinear": "ResizeBilinear", "nearest": "ResizeNearestNeighbor",
           "bicubic": "ResizeBicubic", "area": "ResizeArea"}


def resize_images(images: TensorLike, size: TensorLike, method: str = ResizeMethodV1.BILINEAR,
                  align_corners: bool = False, preserve_aspect_ratio: bool = False,
                  name: str | None = None) -> Any:
    """TensorFlow 1's ``tf.image.resize_images`` (legacy pixel centres, ``align_corners``).

    Args:
        images: 4-D or 3-D images.
        size: [new_height, new_width].
        method: A ``ResizeMethod`` of TensorFlow 1 (0-3).
        align_corners: Align the corner pixels of input and output.
        preserve_aspect_ratio: Fit inside ``size`` keeping the aspect ratio.
        name: A name for the operation.

    Returns:
        The resized images (float32, or ``images``' dtype for nearest neighbour).

    Raises:
        ValueError: For a bad shape, size or method.
    """
    key = method.value if isinstance(method, ResizeMethod) else method
    if key not in _V1_OPS:
        raise ValueError(f"Resize method is not implemented: {method}")
    op_type = _V1_OPS[key]

    def resizer(x: Any, new_size: Any) -> Any:
        attrs = {"align_corners": bool(align_corners)}
        if op_type != "ResizeArea":
            attrs["half_pixel_centers"] = False
        out = apply_op(op_type, (x, new_size), attrs)
        return out if op_type == "ResizeNearestNeighbor" else _to_float32(out)
    return _resize_common(images, resizer, size, preserve_aspect_ratio, name, True)


def _raw_resize(op_type: str, images: Any, size: Any, align_corners: bool,
                half_pixel_centers: bool | None, name: str | None) -> Any:
    attrs = {"align_corners": bool(align_corners)}
    if half_pixel_centers is not None:
        attrs["half_pixel_centers"] = bool(half_pixel_centers)
    return apply_op(op_type, (convert_to_tensor(images), _size_tensor(size)), attrs, name=name)


def resize_bilinear(images: TensorLike, size: TensorLike, align_corners: bool = False,
                    name: str | None = None, half_pixel_centers: bool = False) -> Any:
    """TensorFlow 1's ``resize_bilinear`` (the ResizeBilinear op).

    Args:
        images: 4-D images.
        size: [new_height, new_width].
        align_corners: Align the corner pixels.
        name: A name for the operation.
        half_pixel_centers: Sample at pixel centres (TensorFlow 2's rule).

    Returns:
        The resized images.
    """
    return _raw_resize("ResizeBilinear", images, size, align_corners, half_pixel_centers, name)


def resize_nearest_neighbor(images: TensorLike, size: TensorLike, align_corners: bool = False,
                            name: str | None = None, half_pixel_centers: bool = False) -> Any:
    """TensorFlow 1's ``resize_nearest_neighbor`` (the ResizeNearestNeighbor op).

    Args:
        images: 4-D images.
        size: [new_height, new_width].
        align_corners: Align the corner pixels.
        name: A name for the operation.
        half_pixel_centers: Sample at pixel centres.

    Returns:
        The resized images, of ``images``' dtype.
    """
    return _raw_resize("ResizeNearestNeighbor", images, size, align_corners,
                       half_pixel_centers, name)


def resize_bicubic(images: TensorLike, size: TensorLike, align_corners: bool = False,
                   name: str | None = None, half_pixel_centers: bool = False) -> Any:
    """TensorFlow 1's ``resize_bicubic`` (the ResizeBicubic op).

    Args:
        images: 4-D images.
        size: [new_height, new_width].
        align_corners: Align the corner pixels.
        name: A name for the operation.
        half_pixel_centers: Sample at pixel centres (Keys cubic, a = -0.5).

    Returns:
        The resized images.
    """
    return _raw_resize("ResizeBicubic", images, size, align_corners, half_pixel_centers, name)


def resize_area(images: TensorLike, size: TensorLike, align_corners: bool = False,
                name: str | None = None) -> Any:
    """TensorFlow 1's ``resize_area`` (the ResizeArea op; not differentiable).

    Args:
        images: 4-D images.
        size: [new_height, new_width].
        align_corners: Align the corner pixels.
        name: A name for the operation.

    Returns:
        The resized images.
    """
    return _raw_resize("ResizeArea", images, size, align_corners, None, name)


# --------------------------------------------------------------------------------------
# Crops and pads


def crop_to_bounding_box(image: TensorLike, offset_height: int, offset_width: int,
                         target_height: int, target_width: int) -> Any:
    """The [target_height, target_width] window at (offset_height, offset_width).

    Args:
        image: 4-D or 3-D images.
        offset_height: Top row of the window.
        offset_width: Left column of the window.
        target_height: Height of the window.
        target_width: Width of the window.

    Returns:
        The cropped images.

    Raises:
        ValueError: If the window does not lie inside the image.
    """
    with name_scope("crop_to_bounding_box"):
        image, is_batch = _as_batch(image, "image")
        h, w = _static_hw(image, "crop_to_bounding_box")
        if offset_width < 0:
            raise ValueError("offset_width must be >= 0.")
        if offset_height < 0:
            raise ValueError("offset_height must be >= 0.")
        if target_width <= 0:
            raise ValueError("target_width must be > 0.")
        if target_height <= 0:
            raise ValueError("target_height must be > 0.")
        if w < target_width + offset_width:
            raise ValueError("width must be >= target + offset.")
        if h < target_height + offset_height:
            raise ValueError("height must be >= target + offset.")
        out = slice(image, [0, offset_height, offset_width, 0],
                    [-1, target_height, target_width, -1])
        return _unbatch(out, is_batch)


def pad_to_bounding_box(image: TensorLike, offset_height: int, offset_width: int,
                        target_height: int, target_width: int) -> Any:
    """``image`` placed at (offset_height, offset_width) in zeros of the target size.

    Args:
        image: 4-D or 3-D images.
        offset_height: Rows of zeros above.
        offset_width: Columns of zeros to the left.
        target_height: Height of the result.
        target_width: Width of the result.

    Returns:
        The padded images.

    Raises:
        ValueError: If the image does not fit.
    """
    with name_scope("pad_to_bounding_box"):
        image, is_batch = _as_batch(image, "image")
        h, w = _static_hw(image, "pad_to_bounding_box")
        after_h = target_height - offset_height - h
        after_w = target_width - offset_width - w
        if offset_height < 0:
            raise ValueError("offset_height must be >= 0")
        if offset_width < 0:
            raise ValueError("offset_width must be >= 0")
        if after_w < 0:
            raise ValueError("width must be <= target - offset")
        if after_h < 0:
            raise ValueError("height must be <= target - offset")
        out = pad(image, [[0, 0], [offset_height, after_h], [offset_width, after_w], [0, 0]])
        return _unbatch(out, is_batch)


def resize_with_crop_or_pad(image: TensorLike, target_height: int, target_width: int) -> Any:
    """Crops (centrally) or pads (with zeros, centrally) to the target size.

    Args:
        image: 4-D or 3-D images.
        target_height: The height of the result.
        target_width: The width of the result.

    Returns:
        The cropped or padded images.

    Raises:
        ValueError: If a target size is not positive.
    """
    with name_scope("resize_image_with_crop_or_pad"):
        image, is_batch = _as_batch(image, "image")
        if target_width <= 0:
            raise ValueError("target_width must be > 0.")
        if target_height <= 0:
            raise ValueError("target_height must be > 0.")
        h, w = _static_hw(image, "resize_with_crop_or_pad")
        dw, dh = target_width - w, target_height - h
        cropped = crop_to_bounding_box(image, max(-dh // 2, 0), max(-dw // 2, 0),
                                       min(target_height, h), min(target_width, w))
        out = pad_to_bounding_box(cropped, max(dh // 2, 0), max(dw // 2, 0),
                                  target_height, target_width)
        return _unbatch(out, is_batch)


def _resize_with_pad_common(image: Any, target_height: int, target_width: int,
                            resize_fn: Any) -> Any:
    with name_scope("resize_image_with_pad"):
        image, is_batch = _as_batch(image, "image")
        if target_width <= 0:
            raise ValueError("target_width must be > 0.")
        if target_height <= 0:
            raise ValueError("target_height must be > 0.")
        h, w = _static_hw(image, "resize_with_pad")
        f32 = np.float32
        ratio = max(f32(w) / f32(target_width), f32(h) / f32(target_height))
        rh, rw = f32(h) / ratio, f32(w) / ratio
        pad_h = max(0, int(np.floor((f32(target_height) - rh) / f32(2))))
        pad_w = max(0, int(np.floor((f32(target_width) - rw) / f32(2))))
        resized = resize_fn(image, [int(np.floor(rh)), int(np.floor(rw))])
        out = pad_to_bounding_box(resized, pad_h, pad_w, target_height, target_width)
        return _unbatch(out, is_batch)


def resize_with_pad(image: TensorLike, target_height: int, target_width: int,
                    method: str = ResizeMethod.BILINEAR, antialias: bool = False) -> Any:
    """Resizes keeping the aspect ratio, then pads with zeros to the target size.

    Args:
        image: 4-D or 3-D images.
        target_height: The height of the result.
        target_width: The width of the result.
        method: A :class:`ResizeMethod`.
        antialias: Low-pass filter when downsampling.

    Returns:
        The resized and padded images.
    """
    return _resize_with_pad_common(
        image, target_height, target_width,
        lambda im, size: resize(im, size, method, antialias=antialias))


def resize_image_with_pad(image: TensorLike, target_height: int, target_width: int,
                          method: str = ResizeMethodV1.BILINEAR,
                          align_corners: bool = False) -> Any:
    """TensorFlow 1's ``resize_image_with_pad`` (legacy pixel centres).

    Args:
        image: 4-D or 3-D images.
        target_height: The height of the result.
        target_width: The width of the result.
        method: A ``ResizeMethod`` of TensorFlow 1.
        align_corners: Align the corner pixels.

    Returns:
        The resized and padded images.
    """
    return _resize_with_pad_common(
        image, target_height, target_width,
        lambda im, size: resize_images(im, size, method, align_corners))


def central_crop(image: TensorLike, central_fraction: float) -> Any:
    """The central ``central_fraction`` of each image's height and width.

    Args:
        image: 4-D or 3-D images.
        central_fraction: A float in (0, 1].

    Returns:
        The cropped images.

    Raises:
        ValueError: If ``central_fraction`` is outside (0, 1].
    """
    with name_scope("central_crop"):
        if central_fraction <= 0.0 or central_fraction > 1.0:
            raise ValueError("central_fraction must be within (0, 1]")
        image = convert_to_tensor(image, name="image")
        if central_fraction == 1.0:
            return image
        batch, is_batch = _as_batch(image, "image")
        h, w = _static_hw(batch, "central_crop")
        top = int((float(h) - float(h) * central_fraction) / 2)
        left = int((float(w) - float(w) * central_fraction) / 2)
        out = slice(batch, [0, top, left, 0], [-1, h - 2 * top, w - 2 * left, -1])
        return _unbatch(out, is_batch)


# --------------------------------------------------------------------------------------
# Flips, rotations, transposes


def _image_rank(image: Any) -> int:
    image = convert_to_tensor(image, name="image")
    rank = image.shape.rank
    if rank not in (3, 4):
        raise ValueError("'image' (shape %s) must have either 3 or 4 dimensions."
                         % image.shape)
    return rank


def flip_left_right(image: TensorLike) -> Any:
    """Reverses the width axis.

    Args:
        image: 4-D or 3-D images.

    Returns:
        The flipped images.
    """
    return reverse(image, [_image_rank(image) - 2])


def flip_up_down(image: TensorLike) -> Any:
    """Reverses the height axis.

    Args:
        image: 4-D or 3-D images.

    Returns:
        The flipped images.
    """
    return reverse(image, [_image_rank(image) - 3])


def transpose(image: TensorLike, name: str | None = None) -> Any:
    """Swaps height and width.

    Args:
        image: 4-D or 3-D images.
        name: A name for the operation.

    Returns:
        The transposed images.
    """
    rank = _image_rank(image)
    perm = [1, 0, 2] if rank == 3 else [0, 2, 1, 3]
    return _transpose(image, perm, name=name)


def rot90(image: TensorLike, k: int = 1, name: str | None = None) -> Any:
    """Rotates images counter-clockwise by ``k`` quarter turns.

    Args:
        image: 4-D or 3-D images.
        k: The number of quarter turns (a Python int).
        name: A name for the operation.

    Returns:
        The rotated images.
    """
    with name_scope(name or "rot90"):
        rank = _image_rank(image)
        k = int(k) % 4
        h_ax = rank - 3
        if k == 0:
            return convert_to_tensor(image)
        if k == 1:
            return reverse(transpose(image), [h_ax])
        if k == 2:
            return reverse(image, [h_ax, h_ax + 1])
        return transpose(reverse(image, [h_ax]))


def _random_flip(image: Any, axis_in_image: int, seed: Any, name: str,
                 uniform: Any = None) -> Any:
    """Flips along ``axis_in_image`` where a uniform draw says so: below 0.5 for one image,
    rounding to 1 for each image of a batch (TensorFlow's rules)."""
    uniform = uniform or (lambda shape: random_uniform(shape, 0, 1.0, seed=seed))
    with name_scope(name):
        image = convert_to_tensor(image, name="image")
        rank = _image_rank(image)
        if rank == 3:
            return where(less(uniform([]), 0.5), reverse(image, [axis_in_image]), image)
        n = image.shape.as_list()[0]
        u = uniform([n if n is not None else shape(image)[0]])
        flips = reshape(greater(u, 0.5), [-1, 1, 1, 1])
        return where(broadcast_to(flips, shape(image)), reverse(image, [axis_in_image + 1]),
                     image)


def random_flip_left_right(image: TensorLike, seed: int | None = None) -> Any:
    """Flips each image left-right with probability 1/2.

    Args:
        image: 4-D or 3-D images.
        seed: An op-level seed.

    Returns:
        The images, some flipped.
    """
    return _random_flip(image, 1, seed, "random_flip_left_right")


def random_flip_up_down(image: TensorLike, seed: int | None = None) -> Any:
    """Flips each image upside down with probability 1/2.

    Args:
        image: 4-D or 3-D images.
        seed: An op-level seed.

    Returns:
        The images, some flipped.
    """
    return _random_flip(image, 0, seed, "random_flip_up_down")


# --------------------------------------------------------------------------------------
# Random adjustments


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def random_brightness(image: TensorLike, max_delta: float, seed: int | None = None) -> Any:
    """adjust_brightness by a delta drawn uniformly from [-max_delta, max_delta).

    Args:
        image: An image tensor.
        max_delta: A non-negative float.
        seed: An op-level seed.

    Returns:
        The brightness-adjusted image.

    Raises:
        ValueError: If ``max_delta`` is negative.
    """
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    delta = random_uniform([], -max_delta, max_delta, seed=seed)
    return adjust_brightness(image, delta)


def _check_range(lower: float, upper: float) -> None:
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")


def random_contrast(image: TensorLike, lower: float, upper: float, seed: int | None = None) -> Any:
    """adjust_contrast by a factor drawn uniformly from [lower, upper).

    Args:
        image: Images, at least 3-D.
        lower: Lower bound of the factor.
        upper: Upper bound of the factor.
        seed: An op-level seed.

    Returns:
        The contrast-adjusted images.

    Raises:
        ValueError: If ``upper <= lower`` or ``lower < 0``.
    """
    _check_range(lower, upper)
    return adjust_contrast(image, random_uniform([], lower, upper, seed=seed))


def random_saturation(image: TensorLike, lower: float, upper: float,
                      seed: int | None = None) -> Any:
    """adjust_saturation by a factor drawn uniformly from [lower, upper).

    Args:
        image: RGB images.
        lower: Lower bound of the factor.
        upper: Upper bound of the factor.
        seed: An op-level seed.

    Returns:
        The saturation-adjusted images.

    Raises:
        ValueError: If ``upper <= lower`` or ``lower < 0``.
    """
    _check_range(lower, upper)
    return adjust_saturation(image, random_uniform([], lower, upper, seed=seed))


def random_hue(image: TensorLike, max_delta: float, seed: int | None = None) -> Any:
    """adjust_hue by a delta drawn uniformly from [-max_delta, max_delta).

    Args:
        image: RGB images.
        max_delta: A float in [0, 0.5].
        seed: An op-level seed.

    Returns:
        The hue-adjusted images.

    Raises:
        ValueError: If ``max_delta`` is outside [0, 0.5].
    """
    if max_delta > 0.5:
        raise ValueError("max_delta must be <= 0.5.")
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    return adjust_hue(image, random_uniform([], -max_delta, max_delta, seed=seed))


def random_crop(value: TensorLike, size: TensorLike, seed: int | None = None,
                name: str | None = None) -> Any:
    """A window of ``size`` at a uniformly random offset of ``value``.

    Args:
        value: The tensor to crop.
        size: The size of the window, one entry per dimension of ``value``.
        seed: An op-level seed.
        name: A name for the operation.

    Returns:
        The cropped tensor.

    Raises:
        ValueError: If ``size`` is larger than ``value`` somewhere.
    """
    return _crop_at(value, size, name, lambda n: random_uniform(
        [n], maxval=np.iinfo(np.int32).max, dtype=dtypes.int32, seed=seed))


def _crop_at(value: Any, size: Any, name: str | None, draw: Any) -> Any:
    """A window of ``size`` at offsets ``draw(rank) % (shape - size + 1)``."""
    with name_scope(name or "random_crop"):
        value = convert_to_tensor(value, name="value")
        dims = value.shape.as_list()
        size = [int(s) for s in np.ravel(size)]
        if None in dims:
            raise ValueError("random_crop needs the shape of 'value' when the graph is "
                             "built; it has shape %s" % value.shape)
        if len(size) != len(dims) or any(s > d for s, d in zip(size, dims)):
            raise ValueError("Need value.shape >= size, got %s and %s" % (dims, size))
        limit = np.array([d - s + 1 for d, s in zip(dims, size)], np.int32)
        return slice(value, floormod(draw(len(dims)), limit), size)


# --------------------------------------------------------------------------------------
# Image quality measures


def total_variation(images: TensorLike, name: str | None = None) -> Any:
    """The sum of absolute differences of neighbouring pixels (per image for 4-D input).

    Args:
        images: 4-D or 3-D images.
        name: A name for the operation.

    Returns:
        A scalar (3-D input) or one value per image.

    Raises:
        ValueError: If ``images`` is neither 3-D nor 4-D.
    """
    with name_scope(name or "total_variation"):
        images = convert_to_tensor(images, name="images")
        rank = images.shape.rank
        if rank == 3:
            d1 = images[1:, :, :] - images[:-1, :, :]
            d2 = images[:, 1:, :] - images[:, :-1, :]
            axis = None
        elif rank == 4:
            d1 = images[:, 1:, :, :] - images[:, :-1, :, :]
            d2 = images[:, :, 1:, :] - images[:, :, :-1, :]
            axis = [1, 2, 3]
        else:
            raise ValueError("'images' must be either 3 or 4-dimensional.")
        return reduce_sum(abs(d1), axis=axis) + reduce_sum(abs(d2), axis=axis)


def image_gradients(image: TensorLike) -> tuple:
    """(dy, dx): forward differences along height and width, 0 in the last row/column.

    Args:
        image: 4-D images.

    Returns:
        Two tensors of ``image``'s shape.

    Raises:
        ValueError: If ``image`` is not 4-D.
    """
    image = convert_to_tensor(image, name="image")
    if image.shape.rank != 4:
        raise ValueError("image_gradients expects a 4D tensor [batch_size, h, w, d], not %s."
                         % image.shape)
    dy = image[:, 1:, :, :] - image[:, :-1, :, :]
    dx = image[:, :, 1:, :] - image[:, :, :-1, :]
    dy = concat([dy, _zeros_like_slice(image, 1)], 1)
    dx = concat([dx, _zeros_like_slice(image, 2)], 2)
    return dy, dx


def _zeros_like_slice(image: Any, axis: int) -> Any:
    """Zeros of ``image``'s shape with one entry along ``axis``."""
    begin = [0, 0, 0, 0]
    size = [-1, -1, -1, -1]
    size[axis] = 1
    return slice(image, begin, size) * 0


def _correlate(x: Any, taps: np.ndarray, axis: int) -> Any:
    """VALID correlation of ``x`` with 1-D ``taps`` along ``axis`` (sums of shifted slices)."""
    n = len(taps)
    dims = x.shape.as_list()
    out = None
    for i, t in enumerate(taps):
        if t == 0:
            continue
        begin = [0] * len(dims)
        size = [-1] * len(dims)
        begin[axis] = i
        size[axis] = dims[axis] - n + 1
        term = slice(x, begin, size) * np.asarray(t, x.dtype.base_dtype.np)
        out = term if out is None else out + term
    return out


def sobel_edges(image: TensorLike) -> Any:
    """Sobel edge maps (dy, dx) of each channel, the image padded by reflection.

    Args:
        image: 4-D float images [batch, h, w, d].

    Returns:
        [batch, h, w, d, 2]: the vertical and horizontal responses.
    """
    image = convert_to_tensor(image, name="image")
    _static_hw(image, "sobel_edges")
    padded = pad(image, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="REFLECT")
    smooth, diff = np.array([1.0, 2.0, 1.0]), np.array([-1.0, 0.0, 1.0])
    dy = _correlate(_correlate(padded, diff, 1), smooth, 2)
    dx = _correlate(_correlate(padded, smooth, 1), diff, 2)
    return stack([dy, dx], -1)


def _image_floats(a: Any, b: Any, max_val: Any) -> tuple:
    a = convert_to_tensor(a, name="a")
    b = convert_to_tensor(b, name="b")
    if a.shape.rank is not None and b.shape.rank is not None:
        if not a.shape.is_compatible_with(b.shape):
            raise ValueError("Shapes %s and %s are incompatible" % (a.shape, b.shape))
    max_val = convert_image_dtype(cast(max_val, a.dtype), dtypes.float32)
    return (convert_image_dtype(a, dtypes.float32), convert_image_dtype(b, dtypes.float32),
            max_val)


def psnr(a: TensorLike, b: TensorLike, max_val: TensorLike, name: str | None = None) -> Any:
    """Peak signal-to-noise ratio between two batches of images, in dB.

    Args:
        a: Images.
        b: Images of the same shape.
        max_val: The dynamic range (1.0 for floats in [0, 1], 255 for uint8).
        name: A name for the operation.

    Returns:
        One value per image (float32).
    """
    with name_scope(name or "PSNR"):
        a, b, max_val = _image_floats(a, b, max_val)
        mse = reduce_mean(squared_difference(a, b), [-3, -2, -1])
        return (20 * log(max_val) / np.float32(np.log(10.0))
                - np.float32(10 / np.log(10)) * log(mse))


def _gauss_taps(size: int, sigma: float) -> np.ndarray:
    coords = np.arange(size, dtype=np.float32) - np.float32(size - 1) / np.float32(2)
    g = np.exp(coords * coords * np.float32(-0.5 / np.float32(sigma) ** 2))
    return (g / g.sum()).astype(np.float32)


def _ssim_per_channel(x: Any, y: Any, max_val: Any, filter_size: int, filter_sigma: float,
                      k1: float, k2: float) -> tuple:
    dims = x.shape.as_list()
    if None not in dims[-3:-1] and min(dims[-3:-1]) < filter_size:
        raise ValueError("The height and width of the images (%s) must be at least "
                         "filter_size=%d" % (dims[-3:-1], filter_size))
    taps = _gauss_taps(filter_size, filter_sigma)
    rank = len(dims)

    def reducer(t: Any) -> Any:
        return _correlate(_correlate(t, taps, rank - 3), taps, rank - 2)
    c1 = (k1 * max_val) ** 2
    c2 = (k2 * max_val) ** 2
    mean0, mean1 = reducer(x), reducer(y)
    num0 = mean0 * mean1 * 2.0
    den0 = mean0 * mean0 + mean1 * mean1
    luminance = (num0 + c1) / (den0 + c1)
    num1 = reducer(x * y) * 2.0
    den1 = reducer(x * x + y * y)
    cs = (num1 - num0 + c2) / (den1 - den0 + c2)
    return reduce_mean(luminance * cs, [-3, -2]), reduce_mean(cs, [-3, -2])


def ssim(img1: TensorLike, img2: TensorLike, max_val: TensorLike, filter_size: int = 11,
         filter_sigma: float = 1.5, k1: float = 0.01, k2: float = 0.03,
         return_index_map: bool = False) -> Any:
    """Structural similarity of two batches of images (a Gaussian window, as TensorFlow).

    Args:
        img1: Images [..., height, width, channels].
        img2: Images of the same shape.
        max_val: The dynamic range of the images.
        filter_size: The size of the Gaussian window.
        filter_sigma: Its width.
        k1: The luminance constant.
        k2: The contrast-structure constant.
        return_index_map: Not supported (flowgrad returns the mean only).

    Returns:
        One SSIM value per image (float32).

    Raises:
        NotImplementedError: For ``return_index_map=True``.
    """
    if return_index_map:
        raise NotImplementedError("ssim(return_index_map=True) is not supported by flowgrad")
    with name_scope("SSIM"):
        a, b, max_val = _image_floats(img1, img2, max_val)
        per_channel, _ = _ssim_per_channel(a, b, max_val, filter_size, filter_sigma, k1, k2)
        return reduce_mean(per_channel, [-1])


_MSSSIM_WEIGHTS = (0.0448, 0.2856, 0.3001, 0.2363, 0.1333)


def ssim_multiscale(img1: TensorLike, img2: TensorLike, max_val: TensorLike,
                    power_factors: Any = _MSSSIM_WEIGHTS, filter_size: int = 11,
                    filter_sigma: float = 1.5, k1: float = 0.01, k2: float = 0.03) -> Any:
    """Multi-scale SSIM: contrast-structure at each of ``len(power_factors)`` scales (halving
    with 2x2 average pooling, odd sizes padded symmetrically) and SSIM at the last.

    Args:
        img1: Images [..., height, width, channels].
        img2: Images of the same shape.
        max_val: The dynamic range of the images.
        power_factors: The weight of each scale.
        filter_size: The size of the Gaussian window.
        filter_sigma: Its width.
        k1: The luminance constant.
        k2: The contrast-structure constant.

    Returns:
        One MS-SSIM value per image (float32).

    Raises:
        ValueError: If the image shapes are not known when the graph is built.
    """
    with name_scope("MS-SSIM"):
        a, b, max_val = _image_floats(img1, img2, max_val)
        dims = a.shape.as_list()
        if a.shape.rank is None or None in dims:
            raise ValueError("ssim_multiscale needs the images' shape when the graph is "
                             "built; they have shape %s" % a.shape)
        heads, tail = dims[:-3], dims[-3:]
        imgs = [a, b]
        mcs = []
        for k in range(len(power_factors)):
            if k > 0:
                flat = [reshape(x, [-1] + tail) for x in imgs]
                rem = [tail[0] % 2, tail[1] % 2]
                if any(rem):
                    flat = [pad(x, [[0, 0], [0, rem[0]], [0, rem[1]], [0, 0]],
                                mode="SYMMETRIC") for x in flat]
                down = [avg_pool2d(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID") for x in flat]
                tail = down[0].shape.as_list()[1:]
                imgs = [reshape(x, heads + tail) for x in down]
            ssim_per_channel, cs = _ssim_per_channel(imgs[0], imgs[1], max_val, filter_size,
                                                     filter_sigma, k1, k2)
            mcs.append(relu(cs))
        mcs.pop()
        scores = stack(mcs + [relu(ssim_per_channel)], axis=-1)
        weights = np.asarray(power_factors, np.float32)
        return reduce_mean(reduce_prod(pow(scores, weights), [-1]), [-1])

# --------------------------------------------------------------------------------------
# Stateless random augmentations: the same seed (shape [2]) gives the same result


def _stateless(seed: Any, lo: Any, hi: Any, dtype: Any = dtypes.float32) -> Any:
    return stateless_random_uniform([], seed, lo, hi, dtype=dtype)


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def stateless_random_brightness(image: TensorLike, max_delta: float, seed: int | None) -> Any:
    """adjust_brightness by a delta in [-max_delta, max_delta) drawn from ``seed``.

    Args:
        image: An image tensor.
        max_delta: A non-negative float.
        seed: A shape-[2] int32/int64 seed.

    Returns:
        The brightness-adjusted image.

    Raises:
        ValueError: If ``max_delta`` is negative.
    """
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    return adjust_brightness(image, _stateless(seed, -max_delta, max_delta))


def stateless_random_contrast(image: TensorLike, lower: float, upper: float,
                              seed: int | None) -> Any:
    """adjust_contrast by a factor in [lower, upper) drawn from ``seed``.

    Args:
        image: Images, at least 3-D.
        lower: Lower bound of the factor.
        upper: Upper bound of the factor.
        seed: A shape-[2] seed.

    Returns:
        The contrast-adjusted images.
    """
    _check_range(lower, upper)
    return adjust_contrast(image, _stateless(seed, lower, upper))


def stateless_random_saturation(image: TensorLike, lower: float, upper: float,
                                seed: int | None) -> Any:
    """adjust_saturation by a factor in [lower, upper) drawn from ``seed``.

    Args:
        image: RGB images.
        lower: Lower bound of the factor.
        upper: Upper bound of the factor.
        seed: A shape-[2] seed.

    Returns:
        The saturation-adjusted images.
    """
    _check_range(lower, upper)
    return adjust_saturation(image, _stateless(seed, lower, upper))


def stateless_random_hue(image: TensorLike, max_delta: float, seed: int | None) -> Any:
    """adjust_hue by a delta in [-max_delta, max_delta) drawn from ``seed``.

    Args:
        image: RGB images.
        max_delta: A float in [0, 0.5].
        seed: A shape-[2] seed.

    Returns:
        The hue-adjusted images.

    Raises:
        ValueError: If ``max_delta`` is outside [0, 0.5].
    """
    if max_delta > 0.5:
        raise ValueError("max_delta must be <= 0.5.")
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    return adjust_hue(image, _stateless(seed, -max_delta, max_delta))


def stateless_random_flip_left_right(image: TensorLike, seed: int | None) -> Any:
    """Flips left-right (each image of a batch on its own draw) as ``seed`` decides.

    Args:
        image: 4-D or 3-D images.
        seed: A shape-[2] seed.

    Returns:
        The images, some flipped.
    """
    return _random_flip(image, 1, None, "stateless_random_flip_left_right",
                        lambda s: stateless_random_uniform(s, seed, 0, 1.0))


def stateless_random_flip_up_down(image: TensorLike, seed: int | None) -> Any:
    """Flips upside down (each image of a batch on its own draw) as ``seed`` decides.

    Args:
        image: 4-D or 3-D images.
        seed: A shape-[2] seed.

    Returns:
        The images, some flipped.
    """
    return _random_flip(image, 0, None, "stateless_random_flip_up_down",
                        lambda s: stateless_random_uniform(s, seed, 0, 1.0))


def stateless_random_crop(value: TensorLike, size: TensorLike, seed: int | None,
                          name: str | None = None) -> Any:
    """A window of ``size`` at an offset drawn from ``seed``.

    Args:
        value: The tensor to crop.
        size: The window's size, one entry per dimension.
        seed: A shape-[2] seed.
        name: A name for the operation.

    Returns:
        The cropped tensor.
    """
    return _crop_at(value, size, name, lambda n: stateless_random_uniform(
        [n], seed, 0, np.iinfo(np.int32).max, dtype=dtypes.int32))
