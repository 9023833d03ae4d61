"""tf.autodiff.ForwardAccumulator: JVPs against reverse-mode Jacobians, nesting, watch rules.

One table-driven test covers every differentiable op type in the registry: the
accumulator's jvp must equal the (looped) reverse-mode Jacobian times the tangent."""
import numpy as np
import pytest

import flowgrad as tf
from flowgrad.autodiff.forward_mode import DERIVED, DIRECT, jvp_rule_kinds
from flowgrad.framework.context import state
import op_db

R = np.random.RandomState(0)


def _a(*shape, lo=-1.0, hi=1.0):
    return R.uniform(lo, hi, size=shape)


# op type -> (function of float64 tensors building that op, input arrays): tests/op_db.py
RECIPES = {e.op: (e.fn, e.inputs) for e in op_db.entries(jvp=True)}
EXCLUDED = op_db.NO_JVP_CHECK


@pytest.fixture(autouse=True)
def eager_mode():
    tf.compat.v1.enable_v2_behavior()
    yield
    state.tapes.clear()


def test_every_differentiable_op_has_a_recipe_or_a_reason():
    kinds = jvp_rule_kinds()
    assert set(kinds) - set(RECIPES) - set(EXCLUDED) == set()
    assert set(kinds.values()) == {DIRECT, DERIVED}
    assert kinds["Tanh"] == DIRECT and kinds["Conv2D"] == DERIVED


def _float_outputs(y):
    ys = y if isinstance(y, (list, tuple)) else [y]
    return [t for t in ys if t.dtype.is_floating]


def _traced_types(fn, vals):
    """The op types ``fn`` creates when traced into a graph."""
    g = tf.Graph()
    with g.as_default():
        fn(*[tf.constant(v) for v in vals])
    return {op.type for op in g.get_operations()}


@pytest.mark.parametrize("op_type", sorted(RECIPES))
def test_jvp_equals_jacobian_times_tangent(op_type):
    fn, vals = RECIPES[op_type]
    if op_type not in _traced_types(fn, vals):
        pytest.fail("the recipe of %s does not create that op" % op_type)
    xs = [tf.constant(v) for v in vals]
    ts = [tf.constant(R.uniform(-1, 1, size=np.shape(v))) for v in vals]
    with tf.autodiff.ForwardAccumulator(xs, ts) as acc:
        ys = _float_outputs(fn(*xs))
    jvps = [acc.jvp(y, unconnected_gradients="zero") for y in ys]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(xs)
        ys2 = _float_outputs(fn(*xs))
    for y, jvp in zip(ys2, jvps):
        expected = np.zeros(y.shape.as_list())
        for x, t in zip(xs, ts):
            jac = tape.jacobian(y, x, experimental_use_pfor=False)
            if jac is not None:
                expected = expected + np.tensordot(jac.numpy(), t.numpy(), axes=t.shape.rank)
        np.testing.assert_allclose(jvp.numpy(), expected, rtol=1e-6, atol=1e-9,
                                   err_msg=op_type)


X = np.array([0.3, -1.2, 0.7])
V = np.array([1.0, 0.5, -2.0])


def _hvp_closed_form():
    t = np.tanh(X)
    return -2 * t * (1 - t * t) * V


def test_forward_over_reverse_hessian_vector_product():
    x, v = tf.constant(X), tf.constant(V)
    with tf.autodiff.ForwardAccumulator(x, v) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.tanh(x))
        g = tape.gradient(y, x)
    np.testing.assert_allclose(acc.jvp(g).numpy(), _hvp_closed_form(), rtol=1e-12)


def test_reverse_over_forward_hessian_vector_product():
    x, v = tf.constant(X), tf.constant(V)
    with tf.GradientTape() as tape:
        tape.watch(x)
        with tf.autodiff.ForwardAccumulator(x, v) as acc:
            y = tf.reduce_sum(tf.tanh(x))
        jvp = acc.jvp(y)
    np.testing.assert_allclose(tape.gradient(jvp, x).numpy(), _hvp_closed_form(), rtol=1e-12)


def test_variables_are_primals_and_their_reads_carry_the_tangent():
    w = tf.Variable(X)
    with tf.autodiff.ForwardAccumulator(w, tf.constant(V)) as acc:
        y = tf.reduce_sum(w * w)
    assert acc.jvp(y).numpy() == pytest.approx(np.sum(2 * X * V))
    np.testing.assert_allclose(acc.jvp(w).numpy(), V)


def test_only_ops_run_inside_the_context_get_tangents():
    x = tf.constant(X)
    acc = tf.autodiff.ForwardAccumulator(x, tf.constant(V))
    outside = tf.sin(x)
    with acc:
        inside = tf.sin(x)
    after = tf.cos(x)
    assert acc.jvp(outside) is None and acc.jvp(after) is None
    np.testing.assert_allclose(acc.jvp(inside).numpy(), np.cos(X) * V)
    assert np.all(acc.jvp(after, unconnected_gradients="zero").numpy() == 0)
    with pytest.raises(ValueError, match="does not depend"):
        acc.jvp(after, unconnected_gradients="raise")


def test_stop_gradient_blocks_the_tangent():
    x = tf.constant(X)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(V)) as acc:
        y = tf.stop_gradient(x) * 2.0
    assert acc.jvp(y) is None


def test_structures_and_bad_tangents():
    a, b = tf.constant(X), tf.constant(2 * X)
    with tf.autodiff.ForwardAccumulator({"a": a, "b": b}, {"a": tf.constant(V),
                                                           "b": tf.constant(V)}) as acc:
        y = a * b
    out = acc.jvp({"y": y, "a": a})
    np.testing.assert_allclose(out["y"].numpy(), V * 2 * X + X * V)
    with pytest.raises(ValueError, match="tangent shape"):
        tf.autodiff.ForwardAccumulator(a, tf.constant([1.0, 2.0], tf.float64))
    with pytest.raises(ValueError, match="same structure"):
        tf.autodiff.ForwardAccumulator([a, b], [tf.constant(V)])
    with pytest.raises(ValueError, match="floating"):
        tf.autodiff.ForwardAccumulator(tf.constant([1, 2]), tf.constant([1, 2]))


def test_inside_tf_function_with_a_derived_rule():
    @tf.function
    def f(x, v):
        with tf.autodiff.ForwardAccumulator(x, v) as acc:
            y = tf.reduce_sum(tf.math.erf(x) * tf.sin(x))
        return acc.jvp(y)

    x, v = tf.constant(X), tf.constant(V)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.math.erf(x) * tf.sin(x))
    expected = np.sum(tape.gradient(y, x).numpy() * V)
    assert f(x, v).numpy() == pytest.approx(expected, rel=1e-12)


def test_graph_mode_tf1():
    with tf.Graph().as_default():
        x = tf.constant(X)
        with tf.autodiff.ForwardAccumulator(x, tf.constant(V)) as acc:
            y = tf.matmul(tf.reshape(tf.tanh(x), [1, 3]), tf.reshape(x, [3, 1]))
        j = acc.jvp(y)
        with tf.compat.v1.Session() as sess:
            got = sess.run(j)
    t = np.tanh(X)
    assert got.item() == pytest.approx(np.sum(((1 - t * t) * X + t) * V))


def _eager_jvps(fn, xs, ts):
    with tf.autodiff.ForwardAccumulator(xs, ts) as acc:
        ys = _float_outputs(fn(*xs))
    return [acc.jvp(y, unconnected_gradients="zero").numpy() for y in ys]


@pytest.mark.parametrize("op_type", sorted(RECIPES))
def test_jvp_in_a_graph_equals_the_eager_jvp(op_type):
    """The same accumulator in a TF1 graph (tangents computed by walking its ops)."""
    fn, vals = RECIPES[op_type]
    tvals = [R.uniform(-1, 1, size=np.shape(v)) for v in vals]
    expected = _eager_jvps(fn, [tf.constant(v) for v in vals], [tf.constant(t) for t in tvals])
    with tf.Graph().as_default():
        xs = [tf.compat.v1.placeholder(tf.float64, np.shape(v)) for v in vals]
        with tf.autodiff.ForwardAccumulator(xs, [tf.constant(t) for t in tvals]) as acc:
            ys = _float_outputs(fn(*xs))
        jvps = [acc.jvp(y, unconnected_gradients="zero") for y in ys]
        with tf.compat.v1.Session() as sess:
            got = sess.run(jvps, dict(zip(xs, vals)))
    for a, b in zip(got, expected):
        np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-12, err_msg=op_type)


def test_forward_over_forward_gives_the_second_directional_derivative():
    x, v = tf.constant(X), tf.constant(V)
    with tf.autodiff.ForwardAccumulator(x, v) as outer:
        with tf.autodiff.ForwardAccumulator(x, v) as inner:
            y = tf.reduce_sum(tf.tanh(x))
        d1 = inner.jvp(y)
    t = np.tanh(X)
    assert d1.numpy() == pytest.approx(np.sum((1 - t * t) * V))
    assert outer.jvp(d1).numpy() == pytest.approx(np.sum(-2 * t * (1 - t * t) * V * V))


def test_tf_function_called_eagerly_inside_the_accumulator():
    @tf.function
    def f(x):
        return tf.reduce_sum(tf.sin(x) * x)

    x = tf.constant(X)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(V)) as acc:
        y = f(x)
    assert acc.jvp(y).numpy() == pytest.approx(np.sum((np.cos(X) * X + np.sin(X)) * V))


def test_custom_gradient_ops_use_their_gradient_for_the_jvp():
    @tf.custom_gradient
    def scaled(x):
        return 3.0 * x, lambda dy: 5.0 * dy      # a deliberately different gradient

    x = tf.constant(X)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(V)) as acc:
        y = scaled(x)
    np.testing.assert_allclose(acc.jvp(y).numpy(), 5.0 * V)


@pytest.mark.parametrize("fn", [tf.nn.softmax, tf.nn.log_softmax])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_softmax_jvps_follow_the_axis(fn, axis):
    x, t = tf.constant(_a(3, 4)), tf.constant(_a(3, 4))
    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        y = fn(x, axis=axis)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y2 = fn(x, axis=axis)
    jac = tape.jacobian(y2, x, experimental_use_pfor=False).numpy()
    np.testing.assert_allclose(acc.jvp(y).numpy(), np.tensordot(jac, t.numpy(), axes=2),
                               rtol=1e-6, atol=1e-9)
