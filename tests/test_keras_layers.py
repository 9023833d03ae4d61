"""Keras layers: weight names, shapes, default initializers, input checks, build rollback,
numerical gradients through layers, and the TF1-graph use of tf.keras layers."""
import numpy as np
import pytest

import flowgrad as tf2
import flowgrad.compat.v1 as tf
from flowgrad import keras
from flowgrad.framework.context import state

from gradcheck import check_gradients

L = keras.layers


@pytest.fixture(autouse=True)
def eager_mode():
    tf.enable_v2_behavior()
    keras.backend.clear_session()
    tf.keras.backend.clear_session()       # the TF1 face's Keras: its layer names restart
    yield
    state.tapes.clear()


def test_dense_weight_names_shapes_and_auto_names():
    """The TF1 face's Keras (its weights are tf.Variables; Keras 3's are Keras variables)."""
    L = tf.keras.layers
    d0, d1 = L.Dense(3), L.Dense(4, name="head")
    d2 = L.Dense(5)
    assert (d0.name, d1.name, d2.name) == ("dense", "head", "dense_1")
    d0(np.ones((2, 6), np.float32))
    assert [w.name for w in d0.weights] == ["kernel", "bias"]
    assert [w.path for w in d0.weights] == ["dense/kernel", "dense/bias"]
    assert d0.kernel.shape.as_list() == [6, 3] and d0.bias.shape.as_list() == [3]
    assert d0.trainable_weights == d0.weights and d0.non_trainable_weights == []
    assert isinstance(d0.kernel, tf2.Variable) and d0.built
    assert [v.name for v in d0.trainable_variables] == ["kernel", "bias"]
    assert L.BatchNormalization().name == "batch_normalization"
    assert L.Conv2D(2, 3).name == "conv2d"
    assert L.MaxPooling2D().name == "max_pooling2d"


def test_a_layer_built_by_hand_is_built_once():
    """Keras 3 marks a layer built after its build() (called by hand or by the first call)."""
    d = L.Dense(3)
    d.build((None, 4))
    assert d.built and [w.path for w in d.weights] == ["dense/kernel", "dense/bias"]
    kernel = d.kernel
    assert d(np.ones((2, 4), np.float32)).shape.as_list() == [2, 3]
    assert len(d.trainable_variables) == 2 and d.kernel is kernel

    class Scale(L.Layer):                      # a user build that never sets self.built
        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="w")

        def call(self, x):
            return x * self.w

    s = Scale()
    s.build((None, 2))
    s(np.ones((1, 2), np.float32))
    assert s.built and [w.path for w in s.weights] == ["scale/w"]


def test_default_initializer_statistics():
    tf2.random.set_seed(1)
    d = L.Dense(300)
    d(np.ones((1, 500), np.float32))
    k = d.kernel.numpy()
    limit = np.sqrt(6.0 / (500 + 300))               # glorot_uniform
    assert np.abs(k).max() <= limit and np.abs(k).max() > 0.99 * limit
    assert abs(k.mean()) < 0.01 * limit
    np.testing.assert_allclose(k.var(), limit ** 2 / 3, rtol=0.02)
    np.testing.assert_array_equal(d.bias.numpy(), np.zeros(300, np.float32))
    e = L.Embedding(1000, 20)
    e(np.array([[1, 2]]))
    emb = e.embeddings.numpy()
    assert e.embeddings.name == "embeddings" and emb.shape == (1000, 20)
    assert -0.05 <= emb.min() and emb.max() < 0.05 and abs(emb.mean()) < 0.002


def test_batch_normalization_weights_and_updates():
    bn = L.BatchNormalization()
    x = np.random.RandomState(0).randn(16, 3).astype(np.float32) * 2 + 1
    assert (bn.momentum, bn.epsilon) == (0.99, 1e-3)
    y = bn(x, training=True).numpy()
    assert [w.name for w in bn.weights] == ["gamma", "beta", "moving_mean", "moving_variance"]
    assert [w.name for w in bn.trainable_weights] == ["gamma", "beta"]
    assert [w.name for w in bn.non_trainable_weights] == ["moving_mean", "moving_variance"]
    mean, var = x.mean(0), x.var(0)
    np.testing.assert_allclose(y, (x - mean) / np.sqrt(var + 1e-3), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(bn.moving_mean.numpy(), 0.01 * mean, rtol=1e-5)
    np.testing.assert_allclose(bn.moving_variance.numpy(), 0.99 + 0.01 * var, rtol=1e-5)
    y_inf = bn(x).numpy()                  # training defaults to False: moving statistics
    np.testing.assert_allclose(y_inf, (x - 0.01 * mean) / np.sqrt(0.99 + 0.01 * var + 1e-3),
                               rtol=1e-4, atol=1e-5)


def test_dense_wrong_last_dimension_after_build_names_layer():
    d = L.Dense(2, name="my_dense")
    d(np.ones((4, 3), np.float32))
    with pytest.raises(ValueError, match=r"layer 'my_dense'.*expected axis -1 of input shape "
                                         r"to have value 3, but received input with shape "
                                         r"\(4, 5\)"):
        d(np.ones((4, 5), np.float32))
    assert len(d.weights) == 2
    with pytest.raises(ValueError, match=r"layer 'dense'.*expected min_ndim=2, found ndim=1"):
        L.Dense(2)(np.ones(3, np.float32))


def test_failed_build_leaves_no_weights():
    """The TF1 face's Keras rolls a failed build back (Keras 3 keeps the weights made)."""
    L = tf.keras.layers

    class TwoStep(L.Layer):
        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1], 2), name="w")
            if input_shape[-1] > 3:
                raise ValueError("TwoStep %s: last dimension must be <= 3, got %d"
                                 % (self.name, input_shape[-1]))
            self.b = self.add_weight(shape=(2,), name="b", initializer="zeros")

        def call(self, x):
            return tf2.matmul(x, self.w) + self.b
    layer = TwoStep()
    with pytest.raises(ValueError, match="two_step: last dimension must be <= 3"):
        layer(np.ones((1, 5), np.float32))
    assert layer.weights == [] and not layer.built
    assert layer(np.ones((1, 3), np.float32)).shape.as_list() == [1, 2]
    assert [w.name for w in layer.weights] == ["w", "b"]


def test_conv_and_pooling_layers_match_numpy():
    rng = np.random.RandomState(0)
    x = rng.randn(2, 5, 5, 3).astype(np.float32)
    conv = L.Conv2D(4, (3, 3), padding="same")
    y = conv(x).numpy()
    assert conv.kernel.shape.as_list() == [3, 3, 3, 4] and y.shape == (2, 5, 5, 4)
    k = conv.kernel.numpy()
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    ref = np.zeros_like(y)
    for i in range(5):
        for j in range(5):
            ref[:, i, j] = np.tensordot(xp[:, i:i + 3, j:j + 3], k, axes=3)
    np.testing.assert_allclose(y, ref, rtol=1e-4, atol=1e-5)
    with pytest.raises(ValueError, match=r"layer 'conv2d'.*expected axis -1 of input shape to "
                                         r"have value 3"):
        conv(np.ones((1, 5, 5, 2), np.float32))
    with pytest.raises(ValueError, match=r"conv2d_1.*expected min_ndim=4, found ndim=3"):
        L.Conv2D(1, 2)(np.ones((5, 5, 3), np.float32))
    mp = L.MaxPooling2D()(x).numpy()
    ap = L.AveragePooling2D(pool_size=2, strides=1)(x).numpy()
    np.testing.assert_allclose(mp, x[:, :4, :4].reshape(2, 2, 2, 2, 2, 3).max(axis=(2, 4)))
    np.testing.assert_allclose(ap[:, 0, 0], x[:, :2, :2].mean(axis=(1, 2)), rtol=1e-6)


def test_shape_layers_dropout_lambda_activation_embedding():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    assert L.Flatten()(x).shape.as_list() == [2, 12]
    assert L.Reshape((4, 3))(x).shape.as_list() == [2, 4, 3]
    assert L.Reshape((-1, 2))(x).shape.as_list() == [2, 6, 2]
    with pytest.raises(ValueError, match="total size of the tensor must be unchanged"):
        L.Reshape((5,))(x)
    drop = L.Dropout(0.5, seed=3)
    np.testing.assert_array_equal(drop(x).numpy(), x)                # inference: identity
    y = drop(np.ones((200, 50), np.float32), training=True).numpy()
    assert set(np.unique(y)) <= {0.0, 2.0} and 0.4 < (y == 0).mean() < 0.6
    with pytest.raises(ValueError, match="Expected a float value between 0 and 1"):
        L.Dropout(1.5)
    np.testing.assert_allclose(L.Lambda(lambda t: t * 2)(x).numpy(), x * 2)
    np.testing.assert_allclose(L.Activation("relu")(x - 5).numpy(), np.maximum(x - 5, 0))
    e = L.Embedding(10, 3)
    out = e(np.array([[1, 9], [0, 1]])).numpy()
    np.testing.assert_allclose(out[0, 0], e.embeddings.numpy()[1])
    np.testing.assert_allclose(out[1, 1], e.embeddings.numpy()[1])


def test_merge_layers_and_errors():
    a, b = np.ones((2, 3), np.float32), 2 * np.ones((2, 3), np.float32)
    np.testing.assert_allclose(L.Add()([a, b]).numpy(), 3 * a)
    assert L.Concatenate()([a, b]).shape.as_list() == [2, 6]
    assert L.Concatenate(axis=0)([a, b]).shape.as_list() == [4, 3]
    with pytest.raises(ValueError, match="matching shapes except for the concatenation axis"):
        L.Concatenate()([a, np.ones((2, 3, 1), np.float32)])
    with pytest.raises(ValueError, match="incompatible shapes"):
        L.Add()([a, np.ones((2, 4), np.float32)])


def test_custom_layer_subclass_tracks_sublayers_and_module_api():
    """The TF1 face's Keras: its layers are tf.Modules (Keras 3's are not)."""
    L = tf.keras.layers

    class Block(L.Layer):
        def __init__(self, **kw):
            super().__init__(**kw)
            self.inner = L.Dense(3)
            self.scale = None

        def build(self, input_shape):
            self.scale = self.add_weight(shape=(), initializer="ones", name="scale",
                                         trainable=False)

        def call(self, x, training=None):
            return self.inner(x) * self.scale
    blk = Block()
    blk(np.ones((2, 4), np.float32))
    assert [w.path for w in blk.weights] == ["block/scale", "block/dense/kernel",
                                             "block/dense/bias"]
    assert [w.name for w in blk.trainable_weights] == ["kernel", "bias"]
    assert blk.submodules == (blk.inner,)
    assert isinstance(blk, tf2.Module)
    blk.trainable = False
    assert blk.trainable_weights == [] and len(blk.non_trainable_weights) == 3


def test_training_flag_reaches_nested_layers():
    seen = []

    class Probe(L.Layer):
        def call(self, x, training=None):
            seen.append(training)
            return x
    model = keras.Sequential([keras.Input((2,)), Probe()])
    seen.clear()
    model(np.ones((1, 2), np.float32), training=True)
    model(np.ones((1, 2), np.float32))
    assert seen == [True, None]


def test_numerical_gradients_through_layers_orders_1_and_2():
    rng = np.random.RandomState(0)
    w1, b1, w2 = rng.randn(3, 4) * 0.5, rng.randn(4) * 0.1, rng.randn(4, 2) * 0.5
    init = keras.initializers.Constant

    def fn(x):
        h = L.Dense(4, activation="tanh", kernel_initializer=init(w1), bias_initializer=init(b1),
                    dtype="float64")(x)
        h = L.BatchNormalization(dtype="float64")(h, training=True)
        return L.Dense(2, activation="softmax", kernel_initializer=init(w2),
                       dtype="float64")(h)
    check_gradients(fn, [rng.randn(5, 3)], order=2, mode="eager")


def test_gradient_of_model_weights_matches_central_differences():
    tf2.random.set_seed(0)
    model = keras.Sequential([keras.Input((3,), dtype="float64"),
                              L.Dense(4, activation="tanh", dtype="float64"),
                              L.Dense(1, dtype="float64")])
    x = np.random.RandomState(1).randn(6, 3)
    y = np.random.RandomState(2).randn(6, 1)
    loss_fn = keras.losses.MeanSquaredError(dtype="float64")
    with tf2.GradientTape() as tape:
        loss = loss_fn(y, model(x))
    grads = tape.gradient(loss, model.trainable_variables)
    eps = 1e-6
    for var, g in zip(model.trainable_variables, grads):
        base = var.numpy().copy()
        num = np.zeros_like(base)
        for idx in np.ndindex(base.shape):
            for sign in (1, -1):
                v = base.copy()
                v[idx] += sign * eps
                var.assign(v)
                num[idx] += sign * float(loss_fn(y, model(x)).numpy()) / (2 * eps)
        var.assign(base)
        np.testing.assert_allclose(g.numpy(), num, rtol=1e-5, atol=1e-8)


def test_tf1_graph_mode_keras_layers_make_graph_variables():
    tf.disable_v2_behavior()
    tf.reset_default_graph()
    x = tf.placeholder(tf.float32, [None, 3])
    d = tf.keras.layers.Dense(2)
    y = d(x)
    assert [v.name for v in tf.global_variables()] == ["dense/kernel:0", "dense/bias:0"]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out = sess.run(y, {x: np.ones((4, 3))})
        k, b = sess.run([d.kernel, d.bias])
    np.testing.assert_allclose(out, np.ones((4, 3)) @ k + b, rtol=1e-6)


def test_activation_layers_and_rescaling():
    x = np.linspace(-2, 2, 9).astype(np.float32)[None]
    np.testing.assert_allclose(L.ReLU(max_value=1.0)(x).numpy(), np.clip(x, 0, 1))
    np.testing.assert_allclose(L.ReLU(negative_slope=0.1)(x).numpy(),
                               np.where(x > 0, x, 0.1 * x), rtol=1e-6)
    np.testing.assert_allclose(L.LeakyReLU()(x).numpy(), np.where(x > 0, x, 0.3 * x),
                               rtol=1e-6)
    np.testing.assert_allclose(L.ELU()(x).numpy(), np.where(x > 0, x, np.expm1(x)),
                               rtol=1e-6, atol=1e-7)
    e = np.exp(x - x.max())
    np.testing.assert_allclose(L.Softmax()(x).numpy(), e / e.sum(), rtol=1e-6)
    np.testing.assert_allclose(L.Rescaling(1 / 255.0, offset=-1.0)(x * 255).numpy(), x - 1,
                               rtol=1e-6, atol=1e-6)
    with pytest.raises(ValueError, match="negative_slope"):
        L.LeakyReLU(negative_slope=-1.0)
