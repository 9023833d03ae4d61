"""Saves a subclassed Keras model and a tf.Module with ``tf.saved_model.save`` (no
``signatures=``: TensorFlow picks the model's default serving signature), loads both back and
prints what tutorials print: ``loaded.signatures``, a signature's input spec and its outputs
for a fixed input. Run on TensorFlow 2.21 it wrote tests/data/reprs/saved_signatures.txt, which
tests/test_function_reprs.py compares with this program's output under ``python -m flowgrad``.
Addresses are masked.

Run from the repository root:
    /work/venv-tf/bin/python tools/tf_reference/saved_signatures_repr.py \
        > tests/data/reprs/saved_signatures.txt
"""
import re
import tempfile

import numpy as np
import tensorflow as tf


class MyModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.conv = tf.keras.layers.Conv2D(3, 3, activation="relu")
        self.flatten = tf.keras.layers.Flatten()
        self.dense = tf.keras.layers.Dense(2)

    def call(self, x):
        return self.dense(self.flatten(self.conv(x)))


class Scale(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([1.5, -2.0], name="w")

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def __call__(self, x):
        return x * self.w


def show(obj, value, **kwargs):
    d = tempfile.mkdtemp()
    tf.saved_model.save(obj, d)
    loaded = tf.saved_model.load(d)
    print(re.sub(r"0x[0-9a-fA-F]+", "0xADDR", repr(loaded.signatures)))
    fn = loaded.signatures["serving_default"]
    print(fn.structured_input_signature)
    out = fn(**{k: tf.constant(v) for k, v in kwargs.items()})
    for k in sorted(out):
        print(k, np.round(out[k].numpy(), 4).tolist(), np.allclose(out[k], obj(value)))


model = MyModel()
x = np.linspace(-1.0, 1.0, 2 * 5 * 5 * 1, dtype=np.float32).reshape(2, 5, 5, 1)
model(x)
model.set_weights([np.linspace(-0.5, 0.5, w.size, dtype=np.float32).reshape(w.shape)
                   for w in model.get_weights()])
show(model, x, inputs=x)
xs = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
show(Scale(), xs, x=xs)
