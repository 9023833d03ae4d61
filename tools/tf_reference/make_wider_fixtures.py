"""Writes SavedModels of the kinds other people's programs write, with real TensorFlow 2.21
and Keras 3.15 (tests/data/tf_wider/; run with the TensorFlow venv:
/work/venv-tf/bin/python tools/tf_reference/make_wider_fixtures.py):

- ``keras_image/``: Keras 3 ``model.export`` of a functional image model: Conv2D,
  DepthwiseConv2D, SeparableConv2D, BatchNormalization (trained a step, so its moving
  statistics moved), Dropout, LayerNormalization, pooling and Dense;
- ``keras_sequence/``: Keras 3 ``model.export`` of a sequence model: Embedding,
  MultiHeadAttention, LSTM, GRU (bidirectional), LayerNormalization and Dense;
- ``module_signatures/``: ``tf.saved_model.save`` of a ``tf.Module`` holding variables of
  every dtype TensorFlow checkpoints (float16, bfloat16, float32, float64, int8, int16, int32,
  int64, uint8, bool, string, complex64) and three signatures of different inputs (a
  float batch, an int64 id vector with a string tag, no input);
- ``values.npz``: the inputs fed and what TensorFlow returned."""
import os
import shutil

import numpy as np
import tensorflow as tf
import keras

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "data",
                   "tf_wider")


def image_model():
    keras.utils.set_random_seed(11)
    inp = keras.Input((8, 8, 3), name="image")
    h = keras.layers.Conv2D(4, 3, padding="same", activation="relu")(inp)
    h = keras.layers.DepthwiseConv2D(3, padding="same")(h)
    h = keras.layers.BatchNormalization()(h)
    h = keras.layers.SeparableConv2D(6, 3, strides=2, activation="relu")(h)
    h = keras.layers.Dropout(0.3)(h)
    h = keras.layers.LayerNormalization()(h)
    h = keras.layers.GlobalAveragePooling2D()(h)
    out = keras.layers.Dense(3, activation="softmax")(h)
    model = keras.Model(inp, out)
    model.compile("adam", "sparse_categorical_crossentropy")
    rng = np.random.default_rng(1)
    model.fit(rng.normal(size=(16, 8, 8, 3)).astype("float32"), rng.integers(0, 3, 16),
              epochs=1, batch_size=8, verbose=0)
    return model


def sequence_model():
    keras.utils.set_random_seed(12)
    inp = keras.Input((7,), dtype="int32", name="tokens")
    h = keras.layers.Embedding(20, 8)(inp)
    h = keras.layers.MultiHeadAttention(num_heads=2, key_dim=4)(h, h)
    h = keras.layers.LayerNormalization()(h)
    h = keras.layers.LSTM(6, return_sequences=True)(h)
    h = keras.layers.Bidirectional(keras.layers.GRU(5))(h)
    out = keras.layers.Dense(2)(h)
    return keras.Model(inp, out)


DTYPES = ["float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64",
          "uint8", "bool", "complex64"]


class Module(tf.Module):
    def __init__(self):
        super().__init__()
        self.vars = {d: tf.Variable(tf.cast(tf.range(1, 4), d) if d != "bool"
                                    else tf.constant([True, False, True]), name="v_" + d)
                     for d in DTYPES}
        self.text = tf.Variable(tf.constant(["a", "bc", ""]), name="v_string")
        self.w = tf.Variable(tf.reshape(tf.range(6, dtype=tf.float32) / 5.0, [3, 2]))

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x")])
    def predict(self, x):
        return {"y": tf.matmul(x, self.w) + tf.cast(self.vars["float16"][:2], tf.float32),
                "n": tf.shape(x)[0]}

    @tf.function(input_signature=[tf.TensorSpec([None], tf.int64, name="ids"),
                                  tf.TensorSpec([], tf.string, name="tag")])
    def lookup(self, ids, tag):
        picked = tf.gather(self.text, ids)
        return {"joined": tf.strings.join([picked, tf.fill(tf.shape(picked), tag)], "-"),
                "total": tf.reduce_sum(tf.gather(self.vars["int64"], ids))}

    @tf.function(input_signature=[])
    def summary(self):
        return {d: tf.reduce_sum(tf.cast(v, tf.float64) if d not in ("bool", "complex64")
                                 else tf.cast(tf.cast(v, tf.int32) if d == "bool"
                                              else tf.math.real(v), tf.float64))
                for d, v in self.vars.items()}


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    rng = np.random.default_rng(2)
    image = rng.normal(size=(2, 8, 8, 3)).astype("float32")
    tokens = rng.integers(0, 20, (2, 7)).astype("int32")
    values = {"image": image, "tokens": tokens}
    for name, model, x in (("keras_image", image_model(), image),
                           ("keras_sequence", sequence_model(), tokens)):
        model.export(os.path.join(OUT, name), verbose=False)
        values[name] = model(x, training=False).numpy()
    m = Module()
    tf.saved_model.save(m, os.path.join(OUT, "module_signatures"),
                        signatures={"predict": m.predict, "lookup": m.lookup,
                                    "summary": m.summary})
    x = rng.normal(size=(2, 3)).astype("float32")
    ids = np.array([2, 0, 2], np.int64)
    values.update(x=x, ids=ids, tag=np.array(b"t", dtype=object),
                  **{"predict_" + k: v.numpy() for k, v in m.predict(x).items()},
                  **{"lookup_" + k: v.numpy() for k, v in m.lookup(ids, b"t").items()},
                  **{"summary_" + k: v.numpy() for k, v in m.summary().items()},
                  **{"var_" + d: (v.numpy().astype(np.float32) if d == "bfloat16" else v.numpy())
                     for d, v in m.vars.items()})
    np.savez(os.path.join(OUT, "values.npz"), **values)


if __name__ == "__main__":
    main()
