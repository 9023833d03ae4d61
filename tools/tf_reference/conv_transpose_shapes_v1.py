"""Static and run-time output shapes of ``tf.compat.v1.layers.conv2d_transpose`` /
``Conv2DTranspose`` / ``conv3d_transpose`` and of ``tf.nn.conv2d_transpose`` with an
``output_shape`` built from ``tf.shape(x)`` (TensorFlow's shape inference keeps a known batch
size there), for inputs whose batch or spatial sizes are unknown; and shapes built from
slices and concatenations of ``tf.shape(x)`` (reshape, zeros).

``program(tf)`` runs with ``tf`` either TensorFlow's ``tf.compat.v1`` or flowgrad's TF1 face.
TensorFlow 2.21 loads ``tf.compat.v1.layers`` from tf_keras; record with it::

    /work/venv-tf/bin/python -m pip install --no-deps --target /tmp/tfk_site tf_keras==2.21.0
    TF_USE_LEGACY_KERAS=1 PYTHONPATH=/tmp/tfk_site /work/venv-tf/bin/python \\
        tools/tf_reference/conv_transpose_shapes_v1.py \\
        > tests/data/tf_layers/conv_transpose_shapes.json
"""
import json

import numpy as np

PLACEHOLDERS = [([4, 5, 7, 3], "channels_last"), ([4, 3, 5, 7], "channels_first"),
                ([4, None, None, 3], "channels_last"), ([None, 5, 7, 3], "channels_last"),
                ([4, None, 7, 3], "channels_last"), ([4, 3, None, 7], "channels_first")]


def _feed(shape):
    full = [4 if d is None else d for d in shape]
    # unknown spatial sizes are fed as 5 (height) and 7 (width), the channels as 3
    return np.arange(np.prod(full), dtype=np.float32).reshape(full) / 100.0


def program(tf):
    """Returns {case: {"static": [...], "run": [...]}} for the cases of this module."""
    tf.reset_default_graph()
    out = {}
    fetches = {}
    feeds = {}
    for i, (shape, fmt) in enumerate(PLACEHOLDERS):
        x = tf.placeholder(tf.float32, shape, name="x%d" % i)
        full = list(shape)
        if fmt == "channels_last":
            full = [4 if full[0] is None else full[0], 5, 7, 3]
        else:
            full = [4 if full[0] is None else full[0], 3, 5, 7]
        feeds[x] = _feed(full)
        for pad in ("same", "valid"):
            fetches["conv2d_transpose_%d_%s" % (i, pad)] = tf.layers.conv2d_transpose(
                x, 2, 3, strides=2, padding=pad, data_format=fmt)
            fetches["Conv2DTranspose_%d_%s" % (i, pad)] = tf.layers.Conv2DTranspose(
                2, (3, 2), strides=(1, 2), padding=pad, data_format=fmt)(x)
    v = tf.placeholder(tf.float32, [4, None, 5, 6, 3], name="v")
    feeds[v] = np.ones([4, 2, 5, 6, 3], np.float32)
    fetches["conv3d_transpose"] = tf.layers.conv3d_transpose(v, 2, 3, strides=2,
                                                             padding="same")
    z = tf.placeholder(tf.float32, [4, 5, 5, 3], name="z")
    feeds[z] = np.ones([4, 5, 5, 3], np.float32)
    kernel = tf.ones([3, 3, 2, 3])
    fetches["nn_stack"] = tf.nn.conv2d_transpose(
        z, kernel, tf.stack([tf.shape(z)[0], 10, 10, 2]), [1, 2, 2, 1])
    fetches["nn_list"] = tf.nn.conv2d_transpose(z, kernel, [tf.shape(z)[0], 10, 10, 2],
                                                [1, 2, 2, 1])
    fetches["nn_arith"] = tf.nn.conv2d_transpose(
        z, kernel, tf.stack([tf.shape(z)[0], tf.shape(z)[1] * 2 + 1, tf.shape(z)[2] * 2 + 1, 2]),
        [1, 2, 2, 1], padding="VALID")
    w = tf.placeholder(tf.float32, [4, None, None, 3], name="w")
    feeds[w] = np.ones([4, 5, 5, 3], np.float32)
    fetches["nn_unknown"] = tf.nn.conv2d_transpose(
        w, kernel, tf.stack([tf.shape(w)[0], tf.shape(w)[1] * 2, 10, 2]), [1, 2, 2, 1])
    fetches["zeros_arith"] = tf.zeros([tf.shape(w)[0] * 2, tf.shape(w)[-1]])
    fetches["reshape_batch"] = tf.reshape(w, [tf.shape(w)[0], -1])
    u = tf.placeholder(tf.float32, [4, None, 5, 3], name="u")
    feeds[u] = np.ones([4, 2, 5, 3], np.float32)
    fetches["reshape_concat_head"] = tf.reshape(u, tf.concat([tf.shape(u)[:1], [-1]], 0))
    fetches["reshape_concat_tail"] = tf.reshape(u, tf.concat([[-1], tf.shape(u)[2:]], 0))
    fetches["zeros_concat"] = tf.zeros(tf.concat([tf.shape(u)[1:], [2]], 0))
    fetches["zeros_strided"] = tf.zeros(tf.shape(u)[::2])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run(fetches, feeds)
    for name, t in fetches.items():
        out[name] = {"static": t.shape.as_list(), "run": list(values[name].shape)}
    return out


if __name__ == "__main__":
    import tensorflow.compat.v1 as tf_v1

    tf_v1.disable_v2_behavior()
    print(json.dumps(program(tf_v1), indent=1, sort_keys=True))
