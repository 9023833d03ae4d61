"""Records tf.signal's fftshift/ifftshift, dct/idct (types I-IV, with and without 'ortho'),
linear_to_mel_weight_matrix, mfccs_from_log_mel_spectrograms, rfft2d/irfft2d, fft3d/ifft3d,
rfft3d/irfft3d and vorbis_window on TensorFlow 2.21 to tests/data/signal_gaps/reference.json,
which tests/test_signal_gaps.py replays.

Run with the TensorFlow venv:
``/work/venv-tf/bin/python tools/tf_reference/signal_gaps_reference.py``.
"""
from __future__ import annotations

import json
import pathlib

import numpy as np

SETUP = """
rng = np.random.RandomState(0)
x = tf.constant(rng.randn(2, 6).astype(np.float32))
x64 = tf.constant(rng.randn(3, 5))
img = tf.constant(rng.randn(2, 4, 6).astype(np.float32))
vol = tf.constant(rng.randn(3, 4, 5))
c3 = tf.complex(vol, vol[::-1])
logmel = tf.constant(rng.randn(4, 10).astype(np.float32))
"""

CASES = [
    "tf.signal.fftshift(tf.range(7))", "tf.signal.fftshift(x)", "tf.signal.fftshift(x, axes=1)",
    "tf.signal.ifftshift(tf.range(7))", "tf.signal.ifftshift(img, axes=[1, 2])",
    "tf.signal.dct(x)", "tf.signal.dct(x, norm='ortho')", "tf.signal.dct(x64, type=1)",
    "tf.signal.dct(x64, type=3)", "tf.signal.dct(x64, type=3, norm='ortho')",
    "tf.signal.dct(x64, type=4)", "tf.signal.dct(x64, type=4, norm='ortho')",
    "tf.signal.dct(x, n=4)", "tf.signal.dct(x, n=8)", "tf.signal.idct(x64)",
    "tf.signal.idct(x64, norm='ortho')", "tf.signal.idct(x64, type=1)",
    "tf.signal.dct(x, type=1, norm='ortho')", "tf.signal.dct(x, type=5)",
    "tf.signal.dct(x, norm='l2')", "tf.signal.dct(x, axis=0)",
    "tf.signal.linear_to_mel_weight_matrix()",
    "tf.signal.linear_to_mel_weight_matrix(num_mel_bins=8, num_spectrogram_bins=17, "
    "sample_rate=16000, lower_edge_hertz=20.0, upper_edge_hertz=8000.0, dtype=tf.float64)",
    "tf.signal.linear_to_mel_weight_matrix(num_mel_bins=0)",
    "tf.signal.linear_to_mel_weight_matrix(upper_edge_hertz=5000.0)",
    "tf.signal.mfccs_from_log_mel_spectrograms(logmel)",
    "tf.signal.rfft2d(img)", "tf.signal.rfft2d(img, fft_length=[3, 8])",
    "tf.signal.irfft2d(tf.signal.rfft2d(img))",
    "tf.signal.irfft2d(tf.signal.rfft2d(img), fft_length=[4, 5])",
    "tf.signal.fft3d(c3)", "tf.signal.ifft3d(c3)", "tf.signal.rfft3d(vol)",
    "tf.signal.irfft3d(tf.signal.rfft3d(vol), fft_length=[3, 4, 5])",
    "tf.signal.vorbis_window(8)", "tf.signal.vorbis_window(5, dtype=tf.float64)",
]


def _plain(x):
    arr = np.asarray(x)
    if arr.dtype.kind == "c":
        return {"re": arr.real.tolist(), "im": arr.imag.tolist()}
    return arr.tolist()


def main() -> None:
    import tensorflow as tf
    ns = {"tf": tf, "np": np}
    exec(SETUP, ns)  # noqa: S102 - our own set-up
    out = {}
    for expr in CASES:
        try:
            value = eval(expr, ns)  # noqa: S307 - our own expressions
            out[expr] = {"dtype": value.dtype.name, "shape": value.shape.as_list(),
                         "value": _plain(value.numpy())}
        except Exception as exc:  # noqa: BLE001 - the class is what is recorded
            out[expr] = {"error": type(exc).__name__}
    path = pathlib.Path(__file__).resolve().parents[2] / "tests/data/signal_gaps/reference.json"
    path.write_text(json.dumps({"setup": SETUP, "cases": out}, indent=0, sort_keys=True) + "\n")
    print("wrote", path, len(out))


if __name__ == "__main__":
    main()
