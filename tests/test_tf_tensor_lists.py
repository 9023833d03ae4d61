"""Loops TensorFlow 2.21 stores with TensorLists (tf.scan, tf.map_fn, a TensorArray in a
while_loop, Keras RNN layers; tests/data/tf_tensor_lists/, made by
tools/tf_reference/make_tensor_lists.py) load into flowgrad, reproduce TensorFlow's outputs
and differentiate; flowgrad's own such loops export as TensorFlow's TensorList ops."""
import os

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.saved_model import tf_protos

DATA = os.path.join(os.path.dirname(__file__), "data", "tf_tensor_lists")
NAMES = ["scan_out", "map_out", "ta_out", "pair_out"]


@pytest.fixture
def eager():
    tf1.enable_v2_behavior()
    yield


def _graph_def(name):
    return tf_protos.read_message(tf_protos.pb().graph_pb2.GraphDef(), os.path.join(DATA, name))


def test_tensorflows_tensor_list_loops_import_and_match():
    ref = np.load(os.path.join(DATA, "loops_graph.npz"))
    gd = _graph_def("loops_graph.pb")
    ops = {n.op for f in gd.library.function for n in f.node_def} | {n.op for n in gd.node}
    assert {"TensorListReserve", "TensorListSetItem", "TensorListGetItem",
            "TensorListFromTensor", "TensorListStack"} <= ops
    outs = tf1.import_graph_def(gd, return_elements=[n + ":0" for n in NAMES], name="")
    with tf1.Session() as sess:
        got = sess.run(outs, {"x:0": ref["x"]})
    for name, value in zip(NAMES, got):
        np.testing.assert_allclose(value, ref[name], rtol=1e-6, atol=1e-6, err_msg=name)


def test_tensorflows_saved_model_with_tensor_lists_runs_and_differentiates(eager):
    ref = np.load(os.path.join(DATA, "loops_saved_model.npz"))
    m = tf.saved_model.load(os.path.join(DATA, "loops_saved_model"))
    with tf.GradientTape() as tape:
        res = m(tf.constant(ref["x"]))
        total = tf.add_n([tf.reduce_sum(v) for v in res.values()])
    for name in NAMES:
        np.testing.assert_allclose(res[name].numpy(), ref[name], rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(tape.gradient(total, m.w).numpy(), ref["grad_w"], rtol=1e-5)
    sig = m.signatures["serving_default"](x=tf.constant(ref["x"]))
    np.testing.assert_allclose(sig["scan_out"].numpy(), ref["scan_out"], rtol=1e-6)


def test_tensorflows_keras_rnn_saved_model_predicts_the_same(eager):
    ref = np.load(os.path.join(DATA, "rnn.npz"))
    m = tf.saved_model.load(os.path.join(DATA, "rnn_saved_model"))
    out = m.signatures["serving_default"](inputs=tf.constant(ref["x"]))["output_0"]
    np.testing.assert_allclose(out.numpy(), ref["y"], rtol=1e-5, atol=1e-6)
