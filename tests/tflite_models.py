"""The Keras models of the TensorFlow Lite tests, built by the same code on TensorFlow (the
recording script, tools/tf_reference/tflite_reference.py) and on flowgrad (test_tflite.py)."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

MODES = ("float", "dr", "f16")


def models(keras: Any) -> Iterator[tuple[str, Callable]]:
    """(name, builder) of each model: dense layers, CNNs, depthwise and transposed
    convolutions, batch and layer normalization, an embedding, GELU, several inputs and
    outputs."""
    L = keras.layers
    yield "dense", lambda: keras.Sequential([
        keras.Input((8,), name="x"), L.Dense(4, activation="relu"), L.Dense(3), L.Softmax()])
    yield "cnn", lambda: keras.Sequential([
        keras.Input((28, 28, 1), name="image"), L.Conv2D(8, 3, activation="relu"), L.MaxPooling2D(),
        L.Flatten(), L.Dense(64, activation="relu"), L.Dense(10)])
    yield "mobile", lambda: keras.Sequential([
        keras.Input((16, 16, 3), name="image"), L.Conv2D(8, 3, padding="same", strides=2),
        L.BatchNormalization(), L.ReLU(), L.DepthwiseConv2D(3, padding="same"),
        L.AveragePooling2D(2), L.Conv2D(4, 1, activation="relu6"), L.GlobalAveragePooling2D(),
        L.Dropout(0.5), L.Dense(3, activation="softmax")])

    def two_heads() -> Any:
        i = keras.Input((10,), name="features")
        a = L.Dense(6, activation="tanh")(i)
        b = L.Dense(6, activation="sigmoid")(i)
        c = L.Concatenate()([a, b])
        e = L.Multiply()([c[:, :6], L.Add()([a, b])])
        return keras.Model(i, {"score": L.Dense(2)(e), "probs": L.Softmax()(c)})
    yield "two_heads", two_heads

    def two_inputs() -> Any:
        a = keras.Input((3,), name="a")
        b = keras.Input((2,), name="b")
        return keras.Model([a, b], L.Dense(2)(L.Concatenate()([a, L.Dense(3)(b)])))
    yield "two_inputs", two_inputs
    yield "embedding", lambda: keras.Sequential([
        keras.Input((5,), dtype="int32", name="tokens"), L.Embedding(20, 4),
        L.GlobalAveragePooling1D(), L.Dense(2)])
    yield "upsample", lambda: keras.Sequential([
        keras.Input((8, 8, 2), name="image"), L.Conv2DTranspose(3, 3, strides=2, padding="same",
                                                  activation="relu"),
        L.UpSampling2D(), L.Conv2D(2, 3), L.LeakyReLU(0.1), L.Reshape((-1,)), L.Dense(2)])
    yield "gelu", lambda: keras.Sequential([
        keras.Input((6,), name="x"), L.LayerNormalization(), L.Dense(40, activation="elu"),
        L.Rescaling(0.5, 1.0), L.Dense(30, activation="gelu"),
        L.Dense(2, activation=lambda x: keras.activations.gelu(x, approximate=True))])


def input_for(name: str, model: Any) -> dict:
    """{signature input name: value}: batch 2, drawn from a fixed NumPy seed."""
    rs = np.random.RandomState(0)
    out = {}
    for t in model.inputs:
        shape = (2,) + tuple(t.shape[1:])
        key = t.name
        if "int" in str(t.dtype):
            out[key] = rs.randint(0, 20, size=shape).astype(np.int32)
        else:
            out[key] = rs.rand(*shape).astype(np.float32)
    return out
