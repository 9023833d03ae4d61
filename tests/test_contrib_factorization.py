"""TF 1.15's ``tf.contrib.factorization.KMeans`` in the TF1 face: the training graph's six results
(TF 1.15's ``clustering_ops``; tutorials unpack six or TF 1.4's seven), distances, the
initialization and the full-batch and mini-batch updates against NumPy of TensorFlow's
``clustering_ops`` formulas. (TF 2.21 has no KMeans graph class, so nothing is recorded from
it.)"""
from __future__ import annotations

import numpy as np
import pytest

import flowgrad.compat.v1 as tf

KMeans = tf.contrib.factorization.KMeans


@pytest.fixture(autouse=True)
def _graph():
    with tf.Graph().as_default():
        yield


def _data():
    rng = np.random.RandomState(0)
    centers = np.array([[0, 0], [5, 5], [0, 5]], np.float32)
    return np.concatenate([c + 0.3 * rng.randn(20, 2) for c in centers]).astype(np.float32)


def _graph_of(**kwargs):
    x = tf.placeholder(tf.float32, [None, 2])
    result = KMeans(inputs=x, num_clusters=3, **kwargs).training_graph()
    assert len(result) == 6
    centers = next(v for v in tf.global_variables() if v.op.name == "clusters")
    return x, result[:4] + (centers,) + result[4:]


def test_full_batch_step_is_lloyds_update_from_the_given_centers():
    data = _data()
    start = np.array([[1, 1], [4, 4], [0, 4]], np.float32)
    x, (all_scores, idx, scores, initialized, centers, init_op, train_op) = _graph_of(
        initial_clusters=start)
    assert [v.op.name for v in tf.global_variables()] == ["clusters", "initialized"]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert not sess.run(initialized)
        sess.run(init_op, {x: data})
        np.testing.assert_array_equal(sess.run(centers), start)
        d_all, got_idx, got_scores = sess.run([all_scores[0], idx[0], scores[0]], {x: data})
        sess.run(train_op, {x: data})
        new = sess.run(centers)
        sess.run(init_op, {x: data})            # a second init changes nothing
        np.testing.assert_array_equal(sess.run(centers), new)
    want = ((data[:, None] - start[None]) ** 2).sum(-1)
    np.testing.assert_allclose(d_all, want, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(got_idx, want.argmin(1))
    np.testing.assert_allclose(got_scores, want.min(1), rtol=1e-5, atol=1e-5)
    means = np.stack([data[want.argmin(1) == c].sum(0) / ((want.argmin(1) == c).sum() + 1e-6)
                      for c in range(3)])
    np.testing.assert_allclose(new, means, rtol=1e-5)


def test_mini_batch_step_moves_each_center_by_its_counted_mean():
    data = _data()
    start = np.array([[1, 1], [4, 4], [0, 4]], np.float32)
    x, (_, idx, _, _, centers, init_op, train_op) = _graph_of(initial_clusters=start,
                                                              use_mini_batch=True)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(init_op, {x: data})
        sess.run(train_op, {x: data[:30]})
        first = sess.run(centers)
        sess.run(train_op, {x: data[30:]})
        second = sess.run(centers)
    counts = np.ones(3)
    c = start.astype(np.float64)
    for batch, got in ((data[:30], first), (data[30:], second)):
        near = ((batch[:, None] - c[None]) ** 2).sum(-1).argmin(1)
        for j in range(3):
            k = (near == j).sum()
            if k:
                c[j] += (batch[near == j].sum(0) - k * c[j]) / (counts[j] + k)
                counts[j] += k
        np.testing.assert_allclose(got, c, rtol=1e-5)


def test_cosine_distance_normalizes_inputs_and_full_batch_centers():
    data = _data() + 1.0
    x, (all_scores, idx, scores, _, centers, init_op, train_op) = _graph_of(
        distance_metric="cosine", initial_clusters=np.array([[1, 0], [1, 1], [0, 1]]))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(init_op, {x: data})
        start = sess.run(centers)
        d_all, got_idx = sess.run([all_scores[0], idx[0]], {x: data})
        sess.run(train_op, {x: data})
        new = sess.run(centers)
    unit = data / np.linalg.norm(data, axis=1, keepdims=True)
    np.testing.assert_allclose(np.linalg.norm(start, axis=1), 1, rtol=1e-6)
    np.testing.assert_allclose(d_all, 1 - unit @ start.T, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(got_idx, d_all.argmin(1))
    np.testing.assert_allclose(np.linalg.norm(new, axis=1), 1, rtol=1e-5)


def test_cosine_mini_batch_scores_against_normalized_centers():
    data = _data() + 1.0
    start = np.array([[2, 0], [3, 3], [0, 0.5]], np.float32)
    x, (all_scores, idx, scores, _, centers, init_op, train_op) = _graph_of(
        distance_metric="cosine", use_mini_batch=True, initial_clusters=start)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(init_op, {x: data})
        np.testing.assert_allclose(sess.run(centers), start)       # not normalized
        d_all, got_scores = sess.run([all_scores[0], scores[0]], {x: data})
    unit = data / np.linalg.norm(data, axis=1, keepdims=True)
    unit_c = start / np.linalg.norm(start, axis=1, keepdims=True)
    np.testing.assert_allclose(d_all, 1 - unit @ unit_c.T, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got_scores, d_all.min(1), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("init", ["random", "kmeans_plus_plus"])
def test_initial_centers_are_input_rows_and_training_finds_the_clusters(init):
    data = _data()
    x, (_, idx, scores, _, centers, init_op, train_op) = _graph_of(initial_clusters=init,
                                                                   random_seed=3)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(init_op, {x: data})
        start = sess.run(centers)
        for _ in range(10):
            sess.run(train_op, {x: data})
        got_idx, got_scores = sess.run([idx[0], scores[0]], {x: data})
    assert all(any(np.array_equal(row, d) for d in data) for row in start)
    if init == "kmeans_plus_plus":      # spread seeds: one per cluster here
        assert sorted(np.bincount(got_idx, minlength=3)) == [20, 20, 20]
        assert got_scores.mean() < 0.5


def test_bad_arguments_raise_value_errors():
    x = tf.placeholder(tf.float32, [None, 2])
    with pytest.raises(ValueError, match="Unsupported distance metric"):
        KMeans(x, 3, distance_metric="manhattan")
    with pytest.raises(ValueError, match="Unsupported initialization"):
        KMeans(x, 3, initial_clusters="nope")
    with pytest.raises(ValueError, match="known depth"):
        KMeans(tf.placeholder(tf.float32, [None, None]), 3)
