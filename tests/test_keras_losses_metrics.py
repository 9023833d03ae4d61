"""Keras losses and metrics against their NumPy formulas; reductions and sample weights."""
import numpy as np
import pytest

import flowgrad.compat.v1 as tf
from flowgrad import keras
from flowgrad.framework.context import state

losses, metrics = keras.losses, keras.metrics
EPS = 1e-7


@pytest.fixture(autouse=True)
def eager_mode():
    tf.enable_v2_behavior()
    yield
    state.tapes.clear()


rng = np.random.RandomState(0)
Y_TRUE = rng.randn(6, 4).astype(np.float32)
Y_PRED = rng.randn(6, 4).astype(np.float32)
W = rng.rand(6).astype(np.float32)


def _np(x):
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


@pytest.mark.parametrize("cls,fn,ref", [
    (losses.MeanSquaredError, losses.mse, lambda t, p: ((p - t) ** 2).mean(-1)),
    (losses.MeanAbsoluteError, losses.mae, lambda t, p: np.abs(p - t).mean(-1)),
    (losses.Huber, losses.huber, lambda t, p: np.where(np.abs(p - t) <= 1, 0.5 * (p - t) ** 2,
                                                       np.abs(p - t) - 0.5).mean(-1)),
])
def test_regression_losses_and_reductions(cls, fn, ref):
    per_sample = ref(Y_TRUE, Y_PRED)
    np.testing.assert_allclose(_np(fn(Y_TRUE, Y_PRED)), per_sample, rtol=1e-5)
    np.testing.assert_allclose(_np(cls()(Y_TRUE, Y_PRED)), per_sample.mean(), rtol=1e-5)
    np.testing.assert_allclose(_np(cls()(Y_TRUE, Y_PRED, sample_weight=W)),
                               (per_sample * W).sum() / 6, rtol=1e-5)
    np.testing.assert_allclose(_np(cls(reduction="sum")(Y_TRUE, Y_PRED)), per_sample.sum(),
                               rtol=1e-5)
    np.testing.assert_allclose(_np(cls(reduction="none")(Y_TRUE, Y_PRED)), per_sample,
                               rtol=1e-5)
    np.testing.assert_allclose(_np(cls(reduction="mean_with_sample_weight")(
        Y_TRUE, Y_PRED, sample_weight=W)), (per_sample * W).sum() / W.sum(), rtol=1e-5)


def _softmax(z):
    e = np.exp(z - z.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def test_cross_entropies():
    labels = np.array([0, 3, 1, 2, 2, 0])
    onehot = np.eye(4, dtype=np.float32)[labels]
    logits = Y_PRED
    probs = _softmax(logits)
    ref = -np.log(probs[np.arange(6), labels])
    np.testing.assert_allclose(_np(losses.SparseCategoricalCrossentropy(from_logits=True)(
        labels, logits)), ref.mean(), rtol=1e-5)
    np.testing.assert_allclose(_np(losses.sparse_categorical_crossentropy(labels, probs)), ref,
                               rtol=1e-4)
    np.testing.assert_allclose(_np(losses.CategoricalCrossentropy(from_logits=True)(
        onehot, logits)), ref.mean(), rtol=1e-5)
    np.testing.assert_allclose(_np(losses.categorical_crossentropy(onehot, probs)), ref,
                               rtol=1e-4)
    smooth = onehot * 0.9 + 0.1 / 4
    np.testing.assert_allclose(_np(losses.categorical_crossentropy(
        onehot, probs, label_smoothing=0.1)), -(smooth * np.log(probs)).sum(-1), rtol=1e-4)
    yb = (rng.rand(6, 1) > 0.5).astype(np.float32)
    pb = rng.rand(6, 1).astype(np.float32)
    clipped = np.clip(pb, EPS, 1 - EPS)
    bce = -(yb * np.log(clipped) + (1 - yb) * np.log(1 - clipped)).mean(-1)
    np.testing.assert_allclose(_np(losses.BinaryCrossentropy()(yb, pb)), bce.mean(), rtol=1e-5)
    z = np.log(pb / (1 - pb))
    np.testing.assert_allclose(_np(losses.BinaryCrossentropy(from_logits=True)(yb, z)),
                               bce.mean(), rtol=1e-4)
    with pytest.raises(ValueError, match="must have the same shape"):
        losses.categorical_crossentropy(onehot, probs[:, :3])
    with pytest.raises(ValueError, match="Invalid value for argument `reduction`"):
        losses.MeanSquaredError(reduction="avg")
    assert losses.get("mse") is losses.mse
    assert isinstance(losses.get("Huber"), losses.Huber)


def test_metrics_update_result_reset():
    m = metrics.Mean()
    m.update_state([1.0, 2.0, 3.0])
    m.update_state([10.0], sample_weight=[2.0])
    np.testing.assert_allclose(_np(m.result()), (1 + 2 + 3 + 20) / 5)
    assert [v.name for v in m.variables] == ["total", "count"]   # TF 2.21 + Keras 3
    m.reset_state()
    assert _np(m.result()) == 0.0
    labels = np.array([0, 3, 1, 2, 2, 0])
    acc = metrics.SparseCategoricalAccuracy()
    acc.update_state(labels, Y_PRED)
    acc.update_state(labels[:2], Y_PRED[:2], sample_weight=[1.0, 0.0])
    hits = (Y_PRED.argmax(1) == labels).astype(float)
    np.testing.assert_allclose(_np(acc.result()), (hits.sum() + hits[0]) / 7, rtol=1e-6)
    cat = metrics.CategoricalAccuracy()
    np.testing.assert_allclose(_np(cat(np.eye(4)[labels], Y_PRED)), hits.mean(), rtol=1e-6)
    a = metrics.Accuracy()
    np.testing.assert_allclose(_np(a([1, 2, 3, 4], [1, 2, 0, 4])), 0.75)
    b = metrics.BinaryAccuracy()
    np.testing.assert_allclose(_np(b([[1], [0], [1]], [[0.7], [0.6], [0.2]])), 1 / 3,
                               rtol=1e-6)
    mse = metrics.get("mse")
    np.testing.assert_allclose(_np(mse(Y_TRUE, Y_PRED)), ((Y_TRUE - Y_PRED) ** 2).mean(),
                               rtol=1e-5)
    with pytest.raises(ValueError, match="Could not interpret metric identifier"):
        metrics.get("nope")


def test_activations():
    x = np.linspace(-3, 3, 7).astype(np.float32)
    act = keras.activations
    np.testing.assert_allclose(_np(act.get("relu")(x)), np.maximum(x, 0))
    np.testing.assert_allclose(_np(act.relu(x, max_value=2.0)), np.clip(x, 0, 2))
    np.testing.assert_allclose(_np(act.sigmoid(x)), 1 / (1 + np.exp(-x)), rtol=1e-6)
    np.testing.assert_allclose(_np(act.softmax(x[None])), _softmax(x[None]), rtol=1e-6)
    np.testing.assert_allclose(_np(act.silu(x)), x / (1 + np.exp(-x)), rtol=1e-5, atol=1e-7)
    assert act.get(None) is act.linear
    with pytest.raises(ValueError, match="Could not interpret activation"):
        act.get("nope")
