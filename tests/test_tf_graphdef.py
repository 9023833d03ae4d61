"""GraphDefs written by TensorFlow 2.21 (tests/data/tf_graphs/, made by
tools/tf_reference/make_graphs.py) load into flowgrad and reproduce TensorFlow's outputs."""
import os

import numpy as np
import pytest

import flowgrad.compat.v1 as tf
from flowgrad.saved_model import tf_protos

DATA = os.path.join(os.path.dirname(__file__), "data", "tf_graphs")


def _graph_def(name):
    return tf_protos.read_message(tf_protos.pb().graph_pb2.GraphDef(), os.path.join(DATA, name))


@pytest.mark.parametrize("filename", ["mlp_graph.pb", "mlp_graph.pbtxt"])
def test_tf_graph_def_reproduces_tensorflows_outputs(filename):
    ref = np.load(os.path.join(DATA, "mlp_graph.npz"))
    probs, out = tf.import_graph_def(_graph_def(filename), return_elements=["probs:0", "out:0"])
    assert probs.name == "import/probs:0" and out.name == "import/out:0"
    g = tf.get_default_graph()
    assert g.get_operation_by_name("import/hidden").type == "Relu"
    with tf.Session() as sess:
        p, o = sess.run([probs, out], {"import/x:0": ref["in_x"]})
    np.testing.assert_allclose(p, ref["out_probs"], rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(o, ref["out_out"], rtol=1e-5, atol=1e-6)


def test_gradient_through_an_imported_graph_matches_central_differences():
    ref = np.load(os.path.join(DATA, "mlp_graph.npz"))
    x = tf.placeholder(tf.float32, [None, 3])
    (probs,) = tf.import_graph_def(_graph_def("mlp_graph.pb"), input_map={"x:0": x},
                                   return_elements=["probs:0"], name="")
    loss = tf.reduce_sum(probs * np.arange(3, dtype=np.float32))
    (grad,) = tf.gradients(loss, [x])
    with tf.Session() as sess:
        g = sess.run(grad, {x: ref["in_x"]})
        num = np.zeros_like(g)
        x0, eps = ref["in_x"].astype(np.float64), 1e-3
        for idx in np.ndindex(*x0.shape):
            up, down = x0.copy(), x0.copy()
            up[idx] += eps
            down[idx] -= eps
            num[idx] = (sess.run(loss, {x: up}) - sess.run(loss, {x: down})) / (2 * eps)
    np.testing.assert_allclose(g, num, rtol=1e-2, atol=1e-3)


def test_frozen_graph_with_input_map_and_no_prefix():
    ref = np.load(os.path.join(DATA, "var_model.npz"))
    x = tf.placeholder(tf.float32, [None, 3], name="features")
    y, loss = tf.import_graph_def(_graph_def("frozen.pb"), input_map={"x": x},
                                  return_elements=["y:0", "loss:0"], name="")
    assert y.name == "y:0"
    with tf.Session() as sess:
        y_val, loss_val = sess.run([y, loss], {x: ref["in_x"]})
    np.testing.assert_allclose(y_val, ref["out_y"], rtol=1e-6)
    np.testing.assert_allclose(loss_val, ref["out_loss"], rtol=1e-6)


def test_return_elements_name_ops_and_tensors():
    op, t = tf.import_graph_def(_graph_def("mlp_graph.pb"), return_elements=["out", "x:0"],
                                name="net")
    assert op.name == "net/out" and op.type == "Identity"
    assert t.name == "net/x:0" and t.op.type == "Placeholder"
    with pytest.raises(ValueError, match="nope"):
        tf.import_graph_def(_graph_def("mlp_graph.pb"), return_elements=["nope:0"])
    with pytest.raises(ValueError, match="nope"):
        tf.import_graph_def(_graph_def("mlp_graph.pb"), input_map={"nope:0": t})


def test_unknown_op_type_names_the_op_type_and_the_node():
    gd = _graph_def("mlp_graph.pb")
    node = gd.node.add(name="weird", op="FancyUnheardOfOp")
    node.input.append("out")
    with pytest.raises(tf.errors.InvalidArgumentError, match="FancyUnheardOfOp.*'weird'"):
        tf.import_graph_def(gd)


def test_extract_sub_graph_keeps_what_tensorflow_keeps():
    ref = np.load(os.path.join(DATA, "mlp_graph.npz"))
    sub = tf.graph_util.extract_sub_graph(_graph_def("mlp_graph.pb"), ["probs", "Mean"])
    assert [n.name for n in sub.node] == list(ref["sub_graph_nodes"])
    with pytest.raises(AssertionError, match="missing"):
        tf.graph_util.extract_sub_graph(_graph_def("mlp_graph.pb"), ["missing"])
    with pytest.raises(TypeError):
        tf.graph_util.extract_sub_graph(_graph_def("mlp_graph.pb"), "probs")


# --------------------------------------------------------------------------------------
# flowgrad graphs as GraphDefs


def _mlp_like(x_val):
    """The mlp_graph fixture's computation built in flowgrad (same op types as TF's)."""
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    w = tf.Variable(np.linspace(-1, 1, 15).reshape(3, 5).astype(np.float32), name="w")
    h = tf.nn.relu(tf.matmul(x, w) + np.arange(5, dtype=np.float32), name="hidden")
    p = tf.nn.softmax(tf.nn.bias_add(tf.matmul(h, w, transpose_b=True), x_val[0]), name="probs")
    t = tf.transpose(tf.reshape(h, [-1, 5, 1]), [0, 2, 1])
    c = tf.concat([tf.squeeze(t, 1), tf.tanh(h), tf.sigmoid(h)], axis=1)
    s = tf.reduce_sum(c * 2.0 - 1.0, axis=1, keepdims=True)
    m = tf.reduce_mean(tf.exp(-tf.abs(c)) / 3.0, axis=[0, 1])
    out = tf.identity(s + m + tf.reduce_max(p, axis=-1, keepdims=True)
                      + tf.cast(tf.argmax(p, axis=1)[:, None], tf.float32), name="out")
    return x, w, out


def test_as_graph_def_uses_tensorflows_attribute_names():
    x_val = np.load(os.path.join(DATA, "mlp_graph.npz"))["in_x"]
    _mlp_like(x_val)
    ours = tf.get_default_graph().as_graph_def()
    theirs = _graph_def("mlp_graph.pb")
    tf_attrs = {n.op: n.attr for n in theirs.node}
    checked = set()
    for node in ours.node:
        if node.op not in tf_attrs:
            continue
        ref = tf_attrs[node.op]
        # TensorFlow adds the attributes that have defaults (grad_a, ...); ours are a subset
        # with the same values where both set them.
        assert set(node.attr) <= set(ref), (node.op, set(node.attr) - set(ref))
        for k in ("T", "Tidx", "Tshape", "Tperm", "dtype", "DstT", "SrcT", "output_type"):
            if k in node.attr and node.op not in ("Const", "Cast"):
                assert node.attr[k] == ref[k], (node.op, k)
        checked.add(node.op)
    assert {"MatMul", "Sum", "Mean", "Max", "ArgMax", "ConcatV2", "Reshape", "Transpose",
            "StridedSlice", "Squeeze", "BiasAdd", "Softmax", "Cast"} <= checked
    by_name = {n.name: n for n in ours.node}
    assert list(by_name["Sum"].input) == ["sub", "Sum/reduction_indices"]
    assert by_name["Sum/reduction_indices"].op == "Const"


def test_graph_def_round_trip_through_files(tmp_path):
    x_val = np.load(os.path.join(DATA, "mlp_graph.npz"))["in_x"]
    x, w, out = _mlp_like(x_val)
    with tf.Session() as sess:
        sess.run(w.initializer)
        expected = sess.run(out, {x: x_val})
        frozen = tf.graph_util.convert_variables_to_constants(
            sess, sess.graph.as_graph_def(), ["out"])
    assert "VariableV2" not in {n.op for n in frozen.node}
    for as_text, name in ((True, "g.pbtxt"), (False, "g.pb")):
        path = tf.train.write_graph(frozen, str(tmp_path), name, as_text=as_text)
        with tf.Graph().as_default():
            (y,) = tf.import_graph_def(_graph_def_at(path), return_elements=["out:0"])
            with tf.Session() as sess:
                np.testing.assert_allclose(sess.run(y, {"import/x:0": x_val}), expected,
                                           rtol=1e-6)


def _graph_def_at(path):
    return tf_protos.read_message(tf_protos.pb().graph_pb2.GraphDef(), path)


def test_exporting_an_op_tensorflow_lacks_names_it():
    x = tf.placeholder(tf.float32, [2], name="x")
    tf.py_func(lambda a: a, [x], tf.float32, name="mine")
    with pytest.raises(ValueError, match="'mine' of type PyFunc"):
        tf.get_default_graph().as_graph_def()


# --------------------------------------------------------------------------------------
# MetaGraphDefs


def test_import_meta_graph_of_tensorflows_saver_files():
    ref = np.load(os.path.join(DATA, "var_model.npz"))
    saver = tf.train.import_meta_graph(os.path.join(DATA, "var_model.meta"))
    assert isinstance(saver, tf.train.Saver)
    w, b = tf.global_variables()
    assert (w.name, b.name) == ("w:0", "b:0")         # b is a resource variable in TF
    assert tf.trainable_variables() == [w, b]
    g = tf.get_default_graph()
    assert not [op for op in g.get_operations() if op.type in ("SaveV2", "RestoreV2")]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(w).shape == (3, 4)
        w.load(ref["w"], sess)
        b.load(ref["b"], sess)
        y, loss = sess.run(["y:0", "loss:0"], {"x:0": ref["in_x"]})
        (grad_w,) = sess.run(tf.gradients(g.get_tensor_by_name("loss:0"), [w]),
                             {"x:0": ref["in_x"]})
    np.testing.assert_allclose(y, ref["out_y"], rtol=1e-6)
    np.testing.assert_allclose(loss, ref["out_loss"], rtol=1e-6)
    relu = ref["out_y"] > 0      # d loss / d w = x^T (2 y * relu'(.))
    np.testing.assert_allclose(grad_w, ref["in_x"].T @ (2 * ref["out_y"] * relu), rtol=1e-5)
    with tf.Session() as sess:            # the Saver restores TensorFlow's checkpoint
        saver.restore(sess, os.path.join(DATA, "var_model"))
        np.testing.assert_array_equal(sess.run(w), ref["w"])
        np.testing.assert_allclose(sess.run("y:0", {"x:0": ref["in_x"]}), ref["out_y"],
                                   rtol=1e-6)


def test_export_meta_graph_round_trip(tmp_path):
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    w = tf.get_variable("w", [3, 2])
    tf.nn.relu(tf.matmul(x, w), name="y")
    path = str(tmp_path / "model.meta")
    meta = tf.train.export_meta_graph(path)
    assert sorted(meta.collection_def) == ["trainable_variables", "variables"]
    x_val = np.ones((2, 3), np.float32)
    with tf.Session() as sess:
        sess.run(w.initializer)
        w_val, expected = sess.run([w, "y:0"], {x: x_val})
    with tf.Graph().as_default():
        tf.train.import_meta_graph(path, import_scope="copy")
        (w2,) = tf.global_variables()
        assert w2.name == "copy/w:0"
        with tf.Session() as sess:
            w2.load(w_val, sess)
            np.testing.assert_allclose(sess.run("copy/y:0", {"copy/x:0": x_val}), expected)


# --------------------------------------------------------------------------------------
# TensorFlow 1 SavedModels


def test_tf1_saved_model_written_by_tensorflow_loads_and_runs_its_signature():
    ref = np.load(os.path.join(DATA, "var_model.npz"))
    with tf.Session(graph=tf.Graph()) as sess:
        meta = tf.saved_model.loader.load(sess, [tf.saved_model.tag_constants.SERVING],
                                          os.path.join(DATA, "tf1_saved_model"))
        sig = meta.signature_def[tf.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY]
        assert sig.method_name == tf.saved_model.PREDICT_METHOD_NAME
        x = tf.saved_model.utils.get_tensor_from_tensor_info(sig.inputs["x"], sess.graph)
        y = sess.graph.get_tensor_by_name(sig.outputs["y"].name)
        np.testing.assert_allclose(sess.run(y, {x: ref["in_x"]}), ref["out_y"], rtol=1e-6)
        w = [v for v in sess.graph.get_collection("variables") if v.name == "w:0"][0]
        np.testing.assert_array_equal(sess.run(w), ref["w"])        # restored, not initialized
    with tf.Session(graph=tf.Graph()) as sess:
        with pytest.raises(RuntimeError, match="MetaGraphDef associated with tags"):
            tf.saved_model.loader.load(sess, ["train"], os.path.join(DATA, "tf1_saved_model"))


def test_simple_save_and_builder_round_trip(tmp_path):
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    w = tf.Variable(np.arange(6, dtype=np.float32).reshape(3, 2), name="w")
    y = tf.nn.relu(tf.matmul(x, w) - 3.0, name="y")
    x_val = np.array([[1, 0, 1], [0.5, 2, -1]], np.float32)
    with tf.Session() as sess:
        sess.run(w.initializer)
        expected = sess.run(y, {x: x_val})
        tf.saved_model.simple_save(sess, str(tmp_path / "sm"), {"x": x}, {"y": y})
        with pytest.raises(AssertionError, match="already exists, and isn't empty"):
            tf.saved_model.Builder(str(tmp_path / "sm"))
        b = tf.saved_model.Builder(str(tmp_path / "two"))
        with pytest.raises(AssertionError, match="add_meta_graph_and_variables"):
            b.add_meta_graph(["gpu"])
        b.add_meta_graph_and_variables(sess, ["serve"], signature_def_map={
            "scores": tf.saved_model.predict_signature_def({"x": x}, {"y": y})})
        b.add_meta_graph(["train"])
        b.save()
        with pytest.raises(ValueError, match="outputs"):
            tf.saved_model.predict_signature_def({"x": x}, {})
    assert sorted(os.listdir(tmp_path / "sm")) == ["saved_model.pb", "variables"]
    for path, tags, key in ((tmp_path / "sm", ["serve"], "serving_default"),
                            (tmp_path / "two", ["serve"], "scores"),
                            (tmp_path / "two", ["train"], None)):
        with tf.Session(graph=tf.Graph()) as sess:
            meta = tf.saved_model.loader.load(sess, tags, str(path))
            name = meta.signature_def[key].outputs["y"].name if key else "y:0"
            np.testing.assert_allclose(sess.run(name, {"x:0": x_val}), expected)


def test_many_op_types_reproduce_tensorflow():
    ref = np.load(os.path.join(DATA, "ops_graph.npz"))
    names = sorted(k for k in ref.files if k.startswith("out_"))
    fetched = tf.import_graph_def(_graph_def("ops_graph.pb"), name="",
                                  return_elements=[n + ":0" for n in names])
    with tf.Session() as sess:
        values = sess.run(fetched, {"x:0": ref["in_x"], "i:0": ref["in_i"],
                                    "img:0": ref["in_img"]})
    for name, value in zip(names, values):
        assert value.dtype == ref[name].dtype, name
        np.testing.assert_allclose(value, ref[name], rtol=1e-5, atol=1e-6, err_msg=name)


def test_saver_save_writes_the_meta_graph_that_import_meta_graph_reads(tmp_path):
    """TF1's save-then-import_meta_graph workflow: Saver.save writes <prefix>.meta."""
    prefix = str(tmp_path / "model.ckpt")
    with tf.Graph().as_default():
        w = tf.Variable([[1.0, 2.0]], name="w")
        x = tf.placeholder(tf.float32, [None, 1], name="x")
        tf.identity(tf.matmul(x, w), name="y")
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            path = saver.save(sess, prefix, global_step=5)
            no_meta = saver.save(sess, prefix + "-nometa", write_meta_graph=False)
    assert os.path.exists(path + ".meta") and not os.path.exists(no_meta + ".meta")
    with tf.Graph().as_default(), tf.Session() as sess:
        restorer = tf.train.import_meta_graph(path + ".meta")
        restorer.restore(sess, path)
        np.testing.assert_allclose(sess.run("y:0", {"x:0": [[3.0]]}), [[3.0, 6.0]])


def test_saver_save_warns_and_skips_the_meta_graph_it_cannot_write(tmp_path):
    prefix = str(tmp_path / "model.ckpt")
    with tf.Graph().as_default():
        v = tf.Variable(1.0, name="v")
        tf.py_func(lambda a: a, [v], tf.float32, name="opaque")
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            with pytest.warns(UserWarning, match="no meta graph"):
                path = tf.train.Saver().save(sess, prefix)
    assert os.path.exists(path + ".index") and not os.path.exists(path + ".meta")
