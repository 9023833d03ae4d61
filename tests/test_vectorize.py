"""Vectorization (flowgrad.autodiff.pfor): tf.vectorized_map, pfor jacobians and tf.hessians.

Every op type with a batching rule is run through vectorized_map and compared with
the per-example loop; every jvp entry of tests/op_db.py gets its pfor jacobian
compared with the looped one; ops without a rule run in a loop with a warning."""
import warnings

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.framework.context import state
from flowgrad.autodiff.pfor import batch_rule_types
import op_db

# op type -> (function of float64 tensors building that op, input arrays): tests/op_db.py
RECIPES = {e.op: (e.fn, e.inputs) for e in op_db.entries(jvp=True)}
R = np.random.RandomState(1)
C32 = tf.constant(R.uniform(-1, 1, (3, 2)))
C22 = tf.constant(R.uniform(-1, 1, (2, 2)))
W2211 = tf.constant(R.uniform(-1, 1, (2, 2, 1, 1)))

# op type -> [functions of one example x (a (2, 3) float64 tensor)]: tests/op_db.py
VMAP_RECIPES: dict = {}
for _e in op_db.entries(vmap=True):
    VMAP_RECIPES.setdefault(_e.op, []).append(_e.fn)
ELEMS = op_db.entries(vmap=True)[0].inputs[0]      # the batch of 3 examples they map over


def _image(x):
    return tf.reshape(tf.concat([x, x], 0), [1, 2, 6, 1])


@pytest.fixture(autouse=True)
def eager_mode():
    tf1.enable_v2_behavior()
    yield
    state.tapes.clear()


def test_every_batching_rule_has_a_recipe():
    assert set(batch_rule_types()) - set(VMAP_RECIPES) == set()


def _types_in(fn):
    g = tf1.Graph()
    with g.as_default():
        fn(tf.constant(ELEMS[0]))
    return {op.type for op in g.get_operations()}


def _loop(fn):
    outs = [tf.nest.flatten(fn(tf.constant(e))) for e in ELEMS]
    return [np.stack([o[k].numpy() for o in outs]) for k in range(len(outs[0]))]


@pytest.mark.parametrize("op_type", sorted(VMAP_RECIPES))
def test_vectorized_map_equals_the_loop(op_type):
    for fn in VMAP_RECIPES[op_type]:
        assert op_type in _types_in(fn), "the recipe does not create %s" % op_type
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got = tf.nest.flatten(tf.vectorized_map(fn, tf.constant(ELEMS)))
        looped = [str(w.message) for w in caught if "vectorization rule" in str(w.message)]
        assert not any(op_type in m.split("op type(s)")[1].split(";")[0].split(", ")
                       for m in looped), looped
        for a, b in zip(got, _loop(fn)):
            np.testing.assert_allclose(a.numpy(), b, rtol=1e-12, atol=1e-12, err_msg=op_type)


def test_op_without_a_rule_runs_in_a_loop_with_a_warning():
    def fn(x):
        return tf.nn.conv2d_transpose(_image(x), W2211, [1, 3, 7, 1], 1, "VALID")

    with pytest.warns(UserWarning, match="no vectorization rule for op type\\(s\\) "
                      "Conv2DBackpropInput"):
        got = tf.vectorized_map(fn, tf.constant(ELEMS))
    np.testing.assert_allclose(got.numpy(), _loop(fn)[0], rtol=1e-12)
    with pytest.raises(ValueError, match="Conv2DBackpropInput"):
        tf.vectorized_map(fn, tf.constant(ELEMS), fallback_to_while_loop=False)


def test_vectorized_map_structures_and_bad_elems():
    got = tf.vectorized_map(lambda p: p[0] * p[1], (tf.constant(ELEMS), tf.constant(ELEMS)))
    np.testing.assert_allclose(got.numpy(), ELEMS * ELEMS)
    with pytest.raises(ValueError, match="leading dimension"):
        tf.vectorized_map(lambda p: p[0], (tf.constant(ELEMS), tf.constant(ELEMS[:2])))


@pytest.mark.parametrize("op_type", sorted(RECIPES))
def test_pfor_jacobian_equals_looped_jacobian(op_type):
    fn, vals = RECIPES[op_type]
    xs = [tf.constant(v) for v in vals]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(xs)
        ys = [y for y in tf.nest.flatten(fn(*xs)) if y.dtype.is_floating]
    for y in ys:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fast = tape.jacobian(y, xs)
        slow = tape.jacobian(y, xs, experimental_use_pfor=False)
        for a, b in zip(fast, slow):
            assert (a is None) == (b is None)
            if a is not None:
                np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-10, atol=1e-12,
                                           err_msg=op_type)


def _mlp(x, w1, w2):
    return tf.matmul(tf.tanh(tf.matmul(x, w1) + 0.1), w2)


def test_batch_jacobian_of_an_mlp_and_unconnected_sources():
    x = tf.constant(R.uniform(-1, 1, (4, 3)))
    w1, w2 = tf.constant(R.uniform(-1, 1, (3, 5))), tf.constant(R.uniform(-1, 1, (5, 2)))
    other = tf.constant(R.uniform(-1, 1, (4, 3)))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, other])
        y = tf.nn.softmax(_mlp(x, w1, w2))
    with warnings.catch_warnings():
        warnings.simplefilter("error")      # every op of this backward pass has a rule
        fast = tape.batch_jacobian(y, x)
    slow = tape.batch_jacobian(y, x, experimental_use_pfor=False)
    assert fast.shape.as_list() == [4, 2, 3]
    np.testing.assert_allclose(fast.numpy(), slow.numpy(), rtol=1e-12, atol=1e-14)
    assert tape.jacobian(y, other) is None
    z = tape.jacobian(y, other, unconnected_gradients="zero")
    assert z.shape.as_list() == [4, 2, 4, 3] and not np.any(z.numpy())


def _looped_hessian(y, x, n):
    g = tf1.gradients(y, x)[0]
    rows = [tf1.gradients(gi, x)[0] for gi in tf1.unstack(tf1.reshape(g, [n]), num=n)]
    return tf1.reshape(tf1.stack(rows), x.shape.as_list() * 2)


HESSIAN_CASES = {
    "sum_tanh": lambda x: tf1.reduce_sum(tf1.tanh(x)),
    "quadratic": lambda x: tf1.reduce_sum(
        tf1.reshape(x, [2, 3]) * tf1.matmul(C22, tf1.reshape(x, [2, 3]))),
    "softmax_xent": lambda x: tf1.reduce_sum(tf1.nn.softmax_cross_entropy_with_logits_v2(
        labels=tf1.constant(np.eye(3)[[0, 2]]), logits=tf1.reshape(x, [2, 3]))),
    "mlp": lambda x: tf1.reduce_sum(tf1.sigmoid(tf1.matmul(tf1.reshape(x, [2, 3]), C32))),
}


@pytest.mark.parametrize("case", sorted(HESSIAN_CASES))
def test_hessians_equal_the_looped_ones(case):
    tf1.disable_v2_behavior()
    x = tf1.placeholder(tf1.float64, [6])
    y = HESSIAN_CASES[case](x)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        (h,) = tf1.hessians(y, x)
    ref = _looped_hessian(y, x, 6)
    xv = R.uniform(-1, 1, 6)
    with tf1.Session() as sess:
        a, b = sess.run([h, ref], {x: xv})
    assert a.shape == (6, 6)
    np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)


def test_hessians_of_a_linear_function_raise_as_tensorflow():
    tf1.disable_v2_behavior()
    x = tf1.placeholder(tf1.float64, [3])
    with pytest.raises(ValueError, match="does not depend"):
        tf1.hessians(tf1.reduce_sum(2.0 * x), x)
    with pytest.raises(ValueError, match="gradient is None"):
        tf1.hessians(tf1.reduce_sum(tf1.constant([1.0])), x)


def test_pfor_jacobian_inside_tf_function():
    @tf.function
    def jac(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.tanh(x) * tf.reduce_sum(x)
        return tape.jacobian(y, x)

    xv = R.uniform(-1, 1, 3)
    t = np.tanh(xv)
    expected = np.diag((1 - t * t) * xv.sum()) + t[:, None]
    np.testing.assert_allclose(jac(tf.constant(xv)).numpy(), expected, rtol=1e-12)


@pytest.mark.parametrize("op_type", sorted(RECIPES))
def test_pfor_jacobian_in_a_graph_equals_looped_jacobian(op_type):
    """The same in a TF1 graph: the ops the backward pass added are vectorized."""
    fn, vals = RECIPES[op_type]
    with tf1.Graph().as_default():
        xs = [tf1.placeholder(tf1.float64, np.shape(v)) for v in vals]
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(xs)
            ys = [y for y in tf.nest.flatten(fn(*xs)) if y.dtype.is_floating]
        pairs = []
        for y in ys:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                fast = tape.jacobian(y, xs)
            slow = tape.jacobian(y, xs, experimental_use_pfor=False)
            for a, b in zip(fast, slow):
                assert (a is None) == (b is None)
                if a is not None:
                    pairs.append((a, b))
        with tf1.Session() as sess:
            got = sess.run(pairs, dict(zip(xs, vals)))
    for a, b in got:
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12, err_msg=op_type)
