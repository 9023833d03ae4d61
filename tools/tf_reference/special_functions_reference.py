"""Records TensorFlow 2.21's igamma, igammac (and their gradients in a and x), betainc (and
its gradient in x) and zeta (and its gradient in q) for tests/test_special_functions.py.

Run with the TensorFlow venv from the repository root:
``/work/venv-tf/bin/python tools/tf_reference/special_functions_reference.py``; writes
``tests/data/special_functions/reference.json``.
"""
import json
import pathlib

import tensorflow as tf

OUT = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "special_functions"

GAMMA_A = [0.5, 1.0, 2.0, 5.0, 30.0, 0.1, 100.0, 3.0, 2.0, 0.7, 1e-3, 250.0, 7.5, -1.0, 0.0,
           2.0, 2.0, 1.0]
GAMMA_X = [0.3, 2.0, 1.0, 7.0, 25.0, 5.0, 110.0, 0.01, 50.0, 1e-5, 0.5, 240.0, 7.5, 1.0, 1.0,
           0.0, float("inf"), -1.0]
BETA_A = [2.0, 0.5, 5.0, 1.0, 30.0, 0.1, 3.0, 0.2, 10.0, 1.5, -1.0, 2.0, 2.0, 2.0]
BETA_B = [3.0, 0.5, 2.0, 1.0, 40.0, 4.0, 0.2, 0.3, 0.01, 200.0, 1.0, 2.0, 2.0, 2.0]
BETA_X = [0.5, 0.1, 0.9, 0.3, 0.45, 0.99, 0.999, 0.6, 0.2, 0.004, 0.5, 0.0, 1.0, 1.5]
ZETA_X = [2.0, 3.0, 4.0, 1.5, 2.0, 2.0, 1.0, 0.5, 10.0, 1.1, 3.0, 2.5, 6.0]
ZETA_Q = [1.0, 1.0, 2.0, 0.3, -1.5, -2.0, 1.0, 1.0, 0.5, 3.0, 100.0, -1.5, 1e-3]


def _values(fn, args, dtype):
    return [float(v) for v in fn(*[tf.constant(a, dtype) for a in args]).numpy()]


def _grads(fn, args, dtype):
    ts = [tf.Variable(tf.constant(a, dtype)) for a in args]
    with tf.GradientTape() as tape:
        y = fn(*ts)
    out = tape.gradient(y, ts)
    return [None if g is None else [float(v) for v in g.numpy()] for g in out]


def main():
    record = {"gamma": {"a": GAMMA_A, "x": GAMMA_X}, "beta": {"a": BETA_A, "b": BETA_B,
                                                             "x": BETA_X},
              "zeta": {"x": ZETA_X, "q": ZETA_Q}}
    for dtype in ("float32", "float64"):
        for name, fn in (("igamma", tf.math.igamma), ("igammac", tf.math.igammac)):
            record["gamma"][name + "_" + dtype] = _values(fn, (GAMMA_A, GAMMA_X), dtype)
            record["gamma"][name + "_grad_" + dtype] = _grads(fn, (GAMMA_A, GAMMA_X), dtype)
        record["beta"]["betainc_" + dtype] = _values(tf.math.betainc, (BETA_A, BETA_B, BETA_X),
                                                     dtype)
        record["beta"]["betainc_grad_" + dtype] = _grads(tf.math.betainc,
                                                         (BETA_A, BETA_B, BETA_X), dtype)
        record["zeta"]["zeta_" + dtype] = _values(tf.math.zeta, (ZETA_X, ZETA_Q), dtype)
        record["zeta"]["zeta_grad_" + dtype] = _grads(tf.math.zeta, (ZETA_X, ZETA_Q), dtype)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "reference.json").write_text(json.dumps(record) + "\n")


if __name__ == "__main__":
    main()
