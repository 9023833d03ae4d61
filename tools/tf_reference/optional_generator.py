"""Prints what ``tf.data.Dataset.from_generator`` gives for an ``output_signature`` with a
``tf.OptionalSpec`` (Keras 3's generator adapter gives a missing optional model input, a
``None``, the spec ``tf.OptionalSpec(None)`` and yields ``tf.experimental.Optional.empty``)
or a ``tf.SparseTensorSpec``, the specs' reprs, and a Keras 3 functional model with an
optional input trained on such a generator. Run on TensorFlow 2.21 it wrote
tests/data/keras_suite/optional_generator.txt, which tests/test_optional_generator.py
compares with this program's output under ``python -m flowgrad``.

Run from the repository root:
    /work/venv-tf/bin/python tools/tf_reference/optional_generator.py \
        > tests/data/keras_suite/optional_generator.txt
"""
import os

os.environ.setdefault("KERAS_BACKEND", "tensorflow")

import keras  # noqa: E402
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402


def empty_optionals():
    for i in range(3):
        yield ({"x": np.full((2,), i, np.float32), "o": tf.experimental.Optional.empty(None)},
               np.float32(i))


ds = tf.data.Dataset.from_generator(empty_optionals, output_signature=(
    {"x": tf.TensorSpec((2,), tf.float32), "o": tf.OptionalSpec(None)},
    tf.TensorSpec((), tf.float32)))
print(ds.element_spec)
for x, y in ds:
    print(bool(x["o"].has_value()), x["x"].numpy(), y.numpy())
print(tf.OptionalSpec(None), tf.OptionalSpec(tf.TensorSpec([2], tf.int32)))


def full_optionals():
    for i in range(2):
        yield tf.experimental.Optional.from_value(tf.constant([i, i + 1]))


for o in tf.data.Dataset.from_generator(
        full_optionals, output_signature=tf.OptionalSpec(tf.TensorSpec([2], tf.int32))):
    print(bool(o.has_value()), o.get_value().numpy())


def sparse():
    yield tf.sparse.SparseTensor([[0, 1]], [3.0], [2, 3])


for s in tf.data.Dataset.from_generator(
        sparse, output_signature=tf.SparseTensorSpec([2, 3], tf.float32)):
    print(type(s).__name__, tf.sparse.to_dense(s).numpy().tolist())


@tf.function
def has_value(o):
    return o.has_value()


print(has_value(tf.experimental.Optional.empty(None)).numpy())


class OptionalInputLayer(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.dense = keras.layers.Dense(2, kernel_initializer="ones")

    def call(self, x, o=None):
        return self.dense(x if o is None else x + o)


for optional in (None, np.ones((2, 2))):
    x = keras.Input((2,), name="x")
    o = keras.Input((2,), name="o", optional=True)
    model = keras.Model({"x": x, "o": o}, OptionalInputLayer()(x, o))
    model.compile(loss="mse", optimizer="sgd")

    def batches(with_y=True, optional=optional):
        for i in range(4):
            yield ({"x": np.full((2, 2), i / 4), "o": optional},) + (
                (np.ones((2, 2)),) if with_y else ())

    history = model.fit(batches(), verbose=0)
    print("fit", np.round(history.history["loss"], 5).tolist())
    print("evaluate", round(model.evaluate(batches(), verbose=0), 5))
    print("predict", np.round(model.predict(batches(False), verbose=0), 5).tolist())
