"""Prints what ``tf.size`` gives for a ``tf.SparseTensor`` (its dense shape's product, int32
or int64) and what Keras 3's ``ops.multiply`` of two SparseTensors with disjoint, subset and
superset indices gives (its TensorFlow backend intersects them with ``tf.sets`` and tests
``tf.size`` of the result). Run on TensorFlow 2.21 it wrote
tests/data/keras_suite/sparse_size.txt, which tests/test_sparse_size.py compares with this
program's output under ``python -m flowgrad``.

Run from the repository root:
    /work/venv-tf/bin/python tools/tf_reference/sparse_size.py \
        > tests/data/keras_suite/sparse_size.txt
"""
import os

os.environ.setdefault("KERAS_BACKEND", "tensorflow")

import keras  # noqa: E402
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

st = tf.sparse.SparseTensor([[0, 1], [1, 2]], [3.0, 4.0], [2, 5])
for out_type in (tf.int32, tf.int64):
    s = tf.size(st, out_type=out_type)
    print("size", s.dtype.name, int(s))
print("size_in_function", int(tf.function(lambda t: tf.size(t))(st)))
print("size_empty", int(tf.size(tf.sparse.SparseTensor(np.zeros((0, 3), np.int64), [],
                                                         [2, 3, 0]))))


def sparse(x, start=0, delta=2, like=None):
    indices = like.indices if like is not None else \
        np.stack(np.where(np.ones_like(x)), axis=1)[np.arange(start, x.size, delta)]
    return tf.SparseTensor(indices, tf.gather_nd(x, indices), x.shape)


x = np.array([[1, 2, 3], [3, 2, 1]])
y = np.array([[4, 5, 6], [3, 2, 1]])
x_sp = sparse(x)
cases = {"disjoint": (x_sp, sparse(y, start=1)), "superset": (x_sp, sparse(y, delta=1)),
         "subset": (sparse(x, delta=1), sparse(y, like=x_sp)), "same": (x_sp, sparse(y, like=x_sp))}
for name, (a, b) in cases.items():
    for dtype in ("float32", "int32"):
        out = keras.ops.multiply(tf.cast(a, dtype), tf.cast(b, dtype))
        print(name, dtype, type(out).__name__, out.indices.numpy().tolist(),
              out.values.numpy().tolist(), tf.sparse.to_dense(out).numpy().tolist())
