"""Prints what TensorFlow's eager ``tf.while_loop`` hands its body: the loop variables as
the body returned them (a Python int counter stays a Python int until the loop ends, so
``x + i`` with a float64 ``x`` works: Keras 3's ``ops.fori_loop``), and what the loop returns
(tensors). Run on TensorFlow 2.21 it wrote tests/data/keras_suite/eager_while_loop_vars.txt,
which tests/test_eager_while_loop_vars.py compares with this program's output under
``python -m flowgrad``.

Run from the repository root:
    /work/venv-tf/bin/python tools/tf_reference/eager_while_loop_vars.py \
        > tests/data/keras_suite/eager_while_loop_vars.txt
"""
import os

os.environ.setdefault("KERAS_BACKEND", "tensorflow")

import keras  # noqa: E402
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

seen = []


def body(i, x):
    seen.append((type(i).__name__, type(x).__name__))
    return i + 1, x + i


out = tf.while_loop(lambda i, x: i < 3, body, (0, np.ones(2)))
print("types_in_body", seen)
print("result", [type(v).__name__ for v in out], [v.dtype.name for v in out],
      out[1].numpy().tolist())
print("fori_loop", keras.ops.fori_loop(0, 10, lambda i, x: x + i, np.ones((3,))).numpy().tolist())
print("fori_loop_float32", keras.ops.fori_loop(
    0, 4, lambda i, x: x * 2.0, tf.ones((2,), tf.float32)).numpy().tolist())
capped = tf.while_loop(lambda i: i < 100, lambda i: (i + 2,), (0,), maximum_iterations=5)
print("maximum_iterations", type(capped[0]).__name__, int(capped[0]))
