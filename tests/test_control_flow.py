"""tf.cond / tf.case / tf.switch_case / tf.while_loop: forward, gradients of orders 1-2 (graph
and eager), only-the-taken-branch, variables in loop bodies, and build-time errors.

The numerical gradient checks of the control_flow cases are entries of tests/op_db.py."""
import collections
import sys

import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as tf

R = np.random.RandomState(3)
X3 = R.uniform(0.2, 1.0, size=(3,))
W22 = R.uniform(-0.8, 0.8, size=(2, 2))


def _run(fetches, feed=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed)


# -- forward semantics -----------------------------------------------------------------------

def test_cond_forward_and_gradients_both_branches():
    x = tf.placeholder(tf.float64, [])
    y = tf.cond(x > 0, lambda: x * x, lambda: -3.0 * x)
    g, = tf.gradients(y, x)
    gg, = tf.gradients(g, x)
    sess = tf.Session()
    assert sess.run([y, g, gg], {x: 2.0}) == [4.0, 4.0, 2.0]
    assert sess.run([y, g, gg], {x: -2.0}) == [6.0, -3.0, 0.0]


def test_cond_v1_names_and_strict():
    x = tf.constant(2.0)
    one = tf.cond(x > 1, fn1=lambda: [x * 2], fn2=lambda: [x])   # unpacked (strict=False)
    kept = tf.cond(x > 1, lambda: [x * 2], lambda: [x], strict=True)
    assert isinstance(kept, list) and len(kept) == 1
    assert _run(one) == 4.0 and _run(kept) == [4.0]
    with pytest.raises(TypeError, match="true_fn and fn1"):
        tf.cond(x > 1, lambda: x, lambda: x, fn1=lambda: x)


def test_tf2_cond_keeps_structure_and_nested_dicts():
    x = tf.constant(2.0)
    out = flowgrad.cond(x > 1, lambda: {"a": [x * 2], "b": x}, lambda: {"a": [x], "b": -x})
    assert isinstance(out["a"], list)
    assert _run(out) == {"a": [4.0], "b": 2.0}


def test_while_loop_tf1_single_var_and_tf2_structure():
    i = tf.while_loop(lambda i: i < 10, lambda i: i + 3, [tf.constant(0)])
    assert _run(i) == 12
    j = flowgrad.while_loop(lambda i: i < 10, lambda i: (i + 3,), [tf.constant(0)])
    assert isinstance(j, list) and _run(j) == [12]


def test_while_loop_maximum_iterations_and_zero_iterations():
    x = tf.placeholder(tf.float64, [])
    n, y = tf.while_loop(lambda n, y: n < 100, lambda n, y: (n + 1, y * x), [0, tf.constant(
        1.0, tf.float64)], maximum_iterations=4)
    g, = tf.gradients(y, x)
    sess = tf.Session()
    assert sess.run([n, y, g], {x: 2.0}) == [4, 16.0, 32.0]
    n0, y0 = tf.while_loop(lambda n, y: n < 0, lambda n, y: (n + 1, y * x),
                           [0, tf.constant(1.0, tf.float64)])
    g0, = tf.gradients(y0, x, unconnected_gradients="zero")
    assert sess.run([n0, y0, g0], {x: 2.0}) == [0, 1.0, 0.0]


def test_while_loop_growing_shape_with_invariants():
    x = tf.constant([1.0])
    _, y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, tf.concat([y, y * 2], 0)),
                         [0, x], shape_invariants=[tf.TensorShape([]), tf.TensorShape([None])])
    assert y.shape.as_list() == [None]
    np.testing.assert_allclose(_run(y), [1, 2, 2, 4, 2, 4, 4, 8])


def test_hessian_of_a_loop_computed_function():
    # f(x) = sum(x_3) where x_{t+1} = sin(x_t) * x_t + x_t^2 / 4: Hessian vs finite differences
    def f(x):
        return tf.reduce_sum(tf.while_loop(lambda i, y: i < 3,
                                           lambda i, y: (i + 1, tf.sin(y) * y + y * y / 4.0),
                                           [0, x])[1])
    x = tf.placeholder(tf.float64, [3])
    h, = tf.hessians(f(x), x)
    g, = tf.gradients(f(x), x)
    sess = tf.Session()
    x0 = X3.copy()
    hv = sess.run(h, {x: x0})
    eps = 1e-6
    num = np.stack([(sess.run(g, {x: x0 + eps * e}) - sess.run(g, {x: x0 - eps * e})) / (2 * eps)
                    for e in np.eye(3)])
    np.testing.assert_allclose(hv, num, rtol=1e-6, atol=1e-8)
    assert np.count_nonzero(hv - np.diag(np.diag(hv))) == 0     # elementwise map: diagonal


def test_body_reads_tf1_variable_and_trains():
    w = tf.Variable(0.5, dtype=tf.float64)
    _, y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * w + 1.0),
                         [0, tf.constant(1.0, tf.float64)])
    loss = tf.square(y - 10.0)
    g, = tf.gradients(loss, w)
    train = tf.train.GradientDescentOptimizer(0.001).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        wv = 0.5
        yv = wv ** 3 + wv ** 2 + wv + 1
        assert sess.run(g) == pytest.approx(2 * (yv - 10) * (3 * wv ** 2 + 2 * wv + 1))
        first = sess.run(loss)
        for _ in range(20):
            sess.run(train)
        assert sess.run(loss) < first


def test_get_variable_inside_body_is_created_once_outside_the_loop():
    x = tf.placeholder(tf.float64, [2])

    def body(i, h):
        with tf.variable_scope("cell", reuse=tf.AUTO_REUSE):
            w = tf.get_variable("w", [2], tf.float64, initializer=tf.ones_initializer())
        return i + 1, h * w + 1.0
    with tf.variable_scope("rnn"):
        _, y = tf.while_loop(lambda i, h: i < 3, body, [0, x])
    assert [v.name for v in tf.trainable_variables()] == ["rnn/cell/w:0"]
    g, = tf.gradients(tf.reduce_sum(y), tf.trainable_variables())
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        yv, gv = sess.run([y, g], {x: [1.0, 2.0]})
    np.testing.assert_allclose(yv, [4.0, 5.0])
    np.testing.assert_allclose(gv, [3.0 * 1 + 3.0, 3.0 * 2 + 3.0])   # d/dw (x w^3 + w^2 + w + 1)


def test_tape_inside_tf_function_and_eager_variables_in_body():
    tf.enable_v2_behavior()
    v = flowgrad.Variable(1.5, dtype=flowgrad.float64)

    def model(x):
        _, y = flowgrad.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, flowgrad.sin(y) * v),
                                   [0, x])
        return flowgrad.cond(y > 0, lambda: y * y, lambda: -y)

    def grads(x):
        with flowgrad.GradientTape() as t2:
            t2.watch(x)
            with flowgrad.GradientTape() as t1:
                t1.watch(x)
                z = model(x)
            gx, gv = t1.gradient(z, [x, v])
        return z, gx, gv, t2.gradient(gx, x)

    x = flowgrad.constant(0.7, flowgrad.float64)
    traced = flowgrad.function(grads, autograph=False)(x)
    eager = grads(x)
    for a, b in zip(traced, eager):
        assert a.numpy() == pytest.approx(b.numpy(), rel=1e-12)
    graph_ops = {op.type for op in flowgrad.function(grads, autograph=False)
                 .get_concrete_function(x).graph.get_operations()}
    assert {"While", "If"} <= graph_ops


# -- only the taken branch runs ----------------------------------------------------------------

def test_only_the_taken_branch_runs_forward_and_backward():
    calls = collections.Counter()

    def counting(tag):
        def f(v):
            calls[tag] += 1
            return v
        return f

    @tf.RegisterGradient("CountingIdentityGrad")
    def _grad(op, g):
        return tf.py_func(counting(tokens[op.get_attr("token")] + "_grad"), [g], tf.float64)

    x = tf.placeholder(tf.float64, [])
    tokens = {}

    def branch(tag, fn):
        def make():
            with tf.get_default_graph().gradient_override_map({"PyFunc": "CountingIdentityGrad"}):
                seen = tf.py_func(counting(tag), [x], tf.float64)
            tokens[seen.op.get_attr("token")] = tag
            seen.set_shape([])
            return fn(seen)
        return make
    y = tf.cond(x > 0, branch("true", lambda v: v * v), branch("false", lambda v: tf.sin(v)))
    g, = tf.gradients(y, x)
    sess = tf.Session()
    assert sess.run(y, {x: 3.0}) == 9.0
    assert calls["true"] == 1 and calls["false"] == 0
    assert sess.run(g, {x: 3.0}) == 6.0
    assert calls["true_grad"] == 1 and calls["false"] == 0 and calls["false_grad"] == 0
    assert sess.run(g, {x: -1.0}) == pytest.approx(np.cos(-1.0))
    assert calls["false_grad"] == 1 and calls["true_grad"] == 1


# -- case / switch_case ---------------------------------------------------------------------

def test_case_and_switch_case():
    x = tf.placeholder(tf.int32, [])
    f = tf.constant(2.0)
    y = tf.case([(x < 0, lambda: f * -1.0), (x < 10, lambda: f * 10.0)], default=lambda: f)
    z = tf.switch_case(x, [lambda: f, lambda: f * 2.0, lambda: f * 3.0])
    zd = tf.switch_case(x, {0: lambda: f, 1: lambda: f * 2.0}, default=lambda: f * 0.0)
    sess = tf.Session()
    assert [sess.run(y, {x: v}) for v in (-5, 5, 50)] == [-2.0, 20.0, 2.0]
    assert [sess.run(z, {x: v}) for v in (0, 1, 2, 7)] == [2.0, 4.0, 6.0, 6.0]
    assert [sess.run(zd, {x: v}) for v in (0, 1, 2)] == [2.0, 4.0, 0.0]
    ex = tf.case([(x < 10, lambda: f), (x < 20, lambda: f * 2.0)], default=lambda: f * 3.0,
                 exclusive=True)
    assert sess.run(ex, {x: 15}) == 4.0
    with pytest.raises(tf.errors.InvalidArgumentError, match="more than one"):
        sess.run(ex, {x: 5})
    # without a default, the last pair is the default and its predicate must hold
    nd = tf.case([(x < 10, lambda: f), (x < 20, lambda: f * 2.0)])
    assert sess.run(nd, {x: 15}) == 4.0
    with pytest.raises(tf.errors.InvalidArgumentError, match="None of conditions"):
        sess.run(nd, {x: 25})


def test_case_gradient():
    x = tf.placeholder(tf.float64, [])
    y = tf.case([(x < 0, lambda: x * x), (x < 1, lambda: tf.sin(x))], default=lambda: x * 3.0)
    g, = tf.gradients(y, x)
    sess = tf.Session()
    assert [sess.run(g, {x: v}) for v in (-2.0, 0.5, 4.0)] == pytest.approx(
        [-4.0, np.cos(0.5), 3.0])


def test_eager_cond_and_while_run_python():
    tf.enable_v2_behavior()
    x = flowgrad.constant(3.0)
    assert flowgrad.cond(x > 0, lambda: x * 2, lambda: x).numpy() == 6.0
    assert flowgrad.cond(False, lambda: x * 2, lambda: x).numpy() == 3.0   # eagerly, as TF
    i, y = flowgrad.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * 2), [0, x])
    assert int(i) == 3 and y.numpy() == 24.0
    assert flowgrad.switch_case(flowgrad.constant(1), [lambda: x, lambda: x * 5]).numpy() == 15.0


# -- errors raised when the graph is built ----------------------------------------------------

def test_cond_branch_structure_mismatch():
    x = tf.constant(1.0)
    with pytest.raises(ValueError, match="cond.*same number, type, and overall structure"):
        tf.cond(x > 0, lambda: (x, x), lambda: x, strict=True)


def test_cond_branch_dtype_mismatch():
    x = tf.constant(1.0)
    with pytest.raises(TypeError, match="cond.*output 0 has dtype float32 in true_fn but int32"):
        tf.cond(x > 0, lambda: x, lambda: tf.constant(1))


def test_cond_bad_predicates():
    x = tf.constant(1.0)
    with pytest.raises(TypeError, match="cond: pred must be a boolean tensor, got dtype float32"):
        tf.cond(x, lambda: x, lambda: x)
    with pytest.raises(ValueError, match="pred must be a scalar, got shape"):
        tf.cond(tf.constant([True, False]), lambda: x, lambda: x)
    with pytest.raises(TypeError, match="must not be a Python bool"):
        tf.cond(True, lambda: x, lambda: x)


def test_while_body_changes_shape_or_dtype():
    x = tf.constant([1.0, 2.0])
    with pytest.raises(ValueError, match=r"while.*enters the loop with shape \(2,\), but has "
                                         r"shape \(4,\) after one iteration.*shape_invariants"):
        tf.while_loop(lambda y: tf.reduce_sum(y) < 10, lambda y: tf.concat([y, y], 0), [x])
    with pytest.raises(TypeError, match="enters the loop with dtype float32.*returns dtype int32"):
        tf.while_loop(lambda y: tf.reduce_sum(y) < 10, lambda y: tf.cast(y, tf.int32), [x])
    with pytest.raises(ValueError, match="shape invariant specified .* not compatible"):
        tf.while_loop(lambda y: True, lambda y: y, [x], shape_invariants=[tf.TensorShape([3])])


def test_while_bad_cond_and_structure():
    x = tf.constant(1.0)
    with pytest.raises(TypeError, match="cond must return a boolean scalar tensor, got dtype"):
        tf.while_loop(lambda y: y, lambda y: y, [x])
    with pytest.raises(ValueError, match="same nested structure"):
        tf.while_loop(lambda a, b: a < 2, lambda a, b: (a,), [x, x])


# -- tf.print / tf.Print --------------------------------------------------------------------

def test_print_formats_like_tensorflow(capsys):
    tf.enable_v2_behavior()
    t = flowgrad.range(10)
    flowgrad.print("tensors:", t, {2: t * 2}, output_stream=sys.stdout)
    flowgrad.print(flowgrad.range(2), flowgrad.range(2) * 2, output_stream=sys.stdout, sep=",")
    flowgrad.print(flowgrad.reshape(flowgrad.range(9), [3, 3]), summarize=1,
                   output_stream=sys.stdout, end="|\n")
    flowgrad.print(flowgrad.constant(0.1), flowgrad.constant(1 / 3),
                   flowgrad.constant(0.5, flowgrad.float64), output_stream=sys.stdout)
    assert capsys.readouterr().out == ("tensors: [0 1 2 ... 7 8 9] {2: [0 2 4 ... 14 16 18]}\n"
                                       "[0 1],[0 2]\n"
                                       "[[0 ... 2]\n ...\n [6 ... 8]]|\n"
                                       "0.1 0.333333343 0.5\n")


def test_print_in_tf1_graph_runs_when_fetched(capsys):
    x = tf.placeholder(tf.int32, [3])
    op = tf.print("x =", x, output_stream=sys.stdout)
    assert isinstance(op, tf.Operation) and capsys.readouterr().out == ""
    with tf.control_dependencies([op]):
        y = x * 3
    assert list(_run(y, {x: [1, 2, 3]})) == [3, 6, 9]
    assert capsys.readouterr().out == "x = [1 2 3]\n"


def test_print_in_tf_function_and_loop_body_runs_every_call(capsys):
    tf.enable_v2_behavior()

    def body(i, a):
        flowgrad.print("iter", i, output_stream=sys.stdout)
        return i + 1, a * 2.0

    @flowgrad.function(autograph=False)
    def f(x):
        flowgrad.print("x", x, output_stream=sys.stdout)
        return flowgrad.while_loop(lambda i, a: i < 2, body, [0, x])[1]
    assert f(flowgrad.constant(1.0)).numpy() == 4.0
    assert f(flowgrad.constant(3.0)).numpy() == 12.0
    assert capsys.readouterr().out == "x 1\niter 0\niter 1\nx 3\niter 0\niter 1\n"


def test_print_in_an_unused_branch_or_loop_of_a_tf_function_still_runs(capsys):
    tf.enable_v2_behavior()

    @flowgrad.function(autograph=False)
    def f(x):
        flowgrad.cond(x > 1.0, lambda: flowgrad.print("big", x, output_stream=sys.stdout),
                      lambda: flowgrad.no_op())
        flowgrad.while_loop(lambda i: i < 2,
                            lambda i: [flowgrad.print("i", i, output_stream=sys.stdout), i + 1][1],
                            [0])
        return x * 2.0
    assert f(flowgrad.constant(3.0)).numpy() == 6.0
    assert f(flowgrad.constant(0.5)).numpy() == 1.0
    assert capsys.readouterr().out == "big 3\ni 0\ni 1\ni 0\ni 1\n"


def test_tf1_print_is_an_identity_that_prints(capsys):
    x = tf.placeholder(tf.float64, [4])
    y = tf.Print(x, [x, x * 2], message="vals: ", first_n=2, summarize=2)
    g, = tf.gradients(y * 3.0, x)
    sess = tf.Session()
    for _ in range(3):
        yv, gv = sess.run([y, g], {x: [1, 2, 3, 4]})
    np.testing.assert_allclose(yv, [1, 2, 3, 4])
    np.testing.assert_allclose(gv, [3, 3, 3, 3])
    assert capsys.readouterr().err == "vals: [1 2...][2 4...]\n" * 2


# -- random ops in bodies: the gradient reuses the forward samples ------------------------------

def test_gradient_reuses_random_samples_of_loop_and_branch():
    x = tf.placeholder(tf.float64, [3])
    _, y = tf.while_loop(lambda i, h: i < 4,
                         lambda i, h: (i + 1, h * tf.random_uniform([3], 0.5, 1.5, tf.float64)),
                         [0, x])
    g, = tf.gradients(tf.reduce_sum(y), x)                  # prod of the samples = y / x
    z = tf.cond(tf.reduce_sum(x) > 0, lambda: tf.nn.dropout(x, rate=0.5), lambda: x)
    gz, = tf.gradients(tf.reduce_sum(z), x)                 # the mask scaled by 2 = z / x
    m = tf.map_fn(lambda r: r * tf.random_uniform([], 0.5, 1.5, tf.float64), x)
    gm, = tf.gradients(tf.reduce_sum(m), x)
    sess = tf.Session()
    xv = np.array([1.0, 2.0, 3.0])
    for _ in range(3):
        yv, gv, zv, gzv, mv, gmv = sess.run([y, g, z, gz, m, gm], {x: xv})
        np.testing.assert_allclose(gv, yv / xv, rtol=1e-12)
        np.testing.assert_allclose(gzv, zv / xv, rtol=1e-12)
        np.testing.assert_allclose(gmv, mv / xv, rtol=1e-12)


# -- variables assigned inside branches and loop bodies ---------------------------------------

def test_tf1_assign_inside_cond_and_while():
    v = tf.Variable(1.0)
    c = tf.Variable(0)
    x = tf.placeholder(tf.float32, [])
    y = tf.cond(x > 0, lambda: tf.assign(v, v * 2 + x), lambda: tf.assign_sub(v, 1.0))

    def body(i, acc):
        with tf.control_dependencies([tf.assign_add(c, 1)]):
            return i + 1, acc + tf.cast(c.read_value(), tf.float32)   # reads see the write
    i, acc = tf.while_loop(lambda i, acc: i < 3, body, [tf.constant(0), tf.constant(0.0)])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(y, {x: 1.0}) == 3.0 and sess.run(v) == 3.0
        assert sess.run(y, {x: -1.0}) == 2.0 and sess.run(v) == 2.0     # only one branch ran
        assert sess.run([i, acc]) == [3, 6.0] and sess.run(c) == 3
        assert sess.run([i, acc]) == [3, 4.0 + 5.0 + 6.0] and sess.run(c) == 6


def test_training_loop_inside_tf_function():
    tf.enable_v2_behavior()
    w = flowgrad.Variable([1.0, 2.0])
    steps = flowgrad.Variable(0.0)
    opt = flowgrad.keras.optimizers.SGD(0.1)
    x = flowgrad.constant([1.0, 3.0])

    def step():
        with flowgrad.GradientTape() as tape:
            loss = flowgrad.reduce_sum((w * x - 1.0) ** 2)
        opt.apply_gradients(zip(tape.gradient(loss, [w]), [w]))
        steps.assign_add(1.0)

    @flowgrad.function(autograph=False)
    def train(n):
        def body(i):
            step()
            return i + 1
        return flowgrad.while_loop(lambda i: i < n, body, [0])
    train(flowgrad.constant(4))
    traced = w.numpy().copy()
    w.assign([1.0, 2.0])
    for _ in range(4):
        step()
    np.testing.assert_allclose(traced, w.numpy(), rtol=1e-6)
    assert steps.numpy() == 8.0 and int(opt.iterations.numpy()) == 8


def test_run_time_errors_name_the_op_inside_the_body_or_branch():
    x = tf.placeholder(tf.float32, [None, None])
    w = tf.placeholder(tf.float32, [None, None])
    _, y = tf.while_loop(lambda i, h: i < 3, lambda i, h: (i + 1, tf.matmul(h, w)), [0, x],
                         name="loop")
    z = tf.cond(tf.reduce_sum(x) > 0, lambda: tf.matmul(x, w), lambda: x, name="choose")
    feed = {x: np.ones((2, 3)), w: np.ones((2, 2))}
    sess = tf.Session()
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"\[\[node MatMul \(op MatMul\) in the body of while loop loop\]\]"):
        sess.run(y, feed)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"\[\[node MatMul \(op MatMul\) in branch choose_true\]\]"):
        sess.run(z, feed)


def test_hessian_of_a_loop_with_tapes_in_tf_function_matches_eager():
    tf.enable_v2_behavior()

    def f(x):
        return flowgrad.reduce_sum(flowgrad.while_loop(
            lambda i, y: i < 3, lambda i, y: (i + 1, flowgrad.sin(y) * y + y * y / 4.0),
            [0, x])[1])

    def hessian(x):
        with flowgrad.GradientTape() as t2:
            t2.watch(x)
            with flowgrad.GradientTape() as t1:
                t1.watch(x)
                y = f(x)
            g = t1.gradient(y, x)
        return t2.jacobian(g, x)
    x = flowgrad.constant(X3, flowgrad.float64)
    traced = flowgrad.function(hessian, autograph=False)
    np.testing.assert_allclose(traced(x).numpy(), hessian(x).numpy(), rtol=1e-10, atol=1e-12)
    ops = {op.type for op in traced.get_concrete_function(x).graph.get_operations()}
    assert "While" in ops


def test_gradient_reuses_samples_of_a_branch_inside_a_loop():
    x = tf.placeholder(tf.float64, [3])

    def body(i, h):
        noisy = tf.cond(tf.equal(i % 2, 0),
                        lambda: h * tf.random_uniform([3], 0.5, 1.5, tf.float64),
                        lambda: h * 2.0)
        return i + 1, noisy
    _, y = tf.while_loop(lambda i, h: i < 4, body, [0, x])
    g, = tf.gradients(tf.reduce_sum(y), x)       # y is linear in x: the gradient is y / x
    sess = tf.Session()
    xv = np.array([1.0, 2.0, 3.0])
    for _ in range(3):
        yv, gv = sess.run([y, g], {x: xv})
        np.testing.assert_allclose(gv, yv / xv, rtol=1e-12)


def test_gradient_reuses_samples_of_an_inner_loop():
    x = tf.placeholder(tf.float64, [3])

    def outer(i, h):
        _, h2 = tf.while_loop(
            lambda j, a: j < 2,
            lambda j, a: (j + 1, a * tf.random_uniform([3], 0.5, 1.5, tf.float64)), [0, h])
        return i + 1, h2 + h
    _, y = tf.while_loop(lambda i, h: i < 2, outer, [0, x])
    g, = tf.gradients(tf.reduce_sum(y), x)       # y is linear in x: the gradient is y / x
    gg, = tf.gradients(tf.reduce_sum(g * x), x)  # g does not depend on x: this is g again
    sess = tf.Session()
    xv = np.array([1.0, 2.0, 3.0])
    for _ in range(3):
        yv, gv, ggv = sess.run([y, g, gg], {x: xv})
        np.testing.assert_allclose(gv, yv / xv, rtol=1e-12)
        np.testing.assert_allclose(ggv, yv / xv, rtol=1e-12)


def test_back_prop_false_and_accepted_tf1_arguments():
    x = tf.placeholder(tf.float64, [])
    y = tf.while_loop(lambda i, y: i < 2, lambda i, y: (i + 1, y * x), [0, x], back_prop=False,
                      parallel_iterations=4, swap_memory=True)[1]
    assert tf.gradients(y, x) == [None]
    assert _run(y, {x: 3.0}) == 27.0


def test_map_fn_signature_errors_and_dtype():
    x = tf.constant([1, 2, 3])
    with pytest.raises(TypeError, match="map.*fn output 0 has dtype float32, but "
                                        "fn_output_signature says int32"):
        tf.map_fn(lambda r: tf.cast(r, tf.float32), x, dtype=tf.int32)
    with pytest.raises(ValueError, match="map.*1\\+ dimensional"):
        tf.map_fn(lambda r: r, tf.constant(1.0))
    np.testing.assert_allclose(_run(tf.map_fn(lambda r: tf.cast(r, tf.float32) / 2, x,
                                              dtype=tf.float32)), [0.5, 1.0, 1.5])


def test_eager_case_exclusive_and_functional_ops():
    tf.enable_v2_behavior()
    x = flowgrad.constant(5)
    with pytest.raises(tf.errors.InvalidArgumentError, match="more than one"):
        flowgrad.case([(x > 1, lambda: 1), (x > 2, lambda: 2)], default=lambda: 0,
                      exclusive=True)
    e = flowgrad.constant([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_allclose(flowgrad.scan(lambda a, r: a + r, e).numpy(), [[1, 2], [4, 6]])
    np.testing.assert_allclose(flowgrad.foldr(lambda a, r: a * r, e).numpy(), [3, 8])
    np.testing.assert_allclose(flowgrad.map_fn(flowgrad.reduce_sum, e).numpy(), [3, 7])


def _loop_grad_ops(fetch):
    """Op types each iteration of the gradient loops computing ``fetch`` runs."""
    from flowgrad.ops.subgraph import _needed_ops
    seen, types, stack = set(), [], [fetch.op]
    while stack:
        op = stack.pop()
        if op in seen:
            continue
        seen.add(op)
        stack.extend(t.op for t in op.inputs)
        if op.type == "While" and op.name.endswith("_grad"):
            body = op.get_attr("body")
            types += [o.type for o in _needed_ops(body, set(body.inputs))]
    return types


def test_gradient_loop_reads_stored_intermediates_instead_of_recomputing():
    # the forward loop records what the gradient needs (as TensorFlow's while_v2 does):
    # an iteration of the gradient loop runs the two gradient products and TanhGrad,
    # not the forward product and tanh again
    w = tf.placeholder(tf.float64, [2, 2])
    x0 = tf.placeholder(tf.float64, [1, 2])
    _, h = tf.while_loop(lambda i, h: i < 4, lambda i, h: (i + 1, tf.tanh(tf.matmul(h, w))),
                         [0, x0])
    g, = tf.gradients(tf.reduce_sum(h), w)
    types = _loop_grad_ops(g)
    assert "Tanh" not in types and types.count("TanhGrad") == 1
    assert types.count("MatMul") == 2
    forward = h.op.inputs[0].op if h.op.type == "Identity" else h.op
    assert forward.get_attr("num_saved") >= 1
    wv, xv = W22, X3[None, :2]
    got, = tf.Session().run([g], {w: wv, x0: xv})
    hs = [xv]
    for _ in range(4):
        hs.append(np.tanh(hs[-1] @ wv))
    dh, want = np.ones_like(xv), np.zeros_like(wv)
    for t in range(4, 0, -1):
        dz = dh * (1 - hs[t] ** 2)
        want += hs[t - 1].T @ dz
        dh = dz @ wv.T
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_stored_intermediates_of_nested_loops_and_second_order():
    # an inner loop's history and records, used by the outer gradient loop, are recorded
    # by the inner loop of the forward body too; the second-order gradient reads the
    # records' gradients
    x = tf.placeholder(tf.float64, [3])

    def outer(i, a):
        _, b = tf.while_loop(lambda j, b: j < 2, lambda j, b: (j + 1, tf.sin(b) * x), [0, a])
        return i + 1, b
    y = tf.while_loop(lambda i, a: i < 2, outer, [0, x])[1]
    g, = tf.gradients(tf.reduce_sum(y), x)
    gg, = tf.gradients(tf.reduce_sum(g), x)
    assert "Sin" not in _loop_grad_ops(g)
    xv = X3
    eps = 1e-6

    def f(v):
        a = v.copy()
        for _ in range(4):
            a = np.sin(a) * v
        return a

    def grad(v):
        return np.array([(f(v + eps * e).sum() - f(v - eps * e).sum()) / (2 * eps)
                         for e in np.eye(3)])
    gv, ggv = tf.Session().run([g, gg], {x: xv})
    np.testing.assert_allclose(gv, grad(xv), rtol=1e-7)
    want = np.array([(grad(xv + 1e-4 * e).sum() - grad(xv - 1e-4 * e).sum()) / 2e-4
                     for e in np.eye(3)])
    np.testing.assert_allclose(ggv, want, rtol=1e-4)
