"""tf.contrib.legacy_seq2seq (TF 1.15's static seq2seq models) in the TF1 face: TF 1.15's
variable names (those of its checkpoints), the attention decoder against a NumPy statement of
TF 1.15's formula, the losses' formulas, and the errors. The char-RNN program that uses
rnn_decoder / sequence_loss_by_example is pinned against TF in test_tf1_programs_round3.py."""
from __future__ import annotations

import numpy as np
import pytest

import flowgrad.compat.v1 as tf

seq2seq = tf.contrib.legacy_seq2seq


@pytest.fixture(autouse=True)
def _graph():
    with tf.Graph().as_default():
        yield


def _softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def test_embedding_attention_seq2seq_has_tf_1_15s_variable_names():
    enc = [tf.placeholder(tf.int32, [None]) for _ in range(3)]
    dec = [tf.placeholder(tf.int32, [None]) for _ in range(2)]
    cell = tf.nn.rnn_cell.GRUCell(4)
    outputs, state = seq2seq.embedding_attention_seq2seq(enc, dec, cell, 7, 9, 5)
    assert [o.shape.as_list() for o in outputs] == [[None, 9], [None, 9]]
    names = {v.op.name: v.shape.as_list() for v in tf.global_variables()}
    p = "embedding_attention_seq2seq/"
    d = p + "embedding_attention_decoder/attention_decoder/"
    assert names == {
        p + "rnn/embedding_wrapper/embedding": [7, 5],
        p + "rnn/embedding_wrapper/gru_cell/gates/kernel": [9, 8],
        p + "rnn/embedding_wrapper/gru_cell/gates/bias": [8],
        p + "rnn/embedding_wrapper/gru_cell/candidate/kernel": [9, 4],
        p + "rnn/embedding_wrapper/gru_cell/candidate/bias": [4],
        p + "embedding_attention_decoder/embedding": [9, 5],
        d + "AttnW_0": [1, 1, 4, 4], d + "AttnV_0": [4],
        d + "kernel": [9, 5], d + "bias": [5],
        d + "output_projection_wrapper/gru_cell/gates/kernel": [9, 8],
        d + "output_projection_wrapper/gru_cell/gates/bias": [8],
        d + "output_projection_wrapper/gru_cell/candidate/kernel": [9, 4],
        d + "output_projection_wrapper/gru_cell/candidate/bias": [4],
        d + "output_projection_wrapper/kernel": [4, 9],
        d + "output_projection_wrapper/bias": [9],
        d + "Attention_0/kernel": [4, 4], d + "Attention_0/bias": [4],
        d + "AttnOutputProjection/kernel": [13, 9], d + "AttnOutputProjection/bias": [9]}


def test_attention_decoder_computes_tf_1_15s_formula():
    rng = np.random.RandomState(3)
    B, L, A, D, H = 2, 3, 4, 3, 4
    states = rng.randn(B, L, A).astype(np.float32)
    inputs = [rng.randn(B, D).astype(np.float32) for _ in range(2)]
    init = rng.randn(B, H).astype(np.float32)
    cell = tf.nn.rnn_cell.BasicRNNCell(H)
    outs, final = seq2seq.attention_decoder([tf.constant(x) for x in inputs], tf.constant(init),
                                            tf.constant(states), cell, output_size=5)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        got, got_state = sess.run([outs, final])
        w = {v.op.name.split("attention_decoder/")[1]: sess.run(v)
             for v in tf.global_variables()}
    hidden_features = np.einsum("bla,ac->blc", states, w["AttnW_0"][0, 0])
    state, attn = init, np.zeros((B, A), np.float32)
    for k, x in enumerate(inputs):
        x = np.concatenate([x, attn], 1) @ w["kernel"] + w["bias"]
        state = np.tanh(np.concatenate([x, state], 1) @ w["basic_rnn_cell/kernel"]
                        + w["basic_rnn_cell/bias"])
        y = state @ w["Attention_0/kernel"] + w["Attention_0/bias"]
        s = (w["AttnV_0"] * np.tanh(hidden_features + y[:, None, :])).sum(-1)
        attn = (_softmax(s)[:, :, None] * states).sum(1)
        out = np.concatenate([state, attn], 1) @ w["AttnOutputProjection/kernel"] + \
            w["AttnOutputProjection/bias"]
        np.testing.assert_allclose(got[k], out, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(got_state, state, rtol=1e-5, atol=1e-5)


def test_sequence_losses_are_tf_1_15s_weighted_cross_entropies():
    rng = np.random.RandomState(0)
    logits = [rng.randn(3, 5).astype(np.float32) for _ in range(2)]
    targets = [np.array([0, 4, 2]), np.array([1, 1, 3])]
    weights = [np.array([1.0, 0.5, 0.0], np.float32), np.array([1.0, 1.0, 0.0], np.float32)]
    by_example = seq2seq.sequence_loss_by_example(logits, targets, weights)
    total = seq2seq.sequence_loss(logits, targets, weights)
    raw = seq2seq.sequence_loss(logits, targets, weights, average_across_timesteps=False,
                                average_across_batch=False)
    xent = [-np.log(_softmax(lg)[np.arange(3), t]) for lg, t in zip(logits, targets)]
    expect = (xent[0] * weights[0] + xent[1] * weights[1]) / (weights[0] + weights[1] + 1e-12)
    with tf.Session() as sess:
        got, got_total, got_raw = sess.run([by_example, total, raw])
    np.testing.assert_allclose(got, expect, rtol=1e-5)
    np.testing.assert_allclose(got_total, expect.sum() / 3, rtol=1e-5)
    np.testing.assert_allclose(got_raw, (xent[0] * weights[0] + xent[1] * weights[1]).sum(),
                               rtol=1e-5)


def test_feed_previous_tensor_builds_both_decoders_and_buckets_share_variables():
    enc = [tf.placeholder(tf.int32, [None]) for _ in range(3)]
    dec = [tf.placeholder(tf.int32, [None]) for _ in range(3)]
    weights = [tf.ones([2]) for _ in range(3)]
    feed_previous = tf.placeholder(tf.bool, [])

    def model(x, y):
        cell = tf.nn.rnn_cell.BasicLSTMCell(4)
        return seq2seq.embedding_rnn_seq2seq(x, y, cell, 6, 6, 3, feed_previous=feed_previous)
    outputs, losses = seq2seq.model_with_buckets(enc, dec, dec, weights, [(2, 2), (3, 3)], model)
    n_vars = len(tf.global_variables())
    feed = {t: [1, 2] for t in enc + dec}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        greedy = sess.run(losses, {**feed, feed_previous: True})
        forced = sess.run(losses, {**feed, feed_previous: False})
    assert n_vars == 8 and all(np.isfinite(greedy)) and all(np.isfinite(forced))
    assert [len(o) for o in outputs] == [2, 3]
    with pytest.raises(ValueError, match="Length of targets"):
        seq2seq.model_with_buckets(enc, dec, dec[:2], weights, [(3, 3)], model)
    with pytest.raises(ValueError, match="Lengths of logits, weights, and targets"):
        seq2seq.sequence_loss_by_example(outputs[0], dec, weights)
    with pytest.raises(ValueError, match="at least 1 input"):
        seq2seq.attention_decoder([], None, tf.zeros([2, 3, 4]), tf.nn.rnn_cell.GRUCell(2))
