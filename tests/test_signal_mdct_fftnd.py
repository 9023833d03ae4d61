"""tf.signal.mdct / inverse_mdct / kaiser_bessel_derived_window against TensorFlow 2.21
(tests/data/tf2_gaps/signal.json: values, gradients, errors) and the n-d FFTs
(tf.signal.fftnd ..., tf.fftnd ...): TensorFlow 2.21 has their kernels on GPUs only, so their
values are checked against NumPy's n-d FFTs and their errors against the kernel's checks."""
from __future__ import annotations

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as v1

from tf2_gaps_replay import load, replay

REF = load("signal")


@pytest.fixture(autouse=True)
def eager():
    """These tests run as TF2 programs (the suite starts each test in graph mode)."""
    v1.enable_v2_behavior()
    yield


@pytest.mark.parametrize("expr", sorted(REF["cases"]))
def test_matches_tensorflow(expr):
    replay(REF, expr, rtol=None if "64" in expr else 2e-5)


def test_mdct_round_trip_reconstructs():
    rng = np.random.RandomState(0)
    wave = rng.randn(3, 200)
    padded = tf.pad(tf.constant(wave), [[0, 0], [20, 0]])
    for window in (tf.signal.vorbis_window, tf.signal.kaiser_bessel_derived_window, None):
        spec = tf.signal.mdct(padded, 40, pad_end=True, window_fn=window, norm="ortho")
        back = tf.signal.inverse_mdct(spec, window_fn=window, norm="ortho")
        np.testing.assert_allclose(back.numpy()[:, 20:220], wave, atol=1e-10)


C = np.random.RandomState(1).randn(2, 3, 4) + 1j * np.random.RandomState(2).randn(2, 3, 4)
R = np.random.RandomState(3).randn(2, 3, 4)


@pytest.mark.parametrize("call, ref", [
    (lambda: tf.signal.fftnd(C), lambda: np.fft.fftn(C)),
    (lambda: tf.signal.fftnd(C, fft_length=[3, 5], axes=[1, 2]),
     lambda: np.fft.fftn(C, s=[3, 5], axes=[1, 2])),
    (lambda: tf.signal.fftnd(C, fft_length=[2, 2], axes=[-2, -1]),
     lambda: np.fft.fftn(C, s=[2, 2], axes=[1, 2])),
    (lambda: tf.signal.ifftnd(C, norm="ortho"), lambda: np.fft.ifftn(C, norm="ortho")),
    (lambda: tf.signal.fftnd(C, norm="forward"), lambda: np.fft.fftn(C, norm="forward")),
    (lambda: tf.signal.rfftnd(R), lambda: np.fft.rfftn(R)),
    (lambda: tf.signal.rfftnd(R, fft_length=[4, 6], axes=[1, 2]),
     lambda: np.fft.rfftn(R, s=[4, 6], axes=[1, 2])),
    (lambda: tf.signal.irfftnd(np.fft.rfftn(R)), lambda: R),
    (lambda: tf.signal.irfftnd(np.fft.rfftn(R), norm="ortho"),
     lambda: np.fft.irfftn(np.fft.rfftn(R), s=R.shape, axes=[0, 1, 2], norm="ortho")),
    (lambda: tf.fftnd(C, [3, 4], [1, 2]), lambda: np.fft.fftn(C, axes=[1, 2])),
    (lambda: tf.ifftnd(C, [4], [-1]), lambda: np.fft.ifft(C)),
    (lambda: tf.rfftnd(R, [3, 4], [1, 2], Tcomplex=tf.complex128),
     lambda: np.fft.rfftn(R, axes=[1, 2])),
    (lambda: tf.irfftnd(np.fft.rfft(R), [4], [2], Treal=tf.float64), lambda: R),
], ids=range(13))
def test_nd_ffts_are_numpys(call, ref):
    np.testing.assert_allclose(call().numpy(), ref(), rtol=1e-5, atol=1e-5)


def test_nd_ffts_dtypes_and_static_shapes():
    assert tf.signal.fftnd(C.astype(np.complex64)).dtype == tf.complex64
    assert tf.signal.rfftnd(R.astype(np.float32)).dtype == tf.complex64
    assert tf.signal.irfftnd(tf.constant(np.fft.rfftn(R))).dtype == tf.float64
    assert tf.signal.irfftnd(np.fft.rfftn(R)).dtype == tf.float32   # TF's dtype_hint
    f = tf.function(lambda t: tf.signal.rfftnd(t, fft_length=[3, 6], axes=[1, 2]))
    spec = tf.TensorSpec([None, 3, 4], tf.float32)
    assert f.get_concrete_function(spec).structured_outputs.shape.as_list() == [None, 3, 4]


@pytest.mark.parametrize("call, message", [
    (lambda: tf.fftnd(C, [3, 4], [0, 1]), "The last axis to perform transform on must be -1."),
    (lambda: tf.fftnd(C, [2, 4], [0, 2]), "axes must be successive and ascending."),
    (lambda: tf.signal.fftnd(C, axes=[1, 2]), "fft_length must have shape [2], but got: 3."),
    (lambda: tf.rfftnd(R, [5], [2]), "Input dimension 2 must have length of at least 5 but "
                                     "got: 4"),
    (lambda: tf.fftnd(C, [-1], [2]), "fft_length[0] must >= 0, but got: -1"),
])
def test_nd_fft_kernel_errors(call, message):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        call()
    assert message in str(info.value)


def test_nd_ffts_have_no_gradient_as_in_tensorflow():
    x = tf.constant(C)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.math.real(tf.signal.fftnd(x)))
    with pytest.raises(LookupError):
        tape.gradient(y, x)
