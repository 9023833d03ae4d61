"""TF 1.15's ``tf.contrib.seq2seq`` decoders in the TF1 face: helpers, ``BasicDecoder`` and
``dynamic_decode``, Bahdanau/Luong attention with ``AttentionWrapper``, ``BeamSearchDecoder``
with ``tile_batch``/``gather_tree``.

TF 1.15 cannot run here (Python 3.11) and ``tensorflow_addons`` (its TF2 port) does not import
under TF 2.21's Keras 3, so the numbers are pinned against NumPy implementations of the
documented formulas, run on the decoder's own variables, and against the expected values of
TensorFlow r1.15's own tests (``beam_search_ops_test.py``, ``beam_search_decoder_test.py``)."""
from __future__ import annotations

import numpy as np
import pytest

import flowgrad.compat.v1 as tf
from flowgrad.framework import errors
from flowgrad.framework.registry import gradient_function
from flowgrad.testing import check_gradients

s2s = tf.contrib.seq2seq


@pytest.fixture(autouse=True)
def _graph():
    with tf.Graph().as_default():
        yield


def _run(fetches, feed=None):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(fetches, feed)


def _softmax(x):
    z = np.exp(x - x.max(-1, keepdims=True))
    return z / z.sum(-1, keepdims=True)


def _log_softmax(x):
    z = x - x.max(-1, keepdims=True)
    return z - np.log(np.exp(z).sum(-1, keepdims=True))


def _rnn_step(w, b, x, h):
    return np.tanh(np.concatenate([x, h], 1) @ w + b)


# -- gather_tree: TensorFlow r1.15's beam_search_ops_test / beam_search_decoder_test values --
def _bt(x):
    return np.transpose(np.asarray(x, np.int32), [1, 0, 2])


def test_gather_tree_follows_parents_and_fills_end_tokens_as_tf115():
    step_ids = _bt([[[1, 2, 3], [4, 5, 6], [7, 8, 9], [-1, -1, -1]]])
    parent_ids = _bt([[[0, 0, 0], [0, 1, 1], [2, 1, 2], [-1, -1, -1]]])
    beams = s2s.gather_tree(step_ids, parent_ids, max_sequence_lengths=[3], end_token=10)
    np.testing.assert_array_equal(_run(beams),
                                  _bt([[[2, 2, 2], [6, 5, 6], [7, 8, 9], [10, 10, 10]]]))
    predicted = _bt([[[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[2, 3, 4], [5, 6, 7], [8, 9, 10]]])
    parents = _bt([[[0, 0, 0], [0, 1, 1], [2, 1, 2]], [[0, 0, 0], [1, 2, 0], [2, 1, 1]]])
    out = _run(s2s.gather_tree(predicted, parents, max_sequence_lengths=[3, 3], end_token=11))
    np.testing.assert_array_equal(out, _bt([[[2, 2, 2], [6, 5, 6], [7, 8, 9]],
                                            [[2, 4, 4], [7, 6, 6], [8, 9, 10]]]))
    assert beams.op.type == "GatherTree" and beams.shape.as_list() == [4, 1, 3]


def test_gather_tree_ends_a_beam_at_its_first_end_token_and_rejects_bad_parents():
    step_ids = _bt([[[1, 2, 3], [5, 5, 6], [7, 8, 9]]])
    parent_ids = _bt([[[0, 0, 0], [0, 1, 2], [0, 1, 2]]])
    out = _run(s2s.gather_tree(step_ids, parent_ids, [3], 5))
    np.testing.assert_array_equal(out, _bt([[[1, 2, 3], [5, 5, 6], [5, 5, 9]]]))
    bad = _bt([[[0, 0, 0], [0, -1, 1], [2, 1, 2], [-1, -1, -1]]])
    ids = _bt([[[1, 2, 3], [4, 5, 6], [7, 8, 9], [-1, -1, -1]]])
    with pytest.raises(errors.InvalidArgumentError,
                       match=r"parent id -1 at \(batch, time, beam\) == \(0, 0, 1\)"):
        _run(s2s.gather_tree(ids, bad, [3], 10))
    assert gradient_function(s2s.gather_tree(ids, bad, [3], 10).op) is None


def test_tile_batch_repeats_each_entry_and_nested_states():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    state = tf.nn.rnn_cell.LSTMStateTuple(tf.constant(x), tf.constant(x + 10))
    tiled = s2s.tile_batch(state, 3)
    assert isinstance(tiled, tf.nn.rnn_cell.LSTMStateTuple)
    assert tiled.c.shape.as_list() == [6, 3]
    c, h = _run(tiled)
    np.testing.assert_array_equal(c, np.repeat(x, 3, axis=0))
    np.testing.assert_array_equal(h, np.repeat(x + 10, 3, axis=0))
    with pytest.raises(ValueError, match="statically known rank"):
        s2s.tile_batch(tf.constant(1.0), 2)


# -- BasicDecoder with the helpers -----------------------------------------------------------
def _rnn_decoder(helper_fn, units=4, vocab=6, depth=3, impute_finished=True, **decode_kw):
    cell = tf.nn.rnn_cell.BasicRNNCell(units)
    out_layer = tf.layers.Dense(vocab, name="output_projection")
    with tf.variable_scope("decoder") as scope:
        helper = helper_fn()
        dec = s2s.BasicDecoder(cell, helper, cell.zero_state(helper.batch_size, tf.float32),
                               out_layer)
        return s2s.dynamic_decode(dec, impute_finished=impute_finished, scope=scope,
                                  **decode_kw)


def test_training_decoder_equals_dynamic_rnn_with_zeros_past_each_end():
    rng = np.random.RandomState(0)
    x_val = rng.normal(size=(3, 5, 2)).astype(np.float32)
    lengths = np.array([5, 2, 3], np.int32)
    x = tf.constant(x_val)
    outputs, state, seq_len = _rnn_decoder(lambda: s2s.TrainingHelper(x, lengths))
    assert isinstance(outputs, s2s.BasicDecoderOutput)
    assert outputs.rnn_output.shape.as_list()[2] == 6
    names = [v.name for v in tf.global_variables()]
    assert names == ["decoder/basic_rnn_cell/kernel:0", "decoder/basic_rnn_cell/bias:0",
                     "decoder/output_projection/kernel:0", "decoder/output_projection/bias:0"]
    w, b, wo, bo = tf.global_variables()
    out, st, sl, w_, b_, wo_, bo_ = _run([outputs, state, seq_len, w, b, wo, bo])
    np.testing.assert_array_equal(sl, lengths)
    h = np.zeros((3, 4), np.float32)
    for t in range(5):
        new = _rnn_step(w_, b_, x_val[:, t], h)
        alive = (t < lengths)[:, None]
        logits = new @ wo_ + bo_
        np.testing.assert_allclose(out.rnn_output[:, t], np.where(alive, logits, 0), atol=1e-5)
        np.testing.assert_array_equal(out.sample_id[:, t],
                                      np.where(alive[:, 0], logits.argmax(-1), 0))
        h = np.where(alive, new, h)
    np.testing.assert_allclose(st, h, atol=1e-5)


def test_training_decoder_gradients_equal_dynamic_rnns():
    rng = np.random.RandomState(1)
    x_val = rng.normal(size=(2, 4, 3)).astype(np.float32)
    lengths = np.array([4, 2], np.int32)
    targets = rng.randint(0, 5, size=(2, 4)).astype(np.int32)
    mask = (np.arange(4)[None] < lengths[:, None]).astype(np.float32)
    cell = tf.nn.rnn_cell.LSTMCell(4)
    dense = tf.layers.Dense(5)
    with tf.variable_scope("decoder") as scope:
        helper = s2s.TrainingHelper(tf.constant(x_val), lengths)
        dec = s2s.BasicDecoder(cell, helper, cell.zero_state(2, tf.float32), dense)
        outputs, _, _ = s2s.dynamic_decode(dec, impute_finished=True, scope=scope)
        rnn_out, _ = tf.nn.dynamic_rnn(cell, tf.constant(x_val), sequence_length=lengths,
                                       dtype=tf.float32)
    variables = tf.trainable_variables()
    assert len(variables) == 4
    loss = s2s.sequence_loss(outputs.rnn_output, targets, mask)
    rnn_loss = s2s.sequence_loss(dense(rnn_out), targets, mask)
    got, want, l1, l2 = _run([tf.gradients(loss, variables), tf.gradients(rnn_loss, variables),
                              loss, rnn_loss])
    np.testing.assert_allclose(l1, l2, rtol=1e-6)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-6)


def _constant_getter(seed):
    """Variables as fixed float64 constants (so a numerical gradient check can run)."""
    rng = np.random.RandomState(seed)
    made = {}

    def getter(getter, name, shape=None, dtype=None, *args, **kwargs):
        if name not in made:
            made[name] = tf.constant(rng.uniform(-0.5, 0.5, size=shape), tf.float64)
        return made[name]
    return getter


@pytest.mark.parametrize("mechanism", ["bahdanau", "luong"])
def test_attention_decoder_gradients_match_central_differences(mechanism):
    lengths = np.array([3, 2], np.int32)

    def loss(memory, inputs):
        with tf.variable_scope("s2s", custom_getter=_constant_getter(3)):
            if mechanism == "bahdanau":
                mech = s2s.BahdanauAttention(3, memory, memory_sequence_length=[4, 2],
                                             normalize=True, dtype=tf.float64)
            else:
                mech = s2s.LuongAttention(3, memory, memory_sequence_length=[4, 2], scale=True,
                                          dtype=tf.float64)
            cell = s2s.AttentionWrapper(tf.nn.rnn_cell.BasicRNNCell(3, dtype=tf.float64), mech,
                                        attention_layer_size=2)
            helper = s2s.TrainingHelper(inputs, lengths)
            dec = s2s.BasicDecoder(cell, helper, cell.zero_state(2, tf.float64),
                                   tf.layers.Dense(4, dtype=tf.float64))
            outputs, _, _ = s2s.dynamic_decode(dec, impute_finished=True)
        return tf.reduce_sum(tf.sin(outputs.rnn_output))

    rng = np.random.RandomState(5)
    check_gradients(loss, [rng.normal(size=(2, 4, 3)), rng.normal(size=(2, 3, 2))], order=2,
                    mode="graph", rtol=1e-4, atol=1e-6)
