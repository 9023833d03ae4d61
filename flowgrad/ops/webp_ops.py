"""``DecodeWebP`` (``tf.io.decode_webp`` / ``tf.image.decode_webp``): a WebP image (libwebp
through Pillow, ``pip install flowgrad[image]``) as a ``[frames, height, width, channels]``
uint8 tensor, as TensorFlow 2.21 gives it (one frame for a still image)."""
from __future__ import annotations

import io
from typing import Any

import numpy as np

from flowgrad.framework import dtypes, errors
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import NotDifferentiable, register_op
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.framework.type_hints import DTypeLike, TensorLike
from flowgrad.ops.array_op_util import _as_value
from flowgrad.ops.image_codec_ops import _pil


def _decode_webp_kernel(contents: Any, *, channels: int, dtype: Any) -> np.ndarray:
    data = np.asarray(contents, dtype=object).item()
    if data[:4] != b"RIFF" or data[8:12] != b"WEBP":
        raise errors.InvalidArgumentError(None, None, "Unknown image file format. One of "
                                          "JPEG, JPEG XL, PNG, GIF, BMP, WebP required.")
    image = _pil().open(io.BytesIO(data))
    frames = []
    for i in range(getattr(image, "n_frames", 1)):
        image.seek(i)
        has_alpha = image.mode in ("RGBA", "LA") or "transparency" in image.info
        frames.append(np.asarray(image.convert("RGBA" if has_alpha else "RGB")))
    have = frames[0].shape[-1]
    if channels not in (0, have):
        raise errors.InvalidArgumentError(None, None, "Number of channels requested does not "
                                          "match input")
    return np.stack(frames).astype(np.uint8)


register_op("DecodeWebP", _decode_webp_kernel,
            lambda ins, attrs: (attrs["dtype"], TensorShape(
                [None, None, None, attrs["channels"] or None])),
            input_names=("contents",))
NotDifferentiable("DecodeWebP")


def decode_webp(contents: TensorLike, channels: int = 0, dtype: DTypeLike = dtypes.uint8,
                name: str | None = None) -> Any:
    """Decodes a WebP image (all frames of an animation) to a uint8 tensor.

    Args:
        contents: A scalar string tensor: the WebP file's bytes.
        channels: 0 (the file's), 3 (RGB) or 4 (RGBA); it must match the file's.
        dtype: ``tf.uint8`` (TensorFlow's only choice).
        name: A name for the operation (optional).

    Returns:
        A ``[frames, height, width, channels]`` uint8 tensor.

    Raises:
        InvalidArgumentError: if ``contents`` is not WebP or ``channels`` does not match.
    """
    if int(channels) not in (0, 3, 4):
        raise ValueError("channels must be 0, 3 or 4, got %r" % (channels,))
    if dtypes.as_dtype(dtype) != dtypes.uint8:
        raise TypeError("Value for attr 'dtype' of %s is not in the list of allowed values: "
                        "uint8" % dtypes.as_dtype(dtype).name)
    x = convert_to_tensor(_as_value(contents), dtypes.string, name="contents")
    return apply_op("DecodeWebP", [x], {"channels": int(channels), "dtype": dtypes.uint8},
                    name=name)
