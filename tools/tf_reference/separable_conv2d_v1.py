"""``tf.compat.v1.layers.SeparableConv2D`` / ``separable_conv2d``: variable names and shapes,
outputs and gradients for fixed variable values (strides, padding, dilation, depth
multiplier, channels first).

``program(tf)`` runs with ``tf`` either TensorFlow's ``tf.compat.v1`` or flowgrad's TF1 face.
TensorFlow 2.21 loads ``tf.compat.v1.layers`` from tf_keras; record with it::

    /work/venv-tf/bin/python -m pip install --no-deps --target /tmp/tfk_site tf_keras==2.21.0
    TF_USE_LEGACY_KERAS=1 PYTHONPATH=/tmp/tfk_site /work/venv-tf/bin/python \\
        tools/tf_reference/separable_conv2d_v1.py > tests/data/contrib/separable_conv2d.json
"""
import json

import numpy as np

CASES = {
    "same_stride2_dm2": dict(filters=3, kernel_size=3, strides=2, padding="same",
                             depth_multiplier=2),
    "valid_dilated": dict(filters=2, kernel_size=(2, 3), padding="valid", dilation_rate=2,
                          activation="relu"),
}


def program(tf):
    """Each case's variables, output and gradients, as plain values."""
    out = {}
    x_val = np.random.RandomState(5).normal(size=(2, 7, 8, 3)).astype(np.float32)
    for key, kwargs in CASES.items():
        with tf.Graph().as_default():
            x = tf.constant(x_val)
            kw = dict(kwargs)
            if kw.get("activation") == "relu":
                kw["activation"] = tf.nn.relu
            y = tf.layers.separable_conv2d(x, **kw)
            y2 = tf.layers.SeparableConv2D(**kw, name="cls")(x)
            variables = tf.global_variables()
            grads = tf.gradients(tf.reduce_sum(y * y), [x] + variables[:3])
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                rng = np.random.RandomState(9)
                for v in variables:
                    sess.run(v.assign(rng.uniform(-0.5, 0.5, v.shape.as_list())
                                      .astype(np.float32)))
                y_val, y2_val, g = sess.run([y, y2, grads])
            out[key] = {"variables": [[v.name, v.shape.as_list()] for v in variables],
                        "y": y_val.tolist(), "y2": y2_val.tolist(),
                        "grads": [a.tolist() for a in g]}
    return out


if __name__ == "__main__":
    import tensorflow.compat.v1 as tf1

    tf1.disable_v2_behavior()
    print(json.dumps(program(tf1)))
