"""The error classes of bad ``tf.summary.audio`` / ``tf.compat.v1.summary.audio`` calls (an
unknown encoding, data of the wrong rank, a negative max_outputs, a 4-D TF1 tensor, a zero
sample rate). ``program(tf)`` runs with ``tf`` either TensorFlow or flowgrad's TF2 face;
recorded with TensorFlow 2.21::

    /work/venv-tf/bin/python tools/tf_reference/summary_audio_errors.py \\
        > tests/data/summary_audio/errors.json
"""
import json
import tempfile

import numpy as np


def _error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 -- the class is what is recorded
        return type(e).__name__
    return None


def program(tf):
    """Returns {case: error class name or None}."""
    out = {}
    with tempfile.TemporaryDirectory() as logdir:
        writer = tf.summary.create_file_writer(logdir)
        with writer.as_default():
            clips = np.zeros([2, 5, 1], np.float32)
            out["unknown_encoding"] = _error(
                lambda: tf.summary.audio("a", clips, 8000, step=0, encoding="mp3"))
            out["rank_2_data"] = _error(
                lambda: tf.summary.audio("a", clips[:, :, 0], 8000, step=0))
            out["negative_max_outputs"] = _error(
                lambda: tf.summary.audio("a", clips, 8000, step=0, max_outputs=-1))
            out["written"] = _error(lambda: tf.summary.audio("a", clips, 8000, step=0))
        writer.close()
    with tf.Graph().as_default():
        four_d = tf.compat.v1.summary.audio("b", tf.zeros([1, 2, 3, 4]), 8000.0)
        no_rate = tf.compat.v1.summary.audio("c", tf.zeros([1, 4, 1]), 0.0)
        with tf.compat.v1.Session() as sess:
            out["v1_rank_4"] = _error(lambda: sess.run(four_d))
            out["v1_zero_rate"] = _error(lambda: sess.run(no_rate))
    return out


if __name__ == "__main__":
    import tensorflow

    print(json.dumps(program(tensorflow), indent=1, sort_keys=True))
