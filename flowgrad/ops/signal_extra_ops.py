"""More of ``tf.signal``, written with the FFT ops (so everything differentiates, as in
TensorFlow, where these are Python compositions too or have the FFT ops' gradients):
``fftshift``/``ifftshift``, the DCT (types I-IV) and its inverse, the mel filterbank
(``linear_to_mel_weight_matrix``), ``mfccs_from_log_mel_spectrograms``, the 2-D and 3-D real
FFTs, the 3-D complex FFTs and the Vorbis window, with TensorFlow 2.21's formulas."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.tensor import TensorBase, constant, convert_to_tensor
from flowgrad.ops import concat_ops, fill_ops, shape_ops, slicing_ops
from flowgrad.ops.arithmetic_ops import maximum, minimum
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.complex_ops import complex as tf_complex, real
from flowgrad.ops.elementwise_ops import exp, log, sin
from flowgrad.ops.fft_ops import fft, fft2d, ifft, ifft2d, irfft, rfft
from flowgrad.ops.manip_ops import roll
from flowgrad.ops.sequence_ops import linspace
from flowgrad.ops.signal_ops import frame


def _axes(x: TensorBase, axes: Any) -> list:
    if axes is None:
        return list(range(x.shape.rank))
    return [int(axes)] if isinstance(axes, (int, np.integer)) else [int(a) for a in axes]


def fftshift(x: Any, axes: Any = None, name: str | None = None) -> TensorBase:
    """The zero frequency moved to the centre: ``x`` rolled by half its size along
    ``axes`` (all by default), as ``tf.signal.fftshift``.

    Args:
      x: A tensor.
      axes: An axis or axes.
      name: A name for the operation.

    Returns:
      A tensor of ``x``'s shape.
    """
    x = convert_to_tensor(x)
    axes = _axes(x, axes)
    shifts = [x.shape.as_list()[a] // 2 for a in axes]
    return roll(x, shifts, axes, name=name)


def ifftshift(x: Any, axes: Any = None, name: str | None = None) -> TensorBase:
    """The inverse of :func:`fftshift`, as ``tf.signal.ifftshift``.

    Args:
      x: A tensor.
      axes: An axis or axes.
      name: A name for the operation.

    Returns:
      A tensor of ``x``'s shape.
    """
    x = convert_to_tensor(x)
    axes = _axes(x, axes)
    shifts = [-(x.shape.as_list()[a] // 2) for a in axes]
    return roll(x, shifts, axes, name=name)


def _validate_dct(x: TensorBase, dct_type: int, n: Any, axis: int, norm: Any) -> None:
    if axis != -1:
        raise NotImplementedError("axis must be -1. Got: %s" % axis)
    if n is not None and n < 1:
        raise ValueError("n should be a positive integer or None")
    if dct_type not in (1, 2, 3, 4):
        raise ValueError("Types I, II, III and IV (I)DCT are supported.")
    if dct_type == 1:
        if norm == "ortho":
            raise ValueError("Normalization is not supported for the Type-I DCT.")
        if x.shape[-1] is not None and x.shape[-1] < 2:
            raise ValueError("Type-I DCT requires the dimension to be greater than one.")
    if norm not in (None, "ortho"):
        raise ValueError("Unknown normalization. Expected None or 'ortho', got: %s" % norm)


def _dct(x: TensorBase, dct_type: int, n: Any, norm: Any) -> TensorBase:
    seq_len = x.shape.as_list()[-1]
    if n is not None:
        if n <= seq_len:
            x = x[..., 0:n]
        else:
            x = slicing_ops.pad(x, [[0, 0]] * (x.shape.rank - 1) + [[0, n - seq_len]])
    dim = x.shape.as_list()[-1]
    dim_f = float(dim)
    dtype = x.dtype.base_dtype
    if dct_type == 1:
        return real(rfft(concat_ops.concat([x, x[..., -2:0:-1]], axis=-1)))
    if dct_type == 2:
        angles = -np.arange(dim) * math.pi * 0.5 / dim_f
        scale = 2.0 * exp(tf_complex(constant(np.zeros(dim), dtype),
                                     constant(angles.astype(dtype.as_numpy_dtype))))
        out = real(rfft(x, fft_length=[2 * dim])[..., :dim] * scale)
        if norm == "ortho":
            n1 = 0.5 / math.sqrt(dim_f)
            weights = np.full(dim, n1 * math.sqrt(2.0))
            weights[0] = n1
            out = out * constant(weights.astype(dtype.as_numpy_dtype))
        return out
    if dct_type == 3:
        if norm == "ortho":
            n1 = math.sqrt(dim_f)
            weights = np.full(dim, n1 * math.sqrt(0.5))
            weights[0] = n1
            x = x * constant(weights.astype(dtype.as_numpy_dtype))
        else:
            x = x * constant(dim_f, dtype)
        angles = np.arange(dim) * math.pi * 0.5 / dim_f
        scale = 2.0 * exp(tf_complex(constant(np.zeros(dim), dtype),
                                     constant(angles.astype(dtype.as_numpy_dtype))))
        spectrum = scale * tf_complex(x, fill_ops.zeros_like(x))
        return real(irfft(spectrum, fft_length=[2 * dim]))[..., :dim]
    out = _dct(x, 2, 2 * dim, None)[..., 1::2]
    if norm == "ortho":
        out = out * constant(math.sqrt(0.5) / math.sqrt(dim_f), dtype)
    return out


def dct(input: Any, type: int = 2, n: int | None = None, axis: int = -1,  # noqa: A002
        norm: str | None = None, name: str | None = None) -> TensorBase:
    """The discrete cosine transform (types I-IV) along the last axis, as
    ``tf.signal.dct`` (scipy.fftpack.dct's definitions).

    Args:
      input: A float32/float64 tensor ``[..., samples]``.
      type: 1, 2, 3 or 4.
      n: The transform length (the input is cut or zero-padded to it).
      axis: Must be -1.
      norm: None or ``"ortho"``.
      name: A name for the operation.

    Returns:
      A tensor ``[..., n]``.

    Raises:
      ValueError: A bad type, length or normalization.
      NotImplementedError: ``axis`` is not -1.
    """
    del name
    x = convert_to_tensor(input)
    _validate_dct(x, type, n, axis, norm)
    return _dct(x, type, n, norm)


def idct(input: Any, type: int = 2, n: int | None = None, axis: int = -1,  # noqa: A002
         norm: str | None = None, name: str | None = None) -> TensorBase:
    """The inverse DCT (type III for type II, and so on), as ``tf.signal.idct``.

    Args:
      input: A float32/float64 tensor ``[..., samples]``.
      type: 1, 2, 3 or 4.
      n: Must be None.
      axis: Must be -1.
      norm: None or ``"ortho"``.
      name: A name for the operation.

    Returns:
      A tensor of ``input``'s shape.

    Raises:
      ValueError: A bad type or normalization.
      NotImplementedError: ``axis`` is not -1.
    """
    del name
    x = convert_to_tensor(input)
    _validate_dct(x, type, n, axis, norm)
    return _dct(x, {1: 1, 2: 3, 3: 2, 4: 4}[type], n, norm)


_MEL_BREAK_FREQUENCY_HERTZ = 700.0
_MEL_HIGH_FREQUENCY_Q = 1127.0


def _hertz_to_mel(hz: TensorBase) -> TensorBase:
    return _MEL_HIGH_FREQUENCY_Q * log(1.0 + hz / _MEL_BREAK_FREQUENCY_HERTZ)


def linear_to_mel_weight_matrix(num_mel_bins: int = 20, num_spectrogram_bins: int = 129,
                                sample_rate: Any = 8000, lower_edge_hertz: float = 125.0,
                                upper_edge_hertz: float = 3800.0, dtype: Any = dtypes.float32,
                                name: str | None = None) -> TensorBase:
    """The ``[num_spectrogram_bins, num_mel_bins]`` matrix of triangular mel filters (HTK's
    mel scale; the DC bin is zero) that turns a linear spectrogram into a mel spectrogram, as
    ``tf.signal.linear_to_mel_weight_matrix``.

    Args:
      num_mel_bins: How many mel bands.
      num_spectrogram_bins: How many linear frequency bins (``fft_length // 2 + 1``).
      sample_rate: Samples per second of the signal.
      lower_edge_hertz: The lowest frequency of the bands.
      upper_edge_hertz: The highest frequency of the bands.
      dtype: A floating dtype.
      name: A name for the operation.

    Returns:
      A tensor ``[num_spectrogram_bins, num_mel_bins]``.

    Raises:
      ValueError: Non-positive sizes or rates, bad edges, or a non-float dtype.
    """
    del name
    dtype = dtypes.as_dtype(dtype)
    if num_mel_bins <= 0:
        raise ValueError("num_mel_bins must be positive. Got: %s" % num_mel_bins)
    if lower_edge_hertz < 0.0:
        raise ValueError("lower_edge_hertz must be non-negative. Got: %s" % lower_edge_hertz)
    if lower_edge_hertz >= upper_edge_hertz:
        raise ValueError("lower_edge_hertz %.1f >= upper_edge_hertz %.1f" % (
            lower_edge_hertz, upper_edge_hertz))
    if not isinstance(sample_rate, TensorBase):
        if sample_rate <= 0.0:
            raise ValueError("sample_rate must be positive. Got: %s" % sample_rate)
        if upper_edge_hertz > sample_rate / 2:
            raise ValueError("upper_edge_hertz must not be larger than the Nyquist frequency "
                             "(sample_rate / 2). Got %s for sample_rate: %s" % (
                                 upper_edge_hertz, sample_rate))
    if not dtype.is_floating:
        raise ValueError("dtype must be a floating point type. Got: %s" % dtype)
    rate = cast(sample_rate, dtype)
    lower = convert_to_tensor(lower_edge_hertz, dtype)
    upper = convert_to_tensor(upper_edge_hertz, dtype)
    zero = constant(0.0, dtype)
    linear = linspace(zero, rate / 2.0, num_spectrogram_bins)[1:]
    bins_mel = shape_ops.expand_dims(_hertz_to_mel(linear), 1)
    edges = frame(linspace(_hertz_to_mel(lower), _hertz_to_mel(upper), num_mel_bins + 2),
                  frame_length=3, frame_step=1)
    lo, centre, hi = (shape_ops.reshape(t, [1, num_mel_bins])
                      for t in concat_ops.split(edges, 3, axis=1))
    lower_slopes = (bins_mel - lo) / (centre - lo)
    upper_slopes = (hi - bins_mel) / (hi - centre)
    weights = maximum(zero, minimum(lower_slopes, upper_slopes))
    return slicing_ops.pad(weights, [[1, 0], [0, 0]])


def mfccs_from_log_mel_spectrograms(log_mel_spectrograms: Any,
                                    name: str | None = None) -> TensorBase:
    """MFCCs: the orthonormally scaled type-II DCT of log mel spectrograms (HTK's
    convention), as ``tf.signal.mfccs_from_log_mel_spectrograms``.

    Args:
      log_mel_spectrograms: A float tensor ``[..., num_mel_bins]``.
      name: A name for the operation.

    Returns:
      A tensor of the input's shape.

    Raises:
      ValueError: An empty last axis.
    """
    del name
    x = convert_to_tensor(log_mel_spectrograms)
    bins = x.shape.as_list()[-1]
    if bins == 0:
        raise ValueError("num_mel_bins must be positive. Got: %s" % x)
    return _dct(x, 2, None, None) * constant(1.0 / math.sqrt(bins * 2.0), x.dtype.base_dtype)


def _swap_last(x: TensorBase, axis: int) -> TensorBase:
    perm = list(range(x.shape.rank))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    return shape_ops.transpose(x, perm)


def _fit(x: TensorBase, axis: int, n: int) -> TensorBase:
    """``x`` cut or zero-padded to ``n`` along ``axis``."""
    have = x.shape.as_list()[axis]
    if have == n:
        return x
    if have > n:
        begin = [0] * x.shape.rank
        size = [-1] * x.shape.rank
        size[axis] = n
        return slicing_ops.slice(x, begin, size)
    pad = [[0, 0]] * x.shape.rank
    pad[axis] = [0, n - have]
    return slicing_ops.pad(x, pad)


def _along(fn: Any, x: TensorBase, axis: int) -> TensorBase:
    return _swap_last(fn(_swap_last(x, axis)), axis)


def _lengths(x: TensorBase, fft_length: Any, k: int) -> list:
    if fft_length is None:
        return x.shape.as_list()[-k:]
    value = fft_length.numpy() if hasattr(fft_length, "numpy") else fft_length
    return [int(v) for v in np.asarray(value).reshape(-1)]


def rfft2d(input_tensor: Any, fft_length: Any = None, name: str | None = None) -> TensorBase:
    """The 2-D FFT of a real signal over its last two axes (the last one halved), as
    ``tf.signal.rfft2d``.

    Args:
      input_tensor: A float32/float64 tensor ``[..., M, N]``.
      fft_length: ``[m, n]``, the transform lengths (the input is cut or zero-padded).
      name: A name for the operation.

    Returns:
      A complex tensor ``[..., m, n // 2 + 1]``.
    """
    del name
    x = convert_to_tensor(input_tensor)
    m, n = _lengths(x, fft_length, 2)
    inner = rfft(x, fft_length=[n])
    return _along(fft, _fit(inner, -2, m), -2)


def irfft2d(input_tensor: Any, fft_length: Any = None, name: str | None = None) -> TensorBase:
    """The inverse of :func:`rfft2d`, as ``tf.signal.irfft2d``.

    Args:
      input_tensor: A complex tensor ``[..., M, N]``.
      fft_length: ``[m, n]``, the output lengths (``[M, 2 (N - 1)]`` by default).
      name: A name for the operation.

    Returns:
      A real tensor ``[..., m, n]``.
    """
    del name
    x = convert_to_tensor(input_tensor)
    if fft_length is None:
        dims = x.shape.as_list()
        fft_length = [dims[-2], 2 * (dims[-1] - 1)]
    m, n = _lengths(x, fft_length, 2)
    outer = _along(ifft, _fit(x, -2, m), -2)
    return irfft(outer, fft_length=[n])


def fft3d(input: Any, name: str | None = None) -> TensorBase:  # noqa: A002
    """The 3-D FFT over the last three axes, as ``tf.signal.fft3d``.

    Args:
      input: A complex tensor ``[..., K, M, N]``.
      name: A name for the operation.

    Returns:
      A complex tensor of ``input``'s shape.
    """
    del name
    x = convert_to_tensor(input)
    return _along(fft, fft2d(x), -3)


def ifft3d(input: Any, name: str | None = None) -> TensorBase:  # noqa: A002
    """The inverse 3-D FFT over the last three axes, as ``tf.signal.ifft3d``.

    Args:
      input: A complex tensor ``[..., K, M, N]``.
      name: A name for the operation.

    Returns:
      A complex tensor of ``input``'s shape.
    """
    del name
    x = convert_to_tensor(input)
    return _along(ifft, ifft2d(x), -3)


def rfft3d(input_tensor: Any, fft_length: Any = None, name: str | None = None) -> TensorBase:
    """The 3-D FFT of a real signal over its last three axes (the last one halved), as
    ``tf.signal.rfft3d``.

    Args:
      input_tensor: A float tensor ``[..., K, M, N]``.
      fft_length: ``[k, m, n]``, the transform lengths.
      name: A name for the operation.

    Returns:
      A complex tensor ``[..., k, m, n // 2 + 1]``.
    """
    del name
    x = convert_to_tensor(input_tensor)
    k, m, n = _lengths(x, fft_length, 3)
    inner = rfft2d(x, [m, n])
    return _along(fft, _fit(inner, -3, k), -3)


def irfft3d(input_tensor: Any, fft_length: Any = None, name: str | None = None) -> TensorBase:
    """The inverse of :func:`rfft3d`, as ``tf.signal.irfft3d``.

    Args:
      input_tensor: A complex tensor ``[..., K, M, N]``.
      fft_length: ``[k, m, n]``, the output lengths (``[K, M, 2 (N - 1)]`` by default).
      name: A name for the operation.

    Returns:
      A real tensor ``[..., k, m, n]``.
    """
    del name
    x = convert_to_tensor(input_tensor)
    if fft_length is None:
        dims = x.shape.as_list()
        fft_length = [dims[-3], dims[-2], 2 * (dims[-1] - 1)]
    k, m, n = _lengths(x, fft_length, 3)
    outer = _along(ifft, _fit(x, -3, k), -3)
    return irfft2d(outer, [m, n])


def vorbis_window(window_length: int, dtype: Any = dtypes.float32,
                  name: str | None = None) -> TensorBase:
    """The Vorbis power-complementary window ``sin(pi/2 sin^2(pi (n + 1/2) / N))``, as
    ``tf.signal.vorbis_window``.

    Args:
      window_length: ``N``.
      dtype: A floating dtype.
      name: A name for the operation.

    Returns:
      A tensor ``[N]``.
    """
    del name
    dtype = dtypes.as_dtype(dtype)
    arg = (np.arange(window_length) + 0.5) * (math.pi / window_length)
    s = sin(constant(arg.astype(dtype.as_numpy_dtype)))
    return sin(constant(math.pi / 2, dtype) * s * s)
