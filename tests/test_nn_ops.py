"""tf.nn: activations, softmax, cross-entropy losses, bias_add, l2_loss, moments, dropout.

The numerical gradient checks of the nn cases are entries of tests/op_db.py."""
import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as tf
import op_db
from gradcheck import check_gradients

R = np.random.RandomState(7)


def _away_from_zero(shape, lo=0.2, hi=2.0):
    return R.choice([-1.0, 1.0], size=shape) * R.uniform(lo, hi, size=shape)


X23 = _away_from_zero((2, 3))
X234 = _away_from_zero((2, 3, 4))
X_R6 = np.array([[-1.5, 0.5, 3.0], [5.5, 7.0, -0.3]])       # around both kinks of relu6
LOGITS = R.normal(size=(3, 4))
LOGITS3 = R.normal(size=(2, 3, 4))
PROBS = R.dirichlet(np.ones(4), size=3)                      # rows sum to 1
PROBS3 = R.dirichlet(np.ones(4), size=(2, 3))
SPARSE3 = np.array([[2, 0, 3], [1, 1, 0]])
BINARY = R.uniform(0.0, 1.0, size=(2, 3))
BIAS3 = R.uniform(-1.0, 1.0, size=(3,))
VARIANCE3 = R.uniform(0.5, 2.0, size=(3,))

nn = tf.nn
# the gradient-check cases of tf.nn (tests/op_db.py), without their third-order entries
GRAD_CASES = [(e.case, e.fn, e.inputs) for e in op_db.entries(family="nn")
              if not e.case.endswith("_order3")]


def _projected(ys, rng_seed, shapes):
    """sum_k <w_k, y_k> with fixed random weights (ys: a tensor or a tuple of tensors)."""
    rng = np.random.RandomState(rng_seed)
    ys = ys if isinstance(ys, (list, tuple)) else [ys]
    return tf.add_n([tf.reduce_sum(y * rng.uniform(0.5, 1.5, tuple(shape)))
                     for y, shape in zip(ys, shapes)])


def _graph_derivatives(fn, inputs):
    xs = [tf.constant(np.asarray(v, np.float64)) for v in inputs]
    ys = fn(*xs)
    shapes = [y.shape.as_list() for y in (ys if isinstance(ys, tuple) else [ys])]
    g = tf.gradients(_projected(ys, 0, shapes), xs)
    live = [(gi, x) for gi, x in zip(g, xs) if gi is not None]
    h = tf.gradients(_projected([gi for gi, _ in live], 1, [x.shape.as_list()
                                                           for _, x in live]), xs)
    sess = tf.Session()
    return shapes, [None if t is None else sess.run(t) for t in g + h]


def _eager_derivatives(fn, inputs, shapes):
    xs = [flowgrad.constant(np.asarray(v, np.float64)) for v in inputs]
    with flowgrad.GradientTape(persistent=True) as outer:
        outer.watch(xs)
        with flowgrad.GradientTape() as inner:
            inner.watch(xs)
            s = _projected(fn(*xs), 0, shapes)
        g = inner.gradient(s, xs)
        live = [(gi, x) for gi, x in zip(g, xs) if gi is not None]
        s2 = _projected([gi for gi, _ in live], 1, [x.shape.as_list() for _, x in live])
    h = outer.gradient(s2, xs)
    return [None if t is None else t.numpy() for t in g + h]


@pytest.mark.parametrize("name,fn,inputs", GRAD_CASES, ids=[c[0] for c in GRAD_CASES])
def test_eager_tape_derivatives_match_graph_ones(name, fn, inputs):
    shapes, want = _graph_derivatives(fn, inputs)
    tf.enable_v2_behavior()
    got = _eager_derivatives(fn, inputs, shapes)
    assert [w is None for w in want] == [g is None for g in got]
    for w, g in zip(want, got):
        if w is not None:
            np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-14)


def test_tf1_softmax_xent_stops_the_label_gradient():
    fn = lambda z, x: nn.softmax_cross_entropy_with_logits(labels=z, logits=x)
    check_gradients(fn, [PROBS, LOGITS], order=2, expect_none=(0,))


def test_tf2_face_softmax_xent_differentiates_labels():
    fn = lambda z, x: flowgrad.nn.softmax_cross_entropy_with_logits(z, x)
    check_gradients(fn, [PROBS, LOGITS], order=2)
    assert flowgrad.nn.softmax_cross_entropy_with_logits is \
        tf.nn.softmax_cross_entropy_with_logits_v2


# (name, fn, inputs, NumPy reference) for forward values, including very large logits.
def _np_log_softmax(x, axis=-1):
    s = x - x.max(axis=axis, keepdims=True)
    return s - np.log(np.exp(s).sum(axis=axis, keepdims=True))


def _np_sigmoid(x):
    return np.exp(-np.logaddexp(0.0, -x))


BIG = np.array([[1000.0, 0.0, -1000.0], [-1000.0, -999.0, 1000.0], [1.0, 2.0, 3.0]])
BIG_LABELS = np.array([[0.0, 1.0, 0.0], [0.5, 0.5, 0.0], [0.2, 0.3, 0.5]])
BIG_SPARSE = np.array([2, 0, 1])
SELU_A, SELU_S = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946

FORWARD_CASES = [
    ("relu", nn.relu, [X23], lambda x: np.maximum(x, 0)),
    ("relu6", nn.relu6, [X_R6], lambda x: np.clip(x, 0, 6)),
    ("leaky_relu", nn.leaky_relu, [X23], lambda x: np.where(x > 0, x, 0.2 * x)),
    ("elu", nn.elu, [BIG], lambda x: np.where(x > 0, x, np.expm1(np.minimum(x, 0)))),
    ("selu", nn.selu, [X23],
     lambda x: SELU_S * np.where(x > 0, x, SELU_A * np.expm1(np.minimum(x, 0)))),
    ("softplus", nn.softplus, [BIG], lambda x: np.logaddexp(0.0, x)),
    ("softsign", nn.softsign, [BIG], lambda x: x / (1 + np.abs(x))),
    ("softmax", nn.softmax, [BIG], lambda x: np.exp(_np_log_softmax(x))),
    ("softmax_axis0", lambda x: nn.softmax(x, axis=0), [BIG],
     lambda x: np.exp(_np_log_softmax(x, 0))),
    ("log_softmax", nn.log_softmax, [BIG], _np_log_softmax),
    ("softmax_xent", lambda z, x: nn.softmax_cross_entropy_with_logits_v2(labels=z, logits=x),
     [BIG_LABELS, BIG], lambda z, x: -(z * _np_log_softmax(x)).sum(-1)),
    ("softmax_xent_dim0", lambda z, x: nn.softmax_cross_entropy_with_logits(
        labels=z, logits=x, dim=0), [BIG_LABELS.T.copy(), BIG.T.copy()],
     lambda z, x: -(z * _np_log_softmax(x, 0)).sum(0)),
    ("sparse_xent", lambda x: nn.sparse_softmax_cross_entropy_with_logits(
        labels=BIG_SPARSE, logits=x), [BIG],
     lambda x: -_np_log_softmax(x)[np.arange(3), BIG_SPARSE]),
    ("sigmoid_xent", lambda z, x: nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x),
     [BIG_LABELS, BIG],
     lambda z, x: np.maximum(x, 0) - x * z + np.log1p(np.exp(-np.abs(x)))),
    ("weighted_xent", lambda z, x: nn.weighted_cross_entropy_with_logits(
        labels=z, logits=x, pos_weight=3.0), [BIG_LABELS, BIG],
     lambda z, x: (1 - z) * x + (1 + 2.0 * z) * np.logaddexp(0.0, -x)),
    ("l2_loss", nn.l2_loss, [X234], lambda x: np.sum(x * x) / 2),
    ("bias_add", nn.bias_add, [X23, BIAS3], lambda x, b: x + b),
    ("bias_add_nchw", lambda x, b: nn.bias_add(x, b, data_format="NCHW"), [X234, BIAS3],
     lambda x, b: x + b[:, None]),
    ("moments_mean", lambda x: nn.moments(x, [0, 2])[0], [X234], lambda x: x.mean((0, 2))),
    ("moments_variance", lambda x: nn.moments(x, [0, 2])[1], [X234], lambda x: x.var((0, 2))),
    ("l2_normalize", lambda x: nn.l2_normalize(x, 0), [X23],
     lambda x: x / np.sqrt((x * x).sum(0, keepdims=True))),
    ("batch_normalization", lambda x, m, v: nn.batch_normalization(x, m, v, None, None, 0.1),
     [X23, BIAS3, VARIANCE3], lambda x, m, v: (x - m) / np.sqrt(v + 0.1)),
    ("silu", nn.silu, [X23], lambda x: x * _np_sigmoid(x)),
    ("zero_fraction", nn.zero_fraction, [np.array([[0.0, 1.0], [0.0, 0.0]])],
     lambda x: np.mean(x == 0)),
]


def _run(fn, inputs, dtype):
    xs = [tf.constant(np.asarray(v, dtype)) for v in inputs]
    out = fn(*xs)
    return out, tf.Session().run(out)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name,fn,inputs,ref", FORWARD_CASES, ids=[c[0] for c in FORWARD_CASES])
def test_forward_values_and_dtypes(name, fn, inputs, ref, dtype):
    out, got = _run(fn, inputs, dtype)
    want = ref(*[np.asarray(v, np.float64) for v in inputs])
    expected_dtype = np.float32 if name == "zero_fraction" else dtype
    assert np.asarray(got).dtype == expected_dtype
    assert tuple(out.shape.as_list()) == np.shape(want)
    assert np.all(np.isfinite(got))
    np.testing.assert_allclose(got, want, rtol=1e-5 if dtype == np.float32 else 1e-12,
                               atol=1e-6 if dtype == np.float32 else 1e-12)


# Gradients (w.r.t. the last input) that must stay finite for logits of +-1000.
LARGE_LOGIT_GRADS = [
    ("softplus", nn.softplus, [BIG], lambda x: _np_sigmoid(x)),
    ("softmax", lambda x: nn.softmax(x) * np.arange(3.0), [BIG], None),
    ("log_softmax", nn.log_softmax, [BIG], lambda x: 1 - 3 * np.exp(_np_log_softmax(x))),
    ("softmax_xent", lambda z, x: nn.softmax_cross_entropy_with_logits(labels=z, logits=x),
     [BIG_LABELS, BIG], lambda z, x: np.exp(_np_log_softmax(x)) - z),
    ("sparse_xent", lambda x: nn.sparse_softmax_cross_entropy_with_logits(
        labels=BIG_SPARSE, logits=x), [BIG],
     lambda x: np.exp(_np_log_softmax(x)) - np.eye(3)[BIG_SPARSE]),
    ("sigmoid_xent", lambda z, x: nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x),
     [BIG_LABELS, BIG], lambda z, x: _np_sigmoid(x) - z),
]


@pytest.mark.parametrize("name,fn,inputs,ref", LARGE_LOGIT_GRADS,
                         ids=[c[0] for c in LARGE_LOGIT_GRADS])
def test_large_logits_give_finite_first_and_second_derivatives(name, fn, inputs, ref):
    xs = [tf.constant(np.asarray(v, np.float32)) for v in inputs]
    y = fn(*xs)
    (g,) = tf.gradients(y, xs[-1])
    (gg,) = tf.gradients(g, xs[-1])
    g_val, gg_val = tf.Session().run([g, gg])
    assert np.all(np.isfinite(g_val)) and np.all(np.isfinite(gg_val))
    if ref is not None:
        np.testing.assert_allclose(g_val, ref(*inputs), rtol=1e-5, atol=1e-6)


# --------------------------------------------------------------------------------------
# Piecewise-linear activations: kinks and higher derivatives


def test_relu_second_derivative_is_zeros_not_none():
    x = tf.constant([-1.0, 0.5, 2.0])
    (g,) = tf.gradients(nn.relu(x), x)
    (gg,) = tf.gradients(g, x)
    assert gg is not None
    np.testing.assert_array_equal(tf.Session().run(gg), [0.0, 0.0, 0.0])
    assert g.op.type == "ReluGrad"


@pytest.mark.parametrize("fn,xs,want", [
    (nn.relu, [-1.0, 0.0, 1.0], [0.0, 0.0, 1.0]),
    (nn.relu6, [0.0, 3.0, 6.0, 7.0], [0.0, 1.0, 0.0, 0.0]),
    (lambda x: nn.leaky_relu(x, 0.1), [-1.0, 0.0, 1.0], [0.1, 0.1, 1.0]),
    (nn.elu, [-1.0, 0.0, 1.0], [np.exp(-1.0), 1.0, 1.0]),
], ids=["relu", "relu6", "leaky_relu", "elu"])
def test_gradient_at_the_kinks_matches_tensorflow(fn, xs, want):
    x = tf.constant(xs)
    (g,) = tf.gradients(fn(x), x)
    np.testing.assert_allclose(tf.Session().run(g), want, rtol=1e-6)


def test_relu_of_integers_is_allowed_and_keeps_the_dtype():
    v = tf.Session().run(nn.relu(tf.constant([-2, 3])))
    assert v.dtype == np.int32 and list(v) == [0, 3]


def test_gradient_override_of_relu_uses_the_relu_op_type():
    a = tf.constant([-1.0, 0.0, 1.0])
    with tf.get_default_graph().gradient_override_map({"Relu": "Identity"}):
        r = nn.relu(a)
    assert r.op.type == "Relu"
    np.testing.assert_array_equal(tf.Session().run(tf.gradients(r, a)[0]), [1.0, 1.0, 1.0])


# --------------------------------------------------------------------------------------
# Cross-entropy ops: structure, static shapes, errors


def test_fused_xent_op_has_loss_and_backprop_outputs():
    x = tf.placeholder(tf.float32, [None, 4])
    z = tf.placeholder(tf.float32, [None, 4])
    loss = nn.softmax_cross_entropy_with_logits_v2(labels=z, logits=x)
    assert loss.op.type == "SoftmaxCrossEntropyWithLogits"
    assert loss.shape.as_list() == [None]
    backprop = loss.op.outputs[1]
    assert backprop.shape.as_list() == [None, 4]
    lv, bv = tf.Session().run([loss, backprop], {x: LOGITS, z: PROBS})
    np.testing.assert_allclose(bv, np.exp(_np_log_softmax(LOGITS)) - PROBS, rtol=1e-5)
    np.testing.assert_allclose(lv, -(PROBS * _np_log_softmax(LOGITS)).sum(-1), rtol=1e-5)


@pytest.mark.parametrize("fn", [
    lambda z, x: nn.softmax(x, axis=-2),
    lambda z, x: nn.log_softmax(x),
    lambda z, x: nn.softmax_cross_entropy_with_logits_v2(labels=z, logits=x, axis=-2),
], ids=["softmax", "log_softmax", "softmax_xent"])
def test_derivatives_with_unknown_rank_match_the_static_shape_ones(fn):
    def derivatives(shape):
        x = tf.placeholder(tf.float64, shape)
        z = tf.placeholder(tf.float64, shape)
        y = fn(z, x) * fn(z, x)
        g = tf.gradients(y, [x, z])
        gg = tf.gradients(g[0], x)
        return tf.Session().run([g[0]] + gg, {x: LOGITS3, z: PROBS3})
    for a, b in zip(derivatives(None), derivatives(LOGITS3.shape)):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_sparse_xent_static_shape_and_int64_labels():
    x = tf.placeholder(tf.float64, [None, 3, 4])
    loss = nn.sparse_softmax_cross_entropy_with_logits(
        labels=tf.constant(SPARSE3, tf.int64), logits=x)
    assert loss.op.type == "SparseSoftmaxCrossEntropyWithLogits"
    assert loss.shape.as_list() == [2, 3]
    v = tf.Session().run(loss, {x: LOGITS3})
    want = -np.take_along_axis(_np_log_softmax(LOGITS3), SPARSE3[..., None], -1)[..., 0]
    np.testing.assert_allclose(v, want, rtol=1e-12)


@pytest.mark.parametrize("label", [4, -1])
def test_sparse_xent_out_of_range_label_is_an_invalid_argument_error(label):
    labels = tf.placeholder(tf.int32, [3])
    loss = nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=LOGITS)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Received a label value of %d which is outside the valid range "
                             r"of \[0, 4\)\.  Label values: 0 %d 1" % (label, label)):
        tf.Session().run(loss, {labels: [0, label, 1]})


def test_sparse_xent_label_shape_and_dtype_errors():
    with pytest.raises(ValueError, match="Rank mismatch: Rank of labels \\(received 2\\) should "
                                         "equal rank of logits minus 1 \\(received 2\\)"):
        nn.sparse_softmax_cross_entropy_with_logits(labels=[[0], [1], [2]], logits=LOGITS)
    with pytest.raises(ValueError, match="Shape mismatch: The shape of labels"):
        nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 1], logits=LOGITS)
    with pytest.raises(TypeError, match="'Tlabels' of float32 .* int32, int64"):
        nn.sparse_softmax_cross_entropy_with_logits(labels=[0.0, 1.0, 2.0], logits=LOGITS)


def test_xent_argument_errors():
    with pytest.raises(ValueError, match="Only call `softmax_cross_entropy_with_logits` with "
                                         "named arguments"):
        nn.softmax_cross_entropy_with_logits(PROBS, LOGITS)
    with pytest.raises(ValueError, match="Both labels and logits must be provided"):
        nn.sigmoid_cross_entropy_with_logits(logits=LOGITS)
    with pytest.raises(ValueError, match="logits and labels must have the same shape"):
        nn.softmax_cross_entropy_with_logits_v2(labels=PROBS[:, :3], logits=LOGITS)
    with pytest.raises(ValueError, match="logits and labels must have the same shape"):
        nn.sigmoid_cross_entropy_with_logits(labels=BINARY, logits=LOGITS)


def test_xent_runtime_shape_mismatch_is_an_invalid_argument_error():
    x = tf.placeholder(tf.float32, [None, None])
    z = tf.placeholder(tf.float32, [None, None])
    loss = nn.softmax_cross_entropy_with_logits_v2(labels=z, logits=x)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"logits and labels must be the same size: logits_size=\[3, 4\] "
                             r"labels_size=\[3, 3\]"):
        tf.Session().run(loss, {x: LOGITS, z: PROBS[:, :3]})


def test_float_only_ops_reject_integer_inputs():
    with pytest.raises(TypeError, match="Value for attr 'T' of int32 is not in the list of "
                                        "allowed values: half, bfloat16, float, double"):
        nn.softmax(tf.constant([1, 2, 3]))
    with pytest.raises(TypeError, match="input 'features' of Softplus"):
        nn.softplus(tf.constant([1, 2]))


def test_softmax_axis_errors():
    # TF 2.21's softmax: InvalidArgumentError in graphs too (tests/test_tf_kernel_test_values.py)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"`dim` must be in the range \[-2, 2\).*Received: dim=2"):
        nn.softmax(LOGITS, axis=2)
    with pytest.raises(ValueError, match="logits must have rank >= 1"):
        nn.log_softmax(1.0)
    with pytest.raises(ValueError, match="Cannot specify both 'axis' and 'dim'"):
        nn.softmax(LOGITS, axis=0, dim=1)


# --------------------------------------------------------------------------------------
# bias_add


def test_bias_add_errors():
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 3 and 4 for "
                                         "'BiasAdd'"):
        nn.bias_add(X23, np.zeros(4))
    with pytest.raises(ValueError, match="Shape must be rank 1 but is rank 2"):
        nn.bias_add(X23, np.zeros((1, 3)))
    with pytest.raises(ValueError, match="Shape must be at least rank 2 but is rank 1"):
        nn.bias_add(BIAS3, BIAS3)
    with pytest.raises(ValueError, match="data_format must be of the form `N...C` or `NC...`"):
        nn.bias_add(X23, BIAS3, data_format="HWCN")


def test_bias_add_runtime_mismatch_and_gradient_op():
    x = tf.placeholder(tf.float32, [None, None])
    b = tf.placeholder(tf.float32, [None])
    y = nn.bias_add(x, b)
    (gb,) = tf.gradients(y, b)
    assert gb.op.type == "BiasAddGrad" and gb.shape.as_list() == [None]
    sess = tf.Session()
    np.testing.assert_allclose(sess.run(gb, {x: X23, b: BIAS3}), [2.0, 2.0, 2.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Must provide as many biases"):
        sess.run(y, {x: X23, b: [1.0]})


def test_bias_add_integer_values():
    v = tf.Session().run(nn.bias_add(tf.constant([[1, 2]]), [10, 20]))
    assert v.dtype == np.int32 and v.tolist() == [[11, 22]]


# --------------------------------------------------------------------------------------
# in_top_k


def test_in_top_k_counts_ties_and_rejects_non_finite_rows():
    p = np.array([[0.1, 0.8, 0.1], [0.3, 0.3, 0.4], [0.3, np.nan, 0.4], [0.5, 0.2, 0.3]],
                 np.float32)
    t = [1, 0, 2, 3]
    sess = tf.Session()
    assert sess.run(nn.in_top_k(p, t, 1)).tolist() == [True, False, False, False]
    assert sess.run(nn.in_top_k(p, t, 2)).tolist() == [True, True, False, False]
    assert sess.run(flowgrad.nn.in_top_k(t, p, 2)).tolist() == [True, True, False, False]


# --------------------------------------------------------------------------------------
# dropout


def _dropout_values(make, shape=(200, 200), **feeds):
    x = tf.ones(shape)
    y = make(x)
    return y, tf.Session().run(y, feeds or None)


@pytest.mark.parametrize("make,keep", [
    (lambda x: nn.dropout(x, keep_prob=0.7, seed=1), 0.7),
    (lambda x: nn.dropout(x, 0.25, seed=2), 0.25),
    (lambda x: nn.dropout(x, rate=0.4, seed=3), 0.6),
    (lambda x: flowgrad.nn.dropout(x, 0.4, seed=3), 0.6),
], ids=["keep_prob", "keep_prob_positional", "rate", "tf2_rate_positional"])
def test_dropout_keeps_and_scales_like_tensorflow(make, keep):
    y, v = _dropout_values(make)
    kept = v != 0
    np.testing.assert_allclose(v[kept], 1.0 / keep, rtol=1e-6)
    assert abs(kept.mean() - keep) < 0.015        # 40000 draws: > 4 standard deviations
    assert abs(v.mean() - 1.0) < 0.04
    assert y.shape.as_list() == [200, 200] and v.dtype == np.float32


def test_dropout_with_seed_is_reproducible_and_redraws_per_run():
    def build():
        with tf.Graph().as_default():
            y = nn.dropout(tf.ones((50, 50)), keep_prob=0.5, seed=11)
            sess = tf.Session()
            return sess.run(y), sess.run(y)
    a1, a2 = build()
    b1, b2 = build()
    np.testing.assert_array_equal(a1, b1)
    np.testing.assert_array_equal(a2, b2)
    assert not np.array_equal(a1, a2)


def test_dropout_noise_shape_broadcasts_the_mask():
    _, v = _dropout_values(lambda x: nn.dropout(x, 0.5, noise_shape=[100, 1], seed=5),
                           shape=(100, 8))
    rows = v != 0
    assert np.all(rows.all(axis=1) | (~rows).all(axis=1))
    assert 0 < rows[:, 0].sum() < 100


def test_dropout_gradient_is_the_scaled_mask_and_rate_may_be_a_tensor():
    x = tf.constant(R.uniform(0.5, 1.5, (20, 20)).astype(np.float32))
    rate = tf.placeholder(tf.float32, [])
    y = nn.dropout(x, rate=rate, seed=4)
    (g,) = tf.gradients(y, x)
    yv, gv, xv = tf.Session().run([y, g, x], {rate: 0.5})
    np.testing.assert_allclose(gv, yv / xv, rtol=1e-6)
    assert set(np.unique(gv)) == {0.0, 2.0}


def test_dropout_rate_zero_is_the_identity_and_bad_rates_are_errors():
    x = tf.constant([1.0, 2.0])
    assert nn.dropout(x, rate=0.0) is x
    with pytest.raises(ValueError, match="rate must be a scalar tensor or a float in the range "
                                         "\\[0, 1\\), got 1"):
        flowgrad.nn.dropout(x, 1.0)
    with pytest.raises(ValueError, match="keep_prob must be a scalar tensor or a float in the "
                                         "range \\(0, 1\\], got 0"):
        nn.dropout(x, keep_prob=0.0)
    with pytest.raises(ValueError, match="You must provide a rate to dropout"):
        nn.dropout(x)
    with pytest.raises(ValueError, match="x has to be a floating point tensor"):
        nn.dropout(tf.constant([1, 2]), rate=0.5)


# --------------------------------------------------------------------------------------
# Namespaces


def test_both_faces_export_the_nn_functions():
    for name in ["relu", "relu6", "leaky_relu", "elu", "selu", "softplus", "softsign",
                 "sigmoid", "tanh", "softmax", "log_softmax", "bias_add", "l2_loss",
                 "moments", "l2_normalize", "dropout", "softmax_cross_entropy_with_logits",
                 "sparse_softmax_cross_entropy_with_logits", "sigmoid_cross_entropy_with_logits",
                 "weighted_cross_entropy_with_logits", "in_top_k", "batch_normalization"]:
        assert callable(getattr(flowgrad.nn, name)), name
        assert callable(getattr(tf.nn, name)), name
    assert tf.nn.sigmoid is tf.sigmoid and flowgrad.nn.tanh is flowgrad.tanh
    assert tf.nn.dropout is not flowgrad.nn.dropout


def test_l2_normalize_of_a_complex_tensor_divides_by_the_modulus_norm_as_tensorflow():
    # TensorFlow 2.21 printed these for tf.math.l2_normalize(x, axis=1) of this complex64 x.
    x = np.array([[1 + 2j, 3 - 1j], [0j, 0j]], np.complex64)
    want = np.array([[0.2581989 + 0.5163978j, 0.7745967 - 0.2581989j], [0j, 0j]])
    with tf.Session() as sess:
        got = sess.run(nn.l2_normalize(tf.constant(x), axis=1))
    assert got.dtype == np.complex64
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)


def test_l2_normalize_of_a_complex_tensor_differentiates_through_its_parts():
    from flowgrad.testing import check_gradients

    def f(re, im):
        y = nn.l2_normalize(tf.complex(re, im), axis=1)
        return [tf.math.real(y), tf.math.imag(y)]

    check_gradients(f, [np.array([[1.0, 3.0], [0.5, -2.0]]),
                        np.array([[2.0, -1.0], [1.5, 0.25]])], order=2)
