"""Records how TensorFlow converts Python and NumPy values to tensors: the dtype it infers
(eagerly, and in a ``tf.function`` graph), the values, and the error class and message of
values it refuses.

Run with TensorFlow installed (``/path/to/tf-venv/bin/python
tools/tf_reference/tensor_conversion.py``); writes tests/data/tensor_conversion/tf_2_21.json,
which tests/test_tensor_conversion.py replays on flowgrad.
"""
from __future__ import annotations

import json
import os
import sys
import warnings

CASES = [
    # the first element decides the dtype (py_seq_tensor.cc)
    "tf.constant([np.float64(1.5)])", "tf.constant([np.float64(1.5), 2.0])",
    "tf.constant([np.float32(1.5), np.float64(2.0)])", "tf.constant([1.5, np.float64(2)])",
    "tf.constant([1, np.float64(2)])", "tf.constant([np.int64(1)])",
    "tf.constant([np.int16(1), np.int16(2)])", "tf.constant([np.float16(1)])",
    "tf.constant([[np.float64(1)]])", "tf.constant((np.float64(1), 2))",
    "tf.constant([np.array(1.5)])", "tf.constant([np.array([1.5], np.float16), [2.0]])",
    "tf.constant([[1, 2], np.array([3., 4.])])", "tf.constant([np.array([3., 4.]), [1, 2]])",
    "tf.constant([np.bool_(True)])", "tf.constant([np.uint8(3)])", "tf.constant([np.int64(2**40)])",
    "tf.constant([np.complex64(1)])", "tf.constant([1, 2.5])", "tf.constant([2.5, 1])",
    "tf.constant([np.int32(1), 2.5])", "tf.constant([1, 2**40])", "tf.constant([])",
    "tf.constant([[]])", "tf.constant([1.5, True])", "tf.constant(['a', b'\\xff'])",
    "tf.constant([b'a', 'b\\xc3\\xa9'])", "tf.constant([np.str_('a')])",
    # refused values
    "tf.constant([None])", "tf.constant([1, None])", "tf.constant([[1], [None]])",
    "tf.constant(['a', 1])", "tf.constant([1, 'a'])", "tf.constant([object()])",
    "tf.constant({'a': 1})", "tf.constant(None)", "tf.constant([1.5, None])",
    "tf.constant([1, [2]])", "tf.constant([[1, 2], 3])", "tf.constant([[1, 2], [3]])",
    "tf.constant([True, 1])", "tf.constant(2**63)", "tf.constant([2**64])",
    "tf.constant([1, 1j])", "tf.constant([np.float64(1), np.complex128(1j)])",
    "tf.convert_to_tensor([1, None])", "tf.Variable([1, None])",
    # a requested dtype
    "tf.constant(np.array([1.5]), dtype=tf.int32)",
    "tf.convert_to_tensor(np.array([1.5]), dtype=tf.int32)",
    "tf.constant(np.array([1.5, -2.7]), dtype=tf.uint8)",
    "tf.constant(np.array([True]), dtype=tf.int32)", "tf.constant(np.array([1]), dtype=tf.bool)",
    "tf.constant(np.array([1.5]), dtype=tf.bool)", "tf.constant(np.float64(2.5), dtype=tf.int32)",
    "tf.Variable(np.array([1.5]), dtype=tf.int32)", "tf.constant(np.array([300]), dtype=tf.int8)",
    "tf.constant(np.array(['1']), dtype=tf.float32)",
    "tf.constant(np.array([1.5]), dtype=tf.string)",
    "tf.constant([1.7, -1.7], dtype=tf.int32)", "tf.constant('1', dtype=tf.int32)",
    "tf.constant('a', dtype=tf.float32)", "tf.constant([1, 2], dtype=tf.string)",
    "tf.constant(1, dtype=tf.bool)", "tf.constant(True, dtype=tf.int32)",
    "tf.constant(300, dtype=tf.uint8)", "tf.constant([1, 2], shape=[3])",
    "tf.constant([1, 2, 3, 4], shape=[3])", "tf.constant(1, shape=[2, 2])",
    "tf.constant([1]) + np.array([1.5])", "tf.constant([1.]) + np.array([1])",
    "tf.constant([1], tf.uint8) + np.array([-1])",
]


def outcome(tf, np, expr: str) -> dict:  # noqa: ANN001 - the tensorflow and numpy modules
    """The dtype and values of ``expr``'s tensor, or its error."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t = eval(expr, {"tf": tf, "np": np})  # noqa: S307 - fixed expressions above
    except Exception as e:  # noqa: BLE001 - the class is what is recorded
        return {"error": type(e).__name__, "message": str(e)}
    if not tf.executing_eagerly():
        return {"dtype": t.dtype.name, "shape": t.shape.as_list()}
    value = t.numpy().tolist()
    return {"dtype": t.dtype.name, "value": repr(value)}


def record(tf, np) -> dict:  # noqa: ANN001 - the tensorflow and numpy modules
    """Every case, eagerly and in a tf.function graph."""
    eager = {e: outcome(tf, np, e) for e in CASES}
    graph: dict = {}

    @tf.function
    def trace():
        for e in CASES:
            if "Variable" not in e:     # a tf.function creates variables on its first call
                graph[e] = outcome(tf, np, e)
        return 0
    trace()
    return {"eager": eager, "graph": graph}


def main() -> int:
    """Records every case; returns the exit status."""
    import numpy as np
    import tensorflow as tf
    out = {"tensorflow": tf.__version__, **record(tf, np)}
    path = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data",
                        "tensor_conversion", "tf_2_21.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
