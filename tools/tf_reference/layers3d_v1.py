"""``tf.compat.v1.layers``' 3-D classes and functions -- ``Conv3D`` / ``conv3d``,
``Conv3DTranspose`` / ``conv3d_transpose``, ``MaxPooling3D`` / ``max_pooling3d`` and
``AveragePooling3D`` / ``average_pooling3d``: variable names and shapes, outputs and the
gradients of ``sum(y * y)`` for fixed variable values (strides, padding, dilation, bias,
activation).

``program(tf)`` runs with ``tf`` either TensorFlow's ``tf.compat.v1`` or flowgrad's TF1 face.
TensorFlow 2.21 loads ``tf.compat.v1.layers`` from tf_keras; record with it::

    /work/venv-tf/bin/python -m pip install --no-deps --target /tmp/tfk_site tf_keras==2.21.0
    TF_USE_LEGACY_KERAS=1 PYTHONPATH=/tmp/tfk_site /work/venv-tf/bin/python \\
        tools/tf_reference/layers3d_v1.py > tests/data/tf_layers/layers3d.json
"""
import json

import numpy as np

CASES = {
    "conv3d_same_stride2": ("conv3d", "Conv3D",
                            dict(filters=3, kernel_size=3, strides=2, padding="same")),
    "conv3d_valid_dilated_relu": ("conv3d", "Conv3D",
                                  dict(filters=2, kernel_size=(2, 2, 3), dilation_rate=(1, 2, 1),
                                       activation="relu")),
    "conv3d_no_bias": ("conv3d", "Conv3D",
                       dict(filters=2, kernel_size=(1, 2, 2), strides=(1, 2, 1),
                            use_bias=False)),
    "conv3d_transpose_same": ("conv3d_transpose", "Conv3DTranspose",
                              dict(filters=2, kernel_size=3, strides=2, padding="same")),
    "conv3d_transpose_valid": ("conv3d_transpose", "Conv3DTranspose",
                               dict(filters=3, kernel_size=(2, 3, 2), strides=(1, 2, 3),
                                    padding="valid", activation="relu")),
    "max_pooling3d_valid": ("max_pooling3d", "MaxPooling3D",
                            dict(pool_size=2, strides=2)),
    "max_pooling3d_same": ("max_pooling3d", "MaxPooling3D",
                           dict(pool_size=(2, 3, 2), strides=(1, 2, 2), padding="same")),
    "average_pooling3d_valid": ("average_pooling3d", "AveragePooling3D",
                                dict(pool_size=(2, 2, 3), strides=(2, 1, 2))),
    "average_pooling3d_same": ("average_pooling3d", "AveragePooling3D",
                               dict(pool_size=3, strides=2, padding="same")),
}


def _rounded(a):
    """Plain values with 7 significant digits (the record stays small)."""
    return [float("%.7g" % v) for v in np.asarray(a, np.float64).ravel()]


def program(tf):
    """Each case's variables, outputs (function and class) and gradients, as plain values."""
    out = {}
    x_val = np.random.RandomState(5).normal(size=(1, 5, 6, 7, 2)).astype(np.float32)
    for key, (function, cls, kwargs) in CASES.items():
        with tf.Graph().as_default():
            x = tf.constant(x_val)
            kw = dict(kwargs)
            if kw.get("activation") == "relu":
                kw["activation"] = tf.nn.relu
            y = getattr(tf.layers, function)(x, **kw)
            y2 = getattr(tf.layers, cls)(**kw, name="cls")(x)
            variables = tf.global_variables()
            grads = tf.gradients(tf.reduce_sum(y * y) + tf.reduce_sum(y2), [x] + variables)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                rng = np.random.RandomState(9)
                for v in variables:
                    sess.run(v.assign(rng.uniform(-0.5, 0.5, v.shape.as_list())
                                      .astype(np.float32)))
                y_val, y2_val, g = sess.run([y, y2, grads])
            out[key] = {"variables": [[v.name, v.shape.as_list()] for v in variables],
                        "trainable": [v.name for v in tf.trainable_variables()],
                        "static_shape": y.shape.as_list(), "y_name": y.name,
                        "y": _rounded(y_val), "y2": _rounded(y2_val),
                        "grads": [_rounded(a) for a in g]}
    return out


if __name__ == "__main__":
    import tensorflow.compat.v1 as tf1

    tf1.disable_v2_behavior()
    print(json.dumps(program(tf1)))
