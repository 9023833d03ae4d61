"""Converts the Keras models of tests/tflite_models.py with flowgrad and runs the files on
LiteRT: ``python -m flowgrad tests/tflite_keras_program.py OUT.npz`` (tests/test_tflite.py
runs it in a child process, since Keras imports ``tensorflow``)."""
from __future__ import annotations

import sys

import keras
import numpy as np
import tensorflow as tf
from tflite_models import configure, input_for, models, modes_of, run


def convert(model, mode: str) -> bytes:
    conv = tf.lite.TFLiteConverter.from_keras_model(model)
    configure(tf, conv, mode, model)
    return conv.convert()


def main(out: str) -> None:
    record = {}
    for name, make in models(keras):
        keras.utils.set_random_seed(1)
        model = make()
        x = input_for(name, model)
        for k, v in x.items():
            record["%s/input/%s" % (name, k)] = v
        for mode in modes_of(name):
            data = convert(model, mode)
            record["%s/%s/size" % (name, mode)] = np.int64(len(data))
            it = tf.lite.Interpreter(model_content=data)
            int8 = [d for d in it.get_tensor_details() if d["dtype"] == np.int8
                    and mode in ("float", "dr")]
            record["%s/%s/int8_shapes" % (name, mode)] = np.array(
                [list(d["shape"]) + [len(d["quantization_parameters"]["scales"])]
                 for d in int8], np.int64).reshape(-1, 3)
            outs, types = run(it, x)
            for k, v in outs.items():
                record["%s/%s/%s" % (name, mode, k)] = v
            record["%s/%s/types" % (name, mode)] = np.array(sorted("%s=%s" % kv for kv in
                                                                   types.items()))
    keras.utils.set_random_seed(1)
    conv = tf.lite.TFLiteConverter.from_keras_model(dict(models(keras))["dense"]())
    conv.optimizations = [tf.lite.Optimize.DEFAULT]
    conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
    record["error/no_dataset"] = np.array(_error(conv.convert))

    class Subclassed(keras.Model):
        def __init__(self):
            super().__init__()
            self.d = keras.layers.Dense(2)

        def call(self, x):
            return self.d(x)
    never_called = Subclassed()
    record["error/never_called"] = np.array(_error(
        tf.lite.TFLiteConverter.from_keras_model(never_called).convert))
    called = Subclassed()
    called(np.ones([1, 3], np.float32))
    runner = tf.lite.Interpreter(model_content=tf.lite.TFLiteConverter.from_keras_model(
        called).convert()).get_signature_runner()
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    record["subclassed/got"] = list(runner(**{runner.get_input_details().popitem()[0]: x})
                                    .values())[0]
    record["subclassed/want"] = np.asarray(called(x))
    np.savez(out, **record)


def _error(fn) -> str:
    try:
        fn()
    except Exception as e:          # noqa: BLE001 - the test checks the class and message
        return "%s: %s" % (type(e).__name__, e)
    return "no error"


if __name__ == "__main__":
    main(sys.argv[1])
