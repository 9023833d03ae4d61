"""Prints what ``tf.map_fn`` gives over ``tf.SparseTensor`` elements (each element is the
sparse row one rank lower; Keras 3's ``ops.matmul`` of a rank-3 or rank-4 sparse tensor and a
dense one maps ``tf.sparse.sparse_dense_matmul`` over the batch this way), eagerly and in a
``tf.function``, with a dense element beside it (TensorFlow has no gradient with respect to
the sparse values: its DeserializeSparse op has none). Run on TensorFlow 2.21 it wrote
tests/data/keras_suite/map_fn_sparse.txt, which tests/test_map_fn_sparse.py compares with
this program's output under ``python -m flowgrad``.

Run from the repository root:
    /work/venv-tf/bin/python tools/tf_reference/map_fn_sparse.py \
        > tests/data/keras_suite/map_fn_sparse.txt
"""
import os

os.environ.setdefault("KERAS_BACKEND", "tensorflow")

import keras  # noqa: E402
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

rng = np.random.default_rng(0)
a_np = np.round(4 * rng.standard_normal((2, 3, 4)), 2) * (rng.random((2, 3, 4)) < 0.6)
b_np = np.round(4 * rng.standard_normal((2, 4, 5)), 2)
a = tf.sparse.from_dense(a_np.astype(np.float32))
b = tf.constant(b_np, tf.float32)


def matmul(x):
    return tf.sparse.sparse_dense_matmul(x[0], x[1])


def show(label, value):
    print(label, value.dtype.name, value.shape, np.round(value.numpy(), 4).tolist())


show("eager", tf.map_fn(matmul, (a, b), fn_output_signature=tf.float32))
show("graph", tf.function(lambda: tf.map_fn(matmul, (a, b), fn_output_signature=tf.float32))())
show("row_sums", tf.map_fn(lambda s: tf.sparse.reduce_sum(s, axis=1), a,
                           fn_output_signature=tf.float32))
show("row_shapes", tf.map_fn(lambda s: s.dense_shape, a, fn_output_signature=tf.int64))
show("row_nnz", tf.map_fn(lambda s: tf.size(s.values), a, fn_output_signature=tf.int32))

for shape_x, shape_y in (((2, 3, 4), (2, 4, 5)), ((2, 2, 3, 4), (2, 2, 4, 3))):
    x = np.round(4 * rng.standard_normal(shape_x), 2) * (rng.random(shape_x) < 0.7)
    y = np.round(4 * rng.standard_normal(shape_y), 2)
    out = keras.ops.matmul(tf.sparse.from_dense(x), y)
    show("keras_matmul_rank%d" % len(shape_x), out)
    print("close", bool(np.allclose(out.numpy(), x @ y, atol=1e-3)))
