"""The Keras models of the TensorFlow Lite tests, built by the same code on TensorFlow (the
recording script, tools/tf_reference/tflite_reference.py) and on flowgrad (test_tflite.py)."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

MODES = ("float", "dr", "f16", "int8", "int8_uint8", "int8_int8")
#: the models full integer quantization is checked on
INT8_MODELS = ("dense", "cnn", "mobile")


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


def modes_of(name: str) -> tuple:
    """The conversion modes a model is checked in."""
    return MODES if name in INT8_MODELS else MODES[:3]


def configure(tf: Any, conv: Any, mode: str, model: Any) -> None:
    """Sets ``conv`` up for ``mode``: float, dynamic range, float16 weights, or full integer
    quantization with float, uint8 or int8 inputs and outputs."""
    if mode == "float":
        return
    conv.optimizations = [tf.lite.Optimize.DEFAULT]
    if mode == "f16":
        conv.target_spec.supported_types = [tf.float16]
    if mode.startswith("int8"):
        conv.representative_dataset = representative(model)
    if mode in ("int8_uint8", "int8_int8"):
        io = tf.uint8 if mode == "int8_uint8" else tf.int8
        conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
        conv.inference_input_type = io
        conv.inference_output_type = io


def representative(model: Any) -> Callable:
    """50 samples of the model's inputs, from a fixed NumPy seed (float values)."""
    def gen() -> Iterator[list]:
        rs = np.random.RandomState(3)
        for _ in range(50):
            yield [rs.randint(0, 20, size=(1,) + tuple(t.shape[1:])).astype(np.float32)
                   if "int" in str(t.dtype) else rs.rand(1, *t.shape[1:]).astype(np.float32)
                   for t in model.inputs]
    return gen


def run(interpreter: Any, x: dict) -> tuple:
    """Runs the serving signature on ``x``; returns ({output: float value}, {name: dtype
    name} of the signature's inputs and outputs). Integer inputs are quantized and integer
    outputs dequantized with their tensors' parameters."""
    runner = interpreter.get_signature_runner()
    types = {}
    feed = {}
    for k, d in runner.get_input_details().items():
        types["in/" + k] = np.dtype(d["dtype"]).name
        v = x[k]
        scale, zp = d["quantization"]
        if d["dtype"] != np.float32 and scale:
            v = np.clip(np.round(v / scale + zp), np.iinfo(d["dtype"]).min,
                        np.iinfo(d["dtype"]).max)
        feed[k] = v.astype(d["dtype"])
    outs = {}
    details = runner.get_output_details()
    for k, v in runner(**feed).items():
        types["out/" + k] = np.dtype(details[k]["dtype"]).name
        scale, zp = details[k]["quantization"]
        outs[k] = (v.astype(np.float32) - zp) * scale if scale else v
    return outs, types
