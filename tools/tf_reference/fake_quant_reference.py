"""Records tf.quantization's fake quantization on TensorFlow (the outputs and gradients of
fake_quant_with_min_max_args / _vars / _vars_per_channel and their *_gradient ops for ranges
across, above and below zero, narrow ranges, 2-16 bits, min == max == 0; the error classes
of bad ranges and shapes) with ``/path/to/tf-venv/bin/python
tools/tf_reference/fake_quant_reference.py`` into tests/data/fake_quant/tf_2_21.json;
tests/test_fake_quant.py runs the same ``program`` with flowgrad as ``tf``."""
import json
import os

import numpy as np

ARGS = [(-6.0, 6.0, 8, False), (-1.0, 1.5, 4, True), (0.5, 3.0, 8, False),
        (-3.0, -0.2, 5, False), (-0.3, 7.7, 2, False), (-2.5, 2.5, 16, True)]


def inputs() -> tuple:
    """(x of shape [4, 6, 3] across [-8, 8] with the ranges' ends, the upstream gradient)."""
    rng = np.random.RandomState(5)
    x = rng.uniform(-8, 8, (4, 6, 3)).astype(np.float32)
    x.flat[:12] = [-6, 6, -1, 1.5, 0.5, 3, -3, -0.2, 0, -0.3, 7.7, 2.5]
    return x, rng.uniform(-1, 1, x.shape).astype(np.float32)


def program(tf) -> dict:
    """{case: outputs and gradients as lists, or the error class}."""
    x, up = inputs()
    out = {}
    for lo, hi, bits, narrow in ARGS:
        key = "%g_%g_%d_%s" % (lo, hi, bits, narrow)
        xt = tf.constant(x)
        with tf.GradientTape() as tape:
            tape.watch(xt)
            y = tf.quantization.fake_quant_with_min_max_args(xt, lo, hi, bits, narrow)
        out["args_" + key] = y.numpy().tolist()
        out["args_grad_" + key] = tape.gradient(y, xt, up).numpy().tolist()
        out["args_gradient_op_" + key] = tf.quantization.fake_quant_with_min_max_args_gradient(
            up, x, lo, hi, bits, narrow).numpy().tolist()
    for lo, hi, bits, narrow in ARGS + [(0.0, 0.0, 8, False)]:
        key = "%g_%g_%d_%s" % (lo, hi, bits, narrow)
        xt, mn, mx = tf.constant(x), tf.constant(lo), tf.constant(hi)
        with tf.GradientTape() as tape:
            tape.watch([xt, mn, mx])
            y = tf.quantization.fake_quant_with_min_max_vars(xt, mn, mx, bits, narrow)
        out["vars_" + key] = y.numpy().tolist()
        out["vars_grad_" + key] = [g.numpy().tolist() for g in tape.gradient(y, [xt, mn, mx],
                                                                           up)]
    lo = np.array([-1.0, -2.0, 0.5], np.float32)
    hi = np.array([1.0, 3.0, 2.0], np.float32)
    for bits, narrow in ((8, False), (3, True)):
        key = "%d_%s" % (bits, narrow)
        xt, mn, mx = tf.constant(x), tf.constant(lo), tf.constant(hi)
        with tf.GradientTape() as tape:
            tape.watch([xt, mn, mx])
            y = tf.quantization.fake_quant_with_min_max_vars_per_channel(xt, mn, mx, bits,
                                                                         narrow)
        out["channel_" + key] = y.numpy().tolist()
        out["channel_grad_" + key] = [g.numpy().tolist() for g in tape.gradient(
            y, [xt, mn, mx], up)]
        out["channel_gradient_op_" + key] = [g.numpy().tolist() for g in (
            tf.quantization.fake_quant_with_min_max_vars_per_channel_gradient(
                up, x, lo, hi, bits, narrow))]
    out["vars_gradient_op"] = [g.numpy().tolist() for g in (
        tf.quantization.fake_quant_with_min_max_vars_gradient(up, x, -1.0, 1.5, 4, True))]
    bad = {
        "args_min_above_max": lambda: tf.quantization.fake_quant_with_min_max_args(x, 2.0, 1.0),
        "args_bits_1": lambda: tf.quantization.fake_quant_with_min_max_args(x, num_bits=1),
        "args_bits_17": lambda: tf.quantization.fake_quant_with_min_max_args(x, num_bits=17),
        "vars_bits_1": lambda: tf.quantization.fake_quant_with_min_max_vars(x, -1.0, 1.0, 1),
        "vars_vector_min": lambda: tf.quantization.fake_quant_with_min_max_vars(
            x, [-1.0, -1.0], 1.0),
        "channel_wrong_depth": lambda: tf.quantization.fake_quant_with_min_max_vars_per_channel(
            x, [-1.0, -1.0], [1.0, 1.0]),
        "args_float64": lambda: tf.quantization.fake_quant_with_min_max_args(
            x.astype(np.float64)),
        "vars_min_above_max": lambda: tf.quantization.fake_quant_with_min_max_vars(
            x, 2.0, 1.0),
    }
    for key, f in bad.items():
        try:
            out["error_" + key] = f().numpy().tolist()
        except Exception as e:  # noqa: BLE001 - the class is the record
            out["error_" + key] = type(e).__name__
    return out


def main() -> None:
    import tensorflow as tf
    path = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "fake_quant",
                        "tf_2_21.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(program(tf), f)


if __name__ == "__main__":
    main()
