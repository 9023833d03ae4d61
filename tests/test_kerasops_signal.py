"""tf.signal: gradients of the Fourier transforms (FFT, IFFT, FFT2D, IFFT2D, RFFT, IRFFT)
and of frame/stft/inverse_stft at orders 1 and 2, graph and eager (through real losses of
complex results, TensorFlow's convention); round trips, static shapes and errors. Values
against TensorFlow 2.21 are in tests/test_kerasops_reference.py.

The numerical gradient checks of the signal cases are entries of tests/op_db.py."""
import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as tf

R = np.random.RandomState(5)


def test_round_trips_dtypes_and_errors():
    tf.enable_v2_behavior()
    x = R.randn(3, 10).astype(np.float32)
    spec = flowgrad.signal.rfft(x)
    assert spec.dtype == flowgrad.complex64 and spec.shape.as_list() == [3, 6]
    np.testing.assert_allclose(flowgrad.signal.irfft(spec).numpy(), x, atol=1e-5)
    z = flowgrad.complex(flowgrad.constant(x), flowgrad.constant(x[::-1].copy()))
    np.testing.assert_allclose(flowgrad.signal.ifft2d(flowgrad.signal.fft2d(z)).numpy(),
                               z.numpy(), atol=1e-5)
    with pytest.raises(TypeError, match="FFT"):
        flowgrad.signal.fft(flowgrad.constant([1.0, 2.0]))
    with pytest.raises(TypeError, match="rfft"):
        flowgrad.signal.rfft(flowgrad.constant([1, 2]))


def test_static_shapes_in_a_graph():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 64])
        assert tf.signal.stft(x, 16, 4).shape.as_list() == [None, 13, 9]
        assert tf.signal.frame(x, 10, 5, pad_end=True).shape.as_list() == [None, 13, 10]
        assert tf.signal.irfft(tf.signal.rfft(x), [64]).shape.as_list() == [None, 64]


def test_faces():
    for name in ("fft ifft fft2d ifft2d rfft irfft frame overlap_and_add hann_window "
                 "hamming_window kaiser_window stft inverse_stft inverse_stft_window_fn").split():
        assert getattr(flowgrad.signal, name) is getattr(tf.signal, name), name
