"""TensorFlow Lite files between TensorFlow 2.21 and flowgrad.

    /work/venv-tf/bin/python tools/tf_reference/tflite_reference.py record
        # TensorFlow's conversions, recorded for tests/test_tflite.py (below)
    python -m flowgrad tools/tf_reference/tflite_reference.py write DIR
        # flowgrad converts the same models (every mode) and saves the .tflite files with
        # the outputs LiteRT computes from them (DIR/outputs.npz)
    /work/venv-tf/bin/python tools/tf_reference/tflite_reference.py check DIR
        # TensorFlow's own tf.lite.Interpreter runs flowgrad's files and fails unless it
        # computes the same outputs (the CI's interop job)

For each model of :func:`models` (the same code runs on flowgrad in the test), seeded with
``keras.utils.set_random_seed(1)``, it converts with ``tf.lite.TFLiteConverter`` as a float
model, with dynamic-range quantization (``Optimize.DEFAULT``) and with float16 weights,
runs each file on ``tf.lite.Interpreter`` with a fixed input and saves the outputs (by
signature output name) in ``tests/data/tflite/outputs.npz``. Two of TensorFlow's files
(``dense.tflite``, ``cnn_dr.tflite``) are kept for the test that flowgrad's interpreter
runs TensorFlow's files, and a TF1 frozen graph (``frozen_mlp.pb``) with its outputs for
``from_frozen_graph``."""
from __future__ import annotations

import os
import sys

import numpy as np

os.environ["KERAS_BACKEND"] = "tensorflow"
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "tests", "data", "tflite")
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests"))


def main(argv: list) -> None:
    mode = argv[1] if len(argv) > 1 else "record"
    if mode == "record":
        record(OUT, keep_files=(("dense", "float"), ("cnn", "dr")))
        import tensorflow as tf
        _frozen_graph(tf)
    elif mode == "write":
        record(argv[2], keep_files=None)
    elif mode == "check":
        check(argv[2])
    else:
        raise SystemExit("usage: tflite_reference.py record | write DIR | check DIR")


def check(directory: str) -> None:
    """Runs every ``.tflite`` file of ``directory`` on ``tf.lite.Interpreter``."""
    import tensorflow as tf
    from tflite_models import MODES, run
    want = np.load(os.path.join(directory, "outputs.npz"))
    names = sorted(f[:-7] for f in os.listdir(directory) if f.endswith(".tflite"))
    for name in names:
        mode = next(m for m in sorted(MODES, key=len, reverse=True)
                    if name.endswith("_" + m))
        model = name[:-len(mode) - 1]
        with open(os.path.join(directory, name + ".tflite"), "rb") as f:
            interpreter = tf.lite.Interpreter(model_content=f.read())
        keys = interpreter.get_signature_runner().get_input_details()
        outs, _ = run(interpreter, {k: want["%s/input/%s" % (model, k)] for k in keys})
        for key, value in outs.items():
            np.testing.assert_allclose(value, want["%s/%s/%s" % (model, mode, key)],
                                       atol=1e-5, err_msg=name + " " + key)
    print("TensorFlow ran flowgrad's %d .tflite files with the same outputs" % len(names))


def record(directory: str, keep_files: tuple | None) -> None:
    """Converts each model in each mode; saves the outputs (and the files: all of them, or
    the ``(model, mode)`` pairs of ``keep_files``) in ``directory``."""
    import tensorflow as tf
    import keras
    from tflite_models import configure, input_for, models, modes_of, run
    os.makedirs(directory, exist_ok=True)
    record = {}
    for name, make in models(keras):
        keras.utils.set_random_seed(1)
        model = make()
        x = input_for(name, model)
        for mode in modes_of(name):
            conv = tf.lite.TFLiteConverter.from_keras_model(model)
            configure(tf, conv, mode, model)
            data = conv.convert()
            outs, types = run(tf.lite.Interpreter(model_content=data), x)
            for out_name, value in outs.items():
                record["%s/%s/%s" % (name, mode, out_name)] = value
            record["%s/%s/types" % (name, mode)] = np.array(sorted("%s=%s" % kv for kv in
                                                                   types.items()))
            if keep_files is None:
                path = "%s_%s.tflite" % (name, mode)
            elif (name, mode) in keep_files:
                path = "%s.tflite" % (name if mode == "float" else name + "_" + mode)
            else:
                continue
            with open(os.path.join(directory, path), "wb") as f:
                f.write(data)
        for k, v in x.items():
            record["%s/input/%s" % (name, k)] = v
    np.savez(os.path.join(directory, "outputs.npz"), **record)


def _frozen_graph(tf) -> None:
    """A TF1 MLP frozen with convert_variables_to_constants: the "frozen .pb" users have."""
    v1 = tf.compat.v1
    g = tf.Graph()
    with g.as_default():
        v1.set_random_seed(3)
        x = v1.placeholder(tf.float32, [None, 4], name="x")
        w1 = v1.get_variable("h/kernel", [4, 5])
        b1 = v1.get_variable("h/bias", [5], initializer=v1.constant_initializer(0.1))
        w2 = v1.get_variable("logits/kernel", [5, 3])
        h = tf.nn.relu(tf.nn.bias_add(tf.matmul(x, w1), b1))
        y = tf.nn.softmax(tf.matmul(h, w2), name="probs")
        with v1.Session(graph=g) as sess:
            sess.run(v1.global_variables_initializer())
            frozen = v1.graph_util.convert_variables_to_constants(sess, g.as_graph_def(),
                                                                  ["probs"])
            xv = np.random.RandomState(5).rand(3, 4).astype(np.float32)
            yv = sess.run(y, {x: xv})
    with open(os.path.join(OUT, "frozen_mlp.pb"), "wb") as f:
        f.write(frozen.SerializeToString())
    conv = v1.lite.TFLiteConverter.from_frozen_graph(os.path.join(OUT, "frozen_mlp.pb"),
                                                     ["x"], ["probs"], {"x": [3, 4]})
    it = tf.lite.Interpreter(model_content=conv.convert())
    it.allocate_tensors()
    it.set_tensor(it.get_input_details()[0]["index"], xv)
    it.invoke()
    np.savez(os.path.join(OUT, "frozen_mlp.npz"), x=xv, probs=yv,
             tflite=it.get_tensor(it.get_output_details()[0]["index"]))


if __name__ == "__main__":
    main(sys.argv)
