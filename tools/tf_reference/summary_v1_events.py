"""TF1 summaries (tf.compat.v1.summary scalar under a name scope, histogram, text, image,
audio;
merge_all; FileWriter.add_summary over two steps) into the log directory given as the first
argument. Recorded with TensorFlow 2.21:

    /work/venv-tf/bin/python tools/tf_reference/summary_v1_events.py tests/data/summary_v1

tests/test_summary_v2_events.py runs it with ``python -m flowgrad`` and compares every value."""
import sys
import numpy as np
import tensorflow.compat.v1 as tf
tf.disable_v2_behavior()
x = tf.placeholder(tf.float32, [None])
with tf.name_scope("sc"):
    tf.summary.scalar("mean", tf.reduce_mean(x))
tf.summary.histogram("x", x)
tf.summary.text("t", tf.constant(["a", "b"]))
tf.summary.image("im", tf.reshape(tf.linspace(0.0, 1.0, 2 * 3 * 3 * 3), [2, 3, 3, 3]),
                 max_outputs=2)
wave = tf.sin(tf.reshape(tf.linspace(0.0, 20.0, 3 * 40 * 2), [3, 40, 2])) * 0.8
tf.summary.audio("snd", wave, 8000.0, max_outputs=2)
tf.summary.audio("mono", wave[:1, :, 0] * 1.5, 16000, max_outputs=1)
merged = tf.summary.merge_all()
with tf.Session() as s, tf.summary.FileWriter(sys.argv[1]) as w:
    for step in range(2):
        w.add_summary(s.run(merged, {x: np.arange(5.0) * (step + 1) - 3}), step)
