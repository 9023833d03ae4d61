"""``activity_regularizer`` of ``tf.compat.v1.layers``' Dense and convolutions (classes and
functions): the names and values of the ``REGULARIZATION_LOSSES`` collection, each layer's
``losses`` count, ``tf.losses.get_regularization_loss()`` and the gradient of the total loss
with respect to the input (``regularizer(output) / batch size`` per call, as TF's layers add).

``program(tf)`` runs with ``tf`` either TensorFlow's ``tf.compat.v1`` or flowgrad's TF1 face.
TensorFlow 2.21 loads ``tf.compat.v1.layers`` from tf_keras; record with it::

    /work/venv-tf/bin/python -m pip install --no-deps --target /tmp/tfk_site tf_keras==2.21.0
    TF_USE_LEGACY_KERAS=1 PYTHONPATH=/tmp/tfk_site /work/venv-tf/bin/python \\
        tools/tf_reference/activity_regularizer_v1.py \\
        > tests/data/tf_layers/activity_regularizer.json
"""
import json

import numpy as np


def program(tf):
    """Returns the collection's names and values, per-layer loss counts and gradients."""
    tf.reset_default_graph()
    x = tf.placeholder(tf.float32, [None, 6, 6, 2], name="x")
    const = tf.constant_initializer(0.05)

    def l1(t):
        return 0.01 * tf.reduce_sum(tf.abs(t))

    h = tf.layers.conv2d(x, 3, 3, activation=tf.nn.relu, kernel_initializer=const,
                         activity_regularizer=l1)
    conv = tf.layers.Conv2D(2, 2, strides=2, kernel_initializer=const,
                            activity_regularizer=tf.nn.l2_loss, name="conv_cls")
    h2 = conv(h)
    h3 = conv(h)  # a second call adds a second activity loss
    t = tf.layers.conv2d_transpose(h2, 2, 2, strides=2, kernel_initializer=const,
                                   activity_regularizer=l1)
    c1 = tf.layers.conv1d(tf.reshape(t, [-1, 8, 2]), 2, 3, kernel_initializer=const,
                          activity_regularizer=l1)
    flat = tf.layers.flatten(h3)
    d = tf.layers.dense(flat, 4, kernel_initializer=const, activity_regularizer=tf.nn.l2_loss)
    dense = tf.layers.Dense(1, kernel_initializer=const, activity_regularizer=l1, name="out")
    y = dense(d)
    sep = tf.layers.separable_conv2d(x, 2, 3, depthwise_initializer=const,
                                     pointwise_initializer=const, activity_regularizer=l1)
    losses = tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)
    total = tf.losses.get_regularization_loss()
    objective = total + tf.reduce_sum(y) + tf.reduce_sum(c1) + tf.reduce_sum(sep)
    grad = tf.gradients(objective, x)[0]
    feed = {x: np.linspace(-1.0, 1.5, 3 * 6 * 6 * 2).reshape(3, 6, 6, 2).astype(np.float32)}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values, total_v, grad_v = sess.run([losses, total, grad], feed)
    return {"names": [t.name for t in losses],
            "values": [float(v) for v in values],
            "total": float(total_v),
            "layer_losses": {"conv_cls": len(conv.losses), "out": len(dense.losses)},
            "grad": np.asarray(grad_v, np.float64).ravel().tolist()}


if __name__ == "__main__":
    import tensorflow.compat.v1 as tf_v1

    tf_v1.disable_v2_behavior()
    print(json.dumps(program(tf_v1), indent=1, sort_keys=True))
