"""Control flow in TensorFlow's files: graphs and SavedModels holding TensorFlow 2's
functional If/While (tests/data/tf_control_flow/, written by TensorFlow 2.21 with
tools/tf_reference/make_control_flow.py) load into flowgrad and reproduce TensorFlow's
outputs and gradients; flowgrad's ``tf.cond``/``tf.while_loop`` export as TensorFlow's
If/While with a FunctionDefLibrary (TensorFlow 2.21 running them is checked by
tools/tf_reference/graphdef_interop.py in the CI's interop job)."""
import os
import warnings

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.framework.context import state
from flowgrad.saved_model import tf_protos

DATA = os.path.join(os.path.dirname(__file__), "data", "tf_control_flow")
FETCHES = ["cond_out:0", "loop_out:0", "count_out:0", "nested_out:0"]


def _graph_def(name):
    return tf_protos.read_message(tf_protos.pb().graph_pb2.GraphDef(), os.path.join(DATA, name))


@pytest.mark.parametrize("tag", ["pos", "neg"])
def test_tf_graph_with_if_and_while_reproduces_tensorflows_outputs(tag):
    ref = np.load(os.path.join(DATA, "cf_graph.npz"))
    gd = _graph_def("cf_graph.pb")
    assert {"StatelessIf", "StatelessWhile"} <= {n.op for n in gd.node}
    tf1.import_graph_def(gd, name="")
    with tf1.Session() as sess:
        got = sess.run(FETCHES, {"x:0": ref["in_" + tag]})
    for key, value in zip(["cond", "loop", "count", "nested"], got):
        np.testing.assert_allclose(value, ref["out_%s_%s" % (tag, key)], rtol=1e-6)


@pytest.mark.parametrize("tag", ["pos", "neg"])
def test_tf1_control_flow_v1_graph_gives_tensorflows_outputs(tag):
    """A TF1 graph with control flow v1 (Switch/Merge, Enter/Exit/NextIteration) imports as
    If/While ops and gives TensorFlow's output on either branch."""
    ref = np.load(os.path.join(DATA, "v1_cond_graph.npz"))
    with tf.Graph().as_default():
        tf1.import_graph_def(_graph_def("v1_cond_graph.pb"), name="")
        with tf1.Session() as sess:
            out = sess.run("out:0", {"x:0": ref["in_" + tag]})
    np.testing.assert_allclose(out, ref["out_" + tag], rtol=1e-6)


@pytest.fixture
def eager():
    tf1.enable_v2_behavior()
    yield
    state.tapes.clear()


@pytest.mark.parametrize("tag", ["pos", "neg"])
def test_tf_saved_model_with_cond_and_while_loop(eager, tag):
    ref = np.load(os.path.join(DATA, "cf_saved_model.npz"))
    m = tf.saved_model.load(os.path.join(DATA, "cf_saved_model"))
    np.testing.assert_allclose(m.w.numpy(), ref["w"])
    x = tf.constant(ref["in_" + tag])
    with tf.GradientTape() as tape:
        y = m(x)
        total = tf.reduce_sum(tf.square(y))
    gw, gs = tape.gradient(total, [m.w, m.scale])
    np.testing.assert_allclose(y.numpy(), ref["out_" + tag], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(gw.numpy(), ref["grad_w_" + tag], rtol=1e-4, atol=1e-5)
    if tag == "pos":        # the branch taken does not read `scale`: no gradient, as in TF
        assert gs is None
    else:
        np.testing.assert_allclose(gs.numpy(), ref["grad_scale_" + tag], rtol=1e-4)
    out = m.signatures["loss"](x=x)
    np.testing.assert_allclose(out["loss"].numpy(), ref["loss_" + tag], rtol=1e-5)
    assert int(m.steps.numpy()) == 6        # assign_add in the loop body: 3 per call


def _control_flow_graph():
    x = tf1.placeholder(tf.float32, [None, 3], name="x")
    y = tf.cond(tf.reduce_sum(x) > 0.0, lambda: x * 2.0, lambda: -x, name="sign_cond")
    i, acc = tf.while_loop(lambda i, a: i < 5, lambda i, a: (i + 1, a * 0.5 + y),
                           [tf.constant(0), x], name="halving")

    def body(k, a):
        return k + 1, tf.cond(tf.equal(k % 2, 0), lambda: a + 1.0, lambda: a * tf.tanh(a))
    _, nested = tf.while_loop(lambda k, a: k < 4, body, [tf.constant(0), acc],
                              maximum_iterations=3, name="nested")
    for name, t in zip(FETCHES, [y, acc, i, nested]):
        tf.identity(t, name=name[:-2])


def test_cond_and_while_loop_export_as_tensorflows_functional_ops():
    _control_flow_graph()
    gd = tf1.get_default_graph().as_graph_def()
    nodes = {n.name: n for n in gd.node}
    assert nodes["sign_cond"].op == "StatelessIf"
    assert nodes["halving"].op == "StatelessWhile"
    assert [n.input for n in gd.node if n.name == "loop_out"][0] == ["halving:3"]
    assert list(nodes["count_out"].input) == ["halving:2"]     # after counter and limit
    lib = {f.signature.name: f for f in gd.library.function}
    body = lib[nodes["nested"].attr["body"].func.name]
    assert [a.name for a in body.signature.input_arg][:2] == ["loop_counter",
                                                              "maximum_iterations"]
    assert "StatelessIf" in {n.op for n in body.node_def}      # the nested cond
    assert nodes["nested"].attr["T"].list.type[:2] == [3, 3]     # DT_INT32 counters
    xv = np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5
    with tf1.Session() as sess:
        want = sess.run(FETCHES, {"x:0": xv})
    with tf.Graph().as_default():
        tf1.import_graph_def(gd, name="")
        with tf1.Session() as sess:
            got = sess.run(FETCHES, {"x:0": xv})
    for w, g in zip(want, got):
        np.testing.assert_allclose(g, w, rtol=1e-6)
    assert got[2] == 5


def test_exported_while_loop_keeps_gradients_after_reimport():
    x = tf1.placeholder(tf.float64, [3], name="x")
    _, y = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, tf.sin(a) * a),
                         [tf.constant(0), x])
    tf.identity(y, name="y")
    gd = tf1.get_default_graph().as_graph_def()
    xv = np.array([0.3, -1.2, 2.0])
    with tf.Graph().as_default():
        tf1.import_graph_def(gd, name="")
        g = tf1.get_default_graph()
        xt, yt = g.get_tensor_by_name("x:0"), g.get_tensor_by_name("y:0")
        (grad,) = tf.gradients(tf.reduce_sum(yt), [xt])
        with tf1.Session() as sess:
            got = sess.run(grad, {xt: xv})

    def f(v):
        for _ in range(3):
            v = np.sin(v) * v
        return v.sum()
    eps = 1e-6
    num = [(f(xv + eps * e) - f(xv - eps * e)) / (2 * eps) for e in np.eye(3)]
    np.testing.assert_allclose(got, num, rtol=1e-6)


def test_gradient_of_a_loop_exports_with_tensor_list_accumulators():
    """The forward loop pushes what its gradient reads (the loop variables' history, the
    intermediates) onto TensorList accumulators, as TensorFlow's while_v2 gradient does; the
    gradient loop reads them from their end; the GraphDef gives the same gradient."""
    x = tf1.placeholder(tf.float64, [3], name="x")
    _, y = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, tf.sin(a) * a),
                         [tf.constant(0), x])
    (g,) = tf.gradients(tf.reduce_sum(y), [x])
    tf.identity(g, name="g")
    gd = tf1.get_default_graph().as_graph_def()
    bodies = [f for f in gd.library.function if "_body_" in f.signature.name]
    ops = {n.op for f in bodies for n in f.node_def}
    assert {"TensorListPushBack", "TensorListGetItem", "TensorListLength"} <= ops
    xv = np.array([0.3, -1.2, 2.0])
    with tf1.Session() as sess:
        want = sess.run("g:0", {"x:0": xv})
    with tf.Graph().as_default():
        tf1.import_graph_def(gd, name="")
        with tf1.Session() as sess:
            got = sess.run("g:0", {"x:0": xv})
    np.testing.assert_allclose(got, want, rtol=1e-12)

    def f(v):
        for _ in range(3):
            v = np.sin(v) * v
        return v.sum()
    eps = 1e-6
    num = [(f(xv + eps * e) - f(xv - eps * e)) / (2 * eps) for e in np.eye(3)]
    np.testing.assert_allclose(got, num, rtol=1e-6)


@pytest.mark.parametrize("kind", ["nested", "second_order", "random"])
def test_gradients_of_nested_loops_higher_orders_and_random_bodies_export(kind):
    """An inner loop's records are recorded by the outer loop (a TensorList of them), a
    gradient's gradient records the gradient loop's, a random op's samples are recorded for
    the gradient; the GraphDef gives flowgrad's values again (TensorFlow 2.21 runs the same
    cases in the CI's interop job)."""
    rng = np.random.default_rng(0)
    x = tf1.placeholder(tf.float64, [2, 5, 3], name="x")
    w = tf.constant(rng.standard_normal((3, 4)) * 0.5, name="w")
    if kind == "nested":
        def outer(i, h):
            _, g = tf.while_loop(lambda j, g: j < i + 1, lambda j, g: (j + 1, tf.sin(g) * 1.1),
                                 [0, h])
            return i + 1, tf.tanh(tf.matmul(x[:, i], w) + g)
        out = tf.reduce_sum(tf.while_loop(lambda i, h: i < 5, outer,
                                          [0, tf.zeros([2, 4], tf.float64)])[1])
    elif kind == "second_order":
        _, h = tf.while_loop(lambda i, h: i < 3,
                             lambda i, h: (i + 1, tf.sin(h) * tf.reduce_sum(x[:, i], 1,
                                                                            keepdims=True)),
                             [0, tf.ones([2, 4], tf.float64)])
        (g,) = tf.gradients(tf.reduce_sum(h), x)
        out = tf.reduce_sum(g * g)
    else:
        _, h = tf.while_loop(lambda i, h: i < 3, lambda i, h: (i + 1, tf.nn.dropout(
            tf.tanh(tf.matmul(x[:, i], w) + h), rate=0.5, seed=1)),
            [0, tf.zeros([2, 4], tf.float64)])
        out = tf.reduce_sum(h)
    (grad,) = tf.gradients(out, x)
    fetches = [tf.identity(out, name="out").name, tf.identity(grad, name="grad").name]
    xv = rng.standard_normal((2, 5, 3))
    gd = tf1.get_default_graph().as_graph_def()
    with tf.Graph().as_default():
        tf1.import_graph_def(gd, name="")
        with tf1.Session() as sess:
            again = sess.run(fetches, {"x:0": xv})
    with tf1.Session() as sess:
        want = sess.run(fetches, {"x:0": xv})
    if kind != "random":            # (the random case: each session draws its own samples)
        for a, b in zip(again, want):
            np.testing.assert_allclose(a, b, rtol=1e-12)
    else:                           # the samples differ: the exported graph runs and is finite
        out_v, grad_v = again
        assert np.isfinite(out_v) and np.all(np.isfinite(grad_v)) and grad_v.shape == xv.shape


class _Looper(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(np.linspace(-1, 1, 9, dtype=np.float32).reshape(3, 3), name="w")
        self.scale = tf.Variable(1.5, name="scale")
        self.steps = tf.Variable(0, name="steps", trainable=False)

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x")],
                 autograph=False)
    def __call__(self, x):
        h = tf.cond(tf.reduce_mean(x) > 0.0, lambda: tf.matmul(x, self.w),
                    lambda: tf.matmul(x, self.w) * self.scale)

        def body(i, a):
            self.steps.assign_add(1)
            return i + 1, tf.tanh(tf.matmul(a, self.w)) + a
        return tf.while_loop(lambda i, a: i < 3, body, [tf.constant(0), h])[1]


def test_saved_model_with_control_flow_is_tensorflows_format(eager, tmp_path):
    m = _Looper()
    x = np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]], np.float32)
    want = [m(x).numpy(), m(-x).numpy()]
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # no fallback to flowgrad's own format
        tf.saved_model.save(m, str(tmp_path))
    assert (tmp_path / "saved_model.pb").exists()
    sm = tf_protos.read_message(tf_protos.pb().SavedModel(), str(tmp_path / "saved_model.pb"))
    ops = {n.op for f in sm.meta_graphs[0].graph_def.library.function for n in f.node_def}
    assert {"StatelessIf", "StatelessWhile", "AssignVariableOp"} <= ops
    loaded = tf.saved_model.load(str(tmp_path))
    np.testing.assert_allclose(loaded(tf.constant(x)).numpy(), want[0], rtol=1e-6)
    out = loaded.signatures["serving_default"](x=tf.constant(-x))["output_0"]
    np.testing.assert_allclose(out.numpy(), want[1], rtol=1e-6)
    assert int(loaded.steps.numpy()) == 12
