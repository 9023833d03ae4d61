"""variable_scope / get_variable: names, sharing and reuse rules, initializers, errors."""
import math

import numpy as np
import pytest

import flowgrad.compat.v1 as tf
from flowgrad.ops.state_ops import EagerVariable, RefVariable


def _init_and_run(fetches):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(fetches)


# -- names ---------------------------------------------------------------------------------


def test_names_follow_the_variable_scope_and_ops_the_name_scope():
    with tf.variable_scope("main") as scope:
        w = tf.get_variable("w", [3, 2])
        c = tf.constant(1.0, name="c")
        with tf.variable_scope("inner"):
            v = tf.get_variable("v", [2])
    assert isinstance(w, RefVariable)
    assert w.name == "main/w:0" and w.op.name == "main/w" and v.name == "main/inner/v:0"
    assert c.name == "main/c:0"
    assert scope.name == "main" and scope.original_name_scope == "main/"
    assert tf.get_default_graph()._var_store["main/w"] is w
    assert tf.trainable_variables() == [w, v] and scope.trainable_variables() == [w, v]
    assert tf.get_variable_scope().name == ""


def test_variable_name_ignores_the_current_name_scope():
    with tf.name_scope("outer"):
        with tf.variable_scope("main"):
            w = tf.get_variable("w", [1])
            c = tf.constant(0.0, name="c")
    assert w.name == "main/w:0" and c.name == "outer/main/c:0"
    with tf.variable_scope("main", reuse=True):
        assert tf.get_variable("w") is w
    with tf.name_scope("elsewhere"):
        x = tf.get_variable("x", [1])
    assert x.name == "x:0"


def test_reentering_a_scope_object():
    with tf.variable_scope("main") as scope:
        w = tf.get_variable("w", [2])
    with tf.variable_scope(scope, reuse=True) as again:
        assert tf.get_variable("w", [2]) is w
        c = tf.constant(0.0, name="c")
        assert again.name == "main" and again.original_name_scope == "main/"
    assert c.name == "main_1/c:0"
    with tf.variable_scope(scope, auxiliary_name_scope=False):
        with tf.name_scope(scope.original_name_scope):
            d = tf.constant(0.0, name="d")
    assert d.name == "main/d:0"
    with tf.variable_scope("other"):
        with tf.variable_scope(scope):      # jumps to 'main', not 'other/main'
            z = tf.get_variable("z", [1])
    assert z.name == "main/z:0"


def test_default_name_is_made_unique_and_counts_reset_as_in_tf():
    with tf.variable_scope("foo") as vs:
        with tf.variable_scope(None, default_name="bar"):
            a = tf.get_variable("a", [1])
        with tf.variable_scope(None, default_name="bar"):
            b = tf.get_variable("b", [1])
    with tf.variable_scope(vs):
        with tf.variable_scope(None, default_name="bar"):
            c = tf.get_variable("c", [1])
    assert (a.name, b.name, c.name) == ("foo/bar/a:0", "foo/bar_1/b:0", "foo/bar/c:0")


def test_values_select_the_graph():
    g = tf.Graph()
    with g.as_default():
        x = tf.constant(1.0)
    with tf.variable_scope("s", values=[x]):
        v = tf.get_variable("v", [1])
    assert v.graph is g and g._var_store["s/v"] is v
    assert tf.get_default_graph() is not g


# -- reuse ---------------------------------------------------------------------------------


def test_reuse_rules_and_errors():
    with tf.variable_scope("main"):
        w = tf.get_variable("w", [2])
        with pytest.raises(ValueError, match=r"^Variable main/w already exists, disallowed\. "
                                             r"Did you mean to set reuse=True or "
                                             r"reuse=tf\.AUTO_REUSE in VarScope\? Originally "
                                             r"defined at:\n\n  File .*test_variable_scope"):
            tf.get_variable("w", [2])
    with tf.variable_scope("main", reuse=True):
        assert tf.get_variable("w", [2]) is w
        with pytest.raises(ValueError, match=r"^Variable main/u does not exist, or was not "
                                             r"created with tf\.get_variable\(\)\. Did you mean "
                                             r"to set reuse=tf\.AUTO_REUSE in VarScope\?$"):
            tf.get_variable("u", [2])
        with pytest.raises(ValueError, match=r"Trying to share variable main/w, but specified "
                                             r"shape \(3,\) and found shape \(2,\)\."):
            tf.get_variable("w", [3])
        with pytest.raises(ValueError, match="Trying to share variable main/w, but specified "
                                             "dtype int32 and found dtype float32_ref."):
            tf.get_variable("w", [2], dtype=tf.int32)
        with tf.variable_scope("sub", reuse=False) as sub:     # reuse is inherited
            assert sub.reuse is True


def test_auto_reuse_and_reuse_variables():
    def layer():
        with tf.variable_scope("foo", reuse=tf.AUTO_REUSE):
            return tf.get_variable("v", [1])
    assert layer() is layer()
    with tf.variable_scope("bar") as scope:
        v = tf.get_variable("v", [1])
        scope.reuse_variables()
        assert tf.get_variable("v", [1]) is v
        with tf.variable_scope("deeper") as deeper:
            assert deeper.reuse is True
    assert len(tf.global_variables()) == 2


def test_variable_scope_argument_errors():
    with pytest.raises(TypeError, match="If default_name is None then name_or_scope is "
                                        "required"):
        tf.variable_scope(None)
    with pytest.raises(ValueError, match="The reuse parameter must be True or False or None."):
        tf.variable_scope("a", reuse="yes")
    with pytest.raises(ValueError, match="reuse=True cannot be used without a name_or_scope"):
        tf.variable_scope(None, default_name="a", reuse=True)
    with pytest.raises(TypeError, match="name_or_scope must be a string or VariableScope"):
        tf.variable_scope(3)
    with pytest.raises(TypeError, match="auxiliary_name_scope must be `True` or `False`"):
        tf.variable_scope("a", auxiliary_name_scope=1)


def test_improper_nesting_is_detected():
    outer, inner = tf.variable_scope("a"), tf.variable_scope("b")
    outer.__enter__()
    inner.__enter__()
    with pytest.raises(RuntimeError, match="Improper nesting of variable_scope."):
        outer.__exit__(None, None, None)
    inner.__exit__(None, None, None)


# -- initializers --------------------------------------------------------------------------


def test_default_initializers():
    w = tf.get_variable("w", [30, 20])
    i = tf.get_variable("i", [3], dtype=tf.int32)
    b = tf.get_variable("b", [2], dtype=tf.bool)
    vw, vi, vb = _init_and_run([w, i, b])
    limit = math.sqrt(6.0 / 50)
    assert vw.dtype == np.float32 and np.abs(vw).max() <= limit and vw.std() > limit / 3
    assert vi.dtype == np.int32 and not vi.any() and vb.dtype == np.bool_ and not vb.any()
    names = [op.name for op in tf.get_default_graph().get_operations()]
    assert "w/Initializer/random_uniform" in names and "i/Initializer/zeros" in names
    with pytest.raises(ValueError, match="An initializer for variable c of <dtype: "
                                         "'complex64'> is required"):
        tf.get_variable("c", [1], dtype=tf.complex64)


def test_initializer_from_a_value_keeps_its_dtype():
    a = tf.get_variable("a", initializer=np.ones((2, 2), np.float32))
    b = tf.get_variable("b", initializer=[1.0, 2.0])
    c = tf.get_variable("c", initializer=np.arange(3.0))
    d = tf.get_variable("d", initializer=tf.constant([1, 2]))
    assert [v.dtype.base_dtype for v in (a, b, c, d)] == [tf.float32, tf.float32, tf.float64,
                                                          tf.int32]
    assert a.shape.as_list() == [2, 2] and a.initial_value.op.name == "a/initial_value"
    va, vc, vd = _init_and_run([a, c, d])
    np.testing.assert_array_equal(va, np.ones((2, 2)))
    np.testing.assert_array_equal(vc, [0.0, 1.0, 2.0])
    np.testing.assert_array_equal(vd, [1, 2])
    with pytest.raises(ValueError, match="If initializer is a constant, do not specify shape."):
        tf.get_variable("e", [2], initializer=np.zeros(2))
    with pytest.raises(ValueError, match="Initializer type '<dtype: 'float64'>' and explicit "
                                         "dtype '<dtype: 'float32'>' don't match."):
        tf.get_variable("f", dtype=tf.float32, initializer=np.zeros(2))


def test_initializer_objects_classes_and_callables():
    calls = []

    def init(shape, dtype=None, partition_info=None):
        calls.append((shape, dtype, partition_info))
        return tf.fill(shape, 2.0)
    a = tf.get_variable("a", [2, 3], initializer=init)
    b = tf.get_variable("b", [2], initializer=tf.ones_initializer)
    c = tf.get_variable("c", initializer=lambda: tf.constant([5.0, 6.0]))
    d = tf.get_variable("d", [2], dtype=tf.float64, initializer=tf.constant_initializer(4))
    assert calls == [([2, 3], tf.float32, None)]
    va, vb, vc, vd = _init_and_run([a, b, c, d])
    np.testing.assert_array_equal(va, np.full((2, 3), 2.0))
    np.testing.assert_array_equal(vb, [1.0, 1.0])
    np.testing.assert_array_equal(vc, [5.0, 6.0])
    assert vd.dtype == np.float64 and (vd == 4).all()
    with pytest.raises(ValueError, match="The initializer passed is not valid"):
        tf.get_variable("e")


def test_scope_defaults_initializer_dtype_regularizer():
    with tf.variable_scope("s", initializer=tf.constant_initializer(3.0), dtype=tf.float64,
                           regularizer=lambda v: tf.reduce_sum(v * v)):
        v = tf.get_variable("v", [2])
        with tf.variable_scope("t"):
            u = tf.get_variable("u", [1], regularizer=tf.no_regularizer)
    assert v.dtype.base_dtype == tf.float64 and u.dtype.base_dtype == tf.float64
    losses = tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)
    assert len(losses) == 1 and losses[0].name.startswith("s/v/Regularizer/")
    vv, loss = _init_and_run([v, losses[0]])
    np.testing.assert_array_equal(vv, [3.0, 3.0])
    assert loss == 18.0


def test_trainable_collections_and_local_variables():
    a = tf.get_variable("a", [1], trainable=False)
    b = tf.get_variable("b", [1], collections=["mine", tf.GraphKeys.GLOBAL_VARIABLES])
    c = tf.get_local_variable("c", [1])
    assert tf.trainable_variables() == [b]
    assert tf.global_variables() == [a, b] and tf.get_collection("mine") == [b]
    assert tf.local_variables() == [c] and not c.trainable


def test_custom_getters_nest():
    seen = []

    def outer(getter, name, *args, **kwargs):
        seen.append(("outer", name))
        return getter(name + "_o", *args, **kwargs)

    def inner(getter, name, *args, **kwargs):
        seen.append(("inner", name))
        return getter(name, *args, **kwargs)
    with tf.variable_scope("s", custom_getter=outer):
        with tf.variable_scope("t", custom_getter=inner):
            v = tf.get_variable("v", [1])
    assert v.name == "s/t/v_o:0" and seen == [("inner", "s/t/v"), ("outer", "s/t/v")]
    with pytest.raises(ValueError, match="Passed a custom_getter which is not callable"):
        tf.get_variable("w", [1], custom_getter=3)


def test_gradients_flow_to_scoped_variables():
    with tf.variable_scope("net"):
        w = tf.get_variable("w", initializer=np.array([[1.0], [2.0]], np.float32))
    x = tf.constant([[3.0, 4.0]])
    (g,) = tf.gradients(tf.reduce_sum(tf.matmul(x, w)), [w])
    np.testing.assert_array_equal(_init_and_run(g), [[3.0], [4.0]])


def test_eager_get_variable_always_creates():
    tf.enable_v2_behavior()
    with tf.variable_scope("main"):
        a = tf.get_variable("w", [2], initializer=tf.zeros_initializer())
        b = tf.get_variable("w", [2])
    assert isinstance(a, EagerVariable) and a is not b
    assert a.name == b.name == "main/w:0"
    np.testing.assert_array_equal(a.numpy(), [0.0, 0.0])


def test_a_partitioner_makes_a_partitioned_variable():
    # (TensorFlow's behaviour in detail: tests/test_partitioned_variables.py)
    p = tf.get_variable("p", [4], partitioner=lambda shape, dtype: [2])
    assert [v.op.name for v in p] == ["p/part_0", "p/part_1"] and p.get_shape() == [4]
