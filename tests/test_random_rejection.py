"""Gamma, Poisson and binomial sampling (flowgrad/ops/random_rejection*.py) and
``index_shuffle`` (flowgrad/ops/index_shuffle_ops.py).

Their numbers are TensorFlow's bit for bit (tests/test_random_streams.py replays recorded
programs); here: the gamma sample's derivative in ``alpha`` against finite differences of
the inverse CDF, its gradient in graph and eager mode, its missing second order (as in
TensorFlow), the parameters where TensorFlow's loops never end, shapes and errors."""
import math

import numpy as np
import pytest

import flowgrad as tf
from flowgrad.compat import v1
from flowgrad.ops.incomplete_gamma_ops import _igamma_parts, gamma_sample_derivative


@pytest.fixture
def eager():
    v1.enable_v2_behavior()
    yield


def _inverse_cdf(a: float, u: float) -> float:
    """x with P(a, x) = u, by bisection on flowgrad's igamma."""
    lo, hi = 0.0, max(10.0, 10 * a)
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if _igamma_parts(a, mid, False)[0] < u:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


@pytest.mark.parametrize("a,x", [(0.05, 1e-6), (0.3, 0.2), (1.0, 0.7), (2.5, 1.7), (2.5, 6.0),
                                 (9.0, 4.0), (40.0, 45.0)])
def test_sample_derivative_is_the_inverse_cdf_derivative(a, x):
    u = _igamma_parts(a, x, False)[0]
    h = 1e-5 * a
    numeric = (_inverse_cdf(a + h, u) - _inverse_cdf(a - h, u)) / (2 * h)
    assert gamma_sample_derivative(a, x) == pytest.approx(numeric, rel=1e-4)


def test_sample_derivative_edges():
    assert gamma_sample_derivative(2.0, 0.0) == 0.0
    assert math.isnan(gamma_sample_derivative(-1.0, 1.0))
    assert math.isnan(gamma_sample_derivative(2.0, math.nan))


def _expected_grad(alpha: np.ndarray, beta: np.ndarray, samples: np.ndarray) -> np.ndarray:
    """d sum(samples) / d alpha: the derivative at the unit-rate sample, over beta."""
    unit = samples * beta
    der = np.vectorize(gamma_sample_derivative)(np.broadcast_to(alpha, unit.shape), unit)
    return (der / beta).reshape(-1, alpha.size).sum(axis=0)


def test_gamma_gradient_eager(eager):
    a = tf.constant([0.4, 1.0, 3.0], tf.float64)
    b = tf.constant([2.0, 1.0, 0.5], tf.float64)
    with tf.GradientTape() as t:
        t.watch([a, b])
        s = tf.random.stateless_gamma([40, 3], [1, 2], a, b, dtype=tf.float64)
        loss = tf.reduce_sum(s)
    ga, gb = t.gradient(loss, [a, b])
    np.testing.assert_allclose(ga.numpy(), _expected_grad(a.numpy(), b.numpy(), s.numpy()),
                               rtol=1e-10)
    # the rate only scales: d sum(s) / d beta = -sum(s) / beta
    np.testing.assert_allclose(gb.numpy(), -s.numpy().sum(axis=0) / b.numpy(), rtol=1e-10)


def test_gamma_gradient_graph():
    with tf.Graph().as_default():
        a = v1.placeholder(tf.float64, [2])
        s = v1.random_gamma([25], a, dtype=tf.float64, seed=4)
        g = tf.gradients(tf.reduce_sum(s), a)[0]
        with v1.Session() as sess:
            sv, gv = sess.run([s, g], {a: [0.6, 5.0]})
    np.testing.assert_allclose(gv, _expected_grad(np.array([0.6, 5.0]), np.ones(1), sv),
                               rtol=1e-10)


def test_gamma_second_order_raises_as_tensorflow(eager):
    a = tf.constant([1.5, 2.0])
    with tf.GradientTape() as outer:
        outer.watch(a)
        with tf.GradientTape() as inner:
            inner.watch(a)
            s = tf.random.gamma([3], a, seed=1)
        g = inner.gradient(s, a)
    with pytest.raises(LookupError, match="RandomGammaGrad"):
        outer.gradient(g, a)


def test_poisson_and_binomial_have_no_gradient(eager):
    lam = tf.constant([3.0, 20.0])
    with tf.GradientTape() as t:
        t.watch(lam)
        s = tf.random.poisson([4], lam, seed=1)
    assert t.gradient(s, lam) is None


def test_parameters_where_tensorflow_loops_forever(eager):
    s = tf.random.stateless_gamma([3, 4], [1, 2], [0.0, -1.0, float("nan"), float("inf")])
    np.testing.assert_array_equal(s.numpy()[0], [np.finfo(np.float32).tiny, np.nan, np.nan,
                                                 np.inf])
    p = tf.random.poisson([2], [-1.0, float("nan"), float("inf")], seed=2)
    np.testing.assert_array_equal(p.numpy()[0], [0.0, np.nan, np.inf])
    b = tf.random.stateless_binomial([2, 3], [1, 1], [5.0, 5.0, 0.0], [float("nan"), 1.0, 0.5],
                                     output_dtype=tf.float32)
    np.testing.assert_array_equal(b.numpy()[0], [np.nan, 5.0, 0.0])


def test_samples_look_like_their_distributions(eager):
    g = tf.random.stateless_gamma([20000], [5, 6], 3.0, 2.0).numpy()
    assert g.mean() == pytest.approx(1.5, rel=0.02) and g.var() == pytest.approx(0.75, rel=0.05)
    p = tf.random.stateless_poisson([20000], [5, 6], 30.0).numpy()
    assert p.mean() == pytest.approx(30.0, rel=0.01) and p.var() == pytest.approx(30.0, rel=0.05)
    b = tf.random.stateless_binomial([20000], [5, 6], 200.0, 0.7).numpy()
    assert b.mean() == pytest.approx(140.0, rel=0.01) and b.var() == pytest.approx(42, rel=0.05)


def test_shapes_and_second_call_continues_the_stream(eager):
    tf.random.set_seed(1)
    x = tf.random.gamma([2, 3], [[1.0], [2.0]], [1.0, 2.0])
    assert x.shape == (2, 3, 2, 2) and x.dtype == tf.float32
    y = tf.random.poisson([4], 3, dtype=tf.int64)
    assert y.shape == (4,) and y.dtype == tf.int64
    f = v1.random_poisson([1.0, 2.0], [5], seed=3)
    assert f.shape == (5, 2)
    assert not np.array_equal(tf.random.gamma([5], 2.0, seed=7).numpy(),
                              tf.random.gamma([5], 2.0, seed=7).numpy())


def test_errors(eager):
    with pytest.raises(TypeError, match="float16, float32, float64"):
        tf.random.gamma([2], 1.0, dtype=tf.int32)
    with pytest.raises(TypeError, match="dtype"):
        tf.random.poisson([2], 1.0, dtype=tf.string)
    with pytest.raises(ValueError, match="must end with"):
        tf.random.stateless_gamma([3], [1, 2], [1.0, 2.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="must end with"):
        tf.random.stateless_poisson([3], [1, 2], [1.0, 2.0])


def test_index_shuffle_is_a_permutation_and_checks_its_inputs(eager):
    perm = tf.random.experimental.index_shuffle(tf.range(5000, dtype=tf.int64), [3, 4], 4999)
    assert sorted(perm.numpy().tolist()) == list(range(5000))
    assert tf.random.experimental.index_shuffle(0, [1, 2], 0).numpy() == 0
    with pytest.raises(TypeError, match="index"):
        tf.random.experimental.index_shuffle(tf.constant(1.0), [1, 2], 3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Seed must be"):
        tf.random.experimental.index_shuffle(tf.range(3), [1, 2, 3], 3)


def test_generator_binomial_is_stateful_random_binomial(eager):
    """TensorFlow's numbers are pinned by tests/test_random_streams.py (generator_binomial);
    here: the op type, the state's advance, and bad parameters."""
    g = tf.random.Generator.from_seed(5)
    f = tf.function(lambda: g.binomial([4, 2], [3.0, 8.0], 0.5))
    graph = f.get_concrete_function().graph
    assert "StatefulRandomBinomial" in {op.type for op in graph.get_operations()}
    before = g.state.numpy()[0]
    samples = g.binomial([4, 2], [3.0, 8.0], 0.5).numpy()
    assert samples.dtype == np.int32 and samples.shape == (4, 2)
    assert np.all(samples <= [3, 8]) and np.all(samples >= 0)
    assert g.state.numpy()[0] - before == 256 * (2 * 200 * (4 + 3) // 4)
    state = g.state.numpy()
    with pytest.raises(tf.errors.InvalidArgumentError, match="compatible batch dimensions"):
        g.binomial([2, 3], [1.0, 2.0], [0.5, 0.5, 0.5])
    with pytest.raises(tf.errors.InvalidArgumentError, match="must end with broadcasted"):
        g.binomial([3, 2], [1.0, 2.0, 3.0], 0.5)
    np.testing.assert_array_equal(g.state.numpy(), state)     # a failed draw skips nothing
