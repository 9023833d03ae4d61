"""``tf.signal`` of both faces: the Fourier transforms (``flowgrad.ops.fft_ops``) and the
framing, windows and short-time transforms made of them (``flowgrad.ops.signal_ops``)."""
from flowgrad.ops.fft_ops import fft, fft2d, ifft, ifft2d, irfft, rfft
from flowgrad.ops.signal_ops import (frame, hamming_window, hann_window, inverse_stft,
                                     inverse_stft_window_fn, kaiser_window, overlap_and_add,
                                     stft)

__all__ = ["fft", "fft2d", "ifft", "ifft2d", "irfft", "rfft", "frame", "hamming_window",
           "hann_window", "inverse_stft", "inverse_stft_window_fn", "kaiser_window",
           "overlap_and_add", "stft"]
