"""Prints what ``tf.gather`` and ``tf.nn.embedding_lookup`` give for RaggedTensor indices
(Keras 3's ``ops.take`` with ragged indices calls them: ``tf.nn.embedding_lookup`` for axis 0,
``tf.gather(x, indices, axis=axis)`` otherwise): the values, the shape and the ragged rank,
for dense params along each axis, ragged params, nested ragged indices, and the errors. Run
on TensorFlow 2.21 it wrote tests/data/keras_suite/ragged_indices_gather.txt, which
tests/test_ragged_indices_gather.py compares with this program's output under
``python -m flowgrad``.

Run from the repository root:
    /work/venv-tf/bin/python tools/tf_reference/ragged_indices_gather.py \
        > tests/data/keras_suite/ragged_indices_gather.txt
"""
import numpy as np
import tensorflow as tf

x = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
indices = tf.ragged.constant([[2], [0, 2, 1]])
nested = tf.ragged.constant([[[1, 0], [2]], [], [[0, 1, 1]]])
ragged_params = tf.ragged.constant([[1.0, 2.0], [3.0], [], [4.0, 5.0, 6.0]])


def show(label, fn):
    try:
        out = fn()
    except Exception as e:  # noqa: BLE001 - the error class is what is recorded
        print(label, "error", type(e).__name__)
        return
    kind = type(out).__name__
    rank = out.ragged_rank if isinstance(out, tf.RaggedTensor) else 0
    values = out.to_list() if isinstance(out, tf.RaggedTensor) else out.numpy().tolist()
    print(label, kind, out.shape, rank, out.dtype.name, values)


for axis in (0, 1, 2, -1, -2):
    show("gather_axis_%d" % axis, lambda: tf.gather(x, indices, axis=axis))
show("gather_axis_none", lambda: tf.gather(x, indices))
show("gather_nested_axis_0", lambda: tf.gather(x, nested))
show("gather_nested_axis_1", lambda: tf.gather(x, nested, axis=1))
show("gather_vector", lambda: tf.gather(tf.range(10, 20), indices))
show("gather_ragged_params", lambda: tf.gather(ragged_params, indices))
show("gather_int64_indices", lambda: tf.gather(x, tf.cast(indices, tf.int64), axis=2))
show("embedding_lookup", lambda: tf.nn.embedding_lookup(x, indices))
show("embedding_lookup_nested", lambda: tf.nn.embedding_lookup(x[:, 0], nested))
show("embedding_lookup_v1", lambda: tf.compat.v1.nn.embedding_lookup(x, indices))
show("embedding_lookup_float_ids", lambda: tf.nn.embedding_lookup(
    x, tf.ragged.constant([[1.0]])))
show("gather_out_of_range", lambda: tf.gather(x, tf.ragged.constant([[3]])))
show("gather_axis_3", lambda: tf.gather(x, indices, axis=3))
