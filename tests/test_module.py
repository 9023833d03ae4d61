"""tf.Module: names, name scopes, and variable / sub-module tracking through containers."""
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


class Dense(tf.Module):
    def __init__(self, n_in, n_out, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(np.ones((n_in, n_out), np.float32), name="w")
        self.b = tf.Variable(np.zeros(n_out, np.float32), name="b")

    def __call__(self, x):
        return tf.matmul(x, self.w) + self.b


class MLP(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.layers = [Dense(3, 4), Dense(4, 2)]
        self.by_name = {"head": Dense(2, 1, name="head")}
        self.pair = (tf.Variable(1.0, name="scale"), tf.Variable(2.0, trainable=False,
                                                                   name="count"))


def test_default_name_is_snake_case_and_invalid_names_raise():
    class MyDenseLayer(tf.Module):
        pass
    assert MyDenseLayer().name == "my_dense_layer"
    assert tf.Module(name="enc").name == "enc"
    with pytest.raises(ValueError, match="not a valid module name"):
        tf.Module(name="has space")


def test_variables_found_through_nested_modules_and_containers():
    m = MLP()
    names = [v.name for v in m.variables]
    # TensorFlow's order: this module's attributes sorted by name, then each sub-module's
    assert names == ["scale:0", "count:0", "b:0", "w:0", "b:0", "w:0", "b:0", "w:0"]
    assert m.variables[2] is m.by_name["head"].b
    assert m.variables[4] is m.layers[0].b
    assert len(m.trainable_variables) == 7
    assert [v.name for v in m.non_trainable_variables] == ["count:0"]
    assert m.submodules == (m.by_name["head"], m.layers[0], m.layers[1])


def test_no_duplicates_and_cycles_end():
    a = tf.Module(name="a")
    b = tf.Module(name="b")
    v = tf.Variable(1.0)
    a.v = v
    a.same = [v, v]
    a.child = b
    b.parent = a            # cycle
    b.v = v                 # shared
    b.items = []
    b.items.append(b.items)  # a list holding itself
    assert a.variables == (v,)
    assert a.submodules == (b,)
    assert b.submodules == (a,)
    paths = [p for p, _ in a._flatten(predicate=lambda x: x is v, with_path=True)]
    assert ("v",) in paths and ("same", 0) in paths and ("child", "v") in paths


def test_tracking_is_lazy_attributes_set_before_init_and_mutated_later():
    class Early(tf.Module):
        def __init__(self):
            self.w = tf.Variable(1.0)      # before super().__init__, as Keras layers do
            super().__init__()

    e = Early()
    assert e.variables == (e.w,)
    e.extra = []
    v = tf.Variable(2.0)
    e.extra.append(v)
    assert e.variables == (v, e.w)


def test_name_scope_and_with_name_scope():
    class Scoped(tf.Module):
        @tf.Module.with_name_scope
        def __call__(self):
            with tf.name_scope("inner") as s:
                return s

    m = Scoped(name="scoped")
    assert m.name_scope.name == "scoped/"
    assert m() == "scoped/inner/"
    with m.name_scope as s:
        assert s == "scoped/"


def test_graph_mode_scopes_are_unique():
    with tf1.Graph().as_default():
        a, b = tf1.Module(name="m"), tf1.Module(name="m")
        assert (a.name_scope.name, b.name_scope.name) == ("m/", "m_1/")
        with b.name_scope:
            assert tf1.constant(1.0).name == "m_1/Const:0"


def test_trained_with_a_tape():
    d = Dense(2, 1)
    x = tf.constant([[1.0, 2.0]])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(d(x))
    gb, gw = tape.gradient(y, d.trainable_variables)
    assert gb.numpy().tolist() == [1.0]
    assert gw.numpy().tolist() == [[1.0], [2.0]]


def test_variables_created_in_the_module_scope_are_named_by_it():
    class Lazy(tf.Module):
        def __init__(self):
            super().__init__(name="lazy")
            self.w = None

        @tf.Module.with_name_scope
        def __call__(self, x):
            if self.w is None:
                self.w = tf.Variable(tf.ones([3]), name="w")
            return x * self.w

    eager, traced = Lazy(), Lazy()
    eager(tf.ones([3]))
    tf.function(traced.__call__)(tf.ones([3]))
    assert eager.w.name == traced.w.name == "lazy/w:0"
    with tf.name_scope("outer"):
        with tf.name_scope("inner") as s:
            assert s == "outer/inner/"
            assert tf.Variable(1.0, name="v").name == "outer/inner/v:0"
    assert tf.Variable(1.0, name="v").name == "v:0"


def test_keras_layers_and_models_are_modules():
    """The TF1 face's Keras (flowgrad's own): its layers are tf.Modules; Keras 3's (tf.keras)
    are not, in TensorFlow 2.16+ either."""
    keras = tf1.keras
    model = keras.Sequential([keras.layers.Dense(3), keras.layers.Dense(1)])
    model(np.ones((2, 4), np.float32))
    assert isinstance(model, tf.Module) and isinstance(model.layers[0], tf.Module)
    dense = [s for s in model.submodules if isinstance(s, keras.layers.Dense)]
    assert len(dense) == 2
    assert {id(v) for v in model.trainable_variables} == {
        id(v) for layer in dense for v in layer.trainable_variables}
    holder = tf.Module()
    holder.model = model
    assert len(holder.trainable_variables) == 4 and model in holder.submodules
