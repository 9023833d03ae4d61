"""Records TensorFlow 2.21's values of the op-level functions Keras's TensorFlow backend calls.

Run with the TensorFlow venv
(``/work/venv-tf/bin/python tools/tf_reference/kerasops_reference.py``); it writes
``tests/data/kerasops/tf_raw_op_names.txt`` (the names in ``tf.raw_ops``) and
``tests/data/kerasops/reference.json``, which ``tests/test_kerasops_reference.py`` checks
flowgrad against (without TensorFlow). Each case is a Python expression over ``tf`` and named
inputs; the same expression is evaluated on flowgrad (``import flowgrad as tf``). Outputs are
stored with their dtype and shape; a tuple result stores each element.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parents[2] / "tests" / "data" / "kerasops" / "reference.json"
RAW_OPS = OUT.parent / "tf_raw_op_names.txt"

_TRIG = [-0.99, -0.5, 0.0, 0.3, 0.999]
_WIDE = [-30.0, -3.5, -0.2, 0.0, 0.7, 2.0, 19.0, 25.0]

#: (id, expression, {input name: (values, dtype)})
CASES = [
    ("asin", "tf.math.asin(x)", {"x": (_TRIG, "float32")}),
    ("acos", "tf.math.acos(x)", {"x": (_TRIG, "float64")}),
    ("atan", "tf.math.atan(x)", {"x": (_WIDE, "float32")}),
    ("atan2", "tf.math.atan2(y, x)", {"y": ([[1.0, -2.0, 0.0], [0.5, -0.5, 3.0]], "float32"),
                                     "x": ([-1.0, 0.5, 2.0], "float32")}),
    ("sinh", "tf.math.sinh(x)", {"x": ([-3.0, -0.1, 0.0, 1.5, 10.0], "float64")}),
    ("cosh", "tf.math.cosh(x)", {"x": ([-3.0, -0.1, 0.0, 1.5, 10.0], "float32")}),
    ("asinh", "tf.math.asinh(x)", {"x": (_WIDE, "float64")}),
    ("acosh", "tf.math.acosh(x)", {"x": ([1.0, 1.5, 3.0, 100.0], "float32")}),
    ("atanh", "tf.math.atanh(x)", {"x": (_TRIG, "float64")}),
    ("bessel_i0", "tf.math.bessel_i0(x)", {"x": (_WIDE, "float64")}),
    ("bessel_i0e", "tf.math.bessel_i0e(x)", {"x": (_WIDE + [300.0], "float64")}),
    ("bessel_i1", "tf.math.bessel_i1(x)", {"x": (_WIDE, "float64")}),
    ("bessel_i1e", "tf.math.bessel_i1e(x)", {"x": (_WIDE + [300.0], "float32")}),
    ("nextafter", "tf.math.nextafter(x, y)", {"x": ([1.0, 0.0, -2.0], "float32"),
                                             "y": ([2.0, -1.0, -2.0], "float32")}),
    ("log_sigmoid", "tf.math.log_sigmoid(x)", {"x": ([-800.0, -3.0, 0.0, 4.0, 50.0],
                                                     "float32")}),
    ("segment_prod", "tf.math.segment_prod(x, ids)",
     {"x": ([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [0.5, 2.0]], "float64"),
      "ids": ([0, 0, 2, 2], "int32")}),
    ("unsorted_segment_prod", "tf.math.unsorted_segment_prod(x, ids, 4)",
     {"x": ([1.0, 2.0, 3.0, 4.0, 5.0], "float32"), "ids": ([2, 0, 2, -1, 0], "int32")}),
    ("complex_parts", "(tf.math.real(tf.complex(a, b)), tf.math.imag(tf.complex(a, b)), "
                      "tf.math.angle(tf.complex(a, b)), tf.math.real(tf.math.conj("
                      "tf.complex(a, b))), tf.math.imag(tf.math.conj(tf.complex(a, b))))",
     {"a": ([1.0, -2.0, 0.0, -1.0], "float32"), "b": ([0.5, 3.0, -1.0, 0.0], "float32")}),
    ("real_input", "(tf.math.real(x), tf.math.imag(x), tf.math.angle(x), tf.math.conj(x))",
     {"x": ([-1.5, 0.0, 2.0], "float64")}),
    ("roll", "tf.roll(x, [1, -2], [0, 1])", {"x": ([[1, 2, 3], [4, 5, 6]], "int32")}),
    ("roll_scalar", "tf.roll(x, 4, 0)", {"x": ([1.0, 2.0, 3.0], "float32")}),
    ("reverse_sequence", "tf.reverse_sequence(x, n, seq_axis=1, batch_axis=0)",
     {"x": ([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]], "int32"), "n": ([3, 0, 4], "int64")}),
    ("unique", "tf.unique(x)", {"x": ([4, 1, 4, 7, 1, 1], "int32")}),
    ("unique_with_counts", "tf.unique_with_counts(x, out_idx=tf.int64)",
     {"x": ([2.5, -1.0, 2.5, 0.0], "float32")}),
    ("bitcast_down", "tf.bitcast(x, tf.uint8)", {"x": ([1.0, -2.5], "float32")}),
    ("bitcast_up", "tf.bitcast(x, tf.int32)", {"x": ([[0, 0, 128, 63]], "uint8")}),
    ("sequence_mask", "(tf.sequence_mask(n, 5), tf.sequence_mask(n, dtype=tf.float32))",
     {"n": ([[1, 3], [0, 2]], "int32")}),
    ("broadcast_dynamic_shape", "tf.broadcast_dynamic_shape(a, b)",
     {"a": ([2, 1, 3], "int32"), "b": ([4, 1], "int32")}),
    ("searchsorted", "(tf.searchsorted(s, v), tf.searchsorted(s, v, side='right'), "
                     "tf.searchsorted(s, v, out_type=tf.int64))",
     {"s": ([[0.0, 1.0, 1.0, 3.0], [-1.0, 2.0, 4.0, 8.0]], "float32"),
      "v": ([[1.0, -5.0, 3.5], [8.0, 2.0, 9.0]], "float32")}),
    ("histogram_fixed_width", "(tf.histogram_fixed_width(v, r, nbins=5), "
                              "tf.histogram_fixed_width_bins(v, r, nbins=5))",
     {"v": ([-1.0, 0.0, 1.5, 2.0, 5.0, 15.0, 4.99], "float64"), "r": ([0.0, 5.0], "float64")}),
    ("tensor_scatter_nd_max_min", "(tf.tensor_scatter_nd_max(t, i, u), "
                                  "tf.tensor_scatter_nd_min(t, i, u))",
     {"t": ([[1.0, 5.0], [3.0, -2.0], [0.0, 0.0]], "float32"), "i": ([[0], [2], [0]], "int32"),
      "u": ([[4.0, 2.0], [-1.0, 1.0], [0.5, 9.0]], "float32")}),
    ("bitwise", "(tf.bitwise.bitwise_and(a, b), tf.bitwise.bitwise_or(a, b), "
                "tf.bitwise.bitwise_xor(a, b), tf.bitwise.invert(a), "
                "tf.bitwise.left_shift(a, c), tf.bitwise.right_shift(a, c))",
     {"a": ([5, -7, 0, 1000], "int32"), "b": ([3, 12, -1, 255], "int32"),
      "c": ([1, 2, 3, 4], "int32")}),
    ("repeat", "(tf.repeat(x, 2), tf.repeat(x, [1, 0, 2], axis=1), tf.repeat(x, [2, 1], axis=0))",
     {"x": ([[1, 2, 3], [4, 5, 6]], "int32")}),
    ("bincount", "(tf.math.bincount(a), tf.math.bincount(a, minlength=7), "
                 "tf.math.bincount(a, maxlength=3), tf.math.bincount(a, weights=w), "
                 "tf.math.bincount(a, dtype=tf.float32, binary_output=True))",
     {"a": ([1, 4, 4, 0, 1, 1], "int32"), "w": ([0.5, 1.0, 2.0, 3.0, 0.25, 1.0], "float64")}),
    ("bincount_rows", "(tf.math.bincount(a, axis=-1), tf.math.bincount(a, axis=-1, "
                      "minlength=6, binary_output=True))",
     {"a": ([[1, 2, 2], [0, 0, 3]], "int32")}),
    ("gelu", "(tf.nn.gelu(x), tf.nn.gelu(x, approximate=True))",
     {"x": ([-4.0, -1.0, -0.1, 0.0, 0.5, 3.0], "float32")}),
    ("pool_3d", "(tf.nn.pool(x, [2, 2, 2], 'MAX', strides=[2, 1, 2], padding='SAME'), "
                "tf.nn.pool(x, [3, 2, 2], 'AVG', strides=[1, 2, 1], padding='SAME'), "
                "tf.nn.pool(x, [2, 2, 2], 'AVG', strides=[1, 1, 1], padding='VALID'))",
     {"x": (np.sin(np.arange(2 * 3 * 4 * 5 * 2)).reshape(2, 3, 4, 5, 2).tolist(), "float32")}),
    ("pool_1d_2d", "(tf.nn.pool(a, [3], 'AVG', strides=[2], padding='SAME'), "
                   "tf.nn.pool(b, [2, 3], 'MAX', strides=[1, 2], padding='SAME'))",
     {"a": (np.sin(np.arange(2 * 7 * 3)).reshape(2, 7, 3).tolist(), "float32"),
      "b": (np.cos(np.arange(1 * 4 * 5 * 2)).reshape(1, 4, 5, 2).tolist(), "float32")}),
    ("space_depth", "(tf.nn.space_to_depth(x, 2), tf.nn.depth_to_space(x, 2))",
     {"x": (np.arange(2 * 4 * 6 * 4).reshape(2, 4, 6, 4).tolist(), "int32")}),
    ("conv_transpose", "(tf.nn.conv_transpose(a, fa, [1, 8, 2], 2), "
                       "tf.nn.conv_transpose(b, fb, [1, 5, 5, 2], [2, 2], padding='VALID'))",
     {"a": (np.sin(np.arange(4 * 3)).reshape(1, 4, 3).tolist(), "float32"),
      "fa": (np.cos(np.arange(3 * 2 * 3)).reshape(3, 2, 3).tolist(), "float32"),
      "b": (np.sin(np.arange(2 * 2 * 3)).reshape(1, 2, 2, 3).tolist(), "float32"),
      "fb": (np.cos(np.arange(3 * 3 * 2 * 3)).reshape(3, 3, 2, 3).tolist(), "float32")}),
    ("linspace_int", "(tf.linspace(-2, 2, 201), tf.linspace(n, 3, 3))",
     {"n": (1, "int32")}),
    ("linalg_extra", "(tf.linalg.cross(a, b), tf.linalg.pinv(m), tf.linalg.matrix_rank(m), "
                     "tf.linalg.matrix_rank(r), tf.linalg.pinv(r), "
                     "tf.linalg.matrix_rank(r, tol=0.5))",
     {"a": ([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]], "float64"),
      "b": ([[0.0, 1.0, -1.0], [4.0, 1.0, 0.0]], "float64"),
      "m": (np.sin(np.arange(12.0)).reshape(2, 3, 2).tolist(), "float64"),
      "r": ([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]], "float32")}),
    ("lu", "(*tf.linalg.lu(a), *tf.linalg.lu(b, output_idx_type=tf.int64))",
     {"a": ([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]], "float64"),
      "b": ((np.sin(np.arange(32.0)).reshape(2, 4, 4) + 3 * np.eye(4)[::-1]).tolist(),
            "float32")}),
    ("fft", "(tf.signal.fft(z), tf.signal.ifft(z), tf.signal.fft2d(z), tf.signal.ifft2d(z))",
     {"z": ((np.sin(np.arange(24)) + 1j * np.cos(np.arange(24) * 0.7)).reshape(2, 3, 4)
            .tolist(), "complex64")}),
    ("rfft", "(tf.signal.rfft(x), tf.signal.rfft(x, [8]), tf.signal.rfft(x, [4]), "
             "tf.signal.irfft(tf.signal.rfft(x)), tf.signal.irfft(tf.signal.rfft(x), [5]))",
     {"x": (np.sin(np.arange(12) * 1.3).reshape(2, 6).tolist(), "float64")}),
    ("windows", "(tf.signal.hann_window(8), tf.signal.hann_window(7, periodic=False), "
                "tf.signal.hamming_window(6), tf.signal.kaiser_window(9), "
                "tf.signal.kaiser_window(6, beta=3.0, dtype=tf.float64))", {}),
    ("frame", "(tf.signal.frame(x, 4, 3), tf.signal.frame(x, 4, 3, pad_end=True), "
              "tf.signal.frame(x, 3, 2, axis=0))",
     {"x": (np.arange(22).reshape(2, 11).tolist(), "int32")}),
    ("stft", "(tf.signal.stft(x, 16, 4), tf.signal.stft(x, 10, 5, fft_length=16, pad_end=True),"
             " tf.signal.inverse_stft(tf.signal.stft(x, 16, 4), 16, 4, window_fn="
             "tf.signal.inverse_stft_window_fn(4)))",
     {"x": (np.sin(np.arange(2 * 64) / 3.0).reshape(2, 64).tolist(), "float32")}),
]


def _encode(value: object) -> dict:
    arr = np.asarray(value)
    if arr.dtype.kind == "c":
        return {"real": arr.real.tolist(), "imag": arr.imag.tolist(), "dtype": str(arr.dtype),
                "shape": list(arr.shape)}
    return {"value": arr.tolist(), "dtype": str(arr.dtype), "shape": list(arr.shape)}


def _array(value: object, dtype: str) -> np.ndarray:
    return np.asarray(value, dtype=dtype)


def record() -> list:
    """Evaluates every case on TensorFlow and returns the records."""
    import tensorflow as tf

    records = []
    for case_id, expr, inputs in CASES:
        env = {"tf": tf, "np": np}
        env.update({k: tf.constant(_array(v, dt)) for k, (v, dt) in inputs.items()})
        out = eval(expr, env)  # noqa: S307 - the expressions are this file's own
        outs = list(out) if isinstance(out, (tuple, list)) else [out]
        records.append({"id": case_id, "expr": expr,
                        "inputs": {k: dict(_encode(_array(v, dt)), dtype=dt)
                                   for k, (v, dt) in inputs.items()},
                        "tuple": isinstance(out, (tuple, list)),
                        "outputs": [_encode(o.numpy()) for o in outs]})
    return records


def main() -> None:
    """Writes the records next to the tests."""
    import tensorflow as tf

    records = record()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"tensorflow": tf.__version__, "cases": records}, indent=1) + "\n")
    print("wrote %d cases to %s" % (len(records), OUT), file=sys.stderr)
    names = sorted(n for n in dir(tf.raw_ops) if not n.startswith("_"))
    RAW_OPS.write_text("\n".join(names) + "\n")      # tf.raw_ops' names, for the raw_ops test
    print("wrote %d raw op names to %s" % (len(names), RAW_OPS), file=sys.stderr)


if __name__ == "__main__":
    main()
