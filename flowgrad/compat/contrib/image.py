"""TensorFlow 1.15's ``tf.contrib.image``: ``transform``, ``rotate``, ``translate`` and the
projective-transform helpers, on the ``ImageProjectiveTransformV2`` op (nearest-neighbour by
default, zeros outside the image, as TF 1.15)."""
from __future__ import annotations

from flowgrad.framework import dtypes
from flowgrad.framework.graph import name_scope
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.type_hints import ShapeLike, TensorLike
from flowgrad.ops import array_ops, math_ops
from flowgrad.ops.elementwise_ops import cos, sin

_INTERPOLATIONS = ("NEAREST", "BILINEAR")


def _as_4d(images: TensorLike) -> tuple:
    images = convert_to_tensor(images, name="images")
    rank = images.shape.ndims
    if rank == 2:
        return images[None, :, :, None], rank
    if rank == 3:
        return images[None, :, :, :], rank
    if rank == 4:
        return images, rank
    raise TypeError("Images should have rank between 2 and 4.")


def _back_to_rank(images: TensorLike, rank: int) -> TensorLike:
    if rank == 2:
        return images[0, :, :, 0]
    if rank == 3:
        return images[0, :, :, :]
    return images


def transform(images: TensorLike, transforms: TensorLike, interpolation: str = "NEAREST",
              output_shape: ShapeLike | TensorLike | None = None,
              name: str | None = None) -> TensorLike:
    """Applies projective transforms: output pixel ``(x, y)`` reads the input at
    ``((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k)``, ``k = c0 x + c1 y + 1``, for the
    transform ``[a0, a1, a2, b0, b1, b2, c0, c1]``; zeros outside the input.

    Args:
      images: [height, width], [height, width, channels] or [batch, height, width, channels].
      transforms: One transform (8 numbers) for all images, or one per image ([batch, 8]).
      interpolation: ``"NEAREST"`` or ``"BILINEAR"``.
      output_shape: The output's [height, width] (the input's when None).
      name: A name for the operation.

    Returns:
      The transformed images, of the input's rank.

    Raises:
      TypeError: ``images`` or ``transforms`` has a wrong rank.
      ValueError: a bad ``interpolation``.
    """
    with name_scope(name, "transform"):
        images_4d, rank = _as_4d(images)
        if interpolation.upper() not in _INTERPOLATIONS:
            raise ValueError("Invalid interpolation %r: NEAREST or BILINEAR" % interpolation)
        if output_shape is None:
            output_shape = array_ops.shape(images_4d)[1:3]
        output_shape = convert_to_tensor(output_shape, dtypes.int32, name="output_shape")
        transforms = convert_to_tensor(transforms, dtypes.float32, name="transforms")
        if transforms.shape.ndims == 1:
            transforms = transforms[None]
        elif transforms.shape.ndims != 2:
            raise TypeError("Transforms should have rank 1 or 2.")
        out = apply_op("ImageProjectiveTransformV2", (images_4d, transforms, output_shape),
                       {"interpolation": interpolation.upper(), "fill_mode": "CONSTANT"})
        return _back_to_rank(out, rank)


def angles_to_projective_transforms(angles: TensorLike, image_height: TensorLike,
                                    image_width: TensorLike,
                                    name: str | None = None) -> TensorLike:
    """The transforms rotating images counterclockwise by ``angles`` (radians) about their
    centres.

    Args:
      angles: A scalar or a vector of angles.
      image_height: The images' height.
      image_width: The images' width.
      name: A name for the operation.

    Returns:
      A [num_angles, 8] float32 tensor.

    Raises:
      TypeError: ``angles`` has a rank above 1.
    """
    with name_scope(name, "angles_to_projective_transforms"):
        angles = convert_to_tensor(angles, dtypes.float32, name="angles")
        if angles.shape.ndims == 0:
            angles = angles[None]
        elif angles.shape.ndims != 1:
            raise TypeError("Angles should have rank 0 or 1.")
        image_height = math_ops.cast(image_height, dtypes.float32)
        image_width = math_ops.cast(image_width, dtypes.float32)
        c, s = cos(angles), sin(angles)
        x_offset = ((image_width - 1) - (c * (image_width - 1) - s * (image_height - 1))) / 2.0
        y_offset = ((image_height - 1) - (s * (image_width - 1) + c * (image_height - 1))) / 2.0
        n = array_ops.shape(angles)[0]
        return array_ops.concat([c[:, None], -s[:, None], x_offset[:, None], s[:, None],
                                 c[:, None], y_offset[:, None],
                                 array_ops.zeros(array_ops.stack([n, 2]), dtypes.float32)], 1)


def rotate(images: TensorLike, angles: TensorLike, interpolation: str = "NEAREST",
           name: str | None = None) -> TensorLike:
    """Rotates images counterclockwise by ``angles`` (radians) about their centres.

    Args:
      images: [height, width], [height, width, channels] or [batch, height, width, channels].
      angles: A scalar angle, or one per image.
      interpolation: ``"NEAREST"`` or ``"BILINEAR"``.
      name: A name for the operation.

    Returns:
      The rotated images (zeros where no input pixel lands).
    """
    with name_scope(name, "rotate"):
        images_4d, rank = _as_4d(images)
        size = array_ops.shape(images_4d)
        out = transform(images_4d, angles_to_projective_transforms(angles, size[1], size[2]),
                        interpolation=interpolation)
        return _back_to_rank(out, rank)


def translations_to_projective_transforms(translations: TensorLike,
                                          name: str | None = None) -> TensorLike:
    """The transforms shifting images by ``translations`` ([dx, dy] pixels).

    Args:
      translations: A [2] vector or a [num, 2] matrix of (dx, dy).
      name: A name for the operation.

    Returns:
      A [num, 8] float32 tensor.

    Raises:
      TypeError: ``translations`` has a rank above 2.
    """
    with name_scope(name, "translations_to_projective_transforms"):
        t = convert_to_tensor(translations, dtypes.float32, name="translations")
        if t.shape.ndims == 1:
            t = t[None]
        elif t.shape.ndims != 2:
            raise TypeError("Translations should have rank 1 or 2.")
        n = array_ops.shape(t)[0]
        ones = array_ops.ones(array_ops.stack([n, 1]), dtypes.float32)
        zeros = array_ops.zeros(array_ops.stack([n, 1]), dtypes.float32)
        return array_ops.concat([ones, zeros, -t[:, 0:1], zeros, ones, -t[:, 1:2], zeros, zeros],
                                1)


def translate(images: TensorLike, translations: TensorLike, interpolation: str = "NEAREST",
              name: str | None = None) -> TensorLike:
    """Shifts images by ``translations`` ([dx, dy] pixels, one pair or one per image).

    Args:
      images: [height, width], [height, width, channels] or [batch, height, width, channels].
      translations: A [2] vector or a [batch, 2] matrix.
      interpolation: ``"NEAREST"`` or ``"BILINEAR"``.
      name: A name for the operation.

    Returns:
      The shifted images (zeros where nothing lands).
    """
    with name_scope(name, "translate"):
        return transform(images, translations_to_projective_transforms(translations),
                         interpolation=interpolation)


def flat_transforms_to_matrices(transforms: TensorLike) -> TensorLike:
    """[num, 8] transforms as [num, 3, 3] matrices (the ninth entry 1).

    Args:
      transforms: A [8] vector or a [num, 8] matrix.

    Returns:
      The [num, 3, 3] matrices.

    Raises:
      ValueError: ``transforms`` has a rank above 2.
    """
    t = convert_to_tensor(transforms, name="transforms")
    if t.shape.ndims not in (1, 2):
        raise ValueError("Transforms should be 1D or 2D, got: %s" % t)
    t = array_ops.reshape(t, [-1, 8])
    n = array_ops.shape(t)[0]
    flat = array_ops.concat([t, array_ops.ones(array_ops.stack([n, 1]), t.dtype)], 1)
    return array_ops.reshape(flat, [-1, 3, 3])


def matrices_to_flat_transforms(transform_matrices: TensorLike) -> TensorLike:
    """[num, 3, 3] matrices as [num, 8] transforms (divided by their ninth entry).

    Args:
      transform_matrices: A [3, 3] matrix or [num, 3, 3] matrices.

    Returns:
      The [num, 8] transforms.

    Raises:
      ValueError: the matrices have a rank other than 2 or 3.
    """
    m = convert_to_tensor(transform_matrices, name="transform_matrices")
    if m.shape.ndims not in (2, 3):
        raise ValueError("Matrices should be 2D or 3D, got: %s" % m)
    flat = array_ops.reshape(m, [-1, 9])
    flat = flat / flat[:, 8:9]
    return flat[:, :8]


def compose_transforms(*transforms: TensorLike) -> TensorLike:
    """One transform doing all of ``transforms`` (the first applied to the output coordinates
    first: the matrix product in order).

    Args:
      *transforms: [num, 8] transforms.

    Returns:
      The composed [num, 8] transform.

    Raises:
      ValueError: no transform is given.
    """
    if not transforms:
        raise ValueError("At least one transform is required.")
    composed = flat_transforms_to_matrices(transforms[0])
    for tr in transforms[1:]:
        composed = math_ops.matmul(composed, flat_transforms_to_matrices(tr))
    return matrices_to_flat_transforms(composed)


__all__ = ["angles_to_projective_transforms", "compose_transforms",
           "flat_transforms_to_matrices", "matrices_to_flat_transforms", "rotate", "transform",
           "translate", "translations_to_projective_transforms"]


def __dir__() -> list:
    return sorted(__all__)
