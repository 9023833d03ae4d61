"""Records what ``tf.compat.v1.keras.utils.track_tf1_style_variables`` (Keras 2; the modeling
shim of TF's migration guides) gives, for tests/test_track_tf1_style_variables.py: a Keras
layer whose ``call`` makes variables with ``tf.compat.v1.get_variable`` (one regularized)
and a ``tf.compat.v1.layers.dense``, called twice (no new variables), its output, weights,
regularization loss and gradients; and a ``tf.Module`` with the shim.

``program(tf, track)`` takes the TF2 face and the decorator. Run from the repository root
with TensorFlow 2.21's legacy Keras (tf_keras 2.21, which has the shim):

    PYTHONPATH=/tmp/tfk_site TF_USE_LEGACY_KERAS=1 /work/venv-tf/bin/python \
        tools/tf_reference/track_tf1_style_variables.py \
        > tests/data/track_tf1_style_variables/tf_keras_2_21.json
"""
import json

import numpy as np


def program(tf, track):
    """Plain values the shim gives."""
    v1 = tf.compat.v1

    class DenseLayer(tf.keras.layers.Layer):
        def __init__(self, units, **kwargs):
            super().__init__(**kwargs)
            self.units = units

        @track
        def call(self, inputs):
            with v1.variable_scope("dense"):
                kernel = v1.get_variable(
                    "kernel", [inputs.shape[-1], self.units],
                    initializer=v1.constant_initializer(np.linspace(-1.0, 1.0, 12)),
                    regularizer=lambda w: 0.1 * tf.reduce_sum(tf.square(w)))
                bias = v1.get_variable("bias", [self.units], initializer=v1.zeros_initializer())
                out = tf.nn.relu(tf.matmul(inputs, kernel) + bias)
            return v1.layers.dense(out, 2, kernel_initializer=v1.constant_initializer(0.5),
                                   name="head")

    layer = DenseLayer(3)
    x = tf.constant(np.arange(8.0, dtype=np.float32).reshape(2, 4) / 8.0)
    first = layer(x)
    with tf.GradientTape() as tape:
        second = layer(x)
        total = tf.reduce_sum(second * [[1.0, 2.0], [3.0, 4.0]]) + tf.add_n(layer.losses)
    grads = tape.gradient(total, layer.trainable_weights)
    out = {"layer": np.asarray(second).round(5).tolist(),
           "same twice": bool(np.array_equal(first, second)),
           "weights": sorted(list(w.shape) for w in layer.weights),
           "trainable": len(layer.trainable_weights),
           "losses": [round(float(v), 5) for v in layer.losses],
           "gradients": sorted(np.asarray(g).round(5).ravel().tolist() for g in grads)}

    class Scale(tf.Module):
        @track
        def __call__(self, inputs):
            w = v1.get_variable("w", [2, 1], initializer=v1.constant_initializer(2.0))
            return tf.matmul(inputs, w)

    module = Scale()
    module(tf.ones((1, 2)))
    out["module"] = np.asarray(module(tf.ones((1, 2)))).tolist()
    out["module variables"] = [list(v.shape) for v in module.trainable_variables]
    return out


if __name__ == "__main__":
    import tensorflow as tf

    print(json.dumps(program(tf, tf.compat.v1.keras.utils.track_tf1_style_variables),
                     indent=1, sort_keys=True))
