"""Records TensorFlow's eager error class and message for common bad inputs.

Run with TensorFlow installed (``/path/to/tf-venv/bin/python
tools/tf_reference/kernel_messages.py``); writes tests/data/kernel_messages/tf_2_21.json,
which tests/test_kernel_messages.py replays on flowgrad. The message is kept without
TensorFlow's ``{{function_node ...}}`` prefix and ``name: ...`` suffix, which name
TensorFlow's runtime, not the error.
"""
from __future__ import annotations

import json
import os
import re
import sys

# Each case: a label and a Python expression of ``tf`` (and ``np``) that fails eagerly.
CASES = {
    "broadcast add": "tf.constant([1, 2]) + tf.constant([1, 2, 3])",
    "broadcast mul 2-D": "tf.constant([[1., 2]]) * tf.constant([1., 2, 3])",
    "broadcast maximum": "tf.maximum(tf.zeros([2, 3]), tf.zeros([4]))",
    "reshape": "tf.reshape(tf.zeros([2, 3]), [4])",
    "reshape -1": "tf.reshape(tf.zeros([2, 3]), [4, -1])",
    "matmul": "tf.matmul(tf.zeros([2, 3]), tf.zeros([2, 3]))",
    "matmul transposed": "tf.matmul(tf.zeros([2, 3]), tf.zeros([2, 3]), transpose_a=True, "
                         "transpose_b=True)",
    "batch matmul": "tf.matmul(tf.zeros([2, 2, 3]), tf.zeros([2, 2, 3]))",
    "batch matmul batch dims": "tf.matmul(tf.zeros([2, 2, 3]), tf.zeros([3, 3, 2]))",
    "gather scalar": "tf.gather([1, 2], 5)",
    "gather vector": "tf.gather([1, 2], [0, 5])",
    "concat dims": "tf.concat([tf.zeros([2, 3]), tf.zeros([2, 4])], 0)",
    "concat ranks": "tf.concat([tf.zeros([2, 3]), tf.zeros([3])], 0)",
    "stack": "tf.stack([tf.zeros([2]), tf.zeros([3])])",
    "index": "tf.zeros([3])[5]",
    "negative index": "tf.zeros([3])[-5]",
    "second index": "tf.zeros([3, 2])[1, 3]",
    "ellipsis index": "tf.zeros([3, 2])[..., 5]",
    "reduce axis": "tf.reduce_sum(tf.zeros([2]), axis=3)",
    "reduce negative axis": "tf.reduce_mean(tf.zeros([2]), axis=-3)",
    "mixed python float": "tf.constant(1) + 1.5",
    "mixed tensors": "tf.constant([1.0]) + tf.constant([1])",
    "half and float": "tf.constant([1.0], tf.float16) + tf.constant([1.0])",
    "double and float": "tf.constant([1.0], tf.float64) * tf.constant([1.0])",
    "int64 and int32": "tf.constant([1], tf.int64) - tf.constant([1])",
    "squeeze": "tf.squeeze(tf.zeros([2, 3]), 0)",
    "split": "tf.split(tf.zeros([5]), 2)",
    "sparse xent labels": "tf.nn.sparse_softmax_cross_entropy_with_logits("
                          "labels=tf.constant([5]), logits=tf.zeros([1, 3]))",
    "cast string": "tf.cast(tf.constant('a'), tf.float32)",
    "inverse": "tf.linalg.inv(tf.zeros([2, 2]))",
    "solve": "tf.linalg.solve(tf.zeros([2, 2]), tf.ones([2, 1]))",
    "check_numerics": "tf.debugging.check_numerics(tf.constant([np.nan]), 'bad')",
    "range delta": "tf.range(0, 10, 0)",
    # tf.debugging's assertions (eager: TensorFlow's own message formats)
    "assert_equal": "tf.debugging.assert_equal(tf.constant([1, 2, 3]), tf.constant([1, 5, 7]))",
    "assert_equal message": "tf.debugging.assert_equal(tf.constant([1, 2]), tf.constant([1, 5]), "
                            "message='bad')",
    "assert_equal scalars": "tf.debugging.assert_equal(tf.constant(1), tf.constant(2))",
    "assert_equal broadcast": "tf.debugging.assert_equal(tf.constant([1, 2]), tf.constant(1))",
    "assert_equal 2-D": "tf.debugging.assert_equal(tf.constant([[1, 2], [3, 4]]), "
                        "tf.constant([[1, 0], [0, 4]]), summarize=-1)",
    "assert_less": "tf.debugging.assert_less(tf.constant([1., 2.]), tf.constant([1., 3.]), "
                   "summarize=1)",
    "assert_greater": "tf.debugging.assert_greater(tf.range(10), 4)",
    "assert_positive": "tf.debugging.assert_positive(tf.constant([1, -2]))",
    "assert_non_negative": "tf.debugging.assert_non_negative(tf.constant([-1.5]), message='neg')",
    "assert_negative": "tf.debugging.assert_negative(tf.range(5.0))",
    "Assert": "tf.debugging.Assert(tf.constant(False), ['a', tf.constant([1, 2, 3, 4]), 2.5])",
    "Assert python bool": "tf.debugging.Assert(False, [tf.constant(1.5)], summarize=0)",
    "assert_rank": "tf.debugging.assert_rank(tf.constant([1, 2]), 2)",
    "assert_all_finite": "tf.debugging.assert_all_finite(tf.constant([1., np.inf]), 'not finite')",
    "assert_integer": "tf.debugging.assert_integer(tf.constant([1.]))",
    "assert_scalar": "tf.debugging.assert_scalar(tf.constant([1.]))",
    "assert_rank_in": "tf.debugging.assert_rank_in(tf.constant([1.]), [0, 2])",
    "assert_same_float_dtype": "tf.debugging.assert_same_float_dtype([tf.constant(1.), "
                               "tf.constant(1., tf.float64)])",
    "assert_same_float_dtype int": "tf.debugging.assert_same_float_dtype([tf.constant(1)])",
    "assert_proper_iterable": "tf.debugging.assert_proper_iterable('ab')",
    "assert_near": "tf.debugging.assert_near(tf.constant([1., 2.]), tf.constant([1., 2.5]))",
    "assert_near holds": "tf.debugging.assert_near(tf.constant([1., 2.]), "
                         "tf.constant([1., 2.000001]))",
    "assert_scalar holds": "tf.debugging.assert_scalar(tf.constant(1.))",
    "assert_rank_in holds": "tf.debugging.assert_rank_in(tf.constant([1.]), [0, 1])",
    "assert_proper_iterable holds": "tf.debugging.assert_proper_iterable([1, 2])",
    # what users write wrong (probe2's TF2 programs)
    "matmul vectors": "tf.matmul(tf.ones([3]), tf.ones([3]))",
    "matmul matrix and vector": "tf.matmul(tf.ones([2, 3]), tf.ones([3]))",
    "matmul vector and matrix": "tf.matmul(tf.ones([3]), tf.ones([3, 2]))",
    "matmul scalar": "tf.matmul(tf.ones([]), tf.ones([2, 2]))",
    "batch matmul vector": "tf.matmul(tf.ones([2, 3, 4]), tf.ones([4]))",
    "vector batch matmul": "tf.matmul(tf.ones([4]), tf.ones([2, 4, 3]))",
    "unstack num": "tf.unstack(tf.ones([2, 3]), num=3)",
    "unstack num axis": "tf.unstack(tf.ones([2, 3]), num=3, axis=1)",
    "reshape two -1": "tf.reshape(tf.ones([2, 3]), [-1, -1])",
    "reshape -2": "tf.reshape(tf.ones([2, 3]), [-2, 3])",
    "transpose perm out of range": "tf.transpose(tf.ones([2, 3]), [0, 2])",
    "transpose perm repeated": "tf.transpose(tf.ones([2, 3]), [0, 0])",
    "transpose negative perm": "tf.transpose(tf.ones([2, 3]), [1, -1])",
    "zeros negative": "tf.zeros([-1])",
    "ones negative": "tf.ones([2, -3])",
    "fill negative": "tf.fill([-1], 1.)",
    "conv2d depth": "tf.nn.conv2d(tf.ones([1, 4, 4, 3]), tf.ones([3, 3, 2, 8]), 1, 'SAME')",
    "conv2d padding": "tf.nn.conv2d(tf.ones([1, 4, 4, 3]), tf.ones([3, 3, 3, 8]), 1, 'FOO')",
    "softmax xent shapes": "tf.nn.softmax_cross_entropy_with_logits(tf.ones([2, 3]), "
                           "tf.ones([2, 4]))",
    "inverse not square": "tf.linalg.inv(tf.ones([2, 3]))",
    "where broadcast": "tf.where(tf.constant([True, False]), tf.ones([3]), tf.zeros([3]))",
    "gather_nd": "tf.gather_nd(tf.constant([[1, 2]]), [[3, 0]])",
    "scatter_nd update": "tf.tensor_scatter_nd_update(tf.zeros([3]), [[5]], [1.])",
    "argmax axis": "tf.argmax(tf.ones([2, 3]), axis=3)",
    "as_dtype": "tf.as_dtype('floot32')",
    "zeros dtype": "tf.zeros([2], dtype='foo')",
    "sqrt int": "tf.sqrt(tf.constant(4))",
    "log int": "tf.math.log(tf.constant([1, 2]))",
    "softmax int": "tf.nn.softmax(tf.constant([1, 2]))",
    "one_hot float": "tf.one_hot(tf.constant([1.0]), 3)",
    "slice size": "tf.slice(tf.constant([1, 2, 3]), [1], [5])",
    "too many indices": "tf.constant([1, 2, 3])[0, 0]",
    "expand_dims": "tf.expand_dims(tf.ones([2, 3]), 5)",
    "tile multiples": "tf.tile(tf.ones([2, 3]), [2])",
    "broadcast_to": "tf.broadcast_to(tf.ones([2, 3]), [3, 3])",
    "float of string tensor": "float(tf.constant('x'))",
    "int of vector": "int(tf.constant([1, 2]))",
    "bool of vector": "bool(tf.constant([1, 2]))",
    "len of scalar": "len(tf.constant(1))",
    "iterate scalar": "list(tf.constant(1))",
    "hash": "hash(tf.constant(1))",
    "strings to_number": "tf.strings.to_number('abc')",
    "cast string to int": "tf.cast(tf.constant('1'), tf.int32)",
    "boolean_mask": "tf.boolean_mask(tf.ones([3]), [True, False])",
    "range zero delta": "tf.range(0, 5, 0)",
    "concat axis": "tf.concat([tf.ones([2, 3]), tf.ones([2, 3])], 5)",
    "floordiv by zero": "tf.constant(1) // tf.constant(0)",
    "floormod by zero": "tf.math.floormod(tf.constant(1), tf.constant(0))",
    "variable assign_add shape": "tf.Variable([1., 2.]).assign_add([1.])",
    "variable assign_sub shape": "tf.Variable([[1., 2.]]).assign_sub([[1.], [2.]])",
    "assert_type": "tf.debugging.assert_type(tf.constant(1), tf.float32)",
    "assert_rank_at_least": "tf.debugging.assert_rank_at_least(tf.constant(1), 1)",
    "ensure_shape": "tf.ensure_shape(tf.ones([2, 3]), [2, 4])",
    "ensure_shape unknown": "tf.ensure_shape(tf.ones([2, 3]), [None, 4])",
    "broadcast_to other shape": "tf.broadcast_to(tf.ones([2]), [2, 1])",
}


def clean(message: str) -> str:
    """The message without TensorFlow's runtime prefix and name suffix."""
    message = re.sub(r"^\{\{function_node [^}]*\}\}\s*", "", message)
    return re.sub(r" name: \S*$", "", message)


def main() -> int:
    """Records every case; returns the exit status."""
    import numpy as np
    import tensorflow as tf
    out = {"tensorflow": tf.__version__, "cases": {}}
    for label, expr in CASES.items():
        try:
            eval(expr, {"tf": tf, "np": np})  # noqa: S307 - fixed expressions above
            out["cases"][label] = {"expr": expr, "error": None}
        except Exception as e:  # noqa: BLE001 - the class is what is recorded
            out["cases"][label] = {"expr": expr, "error": type(e).__name__,
                                   "message": clean(str(e))}
    path = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data",
                        "kernel_messages", "tf_2_21.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
