"""tf.saved_model: save a Module's functions and variables, load them in a fresh process."""
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.framework.context import state


@pytest.fixture(autouse=True)
def eager_mode():
    tf1.enable_v2_behavior()
    yield
    state.tapes.clear()


def _run(code, cwd):
    script = os.path.join(cwd, "script.py")
    with open(script, "w") as f:
        f.write(textwrap.dedent(code))
    done = subprocess.run([sys.executable, script], capture_output=True, text=True, cwd=cwd)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_trained_module_loads_and_runs_in_a_fresh_process(tmp_path):
    _run('''
        import numpy as np
        import flowgrad as tf

        class Regressor(tf.Module):
            def __init__(self):
                super().__init__()
                self.hidden = None
                self.out = [tf.Variable(np.full((4, 1), 0.5, np.float32), name="out_w")]
                self.calls = tf.Variable(0, trainable=False, name="calls")

            @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x")])
            def __call__(self, x):
                if self.hidden is None:
                    self.hidden = tf.Variable(tf.random.normal([3, 4], seed=2), name="hidden")
                self.calls.assign_add(1)
                h = tf.tanh(tf.matmul(x, self.hidden))
                return {"y": tf.matmul(h, self.out[0])[:, 0], "h": (h, tf.shape(x)[0])}

            @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
            def scale(self, s):
                self.out[0].assign(self.out[0] * s)
                return tf.reduce_sum(self.out[0])

        m = Regressor()
        x = np.random.RandomState(0).randn(5, 3).astype(np.float32)
        y = x.sum(axis=1)
        opt = tf.keras.optimizers.SGD(0.1)
        m(x)
        for _ in range(3):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(m(x)["y"] - y))
            grads = tape.gradient(loss, m.trainable_variables)
            opt.apply_gradients(zip(grads, m.trainable_variables))
        tf.saved_model.save(m, "exported")
        out = m(x)
        np.save("x.npy", x)
        np.save("expected.npy", out["y"].numpy())
        np.save("h.npy", out["h"][0].numpy())
    ''', str(tmp_path))
    out = _run('''
        import numpy as np
        import flowgrad as tf

        loaded = tf.saved_model.load("exported")      # no Regressor class in this process
        x = np.load("x.npy")
        out = loaded(x)
        np.testing.assert_allclose(out["y"].numpy(), np.load("expected.npy"), rtol=1e-6)
        np.testing.assert_allclose(out["h"][0].numpy(), np.load("h.npy"), rtol=1e-6)
        assert int(out["h"][1]) == 5
        assert int(loaded.calls.numpy()) == 5           # 4 calls before saving, 1 here
        before = float(np.sum(loaded.out[0].numpy()))
        total = float(loaded.scale(tf.constant(2.0)))
        assert np.isclose(total, 2 * before)
        assert np.isclose(float(np.sum(loaded.out[0].numpy())), 2 * before)
        assert sorted(v.name for v in loaded.trainable_variables) == ["hidden:0", "out_w:0"]
        print(loaded.__call__.input_signature)
    ''', str(tmp_path))
    assert "TensorSpec(shape=(None, 3), dtype=tf.float32, name='x')" in out


def test_format_is_tensorflows_and_flowgrads_own_only_for_ops_tensorflow_lacks(tmp_path):
    m = tf.Module()
    m.v = tf.Variable([1.0, 2.0], name="v")
    m.f = tf.function(lambda x: x * m.v, input_signature=[tf.TensorSpec([2])])
    tf.saved_model.save(m, str(tmp_path / "sm"))
    assert sorted(os.listdir(tmp_path / "sm")) == ["saved_model.pb", "variables"]
    assert sorted(os.listdir(tmp_path / "sm" / "variables")) == [
        "variables.data-00000-of-00001", "variables.index"]
    loaded = tf.saved_model.load(str(tmp_path / "sm"))
    assert loaded.f(tf.constant([3.0, 4.0])).numpy().tolist() == [3.0, 8.0]
    with pytest.raises(ValueError, match="Could not find matching concrete function"):
        loaded.f(tf.constant([1.0, 2.0, 3.0]))

    # tf.scan's loop goes as TensorFlow's TensorList ops
    m.g = tf.function(lambda x: tf.scan(lambda a, y: a + y * m.v[0], x),
                      input_signature=[tf.TensorSpec([2])])
    tf.saved_model.save(m, str(tmp_path / "sm"))
    assert "saved_model.pb" in os.listdir(tmp_path / "sm")
    assert tf.saved_model.load(str(tmp_path / "sm")).g(
        tf.constant([3.0, 4.0])).numpy().tolist() == [3.0, 7.0]

    # a TensorArray that grows (dynamic_size) is TensorFlow's format too
    def grow(x):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        return ta.write(0, x[0]).write(1, x[1] * m.v[0]).stack()
    m.g = tf.function(grow, input_signature=[tf.TensorSpec([2])])
    tf.saved_model.save(m, str(tmp_path / "sm"))
    assert "saved_model.pb" in os.listdir(tmp_path / "sm")
    assert tf.saved_model.load(str(tmp_path / "sm")).g(
        tf.constant([3.0, 4.0])).numpy().tolist() == [3.0, 4.0]

    # an op TensorFlow's GraphDef cannot hold (flowgrad's MatrixSolveLs): flowgrad's own
    # format, with a warning naming the op and the function
    m.g = tf.function(lambda a: tf.linalg.lstsq(a, tf.ones([3, 1]) * m.v[0], fast=False),
                      input_signature=[tf.TensorSpec([3, 2])])
    with pytest.warns(UserWarning, match="flowgrad's own SavedModel format.*"
                      "MatrixSolveLs.*in the tf.function g"):
        tf.saved_model.save(m, str(tmp_path / "sm"))
    assert sorted(os.listdir(tmp_path / "sm")) == ["constants.npz", "flowgrad_saved_model.json",
                                                   "variables"]
    with open(tmp_path / "sm" / "flowgrad_saved_model.json") as f:
        meta = json.load(f)
    assert meta["format"] == "flowgrad-saved-model" and meta["version"] == 1
    fn = next(fn for fn in meta["functions"] if fn["attribute"] == "f")
    (trace,) = fn["concrete_functions"]
    assert "Mul" in [op["type"] for op in trace["ops"]]
    loaded = tf.saved_model.load(str(tmp_path / "sm"))
    a = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], np.float32)
    np.testing.assert_allclose(loaded.g(tf.constant(a)).numpy(), [[2 / 3], [2 / 3]], rtol=1e-5)
    with pytest.raises(ValueError, match="incompatible with input_signature"):
        loaded.f(tf.constant([1.0, 2.0, 3.0]))


def test_clear_errors(tmp_path):
    tf_dir = tmp_path / "from_tensorflow"
    tf_dir.mkdir()
    (tf_dir / "saved_model.pb").write_bytes(b"\x08\x01")     # TensorFlow's, no MetaGraphDef
    with pytest.raises(RuntimeError, match="MetaGraphDef associated with tags"):
        tf.saved_model.load(str(tf_dir))
    with pytest.raises(OSError, match="SavedModel file does not exist"):
        tf.saved_model.load(str(tmp_path / "nothing"))

    hidden = tf.Variable(1.0, name="hidden")
    m = tf.Module()
    m.f = tf.function(lambda x: x * hidden, input_signature=[tf.TensorSpec([])])
    with pytest.raises(ValueError, match="hidden:0, which is not reachable"):
        tf.saved_model.save(m, str(tmp_path / "a"))

    m2 = tf.Module()
    m2.f = tf.function(lambda x: tf.numpy_function(np.sin, [x], tf.float32),
                       input_signature=[tf.TensorSpec([])])
    with pytest.raises(ValueError, match="cannot serialize attribute"):
        tf.saved_model.save(m2, str(tmp_path / "b"))
    assert not os.path.exists(tmp_path / "b" / "flowgrad_saved_model.json")
    with pytest.raises(ValueError, match="Expected a Trackable"):
        tf.saved_model.save(object(), str(tmp_path / "c"))


def test_signatures_take_keyword_tensors_and_return_dicts(tmp_path):
    m = tf.Module()
    m.w = tf.Variable(3.0, name="w")

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def scale(values):
        return values * m.w

    @tf.function
    def both(a, b):
        return {"sum": a + b * m.w, "diff": a - b}

    m.scale = scale
    pair = both.get_concrete_function(tf.constant([1.0]), tf.constant([2.0]))
    tf.saved_model.save(m, str(tmp_path / "sm"), signatures={"serving_default": scale,
                                                             "pair": pair})
    loaded = tf.saved_model.load(str(tmp_path / "sm"))
    out = loaded.signatures["serving_default"](values=tf.constant([1.0, 2.0]))
    assert list(out) == ["output_0"] and out["output_0"].numpy().tolist() == [3.0, 6.0]
    assert tf.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY == "serving_default"
    res = loaded.signatures["pair"](a=tf.constant([1.0]), b=tf.constant([2.0]))
    assert res["sum"].numpy().tolist() == [7.0] and res["diff"].numpy().tolist() == [-1.0]
    with pytest.raises(TypeError, match="keyword arguments"):
        loaded.signatures["serving_default"](tf.constant([1.0]))
    with pytest.raises(ValueError, match="without an input_signature"):
        tf.saved_model.save(m, str(tmp_path / "x"), signatures=both)


def test_loaded_functions_are_differentiable_for_fine_tuning(tmp_path):
    class Net(tf.Module):
        def __init__(self):
            super().__init__()
            rng = np.random.RandomState(0)
            self.w = tf.Variable(rng.randn(3, 2), name="w")
            self.b = tf.Variable(rng.randn(2), name="b")
            self.calls = tf.Variable(0, trainable=False, name="calls")

        @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float64)])
        def loss(self, x):
            self.calls.assign_add(1)
            return tf.reduce_sum(tf.tanh(tf.matmul(x, self.w) + self.b) ** 2)

    x = tf.constant(np.random.RandomState(1).randn(4, 3))

    def grads(model):
        with tf.GradientTape() as outer:
            with tf.GradientTape() as inner:
                y = model.loss(x)
            g = inner.gradient(y, [model.w, model.b])
            gg = tf.reduce_sum(g[0] * g[0])
        return y.numpy(), [t.numpy() for t in g], outer.gradient(gg, model.w).numpy()

    net = Net()
    tf.saved_model.save(net, str(tmp_path / "net"))
    loaded = tf.saved_model.load(str(tmp_path / "net"))
    expected, got = grads(net), grads(loaded)
    np.testing.assert_allclose(got[0], expected[0], rtol=1e-12)
    for a, b in zip(got[1], expected[1]):
        np.testing.assert_allclose(a, b, rtol=1e-12)
    np.testing.assert_allclose(got[2], expected[2], rtol=1e-12)     # second order
    assert int(loaded.calls.numpy()) == 1                           # writes happen too
    before = float(loaded.loss(x))
    opt = tf.keras.optimizers.SGD(0.05)
    for _ in range(5):
        with tf.GradientTape() as tape:
            y = loaded.loss(x)
        opt.apply_gradients(zip(tape.gradient(y, loaded.trainable_variables),
                                loaded.trainable_variables))
    assert float(loaded.loss(x)) < before


def test_control_flow_and_tensor_arrays_survive_save_and_load(tmp_path):
    _run('''
        import numpy as np
        import flowgrad as tf

        class RNN(tf.Module):
            def __init__(self):
                super().__init__()
                rng = np.random.RandomState(0)
                self.w = tf.Variable(rng.randn(3, 3).astype(np.float32) * 0.5, name="w")
                self.u = tf.Variable(rng.randn(2, 3).astype(np.float32), name="u")
                self.steps = tf.Variable(0, name="steps")

            @tf.function(input_signature=[tf.TensorSpec([None, None, 2], tf.float32)])
            def __call__(self, xs):
                h = tf.zeros([tf.shape(xs)[0], 3])
                outs = tf.TensorArray(tf.float32, size=tf.shape(xs)[1])
                for t in tf.range(tf.shape(xs)[1]):          # AutoGraph: a While op
                    h = tf.tanh(tf.matmul(h, self.w) + tf.matmul(xs[:, t], self.u))
                    if tf.reduce_sum(h) > 0:                  # an If op in the body
                        h = h * 0.5
                    outs = outs.write(t, h)
                    self.steps.assign_add(1)                  # a variable written in the loop
                return tf.transpose(outs.stack(), [1, 0, 2])

        m = RNN()
        xs = np.random.RandomState(1).randn(2, 4, 2).astype(np.float32)
        tf.saved_model.save(m, "rnn")
        np.save("xs.npy", xs)
        np.save("ys.npy", m(xs).numpy())
        with tf.GradientTape() as tape:
            total = tf.reduce_sum(m(xs))
        np.save("gw.npy", tape.gradient(total, m.w).numpy())
    ''', str(tmp_path))
    _run('''
        import os
        import numpy as np
        import flowgrad as tf

        loaded = tf.saved_model.load("rnn")
        xs = np.load("xs.npy")
        np.testing.assert_allclose(loaded(xs).numpy(), np.load("ys.npy"), rtol=1e-6)
        assert int(loaded.steps.numpy()) == 4
        assert loaded(xs[:, :3]).shape == (2, 3, 3)
        assert "saved_model.pb" in os.listdir("rnn")     # TensorFlow's format: gradients flow
        with tf.GradientTape() as tape:
            total = tf.reduce_sum(loaded(xs))
        np.testing.assert_allclose(tape.gradient(total, loaded.w).numpy(), np.load("gw.npy"),
                                   rtol=1e-5)
    ''', str(tmp_path))


def test_the_modules_guide_example_without_input_signature(tmp_path):
    # TensorFlow's "Introduction to modules" guide: traces made by calls are saved.
    class Dense(tf.Module):
        def __init__(self, in_features, out_features, name=None):
            super().__init__(name=name)
            self.w = tf.Variable(tf.random.normal([in_features, out_features], seed=1),
                                 name="w")
            self.b = tf.Variable(tf.zeros([out_features]), name="b")

        def __call__(self, x):
            return tf.nn.relu(tf.matmul(x, self.w) + self.b)

    class MySequentialModule(tf.Module):
        def __init__(self, name=None):
            super().__init__(name=name)
            self.dense_1 = Dense(in_features=3, out_features=3)
            self.dense_2 = Dense(in_features=3, out_features=2)

        @tf.function
        def __call__(self, x):
            return self.dense_2(self.dense_1(x))

    model = MySequentialModule(name="the_model")
    one = model([[2.0, 2.0, 2.0]])                      # a Python list: traced for its value
    batch = model(tf.constant(np.ones((4, 3), np.float32)))
    tf.saved_model.save(model, str(tmp_path / "the_saved_model"))
    new_model = tf.saved_model.load(str(tmp_path / "the_saved_model"))
    np.testing.assert_allclose(new_model([[2.0, 2.0, 2.0]]).numpy(), one.numpy())
    with pytest.raises(ValueError, match="Could not find matching concrete function"):
        new_model([[3.0, 2.0, 2.0]])                    # another Python value: no trace
    np.testing.assert_allclose(new_model(np.ones((4, 3), np.float32)).numpy(), batch.numpy())
    assert len(new_model.__call__.concrete_functions) == 2
    assert new_model.__call__.input_signature is None
    with pytest.raises(ValueError, match="Could not find matching concrete function"):
        new_model(np.ones((4, 4), np.float32))
    assert len(new_model.variables) == 4


def test_traces_with_python_arguments(tmp_path):
    m = tf.Module()
    m.v = tf.Variable(1.0)

    def scaled(x, cfg):
        return x * (cfg if not isinstance(cfg, tuple) else cfg[0]) * m.v

    m.f = tf.function(scaled)
    m.g = tf.function(lambda x, extra: x * m.v)
    m.f(tf.constant(1.0), 2.0)
    m.f(tf.constant(1.0), (4, "a"))                     # a tuple literal is kept too
    m.g(tf.constant(1.0), object())                     # an arbitrary object is not
    tf.saved_model.save(m, str(tmp_path / "sm"))
    loaded = tf.saved_model.load(str(tmp_path / "sm"))
    assert not hasattr(loaded, "g") and float(loaded.v.numpy()) == 1.0
    assert float(loaded.f(tf.constant(3.0), 2.0)) == 6.0
    assert float(loaded.f(tf.constant(3.0), (4, "a"))) == 12.0
    with pytest.raises(ValueError, match="Could not find matching"):
        loaded.f(tf.constant(3.0), 5.0)
    with pytest.raises(ValueError, match="Could not find matching"):
        loaded.f(tf.constant(3.0), [4, "a"])            # a list is not the saved tuple


def test_default_signature_without_signatures_argument(tmp_path):
    class One(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = tf.Variable(2.0)

        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def double(self, x):
            return x * self.v

    tf.saved_model.save(One(), str(tmp_path / "one"))
    loaded = tf.saved_model.load(str(tmp_path / "one"))
    assert list(loaded.signatures) == ["serving_default"]
    assert loaded.signatures["serving_default"](x=tf.constant([1.0]))["output_0"].numpy() == 2.0

    class Keraslike(tf.Module):                 # a Keras model's hook
        def __init__(self):
            super().__init__()
            self.w = None

        def __call__(self, x):
            if self.w is None:
                self.w = tf.Variable(tf.ones([x.shape[-1], 1]), name="w")
            return tf.matmul(x, self.w)

        def _default_save_signature(self):
            return tf.function(lambda inputs: self(inputs),
                               input_signature=[tf.TensorSpec([None, 3], tf.float32)])

    tf.saved_model.save(Keraslike(), str(tmp_path / "k"))       # the trace builds w
    loaded = tf.saved_model.load(str(tmp_path / "k"))
    out = loaded.signatures["serving_default"](inputs=tf.ones([2, 3]))
    assert out["output_0"].numpy().tolist() == [[3.0], [3.0]] and len(loaded.variables) == 1


def test_flowgrads_own_format_keeps_string_constants(tmp_path):
    """A function saved in flowgrad's own format (an op TensorFlow's GraphDef cannot hold:
    SparseCrossV2's flowgrad form) keeps its string constants (they were an error)."""
    m = tf.Module()
    m.g = tf.function(lambda x: tf.sparse.to_dense(tf.sparse.cross(
        [tf.reshape(x, [1, 2]), tf.constant([["p", "q"]])])),
        input_signature=[tf.TensorSpec([2], tf.string)])
    want = m.g(tf.constant(["a", "b"])).numpy()
    with pytest.warns(UserWarning, match="flowgrad's own SavedModel format.*SparseCrossV2"):
        tf.saved_model.save(m, str(tmp_path / "sm"))
    got = tf.saved_model.load(str(tmp_path / "sm")).g(tf.constant(["a", "b"])).numpy()
    assert got.tolist() == want.tolist() == [[b"a_X_p", b"a_X_q", b"b_X_p", b"b_X_q"]]
