"""The eager hot path's shortcuts give what the general path gives (issue 14).

Dtype facts fixed at creation, skipped inputs' gradients, eager reduction gradients that
read shapes from the values, flat gradient sources, and the hooks that must still fire."""
import numpy as np
import pytest

import flowgrad.compat.v1 as tf
from flowgrad.framework import dtypes
from flowgrad.framework.context import state
from flowgrad.framework.registry import gradient_function
from flowgrad.framework.tensor import EagerTensor, is_tensor
from gradcheck import check_gradients


@pytest.fixture(autouse=True)
def eager_mode():
    tf.enable_v2_behavior()
    yield
    state.tapes.clear()


@pytest.mark.parametrize("dt", dtypes._ALL, ids=lambda d: d.name)
def test_dtype_facts_fixed_at_creation(dt):
    # ml_dtypes' bfloat16 and float8 types are NumPy void kinds; TensorFlow's are floating
    kind = "f" if dt.name == "bfloat16" or dt.name.startswith("float8") else dt.np.kind
    ref = dt._as_ref()
    assert (dt.kind, dt.base_dtype) == (kind, dt)
    assert (ref.kind, ref.base_dtype, ref.is_ref) == (kind, dt, True)
    assert dtypes.is_differentiable(dt) == dtypes.is_differentiable(ref) == (kind in "fc")
    assert dt.is_floating == (kind == "f")


def test_is_tensor_plain_values_and_tensor_likes():
    for v in (1, 2.0, True, "s", b"s", (1, 2), [1], {}, None, np.ones(2)):
        assert not is_tensor(v)
    assert is_tensor(tf.constant(1.0))
    assert is_tensor(tf.Variable(1.0))


def _recorded(fn, *values):
    """The single op record that ``fn`` leaves on a tape watching all of ``values``."""
    xs = [tf.constant(v) for v in values]
    with tf.GradientTape(persistent=True) as tape:
        for x in xs:
            tape.watch(x)
        fn(*xs)
    (rec,) = tape._records
    return rec


@pytest.mark.parametrize("op,fn", [("AddV2", tf.add), ("Sub", tf.subtract),
                                   ("Mul", tf.multiply), ("RealDiv", tf.realdiv)])
def test_binary_gradients_leave_out_skipped_inputs(op, fn):
    x, y = np.array([[1.0, 2.0]]), np.array([[3.0], [4.0]])
    rec = _recorded(fn, x, y)
    assert rec.type == op
    grad = tf.constant(np.arange(4.0).reshape(2, 2) + 1)
    gfn = gradient_function(rec)
    full = [g.numpy() for g in gfn(rec, grad)]
    assert [f.shape for f in full] == [(1, 2), (2, 1)]
    for skip in (0, 1):
        rec.skip_input_indices = (skip,)
        part = gfn(rec, grad)
        assert part[skip] is None
        np.testing.assert_allclose(part[1 - skip].numpy(), full[1 - skip])


@pytest.mark.parametrize("both", [False, True])
def test_tape_gradients_with_and_without_skipped_inputs(both):
    x0, y0 = np.array([1.0, 2.0]), np.array([3.0, 5.0])
    x, y = tf.constant(x0), tf.constant(y0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        z = tf.reduce_sum(x * y / (x + y) - y)
    grads = tape.gradient(z, [x, y] if both else [x])
    np.testing.assert_allclose(grads[0].numpy(), (y0 / (x0 + y0)) ** 2)
    if both:    # as in TensorFlow 2.21, a constant that was never watched gets None
        assert grads[1] is None


@pytest.mark.parametrize("fn", [tf.add, tf.subtract, tf.multiply, tf.realdiv,
                                lambda a, b: tf.matmul(a, tf.reshape(b, [1, 4]))],
                         ids=["add", "sub", "mul", "realdiv", "matmul"])
def test_second_order_through_an_input_the_inner_tape_skips(fn):
    """The inner tape skips y's gradient; the outer tape still differentiates dz/dx in y."""
    rng = np.random.default_rng(3)
    x, y = tf.constant(rng.normal(size=(3, 1))), tf.constant(rng.normal(size=(4,)) + 3.0)

    def second(watch_y_inside):
        with tf.GradientTape() as outer:
            outer.watch(y)
            with tf.GradientTape() as inner:
                inner.watch([x, y] if watch_y_inside else x)
                z = tf.reduce_sum(fn(x, y) ** 2)
            gx = inner.gradient(z, x)
            s = tf.reduce_sum(gx * gx)
        return gx.numpy(), outer.gradient(s, y).numpy()

    skipped, reference = second(False), second(True)
    np.testing.assert_allclose(skipped[0], reference[0])
    np.testing.assert_allclose(skipped[1], reference[1])
    assert np.any(skipped[1] != 0) or fn is tf.add


@pytest.mark.parametrize("reduce", [tf.reduce_sum, tf.reduce_mean], ids=["sum", "mean"])
@pytest.mark.parametrize("axis", [None, 0, 1, 2, -1, (0, 1), (1, 2), (0, 2), [0, 1, 2], ()])
@pytest.mark.parametrize("keepdims", [False, True])
def test_eager_reduction_gradient_shapes(reduce, axis, keepdims):
    x0 = np.random.default_rng(0).normal(size=(3, 4, 5))
    x = tf.constant(x0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = reduce(x, axis=axis, keepdims=keepdims)
        w = tf.constant(np.random.default_rng(1).normal(size=y.shape))
        z = tf.reduce_sum(y * w)
    g = tape.gradient(z, x)
    axes = (0, 1, 2) if axis is None else tuple(np.atleast_1d(axis) % 3)
    kept = w.numpy() if keepdims else np.expand_dims(w.numpy(), axes)
    count = int(np.prod([x0.shape[a] for a in axes])) if reduce is tf.reduce_mean else 1
    np.testing.assert_allclose(g.numpy(), np.broadcast_to(kept, x0.shape) / count)


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
def test_eager_reductions_second_order(axis):
    check_gradients(lambda x: tf.reduce_mean(tf.reduce_sum(x * x, axis=axis) ** 2),
                    [np.random.default_rng(2).normal(size=(3, 4))], order=2, mode="eager")


def test_gradient_keeps_the_sources_structure():
    v, w = tf.Variable(2.0), tf.Variable(3.0)
    x = tf.constant(4.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = v * w * x
    as_list = tape.gradient(y, [v, w, x])
    as_tuple = tape.gradient(y, (v, w))
    nested = tape.gradient(y, {"a": [v, (w,)], "b": x})
    assert type(as_list) is list and type(as_tuple) is tuple
    assert [g.numpy() for g in as_list] == [12.0, 8.0, 6.0]
    assert [g.numpy() for g in as_tuple] == [12.0, 8.0]
    assert nested["a"][0].numpy() == 12.0 and nested["a"][1][0].numpy() == 8.0
    assert nested["b"].numpy() == 6.0
    assert tape.gradient(y, v).numpy() == 12.0


def test_watched_variables_after_the_tape_is_used():
    a, b = tf.Variable(1.0), tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = b * a
    tape.gradient(y, [a, b])
    assert tape.watched_variables() == (a, b)       # creation order, also once consumed


def test_check_numerics_still_sees_eager_ops():
    from flowgrad import debug
    x = tf.constant([1.0, 0.0])
    with debug.check_numerics_mode():
        with pytest.raises(tf.errors.InvalidArgumentError, match="Log"):
            tf.math.log(x)
        with tf.GradientTape() as tape:
            tape.watch(x)
            with pytest.raises(tf.errors.InvalidArgumentError):
                tf.math.log(x)
    assert isinstance(tf.math.log(x), EagerTensor)      # the mode is off again


def test_string_scalars_keep_a_dtype_and_a_shape():
    # TensorFlow's strings are bytes: str values are UTF-8 encoded, numpy() gives bytes
    c = tf.constant("a")
    assert c.dtype == tf.string and c.shape == () and c.numpy() == b"a"
    v = tf.Variable("a")
    assert v.dtype == tf.string and v.shape == ()
    assert tf.identity(v).numpy() == b"a"
    v.assign("bc")
    assert v.numpy() == b"bc"
    assert tf.constant(["x", "y"]).numpy().tolist() == [b"x", b"y"]
    assert type(tf.constant(3.0)._value) is np.float32      # numbers stay NumPy scalars
