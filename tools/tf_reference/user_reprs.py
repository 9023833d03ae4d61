"""Records what ``print``/``repr``/``str`` show for the values TensorFlow users print.

Run with TensorFlow installed (``/path/to/tf-venv/bin/python tools/tf_reference/user_reprs.py``);
writes tests/data/reprs/user_reprs.json, which tests/test_user_reprs.py replays on flowgrad.
Each case is a Python expression of ``tf`` and ``np``; the record holds ``str`` and ``repr`` of
its value (or the error class and message where TensorFlow raises).
"""
from __future__ import annotations

import json
import os
import sys

CASES = [
    # RaggedTensor: TensorFlow formats ``numpy()`` with ", " between elements.
    "tf.ragged.constant([[1, 2], [3], []])",
    "tf.ragged.constant([[[1.5]], [[2.], [3.]]])",
    "tf.ragged.constant([[[1], [2, 3]], [[4], [5]]])",
    "tf.ragged.constant([[1, 2], [3, 4]])",
    "tf.ragged.constant([])",
    "tf.ragged.constant([[]])",
    "tf.ragged.constant([['a', 'bc'], ['d']])",
    "tf.ragged.constant([[True], [False, True]])",
    "tf.ragged.constant([[[1, 2], [3]], []])",
    "tf.RaggedTensor.from_row_lengths(tf.range(100), [50, 30, 20])",
    "tf.ragged.constant([[1.123456789, 2.0], [3.5]], dtype=tf.float64)",
    "tf.ragged.constant([[1, 2], [3]]).numpy()",
    "tf.ragged.constant([[[1], [2, 3]], [[4], [5]]]).numpy()",
    "tf.ragged.constant([[1, 2], [3, 4]]).numpy()",
    "tf.ragged.constant([]).numpy()",
    # tensors, variables, shapes, specs, dtypes
    "tf.constant([[1.5, 2.], [3., 4.]])",
    "tf.constant([b'a', b'b\\xc3\\xa9', b'\\xff'])",
    "tf.range(2000)",
    "tf.reshape(tf.range(2000.), [20, 100])",
    "tf.constant([1e-8, 1e8, 123456789.0])",
    "tf.zeros([0, 3])",
    "tf.Variable([[1., 2.]], name='w')",
    "tf.Variable('s')",
    "tf.TensorShape([None, 3])",
    "tf.TensorShape(None)",
    "tf.TensorSpec([None, 3], tf.float32, name='x')",
    "tf.RaggedTensorSpec([2, None], tf.int32)",
    "tf.SparseTensorSpec([2, 3], tf.float32)",
    "tf.sparse.SparseTensor([[0, 0], [1, 2]], [1., 2.], [2, 3])",
    "tf.IndexedSlices(tf.constant([[1.]]), tf.constant([0]))",
    "tf.cast(tf.constant([[1.5, -2.25]]), tf.bfloat16)",
    "tf.cast(tf.constant([[1.5, -2.25]]), tf.complex64)",
    # DType limits: TypeError for unordered dtypes
    "tf.complex64.min", "tf.complex128.max", "tf.bool.min", "tf.string.max",
    "tf.float16.min", "tf.bfloat16.max", "tf.uint8.max", "tf.int64.min", "tf.float64.max",
    # comparisons (TensorFlow's tensor_equals) and Python numbers of another dtype
    "tf.constant([1]) == None", "tf.constant([1]) != None",
    "tf.constant([1, 2]) == tf.constant([1, 2, 3])",
    "tf.constant([1, 2]) != tf.constant([1, 2, 3])",
    "tf.constant([1, 2]) == [1, 2]", "tf.constant(1) == 1.5", "tf.constant(1) == 'a'",
    "tf.constant(2) * 2.0", "2.0 * tf.constant(2)", "tf.constant(2) - 2.0", "tf.constant(2) / 2.5",
    "tf.constant(2) // 2.5", "tf.constant(2) < 2.5", "tf.maximum(tf.constant(2), 2.0)",
    "tf.clip_by_value(tf.constant([1, 5, 10]), 2.5, 8)",
    "tf.constant(2) / 2", "tf.constant([2.]) / [1, 2]",
    # NumPy methods without experimental_enable_numpy_behavior()
    "tf.constant([1]).reshape((1,))", "tf.constant([1]).T", "tf.constant([1.]).astype('int32')",
]


def record(tf, np, expr: str) -> dict:  # noqa: ANN001 - the tensorflow and numpy modules
    """``str`` and ``repr`` of ``expr``'s value, or the error it raises."""
    try:
        value = eval(expr, {"tf": tf, "np": np})  # noqa: S307 - fixed expressions above
    except Exception as e:  # noqa: BLE001 - the class is what is recorded
        return {"error": type(e).__name__, "message": str(e)}
    text = repr(value)    # Python's default repr names a memory address: not recorded
    return {"str": str(value), "repr": None if " object at 0x" in text else text}


def main() -> int:
    """Records every case; returns the exit status."""
    import numpy as np
    import tensorflow as tf
    out = {"tensorflow": tf.__version__, "cases": {e: record(tf, np, e) for e in CASES}}
    path = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "reprs",
                        "user_reprs.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
