"""Records TensorFlow 2.21's values and first derivatives of every one-argument function of
``tf.math`` and ``tf.nn`` at the edges of their domains (infinities, signed zeros, NaN,
poles, large arguments), in float32 and float64.

Run with a Python that has TensorFlow 2.21:

    /path/to/tf-venv/bin/python tools/tf_reference/edge_values.py \
        > tests/data/edge_values/tf_2_21.json

``tests/test_edge_values.py`` replays every function on flowgrad and compares the values,
the result dtype and the gradient (``GradientTape``) with these records.
"""
import json
import os
import warnings

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
warnings.filterwarnings("ignore")

POINTS = [-np.inf, -3.5, -1.0, -0.5, -0.0, 0.0, 0.25, 0.5, 1.0, 2.5, 30.0, np.inf, np.nan]
# the two-argument functions, on every pair of PAIR_POINTS (x varies along axis 0)
BINARY = ["add", "subtract", "multiply", "divide", "floordiv", "floormod", "pow", "maximum",
          "minimum", "squared_difference", "atan2", "divide_no_nan", "multiply_no_nan",
          "xlogy", "xlog1py", "xdivy", "polygamma", "nextafter", "igamma", "igammac", "zeta",
          "betainc_xy"]
PAIR_POINTS = [-np.inf, -2.0, -0.5, -0.0, 0.0, 0.5, 1.0, 3.0, np.inf, np.nan]


def _plain(a):
    """A JSON-able nested list (NaN and the infinities as JSON's NaN/Infinity)."""
    a = np.asarray(a)
    if a.dtype.kind == "b":
        return a.tolist()
    if a.dtype.kind == "c":
        return [_plain(a.real), _plain(a.imag)]
    return a.astype(np.float64).tolist()


def record(tf, f, dtype):
    """``{"value", "dtype", "grad"}`` of ``f`` at POINTS, or ``{"error": class name}``."""
    x = tf.constant(np.array(POINTS, dtype))
    try:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        if isinstance(y, (tuple, list)):
            y = y[0]
        out = {"value": _plain(y), "dtype": y.dtype.name}
    except Exception as e:  # noqa: BLE001 - the class is what is recorded
        return {"error": type(e).__name__}
    try:
        g = tape.gradient(y, x)
        out["grad"] = None if g is None else _plain(g)
    except Exception as e:  # noqa: BLE001
        out["grad_error"] = type(e).__name__
    return out


def record_binary(tf, f, dtype):
    """As ``record`` for a two-argument function, with the gradients of both arguments."""
    p = np.array(PAIR_POINTS, dtype)
    x = tf.constant(np.repeat(p, len(p)))
    y = tf.constant(np.tile(p, len(p)))
    try:
        with tf.GradientTape(persistent=True) as tape:
            tape.watch([x, y])
            z = f(x, y)
        out = {"value": _plain(z), "dtype": z.dtype.name}
    except Exception as e:  # noqa: BLE001
        return {"error": type(e).__name__}
    for key, v in (("grad_x", x), ("grad_y", y)):
        try:
            g = tape.gradient(z, v)
            out[key] = None if g is None else _plain(g)
        except Exception as e:  # noqa: BLE001
            out[key + "_error"] = type(e).__name__
    return out


def binary_function(tf, name):
    """``tf.math.<name>``; ``betainc_xy`` is betainc(2.5, x, y) (a and b differentiable)."""
    if name == "betainc_xy":
        return lambda x, y: tf.math.betainc(tf.cast(2.5, x.dtype) + 0 * x, x, y)
    return getattr(tf.math, name)


def main():
    import tensorflow as tf
    names = sorted(set(n for n in dir(tf.math) if not n.startswith("_"))
                   | set(n for n in dir(tf.nn) if not n.startswith("_")))
    cases = {}
    for name in names:
        f = getattr(tf.math, name, None) or getattr(tf.nn, name, None)
        if not callable(f) or isinstance(f, type):
            continue
        for dtype in ("float32", "float64"):
            r = record(tf, f, dtype)
            if "error" not in r:          # only the functions that take one tensor
                cases["%s:%s" % (name, dtype)] = r
    binary = {"%s:%s" % (name, dtype): record_binary(tf, binary_function(tf, name), dtype)
              for name in BINARY for dtype in ("float32", "float64")}
    print(json.dumps({"tensorflow": tf.__version__, "points": POINTS, "cases": cases,
                      "pair_points": PAIR_POINTS, "binary": binary}))


if __name__ == "__main__":
    main()
