"""TF 1.15's ``tf.contrib.crf`` in the TF1 face: scores, log-normaliser, log-likelihood and
Viterbi decoding of a linear-chain CRF.

TF 1.15 cannot run here (Python 3.11), so the reference is a NumPy brute force over every tag
sequence of small cases: the score of a sequence is the sum of its unary potentials and of the
transitions between its real steps, the normaliser the log-sum-exp of all scores, the decode
the argmax (TF r1.15's crf_test.py checks the same way)."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import flowgrad.compat.v1 as tf
from flowgrad.testing import check_gradients

crf = tf.contrib.crf


@pytest.fixture(autouse=True)
def _graph():
    with tf.Graph().as_default():
        yield


def _run(fetches, feed=None):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(fetches, feed)


def _score(x, tags, n, trans):
    return (sum(x[t, tags[t]] for t in range(n))
            + sum(trans[tags[t - 1], tags[t]] for t in range(1, n)))


def _brute(x, n, trans):
    """All tag sequences of length n with their scores."""
    return [(seq, _score(x, seq, n, trans))
            for seq in itertools.product(range(x.shape[1]), repeat=n)]


def _case(seed=0, batch=4, max_len=4, num_tags=3):
    rng = np.random.RandomState(seed)
    x = rng.normal(size=(batch, max_len, num_tags))
    tags = rng.randint(0, num_tags, size=(batch, max_len)).astype(np.int32)
    lengths = np.array([4, 1, 3, 2][:batch], np.int32)
    trans = rng.normal(size=(num_tags, num_tags))
    return x, tags, lengths, trans


def test_scores_log_norm_and_log_likelihood_match_the_brute_force_over_all_tag_sequences():
    x, tags, lengths, trans = _case()
    seq = crf.crf_sequence_score(x, tags, lengths, trans)
    unary = crf.crf_unary_score(tags, lengths, x)
    binary = crf.crf_binary_score(tags, lengths, trans)
    norm = crf.crf_log_norm(x, lengths, trans)
    ll, tp = crf.crf_log_likelihood(x, tags, lengths, tf.constant(trans))
    seq_v, unary_v, binary_v, norm_v, ll_v, tp_v = _run([seq, unary, binary, norm, ll, tp])
    np.testing.assert_allclose(tp_v, trans)
    for b, n in enumerate(lengths):
        scores = [s for _, s in _brute(x[b], n, trans)]
        want_norm = np.logaddexp.reduce(scores)
        want_unary = sum(x[b, t, tags[b, t]] for t in range(n))
        np.testing.assert_allclose(unary_v[b], want_unary, rtol=1e-12)
        np.testing.assert_allclose(binary_v[b], _score(x[b], tags[b], n, trans) - want_unary,
                                   rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(seq_v[b], _score(x[b], tags[b], n, trans), rtol=1e-12)
        np.testing.assert_allclose(norm_v[b], want_norm, rtol=1e-12)
        np.testing.assert_allclose(ll_v[b], _score(x[b], tags[b], n, trans) - want_norm,
                                   rtol=1e-12)


def test_multitag_sequence_score_sums_every_sequence_the_bitmap_allows():
    x, tags, lengths, trans = _case(seed=7)
    bitmap = np.random.RandomState(8).rand(*x.shape) < 0.6
    bitmap[np.arange(4)[:, None], np.arange(4)[None], tags] = True
    multi = crf.crf_multitag_sequence_score(x, bitmap, lengths, trans)
    one_hot = crf.crf_multitag_sequence_score(x, np.eye(3, dtype=bool)[tags], lengths, trans)
    single = crf.crf_sequence_score(x, tags, lengths, trans)
    multi_v, one_hot_v, single_v = _run([multi, one_hot, single])
    np.testing.assert_allclose(one_hot_v, single_v, rtol=1e-12)
    for b, n in enumerate(lengths):
        allowed = [s for seq, s in _brute(x[b], n, trans)
                   if all(bitmap[b, t, seq[t]] for t in range(n))]
        np.testing.assert_allclose(multi_v[b], np.logaddexp.reduce(allowed), rtol=1e-12)


def test_length_one_inputs_and_empty_sequences():
    x, tags, _, trans = _case(seed=1, max_len=1)
    lengths = np.array([1, 0, 1, 1], np.int32)
    ll, _ = crf.crf_log_likelihood(x, tags, lengths, trans)
    norm = crf.crf_log_norm(x, lengths, trans)
    dec, best = crf.crf_decode(x, trans, lengths)
    ll_v, norm_v, dec_v, best_v = _run([ll, norm, dec, best])
    want_norm = np.logaddexp.reduce(x[:, 0], axis=1)
    want_norm[1] = 0.0
    np.testing.assert_allclose(norm_v, want_norm, rtol=1e-12)
    want_ll = x[np.arange(4), 0, tags[:, 0]] - want_norm
    want_ll[1] = 0.0
    np.testing.assert_allclose(ll_v, want_ll, rtol=1e-12)
    assert dec_v.shape == (4, 1) and dec_v.dtype == np.int32
    np.testing.assert_array_equal(dec_v[:, 0], x[:, 0].argmax(1))
    np.testing.assert_allclose(best_v, x[:, 0].max(1))


def test_crf_decode_and_viterbi_decode_find_the_brute_force_best_sequence():
    for seed in range(3):
        x, _, lengths, trans = _case(seed=seed, max_len=4, num_tags=3)
        with tf.Graph().as_default():
            lengths_ph = tf.placeholder(tf.int32, [None])
            dec, best = crf.crf_decode(tf.constant(x), tf.constant(trans), lengths_ph)
            dec_v, best_v = _run([dec, best], {lengths_ph: lengths})
        assert dec_v.dtype == np.int32 and dec_v.shape == (4, 4)
        for b, n in enumerate(lengths):
            want_seq, want_score = max(_brute(x[b], n, trans), key=lambda p: p[1])
            np.testing.assert_array_equal(dec_v[b, :n], want_seq)
            np.testing.assert_array_equal(dec_v[b, n:], 0)
            np.testing.assert_allclose(best_v[b], want_score, rtol=1e-12)
            seq, score = crf.viterbi_decode(x[b, :n], trans)
            assert [int(t) for t in seq] == list(want_seq)
            np.testing.assert_allclose(score, want_score, rtol=1e-12)


def test_crf_log_likelihood_makes_the_transitions_variable_as_tf_1_15():
    x = tf.placeholder(tf.float32, [None, None, 5])
    tags = tf.placeholder(tf.int32, [None, None])
    lengths = tf.placeholder(tf.int32, [None])
    with tf.variable_scope("crf_layer"):
        ll, trans = crf.crf_log_likelihood(x, tags, lengths)
    assert trans.name == "crf_layer/transitions:0"
    assert trans.get_shape().as_list() == [5, 5] and trans.dtype.base_dtype == tf.float32
    assert trans in tf.trainable_variables()
    with tf.variable_scope("crf_layer", reuse=True):
        _, again = crf.crf_log_likelihood(x, tags, lengths)
    assert again is trans
    value = _run(trans)
    limit = np.sqrt(6.0 / 10)     # get_variable's default: Glorot uniform
    assert np.all(np.abs(value) <= limit) and value.std() > 0.1 * limit
    with pytest.raises(ValueError, match="rank 3"):
        crf.crf_log_likelihood(tf.zeros([2, 3]), tags, lengths)


def test_gradients_of_the_log_likelihood_match_central_differences_at_orders_1_and_2():
    _, tags, lengths, _ = _case(seed=2, batch=3, max_len=3, num_tags=3)
    lengths = np.array([3, 1, 2], np.int32)
    rng = np.random.RandomState(3)

    def loss(inputs, transitions):
        ll, _ = crf.crf_log_likelihood(inputs, tags[:3, :3], lengths, transitions)
        return ll

    check_gradients(loss, [rng.normal(size=(3, 3, 3)), rng.normal(size=(3, 3))],
                    order=2, mode="graph", rtol=1e-4, atol=1e-6)


def test_log_likelihood_gradient_is_expected_counts_minus_observed_counts():
    x, tags, lengths, trans = _case(seed=4)
    xt, tt = tf.constant(x), tf.constant(trans)
    ll, _ = crf.crf_log_likelihood(xt, tags, lengths, tt)
    gx, gt = _run(tf.gradients(tf.reduce_sum(ll), [xt, tt]))
    want_gx, want_gt = np.zeros_like(x), np.zeros_like(trans)
    for b, n in enumerate(lengths):
        pairs = _brute(x[b], n, trans)
        weights = np.exp(np.array([s for _, s in pairs]) - np.logaddexp.reduce(
            [s for _, s in pairs]))
        for (seq, _), w in zip(pairs, weights):
            for t in range(n):
                want_gx[b, t, seq[t]] -= w
            for t in range(1, n):
                want_gt[seq[t - 1], seq[t]] -= w
        for t in range(n):
            want_gx[b, t, tags[b, t]] += 1
        for t in range(1, n):
            want_gt[tags[b, t - 1], tags[b, t]] += 1
    np.testing.assert_allclose(gx, want_gx, atol=1e-12)
    np.testing.assert_allclose(gt, want_gt, atol=1e-12)


def test_rnn_cells_step_as_tf_1_15():
    rng = np.random.RandomState(6)
    trans, state, inputs = rng.normal(size=(3, 3)), rng.normal(size=(2, 3)), rng.normal(
        size=(2, 3))
    alphas, same = crf.CrfForwardRnnCell(tf.constant(trans))(inputs, state)
    back, new_state = crf.CrfDecodeForwardRnnCell(tf.constant(trans))(inputs, state)
    tags, _ = crf.CrfDecodeBackwardRnnCell(3)(tf.constant([[0, 2, 1], [1, 1, 0]]),
                                              tf.constant([[1], [2]]))
    alphas_v, back_v, new_v, tags_v = _run([alphas, back, new_state, tags])
    scores = state[:, :, None] + trans[None]
    np.testing.assert_allclose(alphas_v, inputs + np.logaddexp.reduce(scores, axis=1))
    np.testing.assert_array_equal(back_v, scores.argmax(1))
    np.testing.assert_allclose(new_v, inputs + scores.max(1))
    np.testing.assert_array_equal(tags_v, [[2], [0]])
    assert crf.CrfForwardRnnCell(tf.constant(trans)).state_size == 3


def test_bilstm_crf_ner_program_trains_with_falling_loss_under_the_tf1_dropin():
    import os
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-m", "flowgrad", "--tf1",
                          str(root / "tests" / "data" / "contrib" / "programs" /
                              "bilstm_crf_ner.py")],
                         capture_output=True, text=True, timeout=600,
                         env=dict(os.environ, PYTHONPATH=str(root)))
    assert out.returncode == 0, out.stderr
    assert "transitions transitions:0 [5, 5]" in out.stdout
    line = next(ln for ln in out.stdout.splitlines() if ln.startswith("loss "))
    first, last = float(line.split()[1]), float(line.split()[3])
    assert last < 0.2 * first
    assert float(out.stdout.split("accuracy ")[1].split()[0]) > 0.9
    assert "viterbi agrees with crf_decode on 64 of 64" in out.stdout
