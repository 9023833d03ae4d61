"""Records which dtypes TensorFlow 2.21's math ops accept in eager mode, and the class of
the error where they refuse one.

Each case calls one ``tf.math``/``tf.nn``/``tf.linalg``/``tf.bitwise``/``tf`` function on a
2x2 constant of one dtype (twice for a binary function) and records ``ok:<result dtype>``
or the exception's class name. Run with a Python that has TensorFlow 2.21:

    /path/to/tf-venv/bin/python tools/tf_reference/dtype_errors.py \
        > tests/data/dtype_errors/tf_2_21.json

``tests/test_dtype_errors.py`` replays the cases on flowgrad and checks that flowgrad accepts
the same dtypes, gives the same result dtype, and raises an error of TensorFlow's class
(or a subclass) where TensorFlow refuses.
"""
import json
import os

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

UNARY = ["abs", "negative", "sign", "square", "sqrt", "rsqrt", "exp", "log", "log1p", "sin",
         "cos", "tan", "tanh", "sigmoid", "floor", "ceil", "round", "reciprocal", "erf",
         "lgamma", "digamma", "softplus", "is_nan", "is_finite", "logical_not", "reduce_sum",
         "reduce_mean", "reduce_max", "reduce_prod", "reduce_all", "reduce_any", "argmax",
         "cumsum", "cumprod", "reduce_logsumexp", "l2_normalize", "invert", "real",
         "imag", "conj", "angle", "expm1", "atan", "asinh", "relu", "softmax"]
BINARY = ["add", "subtract", "multiply", "divide", "truediv", "floordiv", "floormod", "pow",
          "maximum", "minimum", "squared_difference", "equal", "less", "logical_and",
          "atan2", "divide_no_nan", "matmul", "bitwise_and", "left_shift", "realdiv"]
VALUES = {"int32": [[1, 2], [3, 4]], "int64": [[1, 2], [3, 4]], "uint8": [[1, 2], [3, 4]],
          "bool": [[True, False], [False, True]], "float16": [[1, 2], [3, 4]],
          "float64": [[1, 2], [3, 4]], "complex64": [[1, 2], [3, 4]],
          "string": [["a", "b"], ["c", "d"]]}


def lookup(tf, name):
    """The function ``name`` from the first of TensorFlow's namespaces that has it."""
    for ns in (tf.math, tf.nn, tf.linalg, tf.bitwise, tf):
        f = getattr(ns, name, None)
        if f is not None:
            return f
    raise AttributeError(name)


def outcome(tf, name, dtype):
    """``ok:<dtype>`` or the class name of the error ``name`` raises on ``dtype``."""
    f = lookup(tf, name)
    try:
        x = tf.constant(np.array(VALUES[dtype], dtype="S" if dtype == "string" else dtype))
        r = f(x, x) if name in BINARY else f(x)
        return "ok:" + r.dtype.name
    except Exception as e:  # noqa: BLE001 - the class is what is recorded
        return type(e).__name__


def main():
    import tensorflow as tf
    cases = {"%s:%s" % (n, d): outcome(tf, n, d) for n in UNARY + BINARY for d in VALUES}
    print(json.dumps({"tensorflow": tf.__version__, "unary": UNARY, "binary": BINARY,
                      "values": VALUES, "cases": cases}, indent=1))


if __name__ == "__main__":
    main()
