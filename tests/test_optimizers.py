"""tf.train optimizers, the fused update ops, the global step and learning-rate schedules.

Each optimizer runs 10 steps on gradients fed through placeholders (dense) or
produced by tf.gather (sparse IndexedSlices) and is compared with a NumPy
reference written from TensorFlow's documented update formula."""
import numpy as np
import pytest

import flowgrad.compat.v1 as tf
from flowgrad.framework.errors import InvalidArgumentError

STEPS = 10
R = np.random.RandomState(7)
INIT = R.uniform(-1, 1, (4, 3)).astype(np.float32)
GRADS = [R.uniform(-1, 1, (4, 3)).astype(np.float32) for _ in range(STEPS)]

# --------------------------------------------------------------------------------------
# NumPy references: state dicts updated in float32 by TensorFlow's formulas


def ref_sgd(lr):
    def step(s, g):
        s["var"] = s["var"] - lr * g
    return {}, step


def ref_momentum(lr, mu, nesterov=False):
    def step(s, g):
        s["momentum"] = mu * s["momentum"] + g
        if nesterov:
            s["var"] = s["var"] - lr * (g + mu * s["momentum"])
        else:
            s["var"] = s["var"] - lr * s["momentum"]
    return {"momentum": 0.0}, step


def ref_rmsprop(lr, decay=0.9, mu=0.0, eps=1e-10, centered=False):
    def step(s, g):
        s["rms"] = decay * s["rms"] + (1 - decay) * g * g
        denom = s["rms"] + eps
        if centered:
            s["mg"] = decay * s["mg"] + (1 - decay) * g
            denom = s["rms"] - s["mg"] ** 2 + eps
        s["momentum"] = mu * s["momentum"] + lr * g / np.sqrt(denom)
        s["var"] = s["var"] - s["momentum"]
    slots = {"rms": 1.0, "momentum": 0.0}
    if centered:
        slots["mg"] = 0.0
    return slots, step


def ref_adam(lr=0.001, b1=0.9, b2=0.999, eps=1e-8):
    def step(s, g):
        s["t"] += 1
        t = s["t"]
        lr_t = lr * np.sqrt(1 - b2 ** t) / (1 - b1 ** t)
        s["m"] = b1 * s["m"] + (1 - b1) * g
        s["v"] = b2 * s["v"] + (1 - b2) * g * g
        s["var"] = s["var"] - lr_t * s["m"] / (np.sqrt(s["v"]) + eps)
    return {"m": 0.0, "v": 0.0, "t": 0}, step


def ref_adagrad(lr, init=0.1):
    def step(s, g):
        s["accumulator"] = s["accumulator"] + g * g
        s["var"] = s["var"] - lr * g / np.sqrt(s["accumulator"])
    return {"accumulator": init}, step


def ref_adadelta(lr, rho=0.95, eps=1e-8):
    def step(s, g):
        s["accum"] = rho * s["accum"] + (1 - rho) * g * g
        update = np.sqrt(s["accum_update"] + eps) / np.sqrt(s["accum"] + eps) * g
        s["accum_update"] = rho * s["accum_update"] + (1 - rho) * update * update
        s["var"] = s["var"] - lr * update
    return {"accum": 0.0, "accum_update": 0.0}, step


def run_reference(ref, init, grads):
    slots, step = ref
    s = {"var": init.astype(np.float64)}
    for k, v in slots.items():
        s[k] = v if k == "t" else np.full(init.shape, v)
    for g in grads:
        step(s, g.astype(np.float64))
    return s


CASES = [
    ("sgd", lambda: tf.train.GradientDescentOptimizer(0.1), ref_sgd(0.1)),
    ("momentum", lambda: tf.train.MomentumOptimizer(0.1, 0.9), ref_momentum(0.1, 0.9)),
    ("nesterov", lambda: tf.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True),
     ref_momentum(0.1, 0.9, nesterov=True)),
    ("rmsprop", lambda: tf.train.RMSPropOptimizer(0.01), ref_rmsprop(0.01)),
    ("rmsprop_momentum", lambda: tf.train.RMSPropOptimizer(0.01, decay=0.8, momentum=0.5,
                                                          epsilon=1e-6),
     ref_rmsprop(0.01, 0.8, 0.5, 1e-6)),
    ("rmsprop_centered", lambda: tf.train.RMSPropOptimizer(0.01, momentum=0.3, epsilon=1e-3,
                                                          centered=True),
     ref_rmsprop(0.01, 0.9, 0.3, 1e-3, centered=True)),
    ("adam", lambda: tf.train.AdamOptimizer(0.01), ref_adam(0.01)),
    ("adam_eps", lambda: tf.train.AdamOptimizer(0.1, 0.5, 0.6, 0.5), ref_adam(0.1, 0.5, 0.6, 0.5)),
    ("adagrad", lambda: tf.train.AdagradOptimizer(0.1), ref_adagrad(0.1)),
    ("adagrad_init", lambda: tf.train.AdagradOptimizer(0.1, initial_accumulator_value=2.0),
     ref_adagrad(0.1, 2.0)),
    ("adadelta", lambda: tf.train.AdadeltaOptimizer(1.0), ref_adadelta(1.0)),
    ("adadelta_rho", lambda: tf.train.AdadeltaOptimizer(0.5, rho=0.5, epsilon=1e-4),
     ref_adadelta(0.5, 0.5, 1e-4)),
]
IDS = [c[0] for c in CASES]


def slot_values(sess, opt, var, ref_state):
    out = {}
    for name in opt.get_slot_names():
        out[name] = sess.run(opt.get_slot(var, name))
    return {k: out[k] for k in ref_state if k in out}


@pytest.mark.parametrize("name,make,ref", CASES, ids=IDS)
def test_dense_updates_match_numpy_reference(name, make, ref):
    var = tf.Variable(INIT)
    g = tf.placeholder(tf.float32, INIT.shape)
    opt = make()
    train_op = opt.apply_gradients([(g, var)])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for grad in GRADS:
            sess.run(train_op, {g: grad})
        got = sess.run(var)
        slots = slot_values(sess, opt, var, ref[0])
    want = run_reference(ref, INIT, GRADS)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, want["var"], rtol=2e-5, atol=1e-6)
    for k, v in slots.items():
        np.testing.assert_allclose(v, want[k], rtol=2e-5, atol=1e-6, err_msg=k)


def run_reference_sparse(ref, name, init, indices_per_step, rows_per_step):
    """Sparse semantics: duplicate rows summed; only the touched rows (and their slots)
    change, except TF1 Adam, whose m and v decay everywhere and whose var moves
    everywhere."""
    dense_grads = []
    for idx, rows in zip(indices_per_step, rows_per_step):
        g = np.zeros(init.shape)
        np.add.at(g, idx, rows)
        dense_grads.append(g)
    if name.startswith("adam") or name == "sgd":
        return run_reference(ref, init, dense_grads)
    slots, step = ref
    s = {"var": init.astype(np.float64)}
    for k, v in slots.items():
        s[k] = np.full(init.shape, v)
    for idx, g in zip(indices_per_step, dense_grads):
        touched = np.unique(idx)
        sub = {k: v[touched] for k, v in s.items()}
        step(sub, g[touched])
        for k, v in sub.items():
            s[k][touched] = v
    return s


SPARSE_INDICES = [np.array([0, 2, 2]), np.array([3]), np.array([1, 0, 1, 1])] * 4
SPARSE_INDICES = SPARSE_INDICES[:STEPS]
SPARSE_ROWS = [R.uniform(-1, 1, (len(i), 3)).astype(np.float32) for i in SPARSE_INDICES]


@pytest.mark.parametrize("name,make,ref", CASES, ids=IDS)
def test_sparse_updates_from_gather_match_numpy_reference(name, make, ref):
    var = tf.Variable(INIT)
    idx = tf.placeholder(tf.int32, [None])
    upstream = tf.placeholder(tf.float32, [None, 3])
    loss = tf.reduce_sum(tf.gather(var, idx) * upstream)
    opt = make()
    (grad, v), = opt.compute_gradients(loss, [var])
    assert isinstance(grad, tf.IndexedSlices)
    train_op = opt.apply_gradients([(grad, v)])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for i, rows in zip(SPARSE_INDICES, SPARSE_ROWS):
            sess.run(train_op, {idx: i, upstream: rows})
        got = sess.run(var)
        slots = slot_values(sess, opt, var, ref[0])
    want = run_reference_sparse(ref, name, INIT, SPARSE_INDICES, SPARSE_ROWS)
    np.testing.assert_allclose(got, want["var"], rtol=2e-5, atol=1e-6)
    for k, val in slots.items():
        np.testing.assert_allclose(val, want[k], rtol=2e-5, atol=1e-6, err_msg=k)


def test_minimize_on_a_real_loss_matches_the_reference():
    w = tf.Variable(np.array([1.0, -2.0], np.float32))
    loss = tf.reduce_sum(tf.square(w - np.array([3.0, 1.0], np.float32)))
    train_op = tf.train.AdamOptimizer(0.1).minimize(loss)
    grads, ref_w = [], np.array([1.0, -2.0])
    state = {"var": ref_w, "m": 0.0, "v": 0.0, "t": 0}
    _, step = ref_adam(0.1)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(STEPS):
            g = 2 * (state["var"] - np.array([3.0, 1.0]))
            grads.append(g)
            step(state, g)
            sess.run(train_op)
        np.testing.assert_allclose(sess.run(w), state["var"], rtol=1e-5)


def test_gradient_accumulation_equals_one_step_on_the_concatenated_batch():
    rng = np.random.RandomState(0)
    x_data = rng.randn(12, 3).astype(np.float32)
    y_data = rng.randn(12, 2).astype(np.float32)
    w0 = rng.randn(3, 2).astype(np.float32)

    def build():
        x = tf.placeholder(tf.float32, [None, 3])
        y = tf.placeholder(tf.float32, [None, 2])
        w = tf.Variable(w0)
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
        return x, y, w, loss

    with tf.Graph().as_default():
        x, y, w, loss = build()
        opt = tf.train.AdamOptimizer(0.1)
        (g, _), = opt.compute_gradients(loss, [w])
        holder = tf.placeholder(tf.float32, g.shape)
        train_op = opt.apply_gradients([(holder, w)])
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(3):
                parts = [sess.run(g, {x: xs, y: ys}) for xs, ys in
                         zip(np.split(x_data, 4), np.split(y_data, 4))]
                sess.run(train_op, {holder: np.mean(parts, axis=0)})
            accumulated = sess.run(w)
    with tf.Graph().as_default():
        x, y, w, loss = build()
        train_op = tf.train.AdamOptimizer(0.1).minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(3):
                sess.run(train_op, {x: x_data, y: y_data})
            full = sess.run(w)
    np.testing.assert_allclose(accumulated, full, rtol=1e-5, atol=1e-6)


# --------------------------------------------------------------------------------------
# Slots, names, variables()


def test_adam_slots_and_non_slot_variables_are_named_like_tensorflow():
    v = tf.Variable([1.0, 2.0])
    w = tf.Variable([[1.0]], name="w")
    opt = tf.train.AdamOptimizer()
    opt.minimize(tf.reduce_sum(v * v) + tf.reduce_sum(w))
    assert opt.get_slot_names() == ["m", "v"]
    assert opt.get_slot(v, "m").name == "Variable/Adam:0"
    assert opt.get_slot(v, "v").name == "Variable/Adam_1:0"
    assert opt.get_slot(w, "m").name == "w/Adam:0"
    assert opt.get_slot(v, "nope") is None
    names = [x.name for x in opt.variables()]
    assert names == ["Variable/Adam:0", "Variable/Adam_1:0", "beta1_power:0", "beta2_power:0",
                     "w/Adam:0", "w/Adam_1:0"]
    trainable = {x.name for x in tf.trainable_variables()}
    assert trainable == {"Variable:0", "w:0"}
    assert {x.name for x in tf.global_variables()} >= set(names)


def test_slots_take_the_variable_scope_not_the_name_scope():
    with tf.variable_scope("eval_net"):
        w = tf.get_variable("w", initializer=np.ones((3, 2), np.float32))
    loss = tf.reduce_sum(w * w)
    with tf.variable_scope("train"):
        adam = tf.train.AdamOptimizer(0.1)
        adam.minimize(loss)
    with tf.name_scope("outer"):
        rms = tf.train.RMSPropOptimizer(0.1)
        rms.minimize(loss)
    assert [v.name for v in adam.variables()] == [
        "train/beta1_power:0", "train/beta2_power:0", "train/eval_net/w/Adam:0",
        "train/eval_net/w/Adam_1:0"]
    assert [v.name for v in rms.variables()] == ["eval_net/w/RMSProp:0",
                                                 "eval_net/w/RMSProp_1:0"]


def test_slots_of_a_variable_of_unknown_shape():
    init = tf.placeholder_with_default(np.array([1.0, -2.0, 3.0], np.float32), [None])
    v = tf.Variable(init, validate_shape=False)
    assert v.shape.rank is None
    opt = tf.train.AdagradOptimizer(0.5, initial_accumulator_value=1.0)
    train_op = opt.minimize(tf.reduce_sum(v * v))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        np.testing.assert_array_equal(sess.run(opt.get_slot(v, "accumulator")), [1, 1, 1])
        sess.run(train_op)
        g = 2 * np.array([1.0, -2.0, 3.0])
        want = np.array([1.0, -2.0, 3.0]) - 0.5 * g / np.sqrt(1 + g * g)
        np.testing.assert_allclose(sess.run(v), want, rtol=1e-6)


def test_rmsprop_slots_start_at_one_and_zero():
    v = tf.Variable([1.0, 2.0])
    opt = tf.train.RMSPropOptimizer(0.1, centered=True)
    opt.minimize(tf.reduce_sum(v))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        np.testing.assert_array_equal(sess.run(opt.get_slot(v, "rms")), [1.0, 1.0])
        np.testing.assert_array_equal(sess.run(opt.get_slot(v, "mg")), [0.0, 0.0])
        np.testing.assert_array_equal(sess.run(opt.get_slot(v, "momentum")), [0.0, 0.0])
    assert [opt.get_slot(v, n).name for n in ("rms", "mg", "momentum")] == [
        "Variable/RMSProp:0", "Variable/RMSProp_1:0", "Variable/RMSProp_2:0"]


def test_train_op_names_and_update_op_types():
    v = tf.Variable(1.0)
    train_op = tf.train.AdamOptimizer(0.1).minimize(tf.square(v))
    assert train_op.name == "Adam"
    types = {op.type for op in tf.get_default_graph().get_operations()}
    assert "ApplyAdam" in types
    assert tf.get_default_graph().get_operation_by_name("Adam/update_Variable/ApplyAdam")
    assert train_op in tf.get_collection(tf.GraphKeys.TRAIN_OP)


def test_float64_variables_get_cast_hyperparameters():
    v = tf.Variable(np.array([1.0, 2.0]))
    train_op = tf.train.MomentumOptimizer(0.5, 0.9).minimize(tf.reduce_sum(v * v))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train_op)
        out = sess.run(v)
    assert out.dtype == np.float64
    np.testing.assert_allclose(out, [0.0, 0.0])


def test_kernels_do_not_modify_values_they_share():
    init = np.array([1.0, 2.0, 3.0], np.float32)
    grad = np.array([0.5, 0.5, 0.5], np.float32)
    saved_init, saved_grad = init.copy(), grad.copy()
    v = tf.Variable(init)
    g = tf.placeholder(tf.float32, [3])
    ops = [opt.apply_gradients([(g, v)]) for opt in (
        tf.train.GradientDescentOptimizer(0.1), tf.train.MomentumOptimizer(0.1, 0.9),
        tf.train.AdamOptimizer(0.1), tf.train.RMSPropOptimizer(0.1),
        tf.train.AdagradOptimizer(0.1), tf.train.AdadeltaOptimizer(0.1))]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        before = sess.run(v)
        kept = before.copy()
        for op in ops:
            sess.run(op, {g: grad})
        assert not np.array_equal(sess.run(v), kept)
    np.testing.assert_array_equal(init, saved_init)
    np.testing.assert_array_equal(grad, saved_grad)
    np.testing.assert_array_equal(before, kept)


# --------------------------------------------------------------------------------------
# apply_gradients / compute_gradients behaviour and errors


def test_none_gradients_are_skipped():
    w1, w2 = tf.Variable(2.0), tf.Variable(2.0)
    loss = tf.stop_gradient(w1 * 3.0) * w2
    grads = tf.gradients(loss, [w1, w2])
    assert grads[0] is None
    train_op = tf.train.GradientDescentOptimizer(0.1).apply_gradients(zip(grads, [w1, w2]))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(train_op) is None
        assert sess.run([w1, w2]) == [np.float32(2.0), np.float32(1.4)]


def test_apply_gradients_with_only_none_gradients_is_tensorflows_value_error():
    w = tf.Variable(1.0)
    opt = tf.train.GradientDescentOptimizer(0.1)
    with pytest.raises(ValueError) as e:
        opt.apply_gradients([(None, w)])
    assert str(e.value) == ("No gradients provided for any variable: "
                            "[\"<tf.Variable 'Variable:0' shape=() dtype=float32_ref>\"].")
    with pytest.raises(ValueError, match=r"^No variables provided\.$"):
        opt.apply_gradients([])


def test_minimize_without_any_gradient_is_tensorflows_value_error():
    w = tf.Variable(1.0)
    with pytest.raises(ValueError) as e:
        tf.train.GradientDescentOptimizer(0.1).minimize(tf.constant(1.0))
    assert str(e.value).splitlines()[0] == (
        "No gradients provided for any variable, check your graph for ops that do not support "
        "gradients, between variables [\"<tf.Variable 'Variable:0' shape=() "
        "dtype=float32_ref>\"] and loss Tensor(\"Const:0\", shape=(), dtype=float32).")
    assert w.name == "Variable:0"


def test_compute_gradients_defaults_to_trainable_variables_and_gates():
    x = tf.Variable(3.0)
    w = tf.Variable(4.0)
    tf.Variable(5.0, trainable=False)
    y = w * x
    gv = tf.train.GradientDescentOptimizer(0.1).compute_gradients(y)
    assert [v for _, v in gv] == [x, w]
    assert gv[0][0].name.startswith("gradients/")
    assert "control_dependency" in gv[0][0].name
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(gv) == [(4.0, 3.0), (3.0, 4.0)]


@pytest.mark.parametrize("gate", [tf.train.Optimizer.GATE_NONE, tf.train.Optimizer.GATE_GRAPH])
def test_other_gating_modes_give_the_same_values(gate):
    x = tf.Variable(3.0)
    w = tf.Variable(4.0)
    gv = tf.train.GradientDescentOptimizer(0.1).compute_gradients(w * x, gate_gradients=gate)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(gv) == [(4.0, 3.0), (3.0, 4.0)]


def test_gate_graph_keeps_sparse_gradients_sparse():
    var = tf.Variable(INIT)
    opt = tf.train.GradientDescentOptimizer(0.5)
    gv = opt.compute_gradients(tf.reduce_sum(tf.gather(var, tf.constant([1, 1]))),
                               gate_gradients=tf.train.Optimizer.GATE_GRAPH)
    (grad, _), = gv
    assert isinstance(grad, tf.IndexedSlices)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(opt.apply_gradients(gv))
        want = INIT.copy()
        want[1] -= 0.5 * 2
        np.testing.assert_allclose(sess.run(var), want, rtol=1e-6)


def test_compute_gradients_errors():
    w = tf.Variable(1.0)
    opt = tf.train.GradientDescentOptimizer(0.1)
    with pytest.raises(ValueError, match="gate_gradients must be one of"):
        opt.compute_gradients(w * 2.0, gate_gradients=7)
    with pytest.raises(ValueError, match=r"Invalid type tf.int32 for Const"):
        opt.compute_gradients(tf.constant(1))
    with pytest.raises(ValueError, match="No variables to optimize"):
        with tf.Graph().as_default():
            opt.compute_gradients(tf.constant(1.0))
    with pytest.raises(NotImplementedError, match="unsupported type"):
        opt.compute_gradients(w * 2.0, var_list=["w"])


def test_apply_gradients_errors():
    w = tf.Variable([1.0, 2.0])
    opt = tf.train.GradientDescentOptimizer(0.1)
    with pytest.raises(TypeError, match="Gradient must be convertible"):
        opt.apply_gradients([([[1.0], [1.0, 2.0]], w)])
    with pytest.raises(ValueError, match="Shapes of 'var' \\(2,\\) and 'delta' \\(3,\\)"):
        opt.apply_gradients([(tf.constant([1.0, 2.0, 3.0]), w)])
    with pytest.raises(TypeError, match="Input 'delta' of 'ApplyGradientDescent' Op has type "
                                        "float64 that does not match type float32"):
        opt.apply_gradients([(tf.constant([1.0, 2.0], tf.float64), w)])
    with pytest.raises(NotImplementedError, match="Trying to update a Tensor"):
        opt.apply_gradients([(tf.constant(1.0), tf.constant(2.0))])


def test_fed_gradient_of_the_wrong_shape_is_an_error():
    w = tf.Variable([1.0, 2.0])
    g = tf.placeholder(tf.float32)
    train_op = tf.train.AdamOptimizer(0.1).apply_gradients([(g, w)])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        with pytest.raises(InvalidArgumentError, match="var and grad do not have the same shape"):
            sess.run(train_op, {g: np.ones(3, np.float32)})
        np.testing.assert_array_equal(sess.run(w), [1.0, 2.0])


def test_sparse_index_out_of_range_is_an_error():
    w = tf.Variable(np.ones((3, 2), np.float32))
    grad = tf.IndexedSlices(tf.constant(np.ones((1, 2), np.float32)), tf.constant([5]),
                            tf.constant([3, 2]))
    for opt in (tf.train.GradientDescentOptimizer(0.1), tf.train.AdagradOptimizer(0.1)):
        train_op = opt.apply_gradients([(grad, w)])
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            with pytest.raises(InvalidArgumentError, match="5 .*out of range|not in \\[0, 3\\)"):
                sess.run(train_op)


def test_learning_rate_may_be_a_tensor_or_a_callable():
    lr = tf.placeholder(tf.float32, [])
    v1, v2 = tf.Variable(1.0), tf.Variable(1.0)
    op1 = tf.train.GradientDescentOptimizer(lr).minimize(v1 * 2.0)
    op2 = tf.train.MomentumOptimizer(lambda: 0.25, lambda: 0.0).minimize(v2 * 2.0)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(op1, {lr: 0.5})
        sess.run(op1, {lr: 0.1})
        sess.run(op2)
        np.testing.assert_allclose(sess.run([v1, v2]), [1.0 - 1.0 - 0.2, 0.5], rtol=1e-6)


def test_adagrad_rejects_a_non_positive_initial_accumulator():
    with pytest.raises(ValueError, match="initial_accumulator_value must be positive: 0.0"):
        tf.train.AdagradOptimizer(0.1, initial_accumulator_value=0.0)


def test_update_ops_run_eagerly_on_eager_variables():
    tf.enable_v2_behavior()
    v = tf.Variable(np.array([1.0, 2.0], np.float32))
    opt = tf.train.AdamOptimizer(0.1)
    state = {"var": np.array([1.0, 2.0]), "m": 0.0, "v": 0.0, "t": 0}
    _, step = ref_adam(0.1)
    for g in ([1.0, -1.0], [0.5, 2.0]):
        opt.apply_gradients([(tf.constant(np.array(g, np.float32)), v)])
        step(state, np.array(g))
    np.testing.assert_allclose(v.numpy(), state["var"], rtol=1e-5)
    np.testing.assert_allclose(opt.get_slot(v, "m").numpy(), state["m"], rtol=1e-5)


def test_eager_minimize_takes_a_loss_function():
    tf.enable_v2_behavior()
    v = tf.Variable(np.float32(5.0))
    opt = tf.train.GradientDescentOptimizer(0.1)
    for _ in range(10):
        opt.minimize(lambda: tf.square(v - 2.0), var_list=[v])
    np.testing.assert_allclose(v.numpy(), 2.3221226, rtol=1e-6)
    with pytest.raises(RuntimeError, match="should be a function"):
        opt.compute_gradients(tf.constant(1.0))


# --------------------------------------------------------------------------------------
# Global step


def test_global_step_is_created_once_and_incremented_by_apply_gradients():
    step = tf.train.get_or_create_global_step()
    assert step is tf.train.get_or_create_global_step()
    assert step is tf.train.get_global_step()
    assert step.name == "global_step:0" and step.dtype.base_dtype == tf.int64
    assert not step.trainable
    with pytest.raises(ValueError, match='"global_step" already exists'):
        tf.train.create_global_step()
    w = tf.Variable(5.0)
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(tf.square(w - 2.0),
                                                               global_step=step)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(10):
            sess.run(train_op)
        w_v, s = sess.run([w, step])
        assert tf.train.global_step(sess, step) == 10
    assert s == np.int64(10) and type(s) is np.int64
    np.testing.assert_allclose(w_v, 2.3221226, rtol=1e-6)


def test_get_global_step_without_one_is_none_and_checks_type():
    assert tf.train.get_global_step() is None
    tf.Variable(1.5, name="global_step")
    with pytest.raises(TypeError, match='Existing "global_step" does not have integer type'):
        tf.train.get_global_step()


def test_global_step_update_runs_after_the_variable_updates():
    step = tf.Variable(0, trainable=False)
    w = tf.Variable(1.0)
    train_op = tf.train.GradientDescentOptimizer(0.5).minimize(w * 1.0, global_step=step)
    assert train_op.type == "AssignAdd" and train_op.name == "GradientDescent"
    deps = train_op.control_inputs
    assert [d.name for d in deps] == ["GradientDescent/update"]


# --------------------------------------------------------------------------------------
# Learning-rate schedules


def _values_at(lr_tensor, step_var, steps):
    out = []
    with tf.Session() as sess:
        for s in steps:
            step_var.load(s, sess)
            out.append(sess.run(lr_tensor))
    return np.array(out)


def test_exponential_decay():
    step = tf.Variable(0, trainable=False)
    lr = tf.train.exponential_decay(0.1, step, 10, 0.5)
    lr_s = tf.train.exponential_decay(0.1, step, 10, 0.5, staircase=True)
    steps = [0, 5, 10, 15, 25]
    np.testing.assert_allclose(_values_at(lr, step, steps),
                               [0.1 * 0.5 ** (s / 10) for s in steps], rtol=1e-6)
    np.testing.assert_allclose(_values_at(lr_s, step, steps),
                               [0.1 * 0.5 ** (s // 10) for s in steps], rtol=1e-6)
    assert lr.dtype == tf.float32 and lr.op.name == "ExponentialDecay"
    with pytest.raises(ValueError, match="global_step is required for exponential_decay"):
        tf.train.exponential_decay(0.1, None, 10, 0.5)


def test_piecewise_constant():
    step = tf.Variable(0, trainable=False)
    lr = tf.train.piecewise_constant(step, [10, 20], [1.0, 0.5, 0.1])
    np.testing.assert_allclose(_values_at(lr, step, [0, 10, 11, 20, 21, 100]),
                               [1.0, 1.0, 0.5, 0.5, 0.1, 0.1])
    with pytest.raises(ValueError, match="Boundaries \\(<dtype: 'float32'>\\) must have the same "
                                         "dtype as x \\(<dtype: 'int32'>\\)"):
        tf.train.piecewise_constant(step, [10.0], [1.0, 0.5])
    with pytest.raises(ValueError, match="Values must have elements all with the same dtype"):
        tf.train.piecewise_constant(step, [10], [1.0, 1])


def test_polynomial_and_inverse_time_decay():
    step = tf.Variable(0, trainable=False)
    poly = tf.train.polynomial_decay(0.1, step, 10, end_learning_rate=0.01, power=2.0)
    inv = tf.train.inverse_time_decay(0.1, step, 10, 0.5, staircase=True)
    steps = [0, 5, 10, 20]
    np.testing.assert_allclose(
        _values_at(poly, step, steps),
        [(0.1 - 0.01) * (1 - min(s, 10) / 10) ** 2 + 0.01 for s in steps], rtol=1e-6)
    np.testing.assert_allclose(_values_at(inv, step, steps),
                               [0.1 / (1 + 0.5 * (s // 10)) for s in steps], rtol=1e-6)


def test_schedules_are_functions_in_eager_mode():
    tf.enable_v2_behavior()
    step = tf.Variable(0, trainable=False)
    lr = tf.train.exponential_decay(0.1, step, 10, 0.5, staircase=True)
    pw = tf.train.piecewise_constant(step, [5], [1.0, 0.5])
    assert callable(lr) and callable(pw)
    assert float(lr()) == pytest.approx(0.1) and float(pw()) == 1.0
    step.assign(12)
    assert float(lr()) == pytest.approx(0.05) and float(pw()) == 0.5


def test_decayed_learning_rate_drives_an_optimizer():
    step = tf.train.get_or_create_global_step()
    lr = tf.train.exponential_decay(1.0, step, 1, 0.5, staircase=True)
    w = tf.Variable(0.0)
    train_op = tf.train.GradientDescentOptimizer(lr).minimize(-w, global_step=step)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run(train_op)
        assert sess.run(w) == np.float32(1.0 + 0.5 + 0.25)


# --------------------------------------------------------------------------------------
# The raw update ops


def test_scatter_sub_and_scatter_add_sum_duplicates():
    from flowgrad.ops import training_ops
    v = tf.Variable(np.zeros((3, 2), np.float32))
    add = training_ops.scatter_add(v, [0, 2, 0], np.ones((3, 2), np.float32))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        np.testing.assert_array_equal(sess.run(add), [[2, 2], [0, 0], [1, 1]])
        sub = training_ops.scatter_sub(v, [1], np.full((1, 2), 3.0, np.float32))
        np.testing.assert_array_equal(sess.run(sub), [[2, 2], [-3, -3], [1, 1]])
    with pytest.raises(ValueError, match="Shapes of updates"):
        training_ops.scatter_add(v, [0, 1], np.ones((3, 2), np.float32))
