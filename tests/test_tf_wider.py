"""SavedModels of the kinds other people's programs write, from real TensorFlow 2.21 and
Keras 3.15 (tests/data/tf_wider/, made by tools/tf_reference/make_wider_fixtures.py): Keras 3
``model.export`` of an image model (Conv2D, DepthwiseConv2D, SeparableConv2D,
BatchNormalization, Dropout, LayerNormalization, pooling) and of a sequence model (Embedding,
MultiHeadAttention, LSTM, bidirectional GRU), and a ``tf.Module`` with variables of every
dtype and three signatures. flowgrad loads each, reproduces TensorFlow's outputs, and
fine-tunes the loaded variables."""
import os

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.framework.context import state

DATA = os.path.join(os.path.dirname(__file__), "data", "tf_wider")
REF = np.load(os.path.join(DATA, "values.npz"), allow_pickle=True)


@pytest.fixture(autouse=True)
def eager():
    tf1.enable_v2_behavior()
    yield
    state.tapes.clear()


@pytest.mark.parametrize("name, inputs", [("keras_image", "image"),
                                          ("keras_sequence", "tokens")])
def test_keras_exports_reproduce_tensorflows_outputs_and_fine_tune(name, inputs):
    m = tf.saved_model.load(os.path.join(DATA, name))
    x = tf.constant(REF[inputs])
    np.testing.assert_allclose(m.serve(x).numpy(), REF[name], rtol=1e-5, atol=1e-6)
    sig = m.signatures["serving_default"]
    (out,) = sig(**{next(iter(sig.structured_input_signature[1])): x}).values()
    np.testing.assert_allclose(out.numpy(), REF[name], rtol=1e-5, atol=1e-6)
    trainable = [v for v in m.variables if v.trainable]
    assert trainable
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.square(m.serve(x)))
    grads = tape.gradient(loss, trainable)
    assert sum(g is not None for g in grads) == len(trainable)
    grads = [tf.convert_to_tensor(g) for g in grads]      # Embedding: IndexedSlices
    squared = sum(float(tf.reduce_sum(g * g)) for g in grads)
    step = 0.02 * float(loss) / squared         # a step the first-order model predicts
    for v, g in zip(trainable, grads):
        v.assign_sub(step * g)
    with tf.GradientTape() as tape:
        after = tf.reduce_sum(tf.square(m.serve(x)))
    np.testing.assert_allclose(float(after), 0.98 * float(loss), rtol=0.005)


def test_a_module_with_variables_of_every_dtype_and_three_signatures():
    m = tf.saved_model.load(os.path.join(DATA, "module_signatures"))
    assert sorted(m.signatures) == ["lookup", "predict", "summary"]
    out = m.signatures["predict"](x=tf.constant(REF["x"]))
    for k in ("y", "n"):
        np.testing.assert_allclose(out[k].numpy(), REF["predict_" + k], rtol=1e-6)
    out = m.signatures["lookup"](ids=tf.constant(REF["ids"]), tag=tf.constant(REF["tag"]))
    np.testing.assert_array_equal(out["joined"].numpy(), REF["lookup_joined"])
    assert int(out["total"]) == int(REF["lookup_total"])
    out = m.signatures["summary"]()
    for k, v in out.items():
        assert float(v) == float(REF["summary_" + k]), k
    dtypes_seen = {}
    for v in m.variables:
        name = v.name.split(":")[0]
        if name.startswith("v_") and name != "v_string":
            dtypes_seen[name[2:]] = v.dtype.name
            want = REF["var_" + name[2:]]
            np.testing.assert_array_equal(np.asarray(v.numpy(), want.dtype), want)
    assert dtypes_seen == {d: d for d in ("float16", "bfloat16", "float32", "float64", "int8",
                                          "int16", "int32", "int64", "uint8", "bool",
                                          "complex64")}
    np.testing.assert_allclose(m.predict(tf.constant(REF["x"]))["y"].numpy(),
                               REF["predict_y"], rtol=1e-6)


def test_reverse_is_written_as_tensorflows_reverse_v2():
    """flowgrad keeps ReverseV2's axis as an attribute; TensorFlow's takes it as an input
    (Keras's backward GRU reverses its sequence)."""
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [2, 3], name="x")
        tf.reverse(x, [1], name="rev")
        gd = g.as_graph_def()
    (node,) = [n for n in gd.node if n.name == "rev"]
    assert node.op == "ReverseV2" and len(node.input) == 2 and "axis" not in node.attr
    with tf.Graph().as_default():
        tf1.import_graph_def(gd, name="")
        with tf1.Session() as sess:
            got = sess.run("rev:0", {"x:0": np.arange(6.0).reshape(2, 3)})
    np.testing.assert_array_equal(got, np.arange(6.0).reshape(2, 3)[:, ::-1])
