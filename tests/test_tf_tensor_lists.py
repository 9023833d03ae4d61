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


def _loops(x, w):
    scan = tf.scan(lambda a, row: a * tf.tanh(row) + 1.0, x, initializer=tf.ones_like(x[0]))
    mapped = tf.map_fn(lambda row: tf.reduce_sum(row * row * w[0]), x)
    pair = tf.scan(lambda acc, row: (acc[0] + row, acc[1] * 0.5 + tf.reduce_sum(row)), x,
                   initializer=(tf.zeros_like(x[0]), tf.constant(0.0)))
    return [tf.identity(scan, name="scan_out"), tf.identity(mapped, name="map_out"),
            tf.identity(pair[0] + pair[1][:, None], name="pair_out")]


def test_scan_and_map_fn_export_as_tensorflows_tensor_lists():
    """flowgrad's sliced/stacked loops go as TF's TensorList ops (TensorFlow 2.21 runs the
    result in the CI's interop job); flowgrad reads them back with the same values."""
    ref = np.load(os.path.join(DATA, "loops_graph.npz"))
    x = tf1.placeholder(tf.float32, [None, 3], name="x")
    outs = _loops(x, tf.constant([0.5, 2.0]))
    with tf1.Session() as sess:
        want = sess.run(outs, {x: ref["x"]})
    for name, value in zip(["scan_out", "map_out", "pair_out"], want):   # TF's numbers
        np.testing.assert_allclose(value, ref[name], rtol=1e-6, atol=1e-6)
    gd = tf1.get_default_graph().as_graph_def()
    ops = {n.op for f in gd.library.function for n in f.node_def} | {n.op for n in gd.node}
    assert {"TensorListFromTensor", "TensorListGetItem", "EmptyTensorList",
            "TensorListPushBack", "TensorListStack", "TensorListLength"} <= ops
    from test_tf_training_meta import _check_against_op_defs
    _check_against_op_defs(gd)
    for f in gd.library.function:
        _check_against_op_defs(tf_protos.pb().graph_pb2.GraphDef(node=f.node_def))
    with tf.Graph().as_default():
        back = tf1.import_graph_def(gd, return_elements=[t.name for t in outs], name="")
        with tf1.Session() as sess:
            got = sess.run(back, {"x:0": ref["x"]})
    for w, g in zip(want, got):
        np.testing.assert_allclose(g, w, rtol=1e-6)
