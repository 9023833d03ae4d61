"""Segment ops with empty segments, printed by TensorFlow 2.21 or by flowgrad.

Run ``/work/venv-tf/bin/python tools/tf_reference/segment_empty_values.py tf`` (TensorFlow)
or ``python tools/tf_reference/segment_empty_values.py fg`` (flowgrad) and compare."""
import sys

if sys.argv[1:] == ["tf"]:
    import tensorflow as tf
else:
    import flowgrad as tf

x = tf.constant([[1., 2.], [3., 4.], [5., 6.]])
ids = tf.constant([0, 0, 2])
for n in ("segment_max", "segment_min", "segment_sum", "segment_mean", "segment_prod"):
    print(n, getattr(tf.math, n)(x, ids).numpy().tolist())
for n in ("unsorted_segment_max", "unsorted_segment_min", "unsorted_segment_prod",
          "unsorted_segment_sum"):
    print(n, getattr(tf.math, n)(x, ids, 4).numpy().tolist())
two = tf.constant([0, 0])
print(tf.math.unsorted_segment_max(tf.constant([1, 2]), two, 2).numpy().tolist())
print(tf.math.unsorted_segment_max(tf.constant([1., 2.], tf.float64), two, 2).numpy().tolist())
