"""``tf.signal.mdct``, ``tf.signal.inverse_mdct`` and
``tf.signal.kaiser_bessel_derived_window``: Python compositions of framing, windowing, the
type-IV DCT and overlap-add, as in TensorFlow 2.21 (``spectral_ops.py``, ``window_ops.py``),
so they differentiate through those ops."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.graph import name_scope
from flowgrad.framework.shape_rules import constant_value
from flowgrad.framework.tensor import TensorBase, convert_to_tensor
from flowgrad.framework.type_hints import DTypeLike, TensorLike
from flowgrad.ops.array_op_util import _as_value
from flowgrad.ops.concat_ops import concat, split
from flowgrad.ops.reduction_ops import cumsum
from flowgrad.ops.elementwise_ops import sqrt
from flowgrad.ops.shape_ops import reverse
from flowgrad.ops.signal_extra_ops import dct, vorbis_window
from flowgrad.ops.signal_ops import frame, kaiser_window, overlap_and_add


def kaiser_bessel_derived_window(window_length: TensorLike, beta: float = 12.0,
                                 dtype: DTypeLike = dtypes.float32,
                                 name: str | None = None) -> TensorBase:
    """The Kaiser-Bessel derived window: the square root of the normalized cumulative sum
    of a Kaiser window of ``window_length // 2 + 1`` samples, mirrored.

    Args:
        window_length: The window length (an even number for a symmetric window).
        beta: The Kaiser window's shape parameter.
        dtype: A floating point dtype.
        name: A name for the operation (optional).

    Returns:
        A tensor of shape ``[window_length]`` and dtype ``dtype``.

    Raises:
        ValueError: if ``dtype`` is not floating point.
    """
    dt = dtypes.as_dtype(dtype)
    if not dt.is_floating:
        raise ValueError("dtype must be a floating point type. Found %s" % dt)
    with name_scope(name, "kaiser_bessel_derived_window"):
        n = constant_value(convert_to_tensor(_as_value(window_length), dtypes.int32))
        if n is None:
            raise ValueError("kaiser_bessel_derived_window: window_length must be known when "
                             "the graph is built")
        halflen = int(n) // 2
        kaiserw = kaiser_window(halflen + 1, beta, dtype=dt)
        csum = cumsum(kaiserw)
        halfw = sqrt(csum[:-1] / csum[-1])
        return concat((halfw, halfw[::-1]), axis=0)


def _frame_length(frame_length: Any) -> Any:
    t = convert_to_tensor(_as_value(frame_length), name="frame_length")
    if t.shape.rank not in (None, 0):
        raise ValueError("Shape %s must have rank 0" % t.shape)
    return t


def mdct(signals: TensorLike, frame_length: TensorLike, window_fn: Any = vorbis_window,
         pad_end: bool = False, norm: str | None = None,
         name: str | None = None) -> TensorBase:
    """The modified discrete cosine transform of ``signals``: frames of ``frame_length``
    with a hop of ``frame_length // 2``, windowed, folded and transformed by a type-IV DCT.

    Args:
        signals: A ``[..., samples]`` float32/float64 tensor.
        frame_length: The frame length, a multiple of 4.
        window_fn: ``window_fn(frame_length, dtype=...)`` gives the window (the Vorbis
            window by default); ``None``: a rectangular window of ``1 / sqrt(2)``.
        pad_end: Whether to pad the end of ``signals`` with zeros to fill the last frame.
        norm: ``None`` or ``"ortho"`` (the orthonormal DCT-IV).
        name: A name for the operation (optional).

    Returns:
        A ``[..., frames, frame_length // 2]`` tensor of MDCT values.

    Raises:
        ValueError: if ``signals`` is a scalar or ``frame_length`` not a multiple of 4.
    """
    with name_scope(name, "mdct", [signals, frame_length]):
        signals = convert_to_tensor(_as_value(signals), name="signals")
        if signals.shape.rank == 0:
            raise ValueError("Shape %s must have rank at least 1" % signals.shape)
        frame_length = _frame_length(frame_length)
        static = constant_value(frame_length)
        if static is not None:
            if int(static) % 4 != 0:
                raise ValueError("The frame length must be a multiple of 4.")
            frame_step = convert_to_tensor(np.asarray(int(static) // 2,
                                                      frame_length.dtype.as_numpy_dtype))
        else:
            frame_step = frame_length // 2
        framed = frame(signals, frame_length, frame_step, pad_end=pad_end)
        if window_fn is not None:
            length = int(static) if static is not None else frame_length
            framed = framed * window_fn(length, dtype=framed.dtype)
        else:
            framed = framed * (1.0 / np.sqrt(2))
        quarters = split(framed, 4, axis=-1)
        first = -reverse(quarters[2], [-1]) - quarters[3]
        second = quarters[0] - reverse(quarters[1], [-1])
        return dct(concat((first, second), axis=-1), type=4, norm=norm)


def inverse_mdct(mdcts: TensorLike, window_fn: Any = vorbis_window, norm: str | None = None,
                 name: str | None = None) -> TensorBase:
    """The inverse of :func:`mdct`: a type-IV DCT of each frame, unfolded, windowed and
    overlap-added (perfect reconstruction with the Vorbis or Kaiser-Bessel derived window,
    or ``None``, used by both).

    Args:
        mdcts: A ``[..., frames, frame_length // 2]`` float32/float64 tensor (its last
            dimension must be known).
        window_fn: ``window_fn(frame_length, dtype=...)`` gives the window; ``None``: a
            rectangular window of ``1 / sqrt(2)``.
        norm: ``None`` (the DCT-IV scaled by ``1 / frame_length``) or ``"ortho"``.
        name: A name for the operation (optional).

    Returns:
        A ``[..., samples]`` tensor, ``samples = (frames - 1) * (frame_length // 2) +
        frame_length``.

    Raises:
        ValueError: if ``mdcts`` has rank below 2.
    """
    with name_scope(name, "inverse_mdct", [mdcts]):
        mdcts = convert_to_tensor(_as_value(mdcts), name="mdcts")
        if mdcts.shape.rank is not None and mdcts.shape.rank < 2:
            raise ValueError("Shape %s must have rank at least 2" % mdcts.shape)
        half_len = mdcts.shape.as_list()[-1]
        if norm is None:
            result = (0.5 / half_len) * dct(mdcts, type=4)
        elif norm == "ortho":
            result = dct(mdcts, type=4, norm="ortho")
        else:
            raise ValueError("Unknown normalization. Expected None or 'ortho', got: %s" % norm)
        first, second = split(result, 2, axis=-1)
        frames = concat((second, -reverse(second, [-1]), -reverse(first, [-1]), -first),
                        axis=-1)
        if window_fn is not None:
            frames = frames * window_fn(2 * half_len, dtype=mdcts.dtype)
        else:
            frames = frames * (1.0 / np.sqrt(2))
        return overlap_and_add(frames, half_len)
