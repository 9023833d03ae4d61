"""SavedModels written by TensorFlow 2.21 (tests/data/tf_graphs/, made by
tools/tf_reference/make_graphs.py) load into flowgrad: their functions and signatures
reproduce TensorFlow's outputs, and gradients reach the loaded variables."""
import os

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.framework.context import state
from flowgrad.saved_model import tf_loader

DATA = os.path.join(os.path.dirname(__file__), "data", "tf_graphs")


@pytest.fixture(autouse=True)
def eager_mode():
    tf1.enable_v2_behavior()
    yield
    state.tapes.clear()


def _values_by_name(export_dir, arrays, prefix=""):
    """{object-graph node id: value} for the saved variables, from TF's recorded values
    (the function-building path, independent of reading variables/)."""
    meta = tf_loader.meta_graph_for(tf_loader.read_saved_model(export_dir), None, export_dir)
    out = {}
    for i, node in enumerate(meta.object_graph_def.nodes):
        if node.WhichOneof("kind") == "variable":
            out[i] = arrays[prefix + node.variable.name]
    return out


def _module(ref):
    path = os.path.join(DATA, "module_saved_model")
    return tf_loader.load(path, variable_values=_values_by_name(path, ref))


def test_module_functions_and_signatures_reproduce_tensorflow():
    ref = np.load(os.path.join(DATA, "module_saved_model.npz"))
    m = _module(ref)
    x = tf.constant(ref["in_x"])
    np.testing.assert_allclose(m(x).numpy(), ref["out_y"], rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(m.loss(x)["loss"].numpy(), ref["out_loss"], rtol=1e-6)
    assert sorted(m.signatures) == ["loss", "serving_default"]
    out = m.signatures["serving_default"](x=x)
    assert list(out) == ["output_0"]
    np.testing.assert_allclose(out["output_0"].numpy(), ref["out_y"], rtol=1e-6, atol=1e-6)
    both = m.signatures["loss"](x=x)
    assert sorted(both) == ["loss", "scaled"]
    np.testing.assert_allclose(both["scaled"].numpy(), 2 * ref["out_y"], rtol=1e-6, atol=1e-6)
    with pytest.raises(TypeError, match="keyword"):
        m.signatures["serving_default"](y=x)
    with pytest.raises(ValueError, match="matching concrete function"):
        m(tf.constant(np.ones((2, 4), np.float32)))


def test_loaded_variables_are_trainable_and_gradients_match_tensorflow():
    ref = np.load(os.path.join(DATA, "module_saved_model.npz"))
    m = _module(ref)
    assert m.w.trainable and m.w.name == "w:0" and m.b.shape == (2,)
    with tf.GradientTape() as tape:
        y = m(tf.constant(ref["in_x"]))
        total = tf.reduce_sum(y * y)
    gw, gb = tape.gradient(total, [m.w, m.b])
    np.testing.assert_allclose(gw.numpy(), ref["grad_w"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(gb.numpy(), ref["grad_b"], rtol=1e-5, atol=1e-6)
    # fine-tuning: a step of gradient descent lowers the loss computed by the loaded function
    before = float(total.numpy())
    tf.keras.optimizers.SGD(0.01).apply_gradients([(gw, m.w), (gb, m.b)])
    after = float(tf.reduce_sum(tf.square(m(tf.constant(ref["in_x"])))).numpy())
    assert after < before


def test_gradient_matches_central_differences_in_float64():
    ref = np.load(os.path.join(DATA, "module_saved_model.npz"))
    m = _module(ref)
    x = tf.constant(ref["in_x"])
    w0 = ref["w"].astype(np.float64)

    def loss_at(w):
        m.w.assign(w.astype(np.float32))
        return float(np.sum(np.square(m(x).numpy().astype(np.float64))))

    m.w.assign(ref["w"])
    with tf.GradientTape() as tape:
        total = tf.reduce_sum(tf.square(m(x)))
    g = tape.gradient(total, m.w).numpy()
    eps = 1e-2
    num = np.zeros_like(w0)
    for idx in np.ndindex(*w0.shape):
        up, down = w0.copy(), w0.copy()
        up[idx] += eps
        down[idx] -= eps
        num[idx] = (loss_at(up) - loss_at(down)) / (2 * eps)
    np.testing.assert_allclose(g, num, rtol=1e-3, atol=1e-3)


def test_keras_model_saved_by_tensorflow_reproduces_outputs_and_gradients():
    ref = np.load(os.path.join(DATA, "keras_saved_model.npz"))
    path = os.path.join(DATA, "keras_saved_model")
    m = tf_loader.load(path, variable_values=_values_by_name(path, ref, "var_"))
    x = tf.constant(ref["in_features"])
    out = m.signatures["serving_default"](inputs=x)
    np.testing.assert_allclose(out["output_0"].numpy(), ref["out_y"], rtol=1e-5, atol=1e-6)
    # the restored tf.function TensorFlow saved for Keras's default signature
    np.testing.assert_allclose(m._default_save_signature(x).numpy(), ref["out_y"], rtol=1e-5,
                               atol=1e-6)
    variables = m.signatures["serving_default"].trainable_variables
    assert len(variables) == 4
    with tf.GradientTape() as tape:
        y = m.signatures["serving_default"](inputs=x)["output_0"]
        loss = tf.reduce_sum(y * tf.range(3, dtype=tf.float32))
    grads = tape.gradient(loss, variables)
    for v, g in zip(variables, grads):
        np.testing.assert_allclose(g.numpy(), ref["grad_" + v.name[:-2]], rtol=1e-4, atol=1e-6)


def test_an_op_type_flowgrad_lacks_names_it_and_its_function():
    ref = np.load(os.path.join(DATA, "module_saved_model.npz"))
    path = os.path.join(DATA, "module_saved_model")
    meta = tf_loader.meta_graph_for(tf_loader.read_saved_model(path), None, path)
    fdef = next(f for f in meta.graph_def.library.function
                if f.signature.name.startswith("__inference___call__"))
    next(n for n in fdef.node_def if n.op == "Relu").op = "Relu7"
    loader = tf_loader._Loader(meta, path)
    m = loader.load(_values_by_name(path, ref))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Relu7.*'Relu'.*in function '__inference___call___\d+'"):
        m(tf.constant(ref["in_x"]))


def test_tf_saved_model_load_restores_the_variables():
    ref = np.load(os.path.join(DATA, "module_saved_model.npz"))
    m = tf.saved_model.load(os.path.join(DATA, "module_saved_model"))
    np.testing.assert_array_equal(m.w.numpy(), ref["w"])
    np.testing.assert_allclose(m(tf.constant(ref["in_x"])).numpy(), ref["out_y"], rtol=1e-6)
    k = tf.saved_model.load(os.path.join(DATA, "keras_saved_model"))
    kref = np.load(os.path.join(DATA, "keras_saved_model.npz"))
    out = k.signatures["serving_default"](inputs=tf.constant(kref["in_features"]))
    np.testing.assert_allclose(out["output_0"].numpy(), kref["out_y"], rtol=1e-5, atol=1e-6)


def test_flowgrad_writes_tensorflows_format_and_loads_it_back(tmp_path):
    class Dense(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(np.arange(6, dtype=np.float32).reshape(3, 2) / 5, name="w")
            self.b = tf.Variable([0.1, -0.2], name="b")
            self.steps = tf.Variable(0, trainable=False, name="steps")

        @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x")])
        def __call__(self, x):
            self.steps.assign_add(1)
            return tf.nn.relu(tf.matmul(x, self.w) + self.b)

    m = Dense()
    x = np.array([[1, 2, 3], [-1, 0.5, 2]], np.float32)
    expected = m(x).numpy()
    tf.saved_model.save(m, str(tmp_path / "sm"))
    meta = tf_loader.meta_graph_for(tf_loader.read_saved_model(str(tmp_path / "sm")), None, "")
    ops = {n.op for f in meta.graph_def.library.function for n in f.node_def}
    assert {"ReadVariableOp", "AssignAddVariableOp", "MatMul", "Relu"} <= ops
    assert list(meta.signature_def) == ["serving_default"]
    loaded = tf.saved_model.load(str(tmp_path / "sm"))
    np.testing.assert_array_equal(loaded.signatures["serving_default"](x=x)["output_0"].numpy(),
                                  expected)
    np.testing.assert_array_equal(loaded(x).numpy(), expected)
    assert int(loaded.steps.numpy()) == 3 and not loaded.steps.trainable   # saved at 1
    with tf.GradientTape() as tape:
        total = tf.reduce_sum(loaded(x))
    assert tape.gradient(total, loaded.w).shape == (3, 2)


def test_keras_cnn_exported_by_model_export():
    """Conv2D, MaxPool, a Flatten computing its shape at run time (Shape, StridedSlice,
    Pack, Reshape), Dense and Softmax; TensorFlow strips the attributes at their defaults."""
    ref = np.load(os.path.join(DATA, "keras_cnn_export.npz"))
    m = tf.saved_model.load(os.path.join(DATA, "keras_cnn_export"))
    x = tf.constant(ref["in_image"])
    np.testing.assert_allclose(m.serve(x).numpy(), ref["out_y"], rtol=1e-5, atol=1e-7)
    out = m.signatures["serving_default"](image=x)
    np.testing.assert_allclose(out["output_0"].numpy(), ref["out_y"], rtol=1e-5, atol=1e-7)
    (cf,) = m.serve.concrete_functions
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(m.serve(x) * tf.range(4, dtype=tf.float32))
    grads = tape.gradient(loss, cf.trainable_variables)
    assert len(grads) == 4
    for v, g in zip(cf.trainable_variables, grads):
        np.testing.assert_allclose(g.numpy(), ref["grad_" + v.name[:-2]], rtol=1e-4, atol=1e-6)


def test_damaged_or_incomplete_saved_models_are_clear_errors(tmp_path):
    import shutil
    src = os.path.join(DATA, "module_saved_model")
    damaged = tmp_path / "damaged"
    shutil.copytree(src, damaged)
    data = (damaged / "saved_model.pb").read_bytes()
    (damaged / "saved_model.pb").write_bytes(data[:len(data) // 2])
    with pytest.raises(tf.errors.DataLossError, match="saved_model.pb"):
        tf.saved_model.load(str(damaged))
    no_vars = tmp_path / "no_variables"
    shutil.copytree(src, no_vars)
    shutil.rmtree(no_vars / "variables")
    with pytest.raises(tf.errors.NotFoundError, match="variables"):
        tf.saved_model.load(str(no_vars))
