"""explain_gradient: why a gradient is None, each reason with its op, creation line and path."""
import os
import warnings

import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as tf
from flowgrad.debug import explain
from flowgrad.debug.explain import explain_gradient, explain_no_gradients

from source_lines import line_of  # noqa: E402

HERE = os.path.basename(__file__)


def _line_of(text):
    return line_of(__file__, text)


def test_connected_gradient_reports_its_path():
    x = tf.placeholder(tf.float32, [2], name="x")
    h = tf.square(x, name="h")
    y = tf.reduce_sum(h, name="y")
    (e,) = explain_gradient(y, [x])
    assert e.kind == explain.CONNECTED and not e.gradient_is_none
    assert [op.name for op, _ in e.path] == ["h", "y"]
    assert "is not None" in str(e)


def test_no_path_names_what_ys_depend_on_and_suggests_a_close_name():
    w = tf.Variable(1.0, name="weights")
    w_1 = tf.Variable(2.0, name="weights_1")
    loss = tf.square(w_1, name="loss")
    (e,) = explain_gradient(loss, [w])
    assert e.kind == explain.NO_PATH and e.gradient_is_none
    text = str(e)
    assert "loss:0 does not depend on weights:0 at all" in text
    assert "weights_1" in text and "Did you mean 'weights_1'?" in text
    assert tf.gradients(loss, [w]) == [None]


def test_blocked_by_stop_gradient_names_the_op_its_line_and_the_path():
    w1 = tf.Variable(2.0, name="w1")
    w2 = tf.Variable(2.0, name="w2")
    a = tf.multiply(w1, 3.0, name="a")
    a_stopped = tf.stop_gradient(a, name="a_stopped")  # the blocking line
    b = tf.multiply(a_stopped, w2, name="b")
    e1, e2 = explain_gradient(b, [w1, w2])
    assert tf.gradients(b, [w1, w2])[0] is None
    assert e1.kind == explain.BLOCKED and e2.kind == explain.CONNECTED
    (blocker,) = e1.blockers
    assert blocker.kind == explain.STOP_GRADIENT and blocker.op.name == "a_stopped"
    text = str(e1)
    assert "every path from w1:0 to b:0 is blocked" in text
    assert "%s:%d" % (HERE, _line_of("# the blocking line")) in text
    assert "a_stopped = tf.stop_gradient(a" in text          # the source line itself
    assert [op.name for op, _ in e1.path] == ["w1/read", "a", "a_stopped", "b"]
    assert [blk is not None for _, blk in e1.path] == [False, False, True, False]
    assert "X> a_stopped (StopGradient)" in text


def test_blocked_by_stop_gradients_argument():
    x = tf.placeholder(tf.float32, [], name="x")
    h = tf.multiply(x, 2.0, name="h")
    y = tf.square(h, name="y")
    assert tf.gradients(y, [x], stop_gradients=[h]) == [None]
    (e,) = explain_gradient(y, [x], stop_gradients=[h])
    assert e.kind == explain.BLOCKED
    assert [b.kind for b in e.blockers] == [explain.STOP_GRADIENTS]
    assert "listed in stop_gradients" in str(e)
    # without the argument the gradient flows
    assert explain_gradient(y, [x])[0].kind == explain.CONNECTED


def test_blocked_by_an_integer_tensor():
    x = tf.placeholder(tf.float32, [3], name="x")
    i = tf.cast(x, tf.int32, name="to_int")  # the integer line
    y = tf.reduce_sum(tf.cast(i, tf.float32) * 2.0, name="y")
    assert tf.gradients(y, [x]) == [None]
    (e,) = explain_gradient(y, [x])
    (b,) = e.blockers
    assert b.kind == explain.INTEGER and b.tensor is i
    text = str(e)
    assert "tensor to_int:0 has dtype int32" in text
    assert "%s:%d" % (HERE, _line_of("# the integer line")) in text


def test_integer_x_itself():
    x = tf.placeholder(tf.int32, [], name="n")
    y = tf.cast(x, tf.float32) * 3.0
    (e,) = explain_gradient(y, [x])
    assert e.kind == explain.BLOCKED
    assert e.blockers[0].kind == explain.INTEGER and e.blockers[0].tensor is x


def test_several_blocked_paths_are_all_listed():
    x = tf.placeholder(tf.float32, [], name="x")
    a = tf.stop_gradient(x * 2.0, name="sg")
    b = tf.cast(tf.cast(x, tf.int32, name="i"), tf.float32)
    y = tf.add(a, b, name="y")
    (e,) = explain_gradient(y, [x])
    assert sorted(b.kind for b in e.blockers) == [explain.INTEGER, explain.STOP_GRADIENT]


def test_not_differentiable_py_func():
    x = tf.placeholder(tf.float32, [3], name="x")
    y = tf.py_func(lambda v: v * 2, [x], tf.float32, name="double")
    y.set_shape([3])
    loss = tf.reduce_sum(y * x, name="loss")
    (g,) = tf.gradients(tf.reduce_sum(y), [x])
    assert g is None
    (e,) = explain_gradient(tf.reduce_sum(y), [x])
    (b,) = e.blockers
    assert b.kind == explain.NOT_DIFFERENTIABLE and b.op.type in ("PyFunc", "PyFuncStateless")
    assert "registered as not differentiable" in str(e)
    assert "gradient_override_map" in str(e)
    # through the other factor of loss the gradient flows
    assert explain_gradient(loss, [x])[0].kind == explain.CONNECTED


def test_not_differentiable_user_op_type():
    x = tf.placeholder(tf.float32, [2], name="x")
    with tf.get_default_graph().gradient_override_map({"Square": "StopGradient"}):
        y = tf.square(x, name="sq")
    (e,) = explain_gradient(tf.reduce_sum(y), [x])
    (b,) = e.blockers
    assert b.kind == explain.NOT_DIFFERENTIABLE
    assert "gradient_override_map's 'StopGradient'" in str(b)


def test_control_dependency_only():
    x = tf.Variable(1.0, name="x")
    inc = tf.assign_add(x, 1.0)
    with tf.control_dependencies([inc]):
        y = tf.constant(2.0) * 3.0
    (e,) = explain_gradient(y, [x])
    assert e.kind == explain.CONTROL_ONLY
    assert "only through control dependencies" in str(e)


def test_other_graph():
    g1 = tf.Graph()
    with g1.as_default():
        x = tf.placeholder(tf.float32, [], name="x")
    y = tf.constant(1.0) * 2.0
    (e,) = explain_gradient(y, [x])
    assert e.kind == explain.OTHER_GRAPH
    assert "different graph" in str(e)


def test_unconnected_gradients_raise_carries_the_explanation():
    x = tf.placeholder(tf.float32, [], name="x")
    y = tf.stop_gradient(x * 2.0, name="sg") + 1.0
    with pytest.raises(ValueError, match=r"(?s)Cannot compute the gradient.*blocked.*"
                                         r"tf.stop_gradient"):
        tf.gradients(y, [x], unconnected_gradients="raise")
    # TF-compatible values are unchanged
    assert tf.gradients(y, [x]) == [None]


def test_user_registered_gradient_is_named_on_a_connected_path():
    @tf.RegisterGradient("ExplainTestNoneGrad")
    def _none_grad(op, grad):
        return None

    x = tf.placeholder(tf.float32, [2], name="x")
    with tf.get_default_graph().gradient_override_map({"Square": "ExplainTestNoneGrad"}):
        y = tf.square(x)
    assert tf.gradients(y, [x]) == [None]
    (e,) = explain_gradient(y, [x])
    assert "ExplainTestNoneGrad" in str(e) and "returned None" in str(e)


def test_explain_no_gradients_for_optimizer_errors():
    w = tf.Variable(1.0, name="w")
    v = tf.Variable(1.0, name="v")
    loss = tf.stop_gradient(w * 2.0) + 1.0
    text = explain_no_gradients(loss, [w, v])
    assert "w:0" in text and "stop_gradient" in text
    assert "v:0 at all" in text


def test_minimize_no_gradients_error_carries_the_explanation():
    w = tf.Variable(1.0, name="w")
    loss = tf.stop_gradient(w * 2.0, name="frozen") + 1.0
    with pytest.raises(ValueError) as info:
        tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    first, rest = str(info.value).split("\n", 1)
    assert first.startswith("No gradients provided for any variable, check your graph")
    assert "every path from w:0 to add:0 is blocked" in rest
    assert "op 'frozen' is a tf.stop_gradient" in rest


def test_explanations_are_reachable_from_both_faces():
    assert tf.explain_gradient is explain_gradient
    assert flowgrad.explain_gradient is explain_gradient


def test_bad_arguments():
    with pytest.raises(ValueError, match="at least one y"):
        explain_gradient([], [tf.constant(1.0)])


def test_explaining_adds_no_ops_and_no_warnings():
    x = tf.placeholder(tf.float32, [], name="x")
    y = tf.stop_gradient(x) * x
    n = len(tf.get_default_graph().get_operations())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        explain_gradient(y, [x])
    assert len(tf.get_default_graph().get_operations()) == n
    np.testing.assert_equal(tf.Session().run(tf.gradients(y, x)[0], {x: 3.0}), 3.0)


# --------------------------------------------------------------------------------------
# Overrides that match nothing: did-you-mean warnings


def _messages(caught):
    return [str(w.message) for w in caught]


def test_override_map_key_that_is_not_an_op_type_warns_with_did_you_mean():
    a = tf.placeholder(tf.float32, [2, 2])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with tf.get_default_graph().gradient_override_map({"Matmul": "Identity"}):
            tf.matmul(a, a)
    msgs = _messages(caught)
    assert any("'Matmul' is not a registered op type, did you mean 'MatMul'?" in m
               for m in msgs)
    assert any("no op of type 'Matmul' was created inside the scope" in m for m in msgs)
    assert all(w.filename == __file__ for w in caught)      # points at the user's line


def test_register_gradient_near_miss_warns():
    from flowgrad.framework.registry import has_gradient_entry
    if has_gradient_entry("Matmul"):
        pytest.skip("already registered in this process")
    with pytest.warns(UserWarning, match="RegisterGradient\\('Matmul'\\): no op type has this "
                                         "name; did you mean 'MatMul'\\?"):
        tf.RegisterGradient("Matmul")(lambda op, g: (g, g))


def test_override_map_value_that_is_not_registered_warns_with_did_you_mean():
    x = tf.placeholder(tf.float32, [2])
    with pytest.warns(UserWarning, match="no gradient is registered under 'Identiy' \\(mapped "
                                         "from 'Square'\\); did you mean 'Identity'\\?"):
        with tf.get_default_graph().gradient_override_map({"Square": "Identiy"}):
            tf.square(x)


def test_override_map_entry_that_matched_no_op_warns_when_the_scope_closes():
    x = tf.placeholder(tf.float32, [2])
    with pytest.warns(UserWarning, match="no op of type 'Square' was created inside the scope, "
                                         "so the override 'Square' -> 'Identity' matched "
                                         "nothing"):
        with tf.get_default_graph().gradient_override_map({"Square": "Identity"}):
            tf.multiply(x, x)


def test_seed_py_func_override_idiom_does_not_warn():
    from flowgrad.framework.registry import has_gradient_entry
    if not has_gradient_entry("ExplainTestPyFuncGrad"):
        tf.RegisterGradient("ExplainTestPyFuncGrad")(lambda op, g: g)
    x = tf.placeholder(tf.float32, [2])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with tf.get_default_graph().gradient_override_map(
                {"PyFunc": "ExplainTestPyFuncGrad", "PyFuncStateless": "ExplainTestPyFuncGrad"}):
            y = tf.py_func(lambda v: v, [x], tf.float32, stateful=False)
    assert y.op._grad_type == "ExplainTestPyFuncGrad"


# --------------------------------------------------------------------------------------
# Eager: GradientTape None results


@pytest.fixture
def eager():
    tf.enable_v2_behavior()
    yield
    tf.disable_v2_behavior()


def test_tape_unwatched_tensor_and_variable(eager):
    x = flowgrad.constant(3.0)
    frozen = flowgrad.Variable(5.0, trainable=False, name="frozen")
    with flowgrad.GradientTape(persistent=True) as tape:
        y = x * x + frozen * 2.0
    assert tape.gradient(y, [x, frozen]) == [None, None]
    ex, ef = flowgrad.explain_gradient(y, [x, frozen], tape=tape)
    assert ex.kind == ef.kind == explain.UNWATCHED
    assert "call tape.watch(x)" in str(ex)
    assert "variable 'frozen:0'" in str(ef) and "not trainable" in str(ef)


def test_tape_numpy_escape(eager):
    x = flowgrad.constant(3.0)
    w = flowgrad.Variable(2.0, name="w")
    with flowgrad.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = flowgrad.constant(y.numpy()) * w      # the value leaves the tape and comes back
    gx, gw = tape.gradient(z, [x, w])
    assert gx is None and gw.numpy() == 9.0
    ex, ew = flowgrad.explain_gradient(z, [x, w], tape=tape)
    assert ex.kind == explain.LEFT_TAPE and ew.kind == explain.CONNECTED
    assert ".numpy()" in str(ex) and "recorded op Mul" in str(ex)
    assert [rec.type for rec, _ in ew.path] == ["Mul"]


def test_tape_stop_gradient_cuts_the_record(eager):
    x = flowgrad.constant([1.0, 2.0])
    with flowgrad.GradientTape(persistent=True) as tape:
        tape.watch(x)
        s = flowgrad.stop_gradient(x * x) * 3.0
    assert tape.gradient(s, x) is None
    (e,) = flowgrad.explain_gradient(s, [x], tape=tape)
    assert e.kind == explain.LEFT_TAPE and "tf.stop_gradient" in str(e)


def test_tape_integer_source_and_argument_errors(eager):
    n = flowgrad.constant(3)
    with flowgrad.GradientTape() as tape:
        tape.watch(flowgrad.constant(1.0))
        y = flowgrad.cast(n, flowgrad.float32) * 2.0
    (e,) = flowgrad.explain_gradient(y, [n], tape=tape)
    assert e.gradient_is_none and "dtype int32" in str(e)
    with pytest.raises(ValueError, match="needs the tape"):
        flowgrad.explain_gradient(y, [n])
    tape.gradient(y, [n])
    with pytest.raises(ValueError, match="persistent"):
        flowgrad.explain_gradient(y, [n], tape=tape)


def test_tape_in_graph_mode_reports_unwatched_sources():
    x = tf.placeholder(tf.float32, [], name="x")
    with flowgrad.GradientTape() as tape:
        y = x * x
    (e,) = flowgrad.explain_gradient(y, [x], tape=tape)
    assert e.kind == explain.UNWATCHED
