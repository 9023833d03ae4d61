"""TF2 summaries as programs write them (scalars, histograms with several bucket counts, one
value and no values, text, images, audio, name scopes, a tf.function), into the log directory given
as the first argument. Recorded with TensorFlow 2.21:

    /work/venv-tf/bin/python tools/tf_reference/summary_v2_events.py tests/data/summary_v2

tests/test_summary_v2_events.py runs it with ``python -m flowgrad`` and checks that every
summary value (tag, tensor bytes, plugin metadata) equals TensorFlow's."""
import sys

import numpy as np
import tensorflow as tf

writer = tf.summary.create_file_writer(sys.argv[1])
data = np.random.RandomState(0).normal(size=(4, 50))


@tf.function
def traced(x, step):
    tf.summary.scalar("traced_loss", tf.reduce_mean(x), step=step)
    tf.summary.histogram("traced_w", x, step=step)


with writer.as_default():
    for step in range(3):
        tf.summary.scalar("loss", 1.0 / (step + 1), step=step)
        tf.summary.scalar("int_metric", step * 3, step=step, description="an *int*")
        with tf.name_scope("train"):
            tf.summary.histogram("w", data[step], step=step)
            tf.summary.histogram("w7", data[step], step=step, buckets=7)
        tf.summary.histogram("single", [2.5, 2.5, 2.5], step=step)
        tf.summary.histogram("empty", np.zeros([0]), step=step)
        tf.summary.histogram("ints", np.arange(step + 5), step=step, buckets=4)
        tf.summary.text("notes", ["step %d" % step, "two"], step=step)
        tf.summary.image("img", np.linspace(0, 1, 2 * 3 * 3 * 3).reshape(2, 3, 3, 3),
                         step=step, max_outputs=1)
        sound = (np.sin(np.linspace(0, 10 + step, 3 * 30 * 2)).reshape(3, 30, 2) * 0.9
                 ).astype(np.float32)
        tf.summary.audio("snd", sound, 8000, step=step, max_outputs=2, description="two")
        tf.summary.audio("loud", sound[:1, :, :1] * 1.5, 22050, step=step)
        traced(tf.constant(data[step]), tf.constant(step, tf.int64))
writer.close()
