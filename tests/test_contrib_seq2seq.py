"""TF 1.15's ``tf.contrib.seq2seq`` decoders in the TF1 face: helpers, ``BasicDecoder`` and
``dynamic_decode``, Bahdanau/Luong attention with ``AttentionWrapper``, ``BeamSearchDecoder``
with ``tile_batch``/``gather_tree``.

TF 1.15 cannot run here (Python 3.11) and ``tensorflow_addons`` (its TF2 port) does not import
under TF 2.21's Keras 3, so the numbers are pinned against NumPy implementations of the
documented formulas, run on the decoder's own variables, and against the expected values of
TensorFlow r1.15's own tests (``beam_search_ops_test.py``, ``beam_search_decoder_test.py``)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import flowgrad.compat.v1 as tf
from flowgrad.debug import NumericsWarning
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
        batch = 2 if isinstance(helper, s2s.CustomHelper) else helper.batch_size
        dec = s2s.BasicDecoder(cell, helper, cell.zero_state(batch, tf.float32), out_layer)
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
    with warnings.catch_warnings():     # the score mask's where is the library's, not the user's
        warnings.simplefilter("error", NumericsWarning)
        check_gradients(loss, [rng.normal(size=(2, 4, 3)), rng.normal(size=(2, 3, 2))],
                        order=2, mode="graph", rtol=1e-4, atol=1e-6)


# -- attention, against NumPy of the documented formulas --------------------------------------
def _attention_decode(kind, output_attention=True):
    rng = np.random.RandomState(7)
    memory_val = rng.normal(size=(2, 5, 4)).astype(np.float32)
    inputs_val = rng.normal(size=(2, 3, 2)).astype(np.float32)
    mem_len = np.array([5, 3], np.int32)
    with tf.variable_scope("decoder") as scope:
        if kind == "bahdanau":
            mech = s2s.BahdanauAttention(3, memory_val, memory_sequence_length=mem_len,
                                         normalize=True)
        else:
            mech = s2s.LuongAttention(3, memory_val, memory_sequence_length=mem_len, scale=True)
        cell = s2s.AttentionWrapper(tf.nn.rnn_cell.BasicRNNCell(3), mech,
                                    attention_layer_size=2, alignment_history=True,
                                    output_attention=output_attention)
        helper = s2s.TrainingHelper(inputs_val, [3, 3])
        dec = s2s.BasicDecoder(cell, helper, cell.zero_state(2, tf.float32))
        outputs, state, _ = s2s.dynamic_decode(dec, scope=scope)
    return memory_val, inputs_val, mem_len, outputs, state


@pytest.mark.parametrize("kind", ["bahdanau", "luong"])
@pytest.mark.parametrize("output_attention", [True, False])
def test_attention_wrapper_matches_numpy_of_the_documented_formulas(kind, output_attention):
    memory, inputs, mem_len, outputs, state = _attention_decode(kind, output_attention)
    variables = {v.op.name: v for v in tf.global_variables()}
    names = sorted(variables)
    expected = ["decoder/attention_wrapper/attention_layer/kernel",
                "decoder/attention_wrapper/basic_rnn_cell/bias",
                "decoder/attention_wrapper/basic_rnn_cell/kernel", "decoder/memory_layer/kernel"]
    if kind == "bahdanau":
        expected += ["decoder/attention_wrapper/bahdanau_attention/" + n for n in
                     ("attention_b", "attention_g", "attention_v", "query_layer/kernel")]
    else:
        expected += ["decoder/attention_wrapper/luong_attention/attention_g"]
    assert names == sorted(expected)
    assert isinstance(state, s2s.AttentionWrapperState)
    history = state.alignment_history.stack()
    out, hist, final_att, final_time, v = _run([outputs.rnn_output, history, state.attention,
                                               state.time, variables])
    prefix = "decoder/attention_wrapper/"
    keys = memory @ v["decoder/memory_layer/kernel"]
    mask = np.arange(5)[None] < mem_len[:, None]
    h = np.zeros((2, 3), np.float32)
    attention = np.zeros((2, 2), np.float32)
    for t in range(3):
        h = _rnn_step(v[prefix + "basic_rnn_cell/kernel"], v[prefix + "basic_rnn_cell/bias"],
                      np.concatenate([inputs[:, t], attention], 1), h)
        if kind == "bahdanau":
            sc = prefix + "bahdanau_attention/"
            q = h @ v[sc + "query_layer/kernel"]
            att_v, g, b = v[sc + "attention_v"], v[sc + "attention_g"], v[sc + "attention_b"]
            normed_v = g * att_v / np.sqrt((att_v ** 2).sum())
            score = (normed_v * np.tanh(keys + q[:, None] + b)).sum(-1)
        else:
            score = v[prefix + "luong_attention/attention_g"] * np.einsum("bd,btd->bt", h, keys)
        alignments = _softmax(np.where(mask, score, -np.inf))
        context = np.einsum("bt,btd->bd", alignments, memory)
        attention = np.concatenate([h, context], 1) @ v[prefix + "attention_layer/kernel"]
        np.testing.assert_allclose(hist[t], alignments, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(out[:, t], attention if output_attention else h,
                                   rtol=1e-5, atol=1e-6)
    assert final_time == 3
    np.testing.assert_allclose(final_att, attention, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(hist[:, 1, 3:], 0)          # masked memory steps


def test_luong_attention_checks_the_query_depth_and_wrapper_checks_batch_sizes():
    memory = tf.zeros([2, 5, 4])
    mech = s2s.LuongAttention(3, memory)
    cell = s2s.AttentionWrapper(tf.nn.rnn_cell.BasicRNNCell(4), mech)
    with pytest.raises(ValueError, match="Incompatible or unknown inner dimensions"):
        cell(tf.zeros([2, 1]), cell.zero_state(2, tf.float32))
    with pytest.raises(ValueError, match="Non-matching batch sizes"):
        cell.zero_state(6, tf.float32)
    with pytest.raises(TypeError, match="must be an AttentionMechanism"):
        s2s.AttentionWrapper(tf.nn.rnn_cell.BasicRNNCell(4), memory)
    with pytest.raises(ValueError, match="Only one of attention_layer_size"):
        s2s.AttentionWrapper(tf.nn.rnn_cell.BasicRNNCell(4), mech, attention_layer_size=3,
                             attention_layer=tf.layers.Dense(3))
    with pytest.raises(TypeError, match="helper must be a Helper"):
        s2s.BasicDecoder(tf.nn.rnn_cell.BasicRNNCell(4), object(), None)
    with pytest.raises(ValueError, match="start_tokens must be a vector"):
        s2s.GreedyEmbeddingHelper(tf.zeros([5, 2]), 1, 2)


# -- greedy and beam search decoding, against NumPy --------------------------------------------
def _fixed_cell_decoder(decoder_fn, vocab=5, units=3, embed=2):
    rng = np.random.RandomState(11)
    embedding = rng.normal(size=(vocab, embed)).astype(np.float32)
    kernel = rng.normal(size=(embed + units, units)).astype(np.float32)
    bias = rng.normal(size=(units,)).astype(np.float32)
    out_kernel = 2.0 * rng.normal(size=(units, vocab)).astype(np.float32)
    out_bias = rng.normal(size=(vocab,)).astype(np.float32)
    cell = tf.nn.rnn_cell.BasicRNNCell(units)
    layer = tf.layers.Dense(vocab, kernel_initializer=tf.constant_initializer(out_kernel),
                            bias_initializer=tf.constant_initializer(out_bias))
    with tf.variable_scope("decoder"):
        with tf.variable_scope("basic_rnn_cell"):
            tf.get_variable("kernel", initializer=kernel)
            tf.get_variable("bias", initializer=bias)
    with tf.variable_scope("decoder", reuse=tf.AUTO_REUSE) as scope:
        result = decoder_fn(cell, layer, embedding, scope)
    weights = (embedding, kernel, bias, out_kernel, out_bias)
    return result, weights


def _np_logits(weights, ids, h):
    embedding, kernel, bias, out_kernel, out_bias = weights
    h = _rnn_step(kernel, bias, embedding[ids], h)
    return h @ out_kernel + out_bias, h


def test_greedy_decoder_emits_the_argmax_until_the_end_token():
    def build(cell, layer, embedding, scope):
        helper = s2s.GreedyEmbeddingHelper(embedding, [0, 1], 4)
        dec = s2s.BasicDecoder(cell, helper, cell.zero_state(2, tf.float32), layer)
        return s2s.dynamic_decode(dec, maximum_iterations=6, scope=scope)
    (outputs, _, lengths), weights = _fixed_cell_decoder(build)
    ids, got_len = _run([outputs.sample_id, lengths])
    h = np.zeros((2, 3), np.float32)
    prev = np.array([0, 1])
    want = []
    for _ in range(6):
        logits, h = _np_logits(weights, prev, h)
        prev = logits.argmax(-1)
        want.append(prev)
    want = np.stack(want, 1)
    for b in range(2):
        ends = np.flatnonzero(want[b] == 4)
        n = ends[0] + 1 if ends.size else 6
        assert got_len[b] == n
        np.testing.assert_array_equal(ids[b, :n], want[b, :n])


def _np_beam_search(weights, start, end, beam, steps, penalty):
    """Beam search as documented: log-probabilities summed, divided by the GNMT length
    penalty ((5 + length) / 6) ** penalty, finished beams only extend with ``end``."""
    h0 = np.zeros(3, np.float32)
    beams = [(0.0, [], h0, False, 0)]            # (log prob, ids, state, finished, length)
    for step in range(steps):
        cands = []
        for k, (lp, ids, h, done, length) in enumerate(beams):
            prev = ids[-1] if ids else start
            logits, h2 = _np_logits(weights, np.array([prev]), h[None])
            step_lp = _log_softmax(logits[0].astype(np.float64))
            for w in range(len(step_lp)):
                if done:
                    total, new_len = (lp, length) if w == end else (-np.inf, length)
                else:
                    total, new_len = lp + step_lp[w], length + (w != end)
                score = total / (((5.0 + new_len) / 6.0) ** penalty)
                cands.append((score, k * len(step_lp) + w, total, ids + [w], h2[0] if not done
                              else h, done or w == end, new_len + (w == end and not done)))
        cands.sort(key=lambda c: (-c[0], c[1]))
        beams = [(c[2], c[3], c[4], c[5], c[6]) for c in cands[:beam]]
        if step == 0:
            first_scores = [c[0] for c in cands[:beam]]
        if all(b[3] for b in beams):
            break
    del first_scores
    return beams


@pytest.mark.parametrize("penalty", [0.0, 1.0])
def test_beam_search_decoder_finds_numpys_best_beams(penalty):
    beam = 3

    def build(cell, layer, embedding, scope):
        dec = s2s.BeamSearchDecoder(cell, embedding, [2], 4,
                                    s2s.tile_batch(cell.zero_state(1, tf.float32), beam),
                                    beam, output_layer=layer, length_penalty_weight=penalty)
        return s2s.dynamic_decode(dec, maximum_iterations=5, scope=scope)
    (outputs, state, lengths), weights = _fixed_cell_decoder(build)
    assert isinstance(outputs, s2s.FinalBeamSearchDecoderOutput)
    assert isinstance(state, s2s.BeamSearchDecoderState)
    ids, log_probs, got_len = _run([outputs.predicted_ids, state.log_probs, state.lengths])
    want = _np_beam_search(weights, 2, 4, beam, 5, penalty)
    for k, (lp, seq, _, _, length) in enumerate(want):
        np.testing.assert_array_equal(ids[0, :len(seq), k], seq)
        np.testing.assert_allclose(log_probs[0, k], lp, rtol=1e-4)
        assert got_len[0, k] == length


def test_beam_search_masks_finished_beams_as_tf115():
    from flowgrad.compat.contrib.seq2seq.beam_search_decoder import _mask_probs
    probs = np.array([[[-.2, -.2, -.2, -.2, -.2], [-.3, -.3, -.3, 3, 0], [5, 6, 0, 0, 0]],
                      [[-.2, -.2, -.2, -.2, 0], [-.3, -.3, -.1, 3, 0], [5, 6, 3, 0, 0]]],
                     np.float32)
    finished = np.array([[0, 1, 0], [0, 1, 1]], bool)
    masked = _run(_mask_probs(tf.constant(probs), 0, tf.constant(finished)))
    low = np.finfo(np.float32).min
    np.testing.assert_array_equal(masked[0, 0], probs[0, 0])
    np.testing.assert_array_equal(masked[0, 1], [0, low, low, low, low])
    np.testing.assert_array_equal(masked[1, 2], [0, low, low, low, low])
    np.testing.assert_array_equal(masked[1, 0], probs[1, 0])


# -- whole programs under python -m flowgrad --tf1 ---------------------------------------------
def _program(name):
    import os
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-m", "flowgrad", "--tf1",
                          str(root / "tests" / "data" / "contrib" / "programs" / name)],
                         capture_output=True, text=True, timeout=600,
                         env=dict(os.environ, PYTHONPATH=str(root)))
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_toy_nmt_with_attention_and_beam_search_runs_unchanged():
    out = _program("toy_nmt_attention.py")
    assert "decoder/attention/luong_attention/attention_g:0 ()" in out
    assert "decoder/memory_layer/kernel:0 (32, 32)" in out
    line = next(ln for ln in out.splitlines() if ln.startswith("loss ") and "->" in ln)
    first, last = float(line.split()[1]), float(line.split()[3])
    assert last < 0.3 * first
    assert "beam ids shape (8, " in out and ", 3)" in out


def test_blog_style_chatbot_trains_saves_and_answers_from_the_restored_graph():
    out = _program("chatbot_seq2seq.py")
    assert float(out.split("final loss ")[1].split()[0]) < 0.5
    assert "answered" in out and "Q: hi\nA: " in out


# -- the other helpers ----------------------------------------------------------------------
def _decode_with(helper_fn, **kwargs):
    """Decodes in a fresh graph whose variables start from the same seeded values."""
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        outputs, state, lengths = _rnn_decoder(helper_fn, **kwargs)
        return _run([outputs, state, lengths, tf.global_variables()])


def _training_inputs():
    rng = np.random.RandomState(3)
    return rng.normal(size=(2, 4, 6)).astype(np.float32), np.array([4, 3], np.int32)


def test_scheduled_sampling_with_probability_0_is_teacher_forcing():
    x, lengths = _training_inputs()
    emb = np.random.RandomState(4).normal(size=(6, 6)).astype(np.float32)
    want = _decode_with(lambda: s2s.TrainingHelper(x, lengths), impute_finished=False)
    got = _decode_with(lambda: s2s.ScheduledEmbeddingTrainingHelper(x, lengths, emb, 0.0),
                       impute_finished=False)
    np.testing.assert_allclose(got[0].rnn_output, want[0].rnn_output, rtol=1e-6)
    np.testing.assert_array_equal(got[0].sample_id, -1)
    out = _decode_with(lambda: s2s.ScheduledOutputTrainingHelper(x, lengths, 0.0),
                       impute_finished=False)
    np.testing.assert_allclose(out[0].rnn_output, want[0].rnn_output, rtol=1e-6)
    assert out[0].sample_id.dtype == bool and not out[0].sample_id.any()
    with pytest.raises(ValueError, match="sampling_probability must be either a scalar"):
        s2s.ScheduledEmbeddingTrainingHelper(x, lengths, emb, [[0.5]])


def test_scheduled_sampling_with_probability_1_feeds_the_sampled_embeddings():
    x, lengths = _training_inputs()
    emb = np.random.RandomState(4).normal(size=(6, 6)).astype(np.float32)
    outputs, _, _ = _rnn_decoder(lambda: s2s.ScheduledEmbeddingTrainingHelper(
        x, lengths, emb, 1.0, seed=1, scheduling_seed=2), impute_finished=False)
    w, b, wo, bo = tf.global_variables()
    out, w_, b_, wo_, bo_ = _run([outputs, w, b, wo, bo])
    ids = out.sample_id
    assert ids.min() >= 0 and ids.max() < 6
    h = _rnn_step(w_, b_, x[:, 0], np.zeros((2, 4), np.float32))
    np.testing.assert_allclose(out.rnn_output[:, 0], h @ wo_ + bo_, rtol=1e-5, atol=1e-6)
    h = _rnn_step(w_, b_, emb[ids[:, 0]], h)        # the next input is the sample's embedding
    np.testing.assert_allclose(out.rnn_output[:, 1], h @ wo_ + bo_, rtol=1e-5, atol=1e-6)


def test_sample_embedding_helper_at_low_temperature_is_greedy():
    emb = np.random.RandomState(4).normal(size=(6, 3)).astype(np.float32)
    greedy = _decode_with(lambda: s2s.GreedyEmbeddingHelper(emb, [0, 1], 5),
                          maximum_iterations=4)
    sampled = _decode_with(lambda: s2s.SampleEmbeddingHelper(
        emb, [0, 1], 5, softmax_temperature=1e-6, seed=3), maximum_iterations=4)
    np.testing.assert_array_equal(sampled[0].sample_id, greedy[0].sample_id)
    np.testing.assert_array_equal(sampled[2], greedy[2])
    assert sampled[0].sample_id.dtype == np.int32


def test_inference_and_custom_helpers_feed_back_what_their_functions_say():
    start = np.ones((2, 6), np.float32)

    def inference():
        return s2s.InferenceHelper(sample_fn=lambda outputs: outputs, sample_shape=[6],
                                   sample_dtype=tf.float32, start_inputs=start,
                                   end_fn=lambda sample: tf.reduce_sum(sample, 1) > 1e9)
    out, _, lengths, (w, b, wo, bo) = _decode_with(inference, maximum_iterations=3)
    np.testing.assert_array_equal(lengths, [3, 3])
    np.testing.assert_allclose(out.sample_id, out.rnn_output)     # the outputs fed back
    h = _rnn_step(w, b, start, np.zeros((2, 4), np.float32))
    y = h @ wo + bo
    np.testing.assert_allclose(out.rnn_output[:, 0], y, rtol=1e-5, atol=1e-6)
    h = _rnn_step(w, b, y, h)
    np.testing.assert_allclose(out.rnn_output[:, 1], h @ wo + bo, rtol=1e-5, atol=1e-6)

    def custom():
        return s2s.CustomHelper(
            initialize_fn=lambda: (tf.constant([False, False]), tf.constant(start)),
            sample_fn=lambda time, outputs, state: tf.argmax(outputs, -1, output_type=tf.int32),
            next_inputs_fn=lambda time, outputs, state, sample_ids: (
                tf.fill([2], time >= 1), outputs, state))
    with pytest.raises(ValueError, match="batch_size accessed before initialize"):
        custom().batch_size  # noqa: B018
    out2, _, lengths2, _ = _decode_with(custom)
    np.testing.assert_array_equal(lengths2, [2, 2])
    np.testing.assert_array_equal(out2.sample_id, out2.rnn_output.argmax(-1))


def test_output_time_major_and_beam_search_with_coverage_penalty():
    rng = np.random.RandomState(9)
    memory = tf.constant(rng.normal(size=(2, 4, 3)).astype(np.float32))
    beam = 2
    with tf.variable_scope("decoder") as scope:
        mech = s2s.BahdanauAttention(3, s2s.tile_batch(memory, beam),
                                     memory_sequence_length=s2s.tile_batch(np.array([4, 2]), beam))
        cell = s2s.AttentionWrapper(tf.nn.rnn_cell.GRUCell(3), mech, alignment_history=True)
        dec = s2s.BeamSearchDecoder(cell, tf.constant(rng.normal(size=(5, 2)), tf.float32),
                                    [0, 0], 4, cell.zero_state(2 * beam, tf.float32), beam,
                                    output_layer=tf.layers.Dense(5),
                                    coverage_penalty_weight=0.4, length_penalty_weight=0.5)
        outputs, state, _ = s2s.dynamic_decode(dec, output_time_major=True,
                                               maximum_iterations=3, scope=scope)
    history = state.cell_state.alignment_history
    ids, probs, hist = _run([outputs.predicted_ids, state.accumulated_attention_probs,
                             history])
    assert ids.shape[1:] == (2, beam) and ids.shape[0] <= 3
    assert probs.shape == (2, beam, 4) and np.all(probs >= 0)
    assert hist.shape[1:] == (2 * beam, 4)
    np.testing.assert_allclose(hist[:, beam:, 2:], 0, atol=1e-7)   # entry 1: memory length 2
