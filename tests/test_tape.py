"""Eager execution and tf.GradientTape (the TF2 face), custom_gradient, and tapes in graphs."""
import re

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.framework import registry, shape_rules
from flowgrad.framework.context import state
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.tensor import EagerTensor


@pytest.fixture(autouse=True)
def eager_mode():
    """Eager mode (TF2 behaviour) for each test; conftest starts every test in graph mode."""
    tf1.enable_v2_behavior()
    yield
    state.tapes.clear()


# --------------------------------------------------------------------------------------
# Eager tensors and variables


def test_eager_op_runs_at_once_and_returns_an_eager_tensor():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    y = tf.matmul(x, x) + 1.0
    assert isinstance(y, EagerTensor) and isinstance(y, tf.Tensor)
    np.testing.assert_array_equal(y.numpy(), np.array([[8.0, 11.0], [16.0, 23.0]], np.float32))
    assert y.shape == (2, 2) and y.shape.as_list() == [2, 2]
    assert y.dtype == tf.float32 and y.numpy().dtype == np.float32
    assert (x * 2 - 1).numpy().tolist() == [[1.0, 3.0], [5.0, 7.0]]
    assert (x @ x).numpy()[0, 0] == 7.0 and (-x).numpy()[1, 1] == -4.0
    assert (x > 2.0).numpy().tolist() == [[False, False], [True, True]]


def test_eager_tensor_repr_and_str_are_tensorflows():
    assert repr(tf.constant(2.0)) == "<tf.Tensor: shape=(), dtype=float32, numpy=2.0>"
    assert repr(tf.constant([1, 2])) == \
        "<tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>"
    assert str(tf.constant(3)) == "tf.Tensor(3, shape=(), dtype=int32)"
    assert repr(tf.constant([[1.0], [2.0]])) == \
        "<tf.Tensor: shape=(2, 1), dtype=float32, numpy=\narray([[1.],\n       [2.]], " \
        "dtype=float32)>"


def test_eager_tensor_python_conversions():
    x = tf.constant([1.5, 2.5])
    assert float(x[0]) == 1.5 and int(tf.constant(7)) == 7 and len(x) == 2
    assert [float(t) for t in x] == [1.5, 2.5]
    assert isinstance(x.numpy(), np.ndarray) and isinstance(tf.constant(2.0).numpy(), np.float32)
    assert np.asarray(x).tolist() == [1.5, 2.5]
    assert "%.1f" % tf.constant(2.0) == "2.0"


def test_eager_tensors_are_unhashable_but_have_refs():
    x = tf.constant(1.0)
    with pytest.raises(TypeError, match="Tensor is unhashable"):
        hash(x)
    assert {x.ref(): 1}[x.ref()] == 1 and x.ref().deref() is x
    with pytest.raises(AttributeError, match="Tensor.name is undefined when eager"):
        x.name  # noqa: B018


def test_eager_variable_assign_and_numpy():
    v = tf.Variable([1.0, 2.0])
    assert v.trainable and v.dtype == tf.float32 and v.shape == (2,)
    assert repr(v) == "<tf.Variable 'Variable:0' shape=(2,) dtype=float32, " \
                      "numpy=array([1., 2.], dtype=float32)>"
    assert v.assign([3.0, 4.0]) is v
    v.assign_add([1.0, 1.0])
    v.assign_sub(tf.constant([0.5, 0.5]))
    np.testing.assert_array_equal(v.numpy(), [3.5, 4.5])
    assert (v * 2).numpy().tolist() == [7.0, 9.0]
    s = tf.Variable(2.0, trainable=False, name="s")
    assert not s.trainable and s.name == "s:0"
    assert repr(s) == "<tf.Variable 's:0' shape=() dtype=float32, numpy=2.0>"


def test_eager_variable_value_is_a_snapshot():
    v = tf.Variable([1.0, 2.0])
    before = v.value()
    v.assign_add([1.0, 1.0])
    assert before.numpy().tolist() == [1.0, 2.0] and v.numpy().tolist() == [2.0, 3.0]


def test_eager_variable_errors():
    v = tf.Variable([1.0, 2.0])
    with pytest.raises(ValueError, match=re.escape("Shape mismatch.The variable shape (2,), and "
                                                   "the assigned value shape (3,) are "
                                                   "incompatible")):
        v.assign([1.0, 2.0, 3.0])
    with pytest.raises(TypeError, match="Variable is unhashable"):
        {v}  # noqa: B018
    assert v.ref().deref() is v


def test_kernel_errors_are_invalid_argument_errors_naming_the_op():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[Op:MatMul\]"):
        tf.matmul(tf.ones([2, 3]), tf.ones([2, 3]))


def test_eager_and_graph_mode_switches():
    assert tf.executing_eagerly()
    tf1.disable_eager_execution()
    assert not tf.executing_eagerly()
    t = tf1.constant(1.0)
    assert isinstance(t, tf1.Tensor) and not isinstance(t, EagerTensor)
    tf1.enable_eager_execution()
    assert tf.executing_eagerly()
    with tf1.Graph().as_default():
        assert not tf.executing_eagerly()
    assert isinstance(tf.constant(1.0), EagerTensor)


# --------------------------------------------------------------------------------------
# GradientTape


def test_gradient_of_a_watched_tensor():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x * x
    g = tape.gradient(y, x)
    assert isinstance(g, EagerTensor) and g.numpy() == 27.0 and g.dtype == tf.float32


def test_unwatched_tensor_has_no_gradient():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        y = x * x
    assert tape.gradient(y, x) is None


def test_trainable_variables_are_watched_when_accessed():
    w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    b = tf.Variable([0.5, -0.5])
    frozen = tf.Variable(1.0, trainable=False)
    x = tf.constant([[1.0, 1.0]])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.matmul(x, w) + b) * frozen
    gw, gb, gf = tape.gradient(y, [w, b, frozen])
    np.testing.assert_array_equal(gw.numpy(), np.ones((2, 2)))
    np.testing.assert_array_equal(gb.numpy(), [1.0, 1.0])
    assert gf is None
    watched = tape.watched_variables()
    assert len(watched) == 2 and watched[0] is w and watched[1] is b


def test_watched_variables_in_creation_order():
    a, b = tf.Variable(1.0), tf.Variable(2.0)
    with tf.GradientTape() as tape:
        _ = b * a
    watched = tape.watched_variables()
    assert len(watched) == 2 and watched[0] is a and watched[1] is b
    tape.gradient(_, a)
    assert len(tape.watched_variables()) == 2        # still known after the tape is used


def test_watch_accessed_variables_false_needs_explicit_watch():
    v, u = tf.Variable(2.0), tf.Variable(3.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(u)
        y = v * u
    gv, gu = tape.gradient(y, [v, u])
    assert gv is None and gu.numpy() == 2.0
    assert tape.watched_variables()[0] is u and len(tape.watched_variables()) == 1


def test_variable_read_several_times_sums_contributions():
    v = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = v * v + 2.0 * v
    assert tape.gradient(y, v).numpy() == 8.0


def test_non_persistent_tape_raises_on_second_gradient():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)
    with pytest.raises(RuntimeError, match=re.escape(
            "A non-persistent GradientTape can only be used to compute one set of gradients "
            "(or jacobians)")):
        tape.gradient(y, x)


def test_persistent_tape_computes_several_gradients():
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    assert tape.gradient(z, x).numpy() == 32.0
    assert tape.gradient(y, x).numpy() == 4.0
    assert tape.gradient(z, y).numpy() == 8.0      # w.r.t. an intermediate tensor


def test_nested_sources_and_targets_keep_their_structure():
    a, b, c = tf.Variable(1.0), tf.Variable(2.0), tf.Variable(3.0)
    with tf.GradientTape(persistent=True) as tape:
        y = a * b * c
        z = a + b
    g = tape.gradient(y, {"x": a, "rest": [b, (c,)]})
    assert set(g) == {"x", "rest"} and isinstance(g["rest"], list)
    assert isinstance(g["rest"][1], tuple)
    assert [g["x"].numpy(), g["rest"][0].numpy(), g["rest"][1][0].numpy()] == [6.0, 3.0, 2.0]
    ga, gb = tape.gradient([y, z], [a, b])           # a list of targets: their sum
    assert (ga.numpy(), gb.numpy()) == (7.0, 4.0)
    assert tape.gradient(y, a).numpy() == 6.0      # a single source gives a single gradient


def test_output_gradients_weight_the_targets():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    g = tape.gradient(y, x, output_gradients=tf.constant([10.0, 100.0]))
    np.testing.assert_array_equal(g.numpy(), [20.0, 400.0])


def test_unconnected_gradients_zero():
    x, u = tf.Variable([1.0, 2.0]), tf.Variable([[5.0]])
    with tf.GradientTape(persistent=True) as tape:
        y = x * 2.0
    assert tape.gradient(y, u) is None
    g = tape.gradient(y, u, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    np.testing.assert_array_equal(g.numpy(), [[0.0]])
    g2 = tape.gradient(y, [x, u], unconnected_gradients="zero")
    np.testing.assert_array_equal(g2[0].numpy(), [2.0, 2.0])


def test_integer_targets_and_sources_give_none():
    x = tf.constant(3)
    f = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        tape.watch(f)
        y = x * x
        z = tf.cast(f * 2.0, tf.int32)
    assert tape.gradient(y, x) is None
    assert tape.gradient(z, f) is None
    assert tape.gradient(tf.cast(z, tf.float32), f) is None


def test_stop_gradient_blocks_the_tape():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.stop_gradient(x * x) * x
    assert tape.gradient(y, x).numpy() == 4.0


def test_target_equal_to_source_has_gradient_one():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
    np.testing.assert_array_equal(tape.gradient(x, x).numpy(), [1.0, 1.0])


def test_stop_recording_and_reset():
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        with tape.stop_recording():
            hidden = x * x
        seen = x * x
        assert tape.gradient(hidden, x) is None
        assert tape.gradient(seen, x).numpy() == 6.0
        tape.reset()
        assert tape.gradient(seen, x) is None
        tape.watch(x)
        again = x * x * x
    assert tape.gradient(again, x).numpy() == 27.0
    with pytest.raises(ValueError, match="Tape is not recording"):
        with tape.stop_recording():
            pass


def test_module_stop_recording_pauses_every_tape():
    from flowgrad.autodiff.tape import stop_recording
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as a, tf.GradientTape(persistent=True) as b:
        a.watch(x)
        b.watch(x)
        with stop_recording():
            assert not state.tapes
            hidden = x * x
        seen = x * x
    assert a.gradient(hidden, x) is None and b.gradient(hidden, x) is None
    assert a.gradient(seen, x).numpy() == b.gradient(seen, x).numpy() == 4.0


def test_reentering_an_active_tape_is_an_error():
    tape = tf.GradientTape()
    with tape:
        with pytest.raises(ValueError, match="Tape is still recording"):
            tape.__enter__()


def test_watch_rejects_non_tensors():
    with tf.GradientTape() as tape:
        with pytest.raises(ValueError, match="not tf.Tensor or tf.Variable"):
            tape.watch(3.0)


def test_gradient_inside_context_of_non_persistent_tape_stops_recording():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        assert tape.gradient(y, x).numpy() == 4.0
        assert not state.tapes
    assert not state.tapes


def test_nested_tapes_give_higher_derivatives():
    x = tf.Variable(1.5)
    with tf.GradientTape() as t3:
        with tf.GradientTape() as t2:
            with tf.GradientTape() as t1:
                y = tf.exp(x) * x * x
            d1 = t1.gradient(y, x)
        d2 = t2.gradient(d1, x)
    d3 = t3.gradient(d2, x)
    e = np.exp(1.5)
    np.testing.assert_allclose([d1.numpy(), d2.numpy(), d3.numpy()],
                               [e * (1.5 ** 2 + 2 * 1.5), e * (1.5 ** 2 + 4 * 1.5 + 2),
                                e * (1.5 ** 2 + 6 * 1.5 + 6)], rtol=1e-6)


def test_persistent_tape_records_its_own_gradient_inside_its_context():
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x * x
        dy = tape.gradient(y, x)
    assert dy.numpy() == 12.0
    assert tape.gradient(dy, x).numpy() == 12.0


def test_second_derivative_of_relu_is_zero_not_none():
    x = tf.constant([-1.0, 2.0])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.nn.relu(x)
        g = inner.gradient(y, x)
    np.testing.assert_array_equal(g.numpy(), [0.0, 1.0])
    np.testing.assert_array_equal(outer.gradient(g, x).numpy(), [0.0, 0.0])


def test_linear_function_has_no_second_derivative():
    x = tf.constant(2.0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = 3.0 * x
        g = inner.gradient(y, x)
    assert g.numpy() == 3.0 and outer.gradient(g, x) is None


def test_gather_on_a_variable_gives_indexed_slices():
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.gather(v, [2, 0, 2]) * tf.constant([[1.0, 10.0]]))
    g = tape.gradient(y, v)
    assert isinstance(g, tf.IndexedSlices)
    np.testing.assert_array_equal(g.indices.numpy(), [2, 0, 2])
    np.testing.assert_array_equal(tf.convert_to_tensor(g).numpy(),
                                  [[1.0, 10.0], [0.0, 0.0], [2.0, 20.0]])


def test_jacobian():
    x = tf.constant([1.0, 2.0, 3.0])
    w = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.matmul(tf.reshape(x * x, [1, 3]), w)
    jx = tape.jacobian(y, x)
    assert jx.shape == (1, 2, 3)
    np.testing.assert_allclose(jx.numpy()[0], (w.numpy() * (2 * x.numpy())[:, None]).T)
    jw = tape.jacobian(y, w)
    assert jw.shape == (1, 2, 3, 2)
    expected = np.zeros((1, 2, 3, 2), np.float32)
    for j in range(2):
        expected[0, j, :, j] = x.numpy() ** 2
    np.testing.assert_allclose(jw.numpy(), expected)
    assert tape.jacobian(y, tf.Variable(1.0)) is None


def test_batch_jacobian():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.concat([x * x, tf.reduce_sum(x, axis=1, keepdims=True)], axis=1)
    j = tape.batch_jacobian(y, x)
    assert j.shape == (3, 3, 2)
    for b in range(3):
        np.testing.assert_allclose(j.numpy()[b], [[2 * x.numpy()[b, 0], 0.0],
                                                  [0.0, 2 * x.numpy()[b, 1]], [1.0, 1.0]])
    with pytest.raises(RuntimeError, match="non-persistent"):
        tape.jacobian(y, x)


def test_batch_jacobian_needs_matching_batch_dimension():
    x, z = tf.constant([[1.0, 2.0]]), tf.constant([[1.0], [2.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * 2.0
    with pytest.raises(ValueError, match="Need first dimension of target shape"):
        tape.batch_jacobian(y, z)


def test_sources_must_be_tensors_or_variables():
    with tf.GradientTape() as tape:
        pass
    with pytest.raises(TypeError, match="sources must be tensors or variables"):
        tape.gradient(tf.constant(1.0), [np.ones(2)])


registry.register_op("TapeTestNoGradient", lambda x: x * 2, shape_rules.unary)


def test_op_without_gradient_raises_lookup_error_naming_it():
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = apply_op("TapeTestNoGradient", [x])
    with pytest.raises(LookupError, match="TapeTestNoGradient"):
        tape.gradient(y, x)


# --------------------------------------------------------------------------------------
# custom_gradient


@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return tf.math.log(1 + e), grad


@pytest.mark.filterwarnings("ignore:overflow encountered in exp")
def test_custom_gradient_eager():
    x = tf.constant(100.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = log1pexp(x)
    assert y.numpy() == np.inf                      # float32 exp(100) overflows, as in TF
    assert tape.gradient(y, x).numpy() == 1.0      # the plain gradient would be nan


def test_custom_gradient_is_differentiable_again():
    x = tf.constant(0.5, tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = log1pexp(x)
        g = inner.gradient(y, x)
    s = 1 / (1 + np.exp(-0.5))
    np.testing.assert_allclose([g.numpy(), outer.gradient(g, x).numpy()], [s, s * (1 - s)])


def test_custom_gradient_with_variables():
    v = tf.Variable(3.0)

    @tf.custom_gradient
    def scaled(x):
        def grad(dy, variables=None):
            return dy * 10.0, [dy * 100.0]
        return x * v, grad

    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = scaled(x)
    assert y.numpy() == 6.0
    gx, gv = tape.gradient(y, [x, v])
    assert (gx.numpy(), gv.numpy()) == (10.0, 100.0)


def test_custom_gradient_with_variables_needs_variables_argument():
    v = tf.Variable(3.0)

    @tf.custom_gradient
    def scaled(x):
        return x * v, lambda dy: dy

    with pytest.raises(TypeError, match="must accept keyword argument 'variables'"):
        scaled(tf.constant(1.0))


def test_custom_gradient_wrong_number_of_gradients():
    @tf.custom_gradient
    def f(x, y):
        return x * y, lambda dy: dy

    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        z = f(x, tf.constant(2.0))
    with pytest.raises(ValueError, match="expected to return 2 gradients, but returned 1"):
        tape.gradient(z, x)


@pytest.mark.filterwarnings("ignore:overflow encountered in exp")
def test_custom_gradient_in_graph_mode():
    tf1.disable_eager_execution()
    with tf1.Graph().as_default():
        x = tf1.placeholder(tf1.float32, [])
        y = log1pexp(x) * 2.0
        (g,) = tf1.gradients(y, [x])
        assert any(op.type == "IdentityN" for op in tf1.get_default_graph().get_operations())
        with tf1.Session() as sess:
            yv, gv = sess.run([y, g], {x: 100.0})
    assert gv == 2.0 and yv == np.inf


# --------------------------------------------------------------------------------------
# GradientTape inside a graph


def test_gradient_tape_in_a_graph_returns_symbolic_gradients():
    tf1.disable_eager_execution()
    with tf1.Graph().as_default():
        x = tf1.placeholder(tf1.float32, [2])
        before = x * 1.0
        w = tf1.Variable([1.0, 2.0])
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = tf1.reduce_sum(x * x * w)
            inside = y * 1.0
        gx, gw = tape.gradient(y, [x, w])
        assert isinstance(gx, tf1.Tensor) and not isinstance(gx, EagerTensor)
        assert tape.gradient(inside, before) is None   # created before the tape recorded
        assert tape.gradient(inside, y) is not None     # created while it recorded
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            gxv, gwv = sess.run([gx, gw], {x: [3.0, 4.0]})
    np.testing.assert_array_equal(gxv, [6.0, 16.0])
    np.testing.assert_array_equal(gwv, [9.0, 16.0])


def test_gradient_tape_in_a_graph_ignores_unwatched_placeholders():
    tf1.disable_eager_execution()
    with tf1.Graph().as_default():
        x = tf1.placeholder(tf1.float32, [])
        with tf.GradientTape() as tape:
            y = x * x
        assert tape.gradient(y, x) is None
