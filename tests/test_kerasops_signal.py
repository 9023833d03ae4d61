"""tf.signal: gradients of the Fourier transforms (FFT, IFFT, FFT2D, IFFT2D, RFFT, IRFFT)
and of frame/stft/inverse_stft at orders 1 and 2, graph and eager (through real losses of
complex results, TensorFlow's convention); round trips, static shapes and errors. Values
against TensorFlow 2.21 are in tests/test_kerasops_reference.py."""
import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as tf
from flowgrad.framework.context import state
from gradcheck import check_gradients

R = np.random.RandomState(5)
S = tf.signal


def _parts(z):
    return tf.math.real(z) * 1.3 + tf.math.imag(z) ** 2


def _cx(a, b):
    return tf.complex(a, b)


GRAD_CASES = [
    ("fft", lambda a, b: _parts(S.fft(_cx(a, b))), [R.randn(2, 5), R.randn(2, 5)]),
    ("ifft", lambda a, b: _parts(S.ifft(_cx(a, b))), [R.randn(2, 4), R.randn(2, 4)]),
    ("fft2d", lambda a, b: _parts(S.fft2d(_cx(a, b))), [R.randn(3, 4), R.randn(3, 4)]),
    ("ifft2d", lambda a, b: _parts(S.ifft2d(_cx(a, b))), [R.randn(2, 3), R.randn(2, 3)]),
    ("rfft", lambda x: _parts(S.rfft(x)), [R.randn(2, 6)]),
    ("rfft_odd_padded", lambda x: _parts(S.rfft(x, [8])), [R.randn(5)]),
    ("rfft_cropped", lambda x: _parts(S.rfft(x, [4])), [R.randn(7)]),
    ("irfft", lambda a, b: S.irfft(_cx(a, b)) ** 2, [R.randn(2, 4), R.randn(2, 4)]),
    ("irfft_odd", lambda a, b: S.irfft(_cx(a, b), [5]) ** 2, [R.randn(3), R.randn(3)]),
    ("stft", lambda x: _parts(S.stft(x, 8, 4)), [R.randn(24)]),
    ("inverse_stft", lambda a, b: S.inverse_stft(_cx(a, b), 8, 4) ** 2,
     [R.randn(3, 5), R.randn(3, 5)]),
]


@pytest.mark.parametrize("mode", ["graph", "eager"])
@pytest.mark.parametrize("name,fn,inputs", GRAD_CASES, ids=[c[0] for c in GRAD_CASES])
def test_gradients_orders_one_and_two(name, fn, inputs, mode):
    if mode == "eager":
        tf.enable_v2_behavior()
    try:
        check_gradients(fn, inputs, order=2, mode=mode)
    finally:
        state.tapes.clear()


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
