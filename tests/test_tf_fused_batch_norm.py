"""TensorFlow's fused batch normalization imported (flowgrad.saved_model.batch_norm_import):
``FusedBatchNorm``/``V2``/``V3`` and ``FusedBatchNormGradV3`` nodes that TensorFlow 2.21 wrote
(tests/data/tf_fused_batch_norm/, made by tools/tf_reference/make_fused_batch_norm.py) give
TensorFlow's values; a TF1 training graph with them (tests/data/tf_training_meta/cnn_fused_bn)
resumes with TensorFlow's losses and its inference-mode output; the composites they import
as differentiate at orders 1 and 2 in graph and eager mode."""
import os

import numpy as np
import pytest

import flowgrad.compat.v1 as tf
from flowgrad.framework.context import state
from flowgrad.saved_model import tf_protos
from flowgrad.saved_model.graph_import import IMPORTERS
from gradcheck import check_gradients

DATA = os.path.join(os.path.dirname(__file__), "data", "tf_fused_batch_norm")
META = os.path.join(os.path.dirname(__file__), "data", "tf_training_meta")
REF = np.load(os.path.join(DATA, "values.npz"))


def _graph_def():
    gd = tf_protos.pb().graph_pb2.GraphDef()
    with open(os.path.join(DATA, "graph.pb"), "rb") as f:
        gd.ParseFromString(f.read())
    return gd


FETCHES = [k.replace("__", ":") for k in REF.files if not k.startswith("feed_")]


@pytest.mark.parametrize("fetch", FETCHES)
def test_tensorflows_fused_batch_norm_nodes_give_its_values(fetch):
    with tf.Graph().as_default() as g:
        tf.import_graph_def(_graph_def(), name="")
        feeds = {g.get_tensor_by_name(k[5:] + ":0"): REF[k] for k in REF.files
                 if k.startswith("feed_")}
        with tf.Session() as sess:
            got = sess.run(fetch, feeds)
    want = REF[fetch.replace(":", "__")]
    assert got.dtype == want.dtype and got.shape == want.shape
    tol = 2e-3 if want.dtype == np.float16 else 2e-5
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol, err_msg=fetch)


def test_a_tf1_training_graph_with_fused_batch_norm_resumes_with_tensorflows_numbers():
    ref = np.load(os.path.join(META, "cnn_fused_bn.npz"))
    with tf.Graph().as_default() as g:
        saver = tf.train.import_meta_graph(os.path.join(META, "cnn_fused_bn", "model.meta"))
        types = {op.type for op in g.get_operations()}
        assert not any(t.startswith("FusedBatchNorm") for t in types)    # the composites
        train_op = tf.get_collection("train_op")[-1]
        feed = {"x:0": ref["x"], "y:0": ref["y"]}
        with tf.Session() as sess:
            saver.restore(sess, os.path.join(META, "cnn_fused_bn", "model"))
            losses = [sess.run(["loss:0", train_op], feed)[0] for _ in range(len(ref["losses"]))]
            eval_out = sess.run("eval_out:0", {"x:0": ref["x"]})
    np.testing.assert_allclose(losses, ref["losses"], rtol=2e-6, atol=2e-6)
    np.testing.assert_allclose(eval_out, ref["eval_out"], rtol=1e-5, atol=1e-5)


def _bn(version, training, fmt, factor=1.0):
    attrs = {"epsilon": 1e-3, "is_training": training, "data_format": fmt,
             "exponential_avg_factor": factor}

    def fn(x, scale, offset, mean, variance):
        y, m, v = IMPORTERS[version]([x, scale, offset, mean, variance], attrs, "bn")[:3]
        w = tf.constant(np.linspace(-1.0, 2.0, 24).reshape(x.shape))
        return tf.reduce_sum(y * w) + tf.reduce_sum(m * [0.3, -0.2, 0.5]) + \
            tf.reduce_sum(v * [0.1, 0.4, -0.3])
    return fn


def _bn_grad(training, fmt):
    attrs = {"epsilon": 1e-3, "is_training": training, "data_format": fmt}

    def fn(dy, x, scale):
        mean = tf.constant([0.2, -0.1, 0.3], tf.float64)
        var = tf.constant([1.5, 0.7, 1.1], tf.float64)
        dx, ds, do = IMPORTERS["FusedBatchNormGradV3"]([dy, x, scale, mean, var, mean], attrs,
                                                       "g")[:3]
        w = tf.constant(np.linspace(-1.0, 2.0, 24).reshape(x.shape))
        return tf.reduce_sum(dx * w) + tf.reduce_sum(ds * [0.3, -0.2, 0.5]) + \
            tf.reduce_sum(do * [0.1, 0.4, -0.3])
    return fn


def _inputs(fmt):
    rng = np.random.default_rng(3)
    shape = (2, 2, 2, 3) if fmt == "NHWC" else (2, 3, 2, 2)
    return [rng.normal(size=shape), rng.uniform(0.5, 1.5, 3), rng.normal(size=3),
            rng.normal(size=3), rng.uniform(0.5, 2.0, 3)]


CASES = [("FusedBatchNormV3", True, "NHWC", 1.0), ("FusedBatchNormV3", True, "NCHW", 0.3),
         ("FusedBatchNorm", False, "NHWC", 1.0), ("FusedBatchNormV2", False, "NCHW", 1.0)]


@pytest.fixture(params=["graph", "eager"])
def mode(request):
    if request.param == "eager":
        tf.enable_v2_behavior()
        yield "eager"
        state.tapes.clear()
        tf.disable_v2_behavior()
    else:
        yield "graph"


@pytest.mark.parametrize("version, training, fmt, factor", CASES)
def test_fused_batch_norm_differentiates_at_orders_1_and_2(mode, version, training, fmt,
                                                            factor):
    check_gradients(_bn(version, training, fmt, factor), _inputs(fmt), order=2, mode=mode)


@pytest.mark.parametrize("training, fmt", [(True, "NHWC"), (True, "NCHW"), (False, "NHWC")])
def test_fused_batch_norm_grad_differentiates_at_orders_1_and_2(mode, training, fmt):
    rng = np.random.default_rng(4)
    x = _inputs(fmt)[0]
    check_gradients(_bn_grad(training, fmt), [rng.normal(size=x.shape), x,
                                              rng.uniform(0.5, 1.5, 3)], order=2, mode=mode)


def test_an_unknown_data_format_names_the_node():
    from flowgrad.framework import errors
    gd = _graph_def()
    for node in gd.node:
        if node.name == "infer":
            node.attr["data_format"].s = b"HWCN"
    with tf.Graph().as_default():
        with pytest.raises(errors.InvalidArgumentError, match="'infer'.*HWCN"):
            tf.import_graph_def(gd, name="")
