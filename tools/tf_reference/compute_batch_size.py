"""Prints what ``tensorflow.python.data.experimental.ops.distribute.compute_batch_size``
gives (the module Keras 3's ``distribution_lib`` imports to shard a tf.data pipeline across
processes) for pipelines of each kind: batched, padded, dropped remainders, pass-through
transformations after the batch, zips and concatenations of batches, unbatched and rebatched
datasets; the tensor's dtype, or the error class (scalar elements). Run on TensorFlow 2.21 it wrote
tests/data/keras_suite/compute_batch_size.txt, which tests/test_compute_batch_size.py compares
with this program's output under ``python -m flowgrad``.

Run from the repository root:
    /work/venv-tf/bin/python tools/tf_reference/compute_batch_size.py \
        > tests/data/keras_suite/compute_batch_size.txt
"""
import numpy as np  # noqa: F401 - the pipelines (evaluated text) use it
import tensorflow as tf
from tensorflow.python.data.experimental.ops import distribute

D = tf.data.Dataset
PIPELINES = [
    "D.range(16)",
    "D.range(16).batch(8)",
    "D.range(16).batch(7)",
    "D.range(16).batch(8, drop_remainder=True)",
    "D.range(16).batch(5, drop_remainder=True)",
    "D.range(16).padded_batch(4)",
    "D.from_tensor_slices(np.zeros((10, 3), np.float32)).batch(4)",
    "D.from_tensor_slices({'a': np.zeros((10, 3)), 'b': np.arange(10)}).batch(3)",
    "D.from_tensor_slices((np.zeros((10, 2)), np.arange(10))).batch(5).prefetch(2)",
    "D.range(16).batch(4).map(lambda x: x * 2)",
    "D.range(16).batch(4).map(lambda x: x[:2])",
    "D.range(16).batch(4).filter(lambda x: tf.reduce_sum(x) > 3)",
    "D.range(16).batch(4).shuffle(3, seed=1)",
    "D.range(16).batch(4).repeat(2)",
    "D.range(16).batch(4).take(2)",
    "D.range(16).batch(4).skip(1)",
    "D.range(16).batch(4).cache()",
    "D.range(16).batch(4).shard(2, 0)",
    "D.range(16).batch(4).prefetch(tf.data.AUTOTUNE)",
    "D.range(16).batch(4).unbatch()",
    "D.range(16).batch(4).rebatch(2)",
    "D.range(16).batch(2).batch(3)",
    "D.range(16).map(lambda x: x + 1).batch(6)",
    "D.range(16).batch(4).enumerate()",
    "D.zip((D.range(16).batch(4), D.range(16).batch(4)))",
    "D.zip((D.range(16).batch(4), D.range(16).batch(2)))",
    "D.range(16).batch(4).concatenate(D.range(8).batch(4))",
    "D.range(16).batch(4).concatenate(D.range(8).batch(2))",
    "D.from_tensors(np.zeros((4, 2)))",
    "D.range(16).window(4)",
]

for text in PIPELINES:
    try:
        size = distribute.compute_batch_size(eval(text))
    except Exception as e:      # scalar elements: TensorFlow indexes their empty shape
        print(text, "->", type(e).__name__)
    else:
        print(text, "->", size.dtype.name, int(size.numpy()))
