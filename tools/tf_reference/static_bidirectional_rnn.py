"""``tf.compat.v1.nn.static_bidirectional_rnn`` (and ``static_rnn``) with TF1's RNN cells:
outputs, final states, gradients and variable names, with and without ``sequence_length``.

``program(tf)`` runs with ``tf`` either TensorFlow's ``tf.compat.v1`` or flowgrad's TF1 face.
TensorFlow 2.21 loads ``tf.compat.v1.nn.rnn_cell`` from the legacy Keras 2 (tf_keras), so
record with it on the path and selected::

    /work/venv-tf/bin/python -m pip install --no-deps --target /tmp/tfk_site tf_keras==2.21.0
    TF_USE_LEGACY_KERAS=1 PYTHONPATH=/tmp/tfk_site /work/venv-tf/bin/python \\
        tools/tf_reference/static_bidirectional_rnn.py > tests/data/contrib/static_birnn.json

tests/test_contrib.py runs the same program on flowgrad and compares (TF 1.15's
``tf.contrib.rnn.static_bidirectional_rnn`` is this function).
"""
import json

import numpy as np


def _cells(tf, kind, units, name):
    if kind == "lstm":
        return tf.nn.rnn_cell.BasicLSTMCell(units, name=name)
    if kind == "lstmcell":
        return tf.nn.rnn_cell.LSTMCell(units, use_peepholes=True, name=name)
    return tf.nn.rnn_cell.GRUCell(units, name=name)


def _fill(tf, sess, seed):
    """Sets every variable to fixed values (the same on both libraries)."""
    rng = np.random.RandomState(seed)
    for v in tf.global_variables():
        sess.run(v.assign(rng.uniform(-0.4, 0.4, v.shape.as_list()).astype(np.float32)))


def _flat(state):
    if isinstance(state, (tuple, list)):
        return [a for s in state for a in _flat(s)]
    return [np.asarray(state).tolist()]


def program(tf):
    """The results as plain values (names, nested lists of floats)."""
    out = {}
    steps, batch, depth = 4, 3, 2
    x_val = np.random.RandomState(0).normal(size=(steps, batch, depth)).astype(np.float32)
    for kind in ("lstm", "lstmcell", "gru"):
        for with_lengths in (False, True):
            key = "%s_%s" % (kind, "lengths" if with_lengths else "full")
            with tf.Graph().as_default():
                xs = [tf.constant(x_val[t]) for t in range(steps)]
                lengths = tf.constant([4, 2, 3]) if with_lengths else None
                fw = _cells(tf, kind, 3, "fw_cell")
                bw = _cells(tf, kind, 2, "bw_cell")
                outputs, state_fw, state_bw = tf.nn.static_bidirectional_rnn(
                    fw, bw, xs, dtype=tf.float32, sequence_length=lengths)
                loss = tf.add_n([tf.reduce_sum(o * o) for o in outputs])
                grads = tf.gradients(loss, xs + tf.trainable_variables())
                with tf.Session() as sess:
                    sess.run(tf.global_variables_initializer())
                    _fill(tf, sess, 3)
                    o, sf, sb, g = sess.run([outputs, state_fw, state_bw, grads])
                out[key] = {
                    "variables": [v.name for v in tf.global_variables()],
                    "shapes": [o_.shape.as_list() for o_ in outputs],
                    "outputs": [np.asarray(a).tolist() for a in o],
                    "state_fw": _flat(sf),
                    "state_bw": _flat(sb),
                    "grads": [np.asarray(a).tolist() for a in g],
                }
    return out


if __name__ == "__main__":
    import tensorflow.compat.v1 as tf1

    tf1.disable_v2_behavior()
    print(json.dumps(program(tf1)))
