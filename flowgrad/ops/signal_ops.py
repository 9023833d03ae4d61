"""``tf.signal`` made of other ops, as in TensorFlow: ``frame``, ``overlap_and_add``, the
``hann``/``hamming``/``kaiser`` windows, ``stft``, ``inverse_stft`` and
``inverse_stft_window_fn`` (the transforms are ``flowgrad.ops.fft_ops``). Framing is a gather
and overlap-add a segment sum, so gradients flow through every function."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.graph import name_scope
from flowgrad.framework.shape_rules import constant_value
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops.arithmetic_ops import multiply
from flowgrad.ops.array_ops import (_as_value, concat, gather, pad, reshape, shape, transpose,
                                    unsorted_segment_sum)
from flowgrad.ops.bessel_ops import _kernel as _bessel_kernel
from flowgrad.ops.fft_ops import irfft, rfft
from flowgrad.framework.type_hints import DTypeLike, TensorLike


def _static_int(value: Any, what: str) -> int:
    v = constant_value(convert_to_tensor(_as_value(value)))
    if v is None:
        raise ValueError("%s must be known when the graph is built (flowgrad's tf.signal)"
                         % what)
    return int(np.ravel(v)[0])


def frame(signal: Any, frame_length: TensorLike, frame_step: TensorLike, pad_end: bool = False,
          pad_value: Any = 0, axis: int = -1, name: str | None = None) -> Any:
    """Overlapping frames of ``frame_length`` samples every ``frame_step`` along ``axis``.

    Args:
      signal: A tensor.
      frame_length: The frame length in samples.
      frame_step: The step between frame starts.
      pad_end: Whether to pad the end with ``pad_value`` so that every sample is in a frame.
      pad_value: The padding value.
      axis: The axis to frame.
      name: A name for the operation.

    Returns:
      ``signal`` with ``axis`` replaced by ``[frames, frame_length]``.
    """
    with name_scope(name, "frame", [signal, frame_length, frame_step]) as scope:
        x = convert_to_tensor(_as_value(signal), name="signal")
        length, step = _static_int(frame_length, "frame_length"), _static_int(frame_step,
                                                                              "frame_step")
        rank = x.shape.rank
        ax = axis % rank
        n = x.shape.as_list()[ax]
        if n is None:
            raise ValueError("frame: the framed axis must have a known length")
        if pad_end:
            frames = -(-n // step)
            extra = max(0, (frames - 1) * step + length - n)
            paddings = [[0, 0]] * rank
            paddings[ax] = [0, extra]
            x = pad(x, paddings, constant_values=pad_value)
        else:
            frames = max(0, 1 + (n - length) // step)
            # (as TensorFlow's strided slice and reshape do, this makes the gradient with
            # respect to ``signal`` a dense tensor, not the gather's IndexedSlices)
            x = reshape(x, shape(x))
        idx = (np.arange(frames)[:, None] * step + np.arange(length)[None, :]).astype(np.int32)
        return gather(x, idx, axis=ax, name=scope)


def overlap_and_add(signal: Any, frame_step: TensorLike, name: str | None = None) -> Any:
    """Sums frames ``[..., frames, frame_length]`` placed ``frame_step`` apart.

    Args:
        signal: A [..., frames, frame_length] tensor.
        frame_step: The hop size in samples.
        name: A name for the operation (optional).

    Returns:
      A tensor ``[..., (frames - 1) * frame_step + frame_length]``.
    """
    with name_scope(name, "overlap_and_add", [signal, frame_step]) as scope:
        x = convert_to_tensor(_as_value(signal), name="signal")
        step = _static_int(frame_step, "frame_step")
        rank = x.shape.rank
        frames, length = x.shape.as_list()[-2:]
        out_len = (frames - 1) * step + length
        pos = (np.arange(frames)[:, None] * step + np.arange(length)[None, :]).reshape(-1)
        lead = shape(x)[:-2]
        flat = reshape(x, concat([lead, [frames * length]], 0))
        perm = [rank - 2] + list(range(rank - 2))
        moved = transpose(flat, perm)
        summed = unsorted_segment_sum(moved, pos.astype(np.int32), out_len)
        back = [i + 1 for i in range(rank - 2)] + [0]
        return transpose(summed, back, name=scope)


def _raised_cosine(window_length: Any, periodic: bool, dtype: Any, a: float, b: float,
                   name: str | None, default: str) -> Any:
    dt = dtypes.as_dtype(dtype)
    with name_scope(name, default, [window_length]) as scope:
        n = _static_int(window_length, "window_length")
        if n == 1:
            return convert_to_tensor(np.ones([1], dt.np), name=scope)
        denom = n + (1 if periodic and n % 2 == 0 else 0) - 1
        w = a - b * np.cos(2 * np.pi * np.arange(n, dtype=np.float64) / denom)
        return convert_to_tensor(w.astype(dt.np), name=scope)


def hann_window(window_length: Any, periodic: bool = True, dtype: DTypeLike = dtypes.float32,
                name: str | None = None) -> Any:
    """The Hann window ``0.5 - 0.5 cos(2 pi k / N)``.

    Args:
      window_length: The number of samples.
      periodic: Whether the window is periodic (N = length) or symmetric (N = length - 1).
      dtype: The window's floating point dtype.
      name: A name for the operation.

    Returns:
      A 1-D tensor of ``window_length`` samples.
    """
    return _raised_cosine(window_length, periodic, dtype, 0.5, 0.5, name, "hann_window")


def hamming_window(window_length: Any, periodic: bool = True, dtype: DTypeLike = dtypes.float32,
                   name: str | None = None) -> Any:
    """The Hamming window ``0.54 - 0.46 cos(2 pi k / N)``; see :func:`hann_window`.

    Args:
        window_length: The window's length.
        periodic: Whether the window is periodic (for spectral analysis) or symmetric.
        dtype: A floating dtype.
        name: A name for the operation (optional).
    """
    return _raised_cosine(window_length, periodic, dtype, 0.54, 0.46, name, "hamming_window")


def kaiser_window(window_length: Any, beta: float = 12.0, dtype: DTypeLike = dtypes.float32,
                  name: str | None = None) -> Any:
    """The Kaiser window ``I0(beta sqrt(1 - (2k / (N - 1) - 1)^2)) / I0(beta)``.

    Args:
      window_length: The number of samples.
      beta: The shape parameter.
      dtype: The window's floating point dtype.
      name: A name for the operation.

    Returns:
      A 1-D tensor of ``window_length`` samples.
    """
    dt = dtypes.as_dtype(dtype)
    with name_scope(name, "kaiser_window", [window_length, beta]) as scope:
        n = _static_int(window_length, "window_length")
        if n == 1:
            return convert_to_tensor(np.ones([1], dt.np), name=scope)
        half = (n - 1) / 2.0
        arg = np.arange(-half, half + 0.1, dtype=np.float32).astype(np.float64)
        num = beta * np.sqrt(np.maximum(0.0, 1.0 - np.square(arg / half)))
        i0e = _bessel_kernel(0, True)
        w = np.exp(num - beta) * (i0e(num) / i0e(np.array(float(beta))))
        return convert_to_tensor(w.astype(dt.np), name=scope)


def _default_fft_length(frame_length: int) -> int:
    return 1 << max(0, (frame_length - 1).bit_length())


def stft(signals: TensorLike, frame_length: TensorLike, frame_step: TensorLike,
         fft_length: TensorLike | None = None, window_fn: Any = hann_window, pad_end: bool = False,
         name: str | None = None) -> Any:
    """The short-time Fourier transform: ``rfft`` of windowed frames.

    Args:
      signals: A float32/float64 tensor ``[..., samples]``.
      frame_length: The window length in samples.
      frame_step: The step between windows.
      fft_length: The FFT size (the smallest power of 2 >= ``frame_length`` by default).
      window_fn: ``fn(frame_length, dtype)`` giving the window, or None.
      pad_end: Whether to pad the end of ``signals`` with zeros.
      name: A name for the operation.

    Returns:
      A complex tensor ``[..., frames, fft_length // 2 + 1]``.
    """
    with name_scope(name, "stft", [signals]) as scope:
        x = convert_to_tensor(_as_value(signals), name="signals")
        length = _static_int(frame_length, "frame_length")
        n = _default_fft_length(length) if fft_length is None else _static_int(fft_length,
                                                                               "fft_length")
        framed = frame(x, length, frame_step, pad_end=pad_end)
        if window_fn is not None:
            framed = multiply(framed, window_fn(length, dtype=x.dtype.base_dtype))
        return rfft(framed, [n], name=scope)


def inverse_stft_window_fn(frame_step: TensorLike, forward_window_fn: Any = hann_window,
                           name: str | None = None) -> Any:
    """A window function that makes :func:`inverse_stft` invert :func:`stft` made with
    ``forward_window_fn`` and ``frame_step``.

    Args:
        frame_step: The hop size in samples.
        forward_window_fn: The window the forward ``stft`` used.
        name: A name for the operation (optional).

    Returns:
      ``fn(frame_length, dtype)``.
    """
    step = _static_int(frame_step, "frame_step")

    def window(frame_length: Any, dtype: Any) -> Any:
        with name_scope(name, "inverse_stft_window_fn", []):
            length = _static_int(frame_length, "frame_length")
            forward = forward_window_fn(length, dtype=dtype)
            denom = np.square(constant_value(forward).astype(np.float64))
            overlaps = -(-length // step)
            denom = np.pad(denom, [(0, overlaps * step - length)]).reshape(overlaps, step)
            denom = np.tile(denom.sum(0, keepdims=True), [overlaps, 1]).reshape(-1)[:length]
            return convert_to_tensor((constant_value(forward) / denom)
                                     .astype(dtypes.as_dtype(dtype).np))
    return window


def inverse_stft(stfts: Any, frame_length: TensorLike, frame_step: TensorLike,
                 fft_length: TensorLike | None = None, window_fn: Any = hann_window,
                 name: str | None = None) -> Any:
    """The inverse of :func:`stft` (with ``inverse_stft_window_fn``'s window): ``irfft`` of
    each frame, windowed, overlapped and added.

    Args:
        stfts: A complex [..., frames, fft_length // 2 + 1] tensor.
        frame_length: The window length in samples.
        frame_step: The hop size in samples.
        fft_length: The FFT size; the smallest power of 2 not below ``frame_length`` when None.
        window_fn: A callable (length, dtype) -> window; None for no window.
        name: A name for the operation (optional).

    Returns:
      A real tensor ``[..., samples]``.
    """
    with name_scope(name, "inverse_stft", [stfts]) as scope:
        z = convert_to_tensor(_as_value(stfts), name="stfts")
        length = _static_int(frame_length, "frame_length")
        n = _default_fft_length(length) if fft_length is None else _static_int(fft_length,
                                                                               "fft_length")
        frames = irfft(z, [n])
        if length <= n:
            frames = frames[..., :length]
        else:
            frames = pad(frames, [[0, 0]] * (frames.shape.rank - 1) + [[0, length - n]])
        if window_fn is not None:
            frames = multiply(frames, window_fn(length, dtype=frames.dtype.base_dtype))
        return overlap_and_add(frames, frame_step, name=scope)


__all__ = ["frame", "overlap_and_add", "hann_window", "hamming_window", "kaiser_window", "stft",
           "inverse_stft", "inverse_stft_window_fn"]
