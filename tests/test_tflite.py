"""TensorFlow Lite: flowgrad's converter against TensorFlow 2.21's, and LiteRT running the
files of both (records: tools/tf_reference/tflite_reference.py, tests/data/tflite/)."""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ai_edge_litert")

import flowgrad as tf  # noqa: E402
import flowgrad.compat.v1 as tf1  # noqa: E402
from flowgrad.framework import errors  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "tflite"
RECORD = np.load(DATA / "outputs.npz")
TOLERANCE = {"float": 2e-6, "dr": 2e-4, "f16": 2e-4}
INT8_STEPS = 2          # int8 outputs: within two steps of the output's quantization
MODEL_NAMES = sorted({k.split("/")[0] for k in RECORD.files})


@pytest.fixture(scope="module")
def keras_run(tmp_path_factory):
    """The Keras conversions, made by flowgrad in a child process (Keras imports TF)."""
    if importlib.util.find_spec("keras") is None:
        pytest.skip("needs the keras extra: pip install flowgrad[keras]")
    out = tmp_path_factory.mktemp("tflite") / "flowgrad.npz"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests")]),
               KERAS_BACKEND="tensorflow")
    run = subprocess.run([sys.executable, "-m", "flowgrad",
                          str(ROOT / "tests" / "tflite_keras_program.py"), str(out)],
                         capture_output=True, text=True, env=env, timeout=900)
    assert run.returncode == 0, run.stderr[-4000:]
    return np.load(out)


@pytest.mark.parametrize("name", MODEL_NAMES)
def test_keras_models_convert_as_tensorflow(keras_run, name):
    """Float, dynamic-range and float16 conversions give TF 2.21's converted outputs, under
    the same signature names."""
    for k in RECORD.files:
        if k.startswith(name + "/input/"):
            np.testing.assert_array_equal(keras_run[k], RECORD[k])
    modes = sorted({k.split("/")[1] for k in RECORD.files if k.startswith(name + "/")}
                   - {"input"})
    for mode in modes:
        prefix = "%s/%s/" % (name, mode)
        want = {k[len(prefix):] for k in RECORD.files if k.startswith(prefix)}
        got = {k[len(prefix):] for k in keras_run.files if k.startswith(prefix)}
        assert got - {"size", "int8_shapes"} == want
        assert keras_run[prefix + "types"].tolist() == RECORD[prefix + "types"].tolist()
        for k in want - {"types"}:
            ref = RECORD[prefix + k]
            atol = TOLERANCE.get(mode) or INT8_STEPS * float(np.ptp(ref)) / 255 + 1e-6
            np.testing.assert_allclose(keras_run[prefix + k], ref, atol=atol,
                                       err_msg=prefix + k)


def test_dynamic_range_quantizes_large_weights_to_int8(keras_run):
    """Weights of 1024+ elements become int8, one scale per output channel, as TF's."""
    assert keras_run["cnn/dr/int8_shapes"].tolist() == [[64, 1352, 64]]
    assert keras_run["cnn/float/int8_shapes"].size == 0
    assert keras_run["cnn/dr/size"] < keras_run["cnn/float/size"] / 3
    assert keras_run["cnn/f16/size"] < keras_run["cnn/float/size"] * 0.6


def test_keras_errors_and_subclassed_models(keras_run):
    """int8 ops without a representative dataset, and a subclassed model never called, are
    TensorFlow's ValueErrors; a subclassed model converts once called."""
    assert str(keras_run["error/no_dataset"]) == (
        "ValueError: For full integer quantization, a `representative_dataset` must be "
        "specified.")
    assert str(keras_run["error/never_called"]) == (
        "ValueError: The model provided has never been called. It must be called at least "
        "once before export.")
    np.testing.assert_allclose(keras_run["subclassed/got"], keras_run["subclassed/want"],
                               rtol=1e-6)


def test_interpreter_runs_tensorflows_files():
    """The .tflite files TensorFlow 2.21 wrote run on flowgrad's tf.lite.Interpreter."""
    for name, mode, key in (("dense", "float", "x"), ("cnn", "dr", "image")):
        path = DATA / (name + (".tflite" if mode == "float" else "_dr.tflite"))
        it = tf.lite.Interpreter(model_path=str(path))
        inp = it.get_input_details()[0]
        x = RECORD["%s/input/%s" % (name, key)]
        it.resize_tensor_input(inp["index"], x.shape)
        it.allocate_tensors()
        it.set_tensor(inp["index"], x)
        it.invoke()
        got = it.get_tensor(it.get_output_details()[0]["index"])
        np.testing.assert_allclose(got, RECORD["%s/%s/output_0" % (name, mode)], atol=1e-6)


def _eager(fn):
    """Runs ``fn`` with TF2 behaviour (the suite starts each test in TF1 graph mode)."""
    tf1.enable_v2_behavior()
    try:
        return fn()
    finally:
        tf1.disable_v2_behavior()


def test_concrete_function_with_dict_outputs():
    """from_concrete_functions: the signature's names are the function's arguments and dict
    keys; the values are the function's."""
    def body():
        w = tf.Variable(np.arange(6, dtype=np.float32).reshape(3, 2))

        @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="inp")])
        def f(inp):
            y = tf.matmul(inp, w)
            return {"y": tf.nn.relu(y - 4.0), "total": tf.reduce_sum(y, axis=1, keepdims=True)}

        data = tf.lite.TFLiteConverter.from_concrete_functions(
            [f.get_concrete_function()], f).convert()
        runner = tf.lite.Interpreter(model_content=data).get_signature_runner()
        x = np.array([[1, 2, 3], [-1, 0, 2]], np.float32)
        outs = runner(inp=x)
        want = f(tf.constant(x))
        assert sorted(outs) == ["total", "y"]
        for k in outs:
            np.testing.assert_allclose(outs[k], want[k].numpy(), rtol=1e-6)
    _eager(body)


def test_saved_model_converts(tmp_path):
    """from_saved_model of a SavedModel flowgrad wrote converts its serving signature."""
    def body():
        module = tf.Module()
        module.w = tf.Variable(np.linspace(-1, 1, 8, dtype=np.float32).reshape(4, 2))
        module.serve = tf.function(
            lambda x: {"probs": tf.nn.softmax(tf.matmul(x, module.w))},
            input_signature=[tf.TensorSpec([None, 4], tf.float32, name="x")])
        tf.saved_model.save(module, str(tmp_path / "sm"),
                            signatures={"serving_default": module.serve})
        data = tf.lite.TFLiteConverter.from_saved_model(str(tmp_path / "sm")).convert()
        runner = tf.lite.Interpreter(model_content=data).get_signature_runner()
        x = np.random.RandomState(1).rand(3, 4).astype(np.float32)
        np.testing.assert_allclose(runner(x=x)["probs"],
                                   module.serve(tf.constant(x))["probs"].numpy(), atol=1e-6)
    _eager(body)


def test_tf1_session_and_frozen_graph():
    """The TF1 converter: a frozen GraphDef TensorFlow wrote, and a Session's graph."""
    rec = np.load(DATA / "frozen_mlp.npz")
    conv = tf1.lite.TFLiteConverter.from_frozen_graph(str(DATA / "frozen_mlp.pb"),
                                                      ["x"], ["probs"], {"x": [3, 4]})
    it = tf.lite.Interpreter(model_content=conv.convert())
    it.allocate_tensors()
    it.set_tensor(it.get_input_details()[0]["index"], rec["x"])
    it.invoke()
    got = it.get_tensor(it.get_output_details()[0]["index"])
    np.testing.assert_allclose(got, rec["tflite"], atol=1e-6)
    np.testing.assert_allclose(got, rec["probs"], atol=1e-6)
    g = tf1.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [None, 4], name="x")
        w = tf1.Variable(np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3))
        y = tf.nn.sigmoid(tf.matmul(x, w), name="y")
        with tf1.Session(graph=g) as sess:
            sess.run(tf1.global_variables_initializer())
            data = tf1.lite.TFLiteConverter.from_session(sess, [x], [y]).convert()
            want = sess.run(y, {x: rec["x"]})
    it = tf.lite.Interpreter(model_content=data)
    it.resize_tensor_input(it.get_input_details()[0]["index"], [3, 4])
    it.allocate_tensors()
    it.set_tensor(it.get_input_details()[0]["index"], rec["x"])
    it.invoke()
    np.testing.assert_allclose(it.get_tensor(it.get_output_details()[0]["index"]), want,
                               rtol=1e-6)


def test_errors_name_the_op_and_the_file():
    """An op without a TensorFlow Lite lowering names the op and the function; missing
    files and arguments are TensorFlow's errors."""
    def body():
        @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
        def f(x):
            return tf.math.lgamma(x)

        with pytest.raises(errors.UnimplementedError, match="Lgamma.* in function"):
            tf.lite.TFLiteConverter.from_concrete_functions(
                [f.get_concrete_function()]).convert()
    _eager(body)
    with pytest.raises(ValueError, match="Could not open '/nonexistent/model.tflite'"):
        tf.lite.Interpreter(model_path="/nonexistent/model.tflite")
    with pytest.raises(ValueError, match="must be specified"):
        tf.lite.Interpreter()
    with pytest.raises(OSError, match="SavedModel file does not exist"):
        tf.lite.TFLiteConverter.from_saved_model("/nonexistent/dir")
    with pytest.raises(OSError, match="does not exist"):
        tf1.lite.TFLiteConverter.from_frozen_graph("/nonexistent.pb", ["x"], ["y"])
