"""Initializers: TF1 classes and aliases, the TF2 / Keras namespace, TF's formulas."""
import math

import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as tf
from flowgrad import initializers as keras_init
from flowgrad.ops.init_ops import _compute_fans


def _value(init, shape, dtype=None, **kw):
    t = init(shape, dtype, **kw) if dtype is not None else init(shape, **kw)
    with tf.Session() as sess:
        return sess.run(t)


def test_zeros_ones():
    v = _value(tf.zeros_initializer(), [2, 3])
    assert v.dtype == np.float32 and v.shape == (2, 3) and not v.any()
    v = _value(tf.ones_initializer(dtype=tf.int32), [4])
    assert v.dtype == np.int32 and (v == 1).all()
    assert _value(tf.ones_initializer(), (2,), tf.float64).dtype == np.float64
    assert _value(tf.zeros_initializer(), tf.TensorShape([3])).shape == (3,)


def test_constant_initializer_fills_with_the_last_value_like_tf1():
    init = tf.constant_initializer([0, 1, 2, 3, 4, 5, 6, 7])
    np.testing.assert_array_equal(_value(init, [2, 4]), np.arange(8).reshape(2, 4))
    big = _value(init, [3, 4])
    assert big.dtype == np.float32
    np.testing.assert_array_equal(big[2], [7, 7, 7, 7])
    np.testing.assert_array_equal(_value(tf.constant_initializer(2.5), [2]), [2.5, 2.5])
    assert _value(tf.constant_initializer(3, dtype=tf.int64), [1]).dtype == np.int64
    with pytest.raises(ValueError, match="Too many elements provided. Needed at most 6, but "
                                         "received 8"):
        init([2, 3])
    with pytest.raises(TypeError, match=r"Expected Tensor's shape: \(3, 4\), but got \(8,\)"):
        tf.constant_initializer(list(range(8)), verify_shape=True)([3, 4])
    with pytest.raises(TypeError, match="Invalid type for initial value"):
        tf.constant_initializer({"a": 1})
    with pytest.raises(TypeError):
        tf.constant_initializer(0.5)([2], tf.int32)


def test_random_normal_and_truncated_normal_initializers():
    v = _value(tf.random_normal_initializer(1.0, 0.5, seed=1), [20000])
    assert v.dtype == np.float32
    assert abs(v.mean() - 1.0) < 0.02 and abs(v.std() - 0.5) < 0.02
    v = _value(tf.truncated_normal_initializer(0.0, 2.0, seed=2), [20000], tf.float64)
    assert v.dtype == np.float64 and np.abs(v).max() < 4.0
    assert abs(v.std() - 2.0 * 0.87962566) < 0.05
    with pytest.raises(ValueError, match="Argument `dtype` is expected to be floating point. "
                                         "Received: <dtype: 'int32'>."):
        tf.random_normal_initializer(dtype=tf.int32)


def test_random_uniform_initializer():
    v = _value(tf.random_uniform_initializer(-1.0, 3.0, seed=3), [20000])
    assert v.min() >= -1.0 and v.max() < 3.0 and abs(v.mean() - 1.0) < 0.05
    v = _value(tf.random_uniform_initializer(0, 4, dtype=tf.int32), [1000])
    assert v.dtype == np.int32 and set(np.unique(v)) == {0, 1, 2, 3}
    unit = _value(tf.random_uniform_initializer(), [1000])
    assert unit.min() >= 0 and unit.max() < 1


def test_seeded_initializers_are_reproducible():
    def draw():
        with tf.Graph().as_default():
            return _value(tf.glorot_normal_initializer(seed=11), [3, 4])
    np.testing.assert_array_equal(draw(), draw())


@pytest.mark.parametrize("shape,fans", [((), (1, 1)), ((5,), (5, 5)), ((3, 7), (3, 7)),
                                        ((3, 3, 4, 8), (36, 72)), ((2, 5, 6), (10, 12))])
def test_compute_fans(shape, fans):
    assert _compute_fans(list(shape)) == fans


@pytest.mark.parametrize("mode,n", [("fan_in", 36), ("fan_out", 72), ("fan_avg", 54)])
def test_variance_scaling_uniform_limit_per_mode(mode, n):
    shape = [3, 3, 4, 8]
    v = _value(tf.variance_scaling_initializer(2.0, mode, "uniform", seed=1), shape)
    limit = math.sqrt(3.0 * 2.0 / n)
    assert v.shape == tuple(shape) and np.abs(v).max() <= limit
    assert np.abs(v).max() > 0.95 * limit


@pytest.mark.parametrize("distribution", ["truncated_normal", "normal", "untruncated_normal"])
def test_variance_scaling_normal_stddev(distribution):
    shape = [200, 100]        # fan_in 200
    v = _value(tf.variance_scaling_initializer(distribution=distribution, seed=5), shape)
    assert abs(v.std() - math.sqrt(1.0 / 200)) < 0.002
    if distribution != "untruncated_normal":
        assert np.abs(v).max() < 2 * math.sqrt(1.0 / 200) / 0.87962566103423978


def test_glorot_he_lecun_formulas():
    shape = [300, 100]
    v = _value(tf.glorot_uniform_initializer(seed=1), shape)
    limit = math.sqrt(6.0 / 400)
    assert np.abs(v).max() <= limit and np.abs(v).max() > 0.99 * limit
    v = _value(tf.glorot_normal_initializer(seed=1), shape)
    assert abs(v.std() - math.sqrt(2.0 / 400)) < 0.002
    v = _value(tf.initializers.he_normal(seed=1), shape)
    assert abs(v.std() - math.sqrt(2.0 / 300)) < 0.002
    v = _value(tf.initializers.he_uniform(seed=1), shape)
    assert np.abs(v).max() <= math.sqrt(6.0 / 300)
    v = _value(tf.initializers.lecun_normal(seed=1), shape)
    assert abs(v.std() - math.sqrt(1.0 / 300)) < 0.002
    v = _value(tf.initializers.lecun_uniform(seed=1), shape)
    assert np.abs(v).max() <= math.sqrt(3.0 / 300)


def test_partition_info_full_shape_sets_the_scale():
    class Info:
        full_shape = [600, 100]
    v = _value(tf.glorot_uniform_initializer(seed=1), [300, 100], partition_info=Info())
    assert v.shape == (300, 100) and np.abs(v).max() <= math.sqrt(6.0 / 700)


def test_variance_scaling_argument_errors():
    with pytest.raises(ValueError, match="Argument `scale` must be a positive float"):
        tf.variance_scaling_initializer(0.0)
    with pytest.raises(ValueError, match="Argument `mode` should be one of"):
        tf.variance_scaling_initializer(mode="fan")
    with pytest.raises(ValueError, match="Argument `distribution` should be one of"):
        tf.variance_scaling_initializer(distribution="cauchy")
    with pytest.raises(ValueError, match="must be fully defined"):
        tf.glorot_uniform_initializer()([None, 3])


def test_identity_initializer():
    np.testing.assert_array_equal(_value(tf.initializers.identity(gain=2.0), [2, 3]),
                                  2.0 * np.eye(2, 3))
    with pytest.raises(ValueError, match="only be used for 2D matrices"):
        tf.initializers.identity()([2, 2, 2])


def test_initializer_op_names():
    with tf.variable_scope("layer"):
        tf.get_variable("w", [2, 2], initializer=tf.random_normal_initializer())
    names = [op.name for op in tf.get_default_graph().get_operations()]
    assert "layer/w/Initializer/random_normal/RandomStandardNormal" in names
    assert "layer/w/Initializer/random_normal" in names


def test_v1_initializers_namespace():
    assert tf.initializers.zeros is tf.zeros_initializer
    assert tf.initializers.glorot_uniform is tf.glorot_uniform_initializer
    v = tf.Variable(1.0)
    with tf.Session() as sess:
        sess.run(tf.initializers.global_variables())
        assert sess.run(v) == 1.0


# -- the TF2 / Keras namespace -------------------------------------------------------------


def test_tf2_defaults_and_constant():
    tf.enable_v2_behavior()
    v = keras_init.RandomNormal(seed=1)([20000]).numpy()
    assert abs(v.std() - 0.05) < 0.002
    v = keras_init.RandomUniform()([20000]).numpy()
    assert v.min() >= -0.05 and v.max() < 0.05
    v = keras_init.TruncatedNormal()([20000]).numpy()
    assert np.abs(v).max() < 0.1
    c = flowgrad.constant_initializer(3)([2])
    assert c.dtype == flowgrad.int32 and list(c.numpy()) == [3, 3]
    assert flowgrad.constant_initializer([1.0, 2.0])([2], flowgrad.float64).dtype == \
        flowgrad.float64
    with pytest.raises(TypeError, match=r"Eager execution of tf.constant with unsupported "
                       r"shape. Tensor \[1. 2.\] \(converted from \[1.0, 2.0\]\) has 2 "
                       r"elements, but got `shape` \(3,\) with 3 elements\)."):   # TF 2.21's
        flowgrad.constant_initializer([1.0, 2.0])([3])
    assert flowgrad.zeros_initializer()([2]).dtype == flowgrad.float32
    v = keras_init.HeNormal(seed=2)([400, 10]).numpy()
    assert abs(v.std() - math.sqrt(2.0 / 400)) < 0.005


def test_keras_get():
    assert isinstance(keras_init.get("glorot_uniform"), keras_init.GlorotUniform)
    assert isinstance(keras_init.get("HeNormal"), keras_init.HeNormal)
    got = keras_init.get({"class_name": "RandomNormal", "config": {"stddev": 2.0}})
    assert isinstance(got, keras_init.RandomNormal) and got.stddev == 2.0
    assert isinstance(keras_init.get(keras_init.Zeros), keras_init.Zeros)
    fn = keras_init.Ones()
    assert keras_init.get(fn) is fn and keras_init.get(None) is None
    with pytest.raises(ValueError, match="Could not interpret initializer identifier: 'nope'"):
        keras_init.get("nope")
