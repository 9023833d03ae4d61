"""tf.nn.gelu, pool (1-, 2- and 3-D), space_to_depth/depth_to_space, conv_transpose and
experimental.stateless_dropout (gradients at orders 1 and 2, graph and eager); the stateless
random functions and tf.random.Generator: TensorFlow's determinism contract (the same seed
gives the same numbers, in eager mode and in graphs), shapes, dtypes and distributions
(the streams themselves differ from TensorFlow's: docs/differences.md). Values against
TensorFlow 2.21 are in tests/test_kerasops_reference.py.

The numerical gradient checks of the kerasops_nn cases are entries of tests/op_db.py."""
import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as tf
from flowgrad.framework import errors

R = np.random.RandomState(11)
V5 = R.uniform(-1, 1, (1, 3, 4, 4, 2))
IMG = R.uniform(-1, 1, (1, 4, 4, 2))


def test_pool_channels_first_and_errors():
    tf.enable_v2_behavior()
    x = flowgrad.constant(V5)
    want = flowgrad.nn.pool(x, [2, 2, 2], "MAX", padding="VALID").numpy()
    got = flowgrad.nn.pool(flowgrad.transpose(x, [0, 4, 1, 2, 3]), [2, 2, 2], "MAX",
                           padding="VALID", data_format="NCDHW").numpy()
    np.testing.assert_array_equal(got.transpose(0, 2, 3, 4, 1), want)
    with pytest.raises(ValueError, match="pooling_type"):
        flowgrad.nn.pool(x, [2, 2, 2], "MIN")
    with pytest.raises(ValueError, match="rank"):
        flowgrad.nn.pool(x, [2, 2], "MAX")
    with pytest.raises(errors.UnimplementedError, match="dilations"):
        flowgrad.nn.pool(x, [2, 2, 2], "MAX", dilations=[2, 2, 2])
    with pytest.raises(errors.InvalidArgumentError, match="divisible"):
        flowgrad.nn.space_to_depth(flowgrad.zeros([1, 3, 4, 1]), 2)
    y = flowgrad.nn.space_to_depth(flowgrad.constant(IMG), 2).numpy()
    y_nchw = flowgrad.nn.space_to_depth(flowgrad.transpose(flowgrad.constant(IMG), [0, 3, 1, 2]),
                                        2, data_format="NCHW").numpy()
    np.testing.assert_array_equal(y_nchw.transpose(0, 2, 3, 1), y)


SEED = [7, 11]


def _stateless_calls():
    r = flowgrad.random
    return {
        "uniform": lambda s: r.stateless_uniform([50, 40], s, minval=-2.0, maxval=3.0),
        "uniform_int": lambda s: r.stateless_uniform([2000], s, 3, 9, dtype=flowgrad.int32),
        "uniform_full": lambda s: r.stateless_uniform([4], s, None, None, dtype=flowgrad.uint32),
        "normal": lambda s: r.stateless_normal([50, 40], s, mean=1.0, stddev=2.0,
                                               dtype=flowgrad.float64),
        "truncated": lambda s: r.stateless_truncated_normal([2000], s),
        "categorical": lambda s: r.stateless_categorical(np.log([[0.2, 0.5, 0.3]]), 4000, s),
        "binomial": lambda s: r.stateless_binomial([2000], s, 10.0, 0.3),
        "gamma": lambda s: r.stateless_gamma([2000, 2], s, [2.0, 5.0], beta=[1.0, 2.0]),
        "poisson": lambda s: r.stateless_poisson([2000], s, 4.0),
    }


@pytest.mark.parametrize("kind", sorted(_stateless_calls()))
def test_stateless_same_seed_same_numbers_in_eager_and_graph(kind):
    tf.enable_v2_behavior()
    fn = _stateless_calls()[kind]
    a = fn(SEED).numpy()
    b = fn(flowgrad.constant(SEED, flowgrad.int64)).numpy()
    c = flowgrad.function(fn)(flowgrad.constant(SEED)).numpy()
    d = fn([7, 12]).numpy()
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(a, c)
    assert not np.array_equal(a, d)


def test_stateless_shapes_dtypes_and_distributions():
    tf.enable_v2_behavior()
    out = {k: f(SEED) for k, f in _stateless_calls().items()}
    u = out["uniform"].numpy()
    assert out["uniform"].dtype == flowgrad.float32 and u.shape == (50, 40)
    assert u.min() >= -2 and u.max() < 3 and abs(u.mean() - 0.5) < 0.1
    i = out["uniform_int"].numpy()
    assert out["uniform_int"].dtype == flowgrad.int32 and set(np.unique(i)) == set(range(3, 9))
    assert out["uniform_full"].dtype == flowgrad.uint32
    n = out["normal"].numpy()
    assert out["normal"].dtype == flowgrad.float64
    assert abs(n.mean() - 1.0) < 0.1 and abs(n.std() - 2.0) < 0.1
    t = out["truncated"].numpy()
    assert np.abs(t).max() < 2 and abs(t.std() - 0.88) < 0.05
    c = out["categorical"].numpy()
    assert out["categorical"].dtype == flowgrad.int64 and c.shape == (1, 4000)
    np.testing.assert_allclose(np.bincount(c[0]) / 4000, [0.2, 0.5, 0.3], atol=0.03)
    b = out["binomial"].numpy()
    assert out["binomial"].dtype == flowgrad.int32 and abs(b.mean() - 3.0) < 0.15
    g = out["gamma"].numpy()
    np.testing.assert_allclose(g.mean(axis=0), [2.0, 2.5], rtol=0.08)
    assert abs(out["poisson"].numpy().mean() - 4.0) < 0.15
    with pytest.raises(ValueError, match="shape \\[2\\]"):
        flowgrad.random.stateless_uniform([2], [1, 2, 3])
    with pytest.raises(ValueError, match="minval and maxval"):
        flowgrad.random.stateless_uniform([2], SEED, dtype=flowgrad.int32)
    with pytest.raises(ValueError, match="end with"):
        flowgrad.random.stateless_gamma([3], SEED, [1.0, 2.0])


def test_stateless_ops_have_no_gradient():
    tf.enable_v2_behavior()
    x = flowgrad.constant(2.0)
    with flowgrad.GradientTape() as tape:
        tape.watch(x)
        y = flowgrad.random.stateless_normal([3], SEED, mean=x)
    assert tape.gradient(y, x).numpy() == 3.0      # through the mean only


def test_stateless_dropout_is_deterministic_and_scales():
    tf.enable_v2_behavior()
    x = flowgrad.ones([100, 100])
    a = flowgrad.nn.experimental.stateless_dropout(x, 0.25, SEED).numpy()
    b = flowgrad.nn.experimental.stateless_dropout(x, 0.25, SEED).numpy()
    np.testing.assert_array_equal(a, b)
    assert set(np.unique(a)) == {0.0, np.float32(1 / 0.75)}
    assert abs((a == 0).mean() - 0.25) < 0.03
    m = flowgrad.nn.experimental.stateless_dropout(x, 0.5, SEED, noise_shape=[100, 1]).numpy()
    assert all(len(set(row)) == 1 for row in m)


def test_generator_streams():
    tf.enable_v2_behavior()
    g1, g2 = flowgrad.random.Generator.from_seed(5), flowgrad.random.Generator.from_seed(5)
    a = [g1.normal([3]).numpy() for _ in range(2)]
    b = [g2.normal([3]).numpy() for _ in range(2)]
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a[0], a[1])
    assert g1.state.numpy()[0] == 5 + 2 * 3 * 256     # TensorFlow's: 256 per value drawn
    draw = flowgrad.function(lambda: g1.uniform([2], maxval=10, dtype=flowgrad.int64))
    c, d = draw().numpy(), draw().numpy()
    assert g1.state.numpy()[0] == 5 + 2 * 3 * 256 + 2 * 2 * 256
    assert draw().dtype == flowgrad.int64
    assert not np.array_equal(c, d) or not np.array_equal(c, draw().numpy())
    s1, s2 = g2.split(2)
    assert not np.array_equal(s1.normal([4]).numpy(), s2.normal([4]).numpy())
    seeds = g2.make_seeds(3)
    assert seeds.shape.as_list() == [2, 3] and seeds.dtype == flowgrad.int64
    fresh = flowgrad.random.Generator.from_non_deterministic_state()
    assert fresh.truncated_normal([10]).numpy().max() < 2
    restored = flowgrad.random.Generator.from_state(g1.state.numpy())
    np.testing.assert_array_equal(restored.normal([3]).numpy(), g1.normal([3]).numpy())
    flowgrad.random.set_global_generator(g2)
    assert flowgrad.random.get_global_generator() is g2


def test_faces():
    for name in ("stateless_uniform stateless_normal stateless_truncated_normal "
                 "stateless_categorical stateless_binomial stateless_gamma stateless_poisson "
                 "Generator get_global_generator set_global_generator create_rng_state").split():
        assert getattr(flowgrad.random, name) is getattr(tf.random, name), name
    for name in "pool conv_transpose depth_to_space space_to_depth experimental".split():
        assert hasattr(flowgrad.nn, name) and hasattr(tf.nn, name), name
    assert hasattr(flowgrad.nn, "gelu") and not hasattr(tf.nn, "gelu")
    assert callable(tf.depth_to_space) and not hasattr(flowgrad, "depth_to_space")
