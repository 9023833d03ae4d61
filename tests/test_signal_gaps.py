"""tf.signal's fftshift/ifftshift, dct/idct, the mel filterbank, MFCCs, the 2-D/3-D real FFTs,
the 3-D FFTs and the Vorbis window against TensorFlow 2.21
(tools/tf_reference/signal_gaps_reference.py recorded tests/data/signal_gaps/reference.json);
the DCT and the real 2-D FFT differentiate (central differences)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as v1

REF = json.loads((Path(__file__).resolve().parent / "data" / "signal_gaps"
                  / "reference.json").read_text())


@pytest.fixture(autouse=True)
def eager():
    """These tests run as TF2 programs (the suite starts each test in graph mode)."""
    v1.enable_v2_behavior()
    yield


def _array(v):
    if isinstance(v, dict):
        return np.asarray(v["re"]) + 1j * np.asarray(v["im"])
    return np.asarray(v)


@pytest.mark.parametrize("expr", sorted(REF["cases"]))
def test_signal_matches_tensorflow(expr):
    ns = {"tf": tf, "np": np}
    exec(REF["setup"], ns)  # noqa: S102 - the recorded set-up
    want = REF["cases"][expr]
    if "error" in want:
        with pytest.raises(Exception) as info:
            eval(expr, ns)  # noqa: S307 - the recorded expression
        assert type(info.value).__name__ == want["error"], (expr, info.value)
        return
    got = eval(expr, ns)  # noqa: S307
    assert got.dtype.name == want["dtype"], (expr, got.dtype.name, want["dtype"])
    assert got.shape.as_list() == want["shape"], (expr, got.shape, want["shape"])
    tol = 2e-5 if want["dtype"] in ("float32", "complex64") else 1e-10
    np.testing.assert_allclose(got.numpy(), _array(want["value"]), rtol=tol, atol=tol,
                               err_msg=expr)


def _numeric(f, x, eps=1e-6):
    g = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[idx] = eps
        g[idx] = (f(x + d) - f(x - d)) / (2 * eps)
    return g


@pytest.mark.parametrize("fn", [
    lambda x: tf.signal.dct(x, norm="ortho"),
    lambda x: tf.signal.idct(x, type=4),
    lambda x: tf.math.real(tf.signal.rfft2d(x, fft_length=[3, 4]) * tf.constant(1.0 - 2.0j)),
    lambda x: tf.signal.mfccs_from_log_mel_spectrograms(x),
], ids=["dct2_ortho", "idct4", "rfft2d", "mfccs"])
def test_transforms_differentiate(fn):
    x0 = np.random.RandomState(7).randn(3, 4)
    w = np.random.RandomState(8).randn(*fn(tf.constant(x0)).shape)

    def loss(x):
        return tf.reduce_sum(fn(x) * w)

    x = tf.constant(x0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = loss(x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(),
                               _numeric(lambda a: loss(tf.constant(a)).numpy(), x0),
                               rtol=1e-6, atol=1e-8)
