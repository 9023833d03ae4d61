"""tf.distributions (TF1): Normal, Uniform, Bernoulli, Categorical against closed forms,
their shapes, second-order gradients of log_prob/entropy/cdf/KL (graph and eager), and
reparameterised sample gradients.

The numerical gradient checks of the distributions cases are entries of tests/op_db.py."""
import math

import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as tf

ds = tf.distributions
RNG = np.random.RandomState(11)
LOC = np.array([0.3, -1.2, 2.0])
SCALE = np.array([0.5, 1.5, 2.5])
X = np.array([0.1, -0.4, 3.3])
LOGITS = RNG.randn(2, 4)
PROBS = np.array([0.2, 0.65, 0.9])


def _np_log_softmax(z):
    s = z - z.max(-1, keepdims=True)
    return s - np.log(np.exp(s).sum(-1, keepdims=True))


def _run(t):
    return tf.Session().run(t)


# --------------------------------------------------------------------------------------
# Values against closed forms


def test_normal_values():
    d = ds.Normal(loc=LOC, scale=SCALE)
    z = (X - LOC) / SCALE
    cdf = np.array([0.5 * math.erfc(-v / math.sqrt(2)) for v in z])
    want = [-0.5 * z ** 2 - np.log(SCALE) - 0.5 * np.log(2 * np.pi),
            np.exp(-0.5 * z ** 2) / (SCALE * np.sqrt(2 * np.pi)), cdf, 1 - cdf, np.log(cdf),
            0.5 * np.log(2 * np.pi * np.e * SCALE ** 2), LOC, SCALE, SCALE ** 2, LOC]
    got = _run([d.log_prob(X), d.prob(X), d.cdf(X), d.survival_function(X), d.log_cdf(X),
                d.entropy(), d.mean(), d.stddev(), d.variance(), d.mode()])
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-12)
    assert d.dtype == tf.float64 and d.reparameterization_type is ds.FULLY_REPARAMETERIZED


def test_normal_quantile_inverts_the_cdf():
    d = ds.Normal(loc=LOC, scale=SCALE)
    p = np.array([0.01, 0.5, 0.93])
    x = _run(d.quantile(p))
    np.testing.assert_allclose(_run(d.cdf(x)), p, rtol=1e-12)
    with pytest.raises(NotImplementedError, match="quantile is not implemented: Bernoulli"):
        ds.Bernoulli(probs=0.5).quantile(0.5)


def test_normal_cdf_tails_are_accurate():
    x = np.array([-30.0, -8.0, 0.3, 8.0])
    got = _run(ds.Normal(np.float64(0.0), 1.0).cdf(x))   # float64: the first floating param
    want = np.array([0.5 * math.erfc(-v / math.sqrt(2)) for v in x])
    np.testing.assert_allclose(got, want, rtol=1e-12)
    assert got[0] > 0


@pytest.mark.filterwarnings("ignore:divide by zero encountered in log")
def test_uniform_values():
    low, high = np.array([0.0, -1.0, 2.0]), np.array([1.0, 3.0, 2.5])
    d = ds.Uniform(low=low, high=high)
    x = np.array([0.5, 3.0, 2.1])           # x == high is outside the support, as in TF
    r = high - low
    inside = (x >= low) & (x < high)
    want = [np.where(inside, 1 / r, 0.0), np.clip((x - low) / r, 0, 1), np.log(r),
            (low + high) / 2, r / np.sqrt(12), r ** 2 / 12]
    got = _run([d.prob(x), d.cdf(x), d.entropy(), d.mean(), d.stddev(), d.variance()])
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-12)
    lp = _run(d.log_prob(x))
    assert np.isneginf(lp[1]) and np.allclose(lp[[0, 2]], -np.log(r[[0, 2]]))
    assert np.isnan(_run(d.prob([np.nan, 0.0, 0.0]))[0])
    with pytest.raises(NotImplementedError, match="mode is not implemented: Uniform"):
        d.mode()


@pytest.mark.parametrize("param", ["probs", "logits"])
def test_bernoulli_values(param):
    logits = np.log(PROBS) - np.log1p(-PROBS)
    d = ds.Bernoulli(**{param: PROBS if param == "probs" else logits})
    k = np.array([1, 0, 1])
    want = [np.where(k == 1, PROBS, 1 - PROBS), -(PROBS * np.log(PROBS)
                                                  + (1 - PROBS) * np.log1p(-PROBS)),
            PROBS, PROBS * (1 - PROBS), (PROBS > 0.5).astype(np.int32), logits, PROBS]
    got = _run([d.prob(k), d.entropy(), d.mean(), d.variance(), d.mode(), d.logits, d.probs])
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-10)
    np.testing.assert_allclose(_run(d.log_prob(k)), np.log(want[0]), rtol=1e-10)
    assert d.dtype == tf.int32 and d.reparameterization_type is ds.NOT_REPARAMETERIZED


@pytest.mark.parametrize("param", ["probs", "logits"])
def test_categorical_values(param):
    p = np.exp(_np_log_softmax(LOGITS))
    d = ds.Categorical(**{param: p if param == "probs" else LOGITS})
    k = np.array([3, 0])
    got = _run([d.log_prob(k), d.prob(k), d.entropy(), d.mode(), d.probs])
    np.testing.assert_allclose(got[0], np.log(p[[0, 1], k]), rtol=1e-10)
    np.testing.assert_allclose(got[1], p[[0, 1], k], rtol=1e-10)
    np.testing.assert_allclose(got[2], -(p * np.log(p)).sum(-1), rtol=1e-10)
    np.testing.assert_array_equal(got[3], LOGITS.argmax(-1))
    np.testing.assert_allclose(got[4], p, rtol=1e-12)
    assert d.event_size == 4
    with pytest.raises(NotImplementedError, match="mean is not implemented: Categorical"):
        d.mean()


def test_kl_divergences_against_closed_forms():
    a, b = ds.Normal(LOC, SCALE), ds.Normal(LOC[::-1].copy(), SCALE[::-1].copy())
    want = (np.log(SCALE[::-1] / SCALE) + (SCALE ** 2 + (LOC - LOC[::-1]) ** 2)
            / (2 * SCALE[::-1] ** 2) - 0.5)
    np.testing.assert_allclose(_run(ds.kl_divergence(a, b)), want, rtol=1e-12)
    np.testing.assert_allclose(_run(a.kl_divergence(b)), want, rtol=1e-12)
    np.testing.assert_allclose(_run(a.cross_entropy(b)),
                               want + 0.5 * np.log(2 * np.pi * np.e * SCALE ** 2), rtol=1e-12)
    q = PROBS[::-1].copy()
    want_b = PROBS * np.log(PROBS / q) + (1 - PROBS) * np.log((1 - PROBS) / (1 - q))
    np.testing.assert_allclose(_run(ds.Bernoulli(probs=PROBS).kl_divergence(
        ds.Bernoulli(probs=q))), want_b, rtol=1e-10)
    pa, pb = np.exp(_np_log_softmax(LOGITS)), np.exp(_np_log_softmax(LOGITS[::-1].copy()))
    np.testing.assert_allclose(_run(ds.kl_divergence(ds.Categorical(LOGITS),
                                                     ds.Categorical(LOGITS[::-1].copy()))),
                               (pa * np.log(pa / pb)).sum(-1), rtol=1e-10)
    got = _run(ds.Uniform(0.0, 1.0).kl_divergence(ds.Uniform([-1.0, 0.5], [3.0, 2.0])))
    assert got[0] == pytest.approx(np.log(4.0)) and np.isposinf(got[1])
    with pytest.raises(NotImplementedError, match="No KL.*type Normal and distribution_b "
                                                  "type Bernoulli"):
        ds.kl_divergence(a, ds.Bernoulli(probs=0.5))


# --------------------------------------------------------------------------------------
# Shapes


def test_batch_event_and_sample_shapes():
    d = ds.Normal(loc=np.zeros((2, 1)), scale=np.ones(3))
    assert d.batch_shape.as_list() == [2, 3] and d.event_shape.as_list() == []
    np.testing.assert_array_equal(_run(d.batch_shape_tensor()), [2, 3])
    assert d.sample(seed=1).shape.as_list() == [2, 3]
    assert d.sample(5, seed=1).shape.as_list() == [5, 2, 3]
    s = d.sample([4, 5], seed=1)
    assert s.shape.as_list() == [4, 5, 2, 3] and _run(s).shape == (4, 5, 2, 3)
    assert d.log_prob(np.zeros((7, 1, 1))).shape.as_list() == [7, 2, 3]
    c = ds.Categorical(logits=np.zeros((2, 3, 5)))
    assert c.batch_shape.as_list() == [2, 3] and c.event_shape.as_list() == []
    assert _run(c.sample([6], seed=2)).shape == (6, 2, 3)
    assert c.log_prob(np.zeros(3, np.int32)).shape.as_list() == [2, 3]
    assert ds.Bernoulli(logits=np.zeros(4)).sample([2, 3], seed=1).shape.as_list() == [2, 3, 4]
    assert ds.Uniform(np.zeros(4), 1.0).sample(seed=1).shape.as_list() == [4]


def test_unknown_batch_shape_samples_at_run_time():
    loc = tf.placeholder(tf.float32, [None])
    d = ds.Normal(loc, 1.0)
    s = d.sample([2, 3], seed=4)
    assert s.shape.rank == 3
    sess = tf.Session()
    assert sess.run(s, {loc: np.zeros(5)}).shape == (2, 3, 5)
    np.testing.assert_array_equal(sess.run(d.batch_shape_tensor(), {loc: np.zeros(5)}), [5])
    c = ds.Categorical(logits=tf.placeholder(tf.float32, [None, 3]))
    assert sess.run(c.sample(4, seed=1), {c.logits: np.zeros((2, 3))}).shape == (4, 2)


def test_graph_names_follow_tensorflow():
    d = ds.Normal(0.0, 1.0)
    assert d.name == "Normal/" and d.loc.name == "Normal/loc:0"
    assert d.log_prob(0.0).name.startswith("Normal/log_prob/")
    assert ds.Normal(0.0, 1.0, name="pi").name == "pi/"


# --------------------------------------------------------------------------------------
# Sampling: frequencies, seeds, reparameterisation


def test_sample_statistics_and_seeds():
    sess = tf.Session()
    n = ds.Normal([1.0, -2.0], [0.5, 3.0]).sample(20000, seed=7)
    v = sess.run(n)
    np.testing.assert_allclose(v.mean(0), [1.0, -2.0], atol=0.08)
    np.testing.assert_allclose(v.std(0), [0.5, 3.0], rtol=0.03)
    b = sess.run(ds.Bernoulli(probs=PROBS).sample(20000, seed=7))
    np.testing.assert_allclose(b.mean(0), PROBS, atol=0.015)
    p = np.exp(_np_log_softmax(LOGITS))
    c = sess.run(ds.Categorical(logits=LOGITS).sample(20000, seed=7))
    for row in range(2):
        np.testing.assert_allclose(np.bincount(c[:, row], minlength=4) / 20000, p[row],
                                   atol=0.015)
    u = sess.run(ds.Uniform(-1.0, 3.0).sample(20000, seed=7))
    assert u.min() >= -1.0 and u.max() < 3.0 and abs(u.mean() - 1.0) < 0.05

    def draw():
        with tf.Graph().as_default() as g:
            tf.set_random_seed(3)
            t = ds.Normal(0.0, 1.0).sample(4, seed=5)
            return tf.Session(graph=g).run(t)
    np.testing.assert_array_equal(draw(), draw())


def test_normal_sample_is_reparameterised_graph():
    loc, scale = tf.constant(LOC), tf.constant(SCALE)
    s = ds.Normal(loc, scale).sample(6, seed=1)
    g_loc, g_scale = tf.gradients(tf.reduce_sum(s * s), [loc, scale])
    h_scale = tf.gradients(g_scale, scale)[0]
    sv, gl, gs, hs = tf.Session().run([s, g_loc, g_scale, h_scale])
    eps = (sv - LOC) / SCALE
    np.testing.assert_allclose(gl, (2 * sv).sum(0), rtol=1e-12)
    np.testing.assert_allclose(gs, (2 * sv * eps).sum(0), rtol=1e-12)
    np.testing.assert_allclose(hs, (2 * eps * eps).sum(0), rtol=1e-12)


def test_uniform_sample_is_reparameterised_eager():
    tf.enable_v2_behavior()
    low, high = flowgrad.constant([0.0, -2.0], flowgrad.float64), flowgrad.constant(
        [1.0, 5.0], flowgrad.float64)
    with flowgrad.GradientTape(persistent=True) as tape:
        tape.watch([low, high])
        s = ds.Uniform(low, high).sample(5, seed=3)
        loss = flowgrad.reduce_sum(s * s)
    g_low, g_high = tape.gradient(loss, [low, high])
    u = (s.numpy() - low.numpy()) / (high.numpy() - low.numpy())
    np.testing.assert_allclose(g_low.numpy(), (2 * s.numpy() * (1 - u)).sum(0), rtol=1e-10)
    np.testing.assert_allclose(g_high.numpy(), (2 * s.numpy() * u).sum(0), rtol=1e-10)
    assert tape.gradient(flowgrad.reduce_sum(ds.Bernoulli(probs=low * 0.1 + 0.5).sample(
        3, seed=1) * 1), low) is None

# --------------------------------------------------------------------------------------
# Arguments, validate_args, faces


def test_argument_errors_and_validate_args():
    with pytest.raises(ValueError, match="Must pass probs or logits, but not both"):
        ds.Bernoulli(logits=0.0, probs=0.5)
    with pytest.raises(ValueError, match="Must pass probs or logits, but not both"):
        ds.Categorical()
    with pytest.raises(TypeError, match="must share a floating dtype"):
        ds.Normal(tf.constant([1.0], tf.float64), tf.constant([1.0], tf.float32))
    with pytest.raises(tf.errors.InvalidArgumentError, match="`scale` must be positive"):
        ds.Normal(0.0, [1.0, -1.0], validate_args=True)
    with pytest.raises(tf.errors.InvalidArgumentError, match="low >= high"):
        ds.Uniform(1.0, 1.0, validate_args=True)
    with pytest.raises(tf.errors.InvalidArgumentError, match="outside \\[0, 1\\]"):
        ds.Bernoulli(probs=[0.5, 1.5], validate_args=True)
    ds.Normal(0.0, -1.0)                                  # not checked without validate_args
    scale = tf.placeholder(tf.float32, [None])
    d = ds.Normal(0.0, scale, validate_args=True)
    sess = tf.Session()
    np.testing.assert_allclose(sess.run(d.stddev(), {scale: [2.0]}), [2.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="`scale` must be positive"):
        sess.run(d.log_prob(0.0), {scale: [-2.0]})
    assert d.validate_args and d.allow_nan_stats
    assert not ds.Normal(0.0, 1.0, allow_nan_stats=False).allow_nan_stats
    assert d.parameters["validate_args"] is True
    with pytest.raises(ValueError, match="sample_shape must be non-negative"):
        ds.Normal(0.0, 1.0).sample(-1)


def test_copy_and_eager_use():
    tf.enable_v2_behavior()
    d = ds.Normal(loc=0.0, scale=2.0)
    e = d.copy(loc=1.0)
    assert isinstance(e, ds.Normal) and e.mean().numpy() == 1.0 and e.stddev().numpy() == 2.0
    assert d.sample(3, seed=1).numpy().shape == (3,)
    assert flowgrad.compat.v1.distributions is ds
    assert tf.distributions.Normal is flowgrad.compat.v1.distributions.Normal
