"""The candidate samplers, ``compute_accidental_hits``, ``nce_loss`` and
``sampled_softmax_loss`` (their gradients: tests/op_db.py's ``sampled_losses`` family).

tools/tf_reference/sampled_losses.py draws from every sampler with fixed seeds (eager and in
TF1 graphs, twice each: the stream continues), computes the losses and their gradients and
trains a word2vec-style model; real TensorFlow 2.21 printed
tests/data/sampled_losses/tf_2_21.txt. flowgrad must print the same: the same sampled
classes (TensorFlow's Philox stream and samplers), the same expected counts, and losses and
gradients to a few float32 ulps (matmul sums round otherwise)."""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import flowgrad as tf2
import flowgrad.compat.v1 as tf
from flowgrad.framework import errors
from flowgrad.framework.context import state

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _tokens(text):
    return re.findall(r"[^\s\[\],]+", text)


def test_a_tensorflow_program_draws_and_trains_as_tensorflow():
    want = open(os.path.join(ROOT, "tests", "data", "sampled_losses", "tf_2_21.txt")).read()
    out = subprocess.run([sys.executable, "-m", "flowgrad",
                          os.path.join(ROOT, "tools", "tf_reference", "sampled_losses.py")],
                         capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": ROOT})
    assert out.returncode == 0, out.stderr
    got_lines, want_lines = out.stdout.splitlines(), want.splitlines()
    assert len(got_lines) == len(want_lines)
    for got_line, want_line in zip(got_lines, want_lines):
        got, ref = _tokens(got_line), _tokens(want_line)
        assert len(got) == len(ref), (got_line, want_line)
        for g, r in zip(got, ref):
            if re.fullmatch(r"-?\d+", r) or not re.fullmatch(r"-?[\d.e+-]+", r):
                assert g == r, (want_line[:60], g, r)      # words, ids and counts: exact
            else:
                assert float(g) == pytest.approx(float(r), rel=2e-5, abs=1e-6), (
                    want_line[:60], g, r)


@pytest.fixture
def eager():
    state.eager = True
    yield


def test_samplers_check_their_arguments(eager):
    true = np.array([[1], [2]], np.int64)
    with pytest.raises(errors.InvalidArgumentError, match=r"out of range \[0, 2\), received 2"):
        tf2.random.uniform_candidate_sampler(true, 1, 1, False, 2)
    with pytest.raises(errors.InvalidArgumentError, match="num_true columns"):
        tf2.random.log_uniform_candidate_sampler(true, 2, 1, False, 5)
    with pytest.raises(errors.InvalidArgumentError, match="either vocab_file or unigrams"):
        tf2.random.fixed_unigram_candidate_sampler(true, 1, 1, False, 5)
    with pytest.raises(errors.InvalidArgumentError, match="range is 5 must be equal"):
        tf2.random.fixed_unigram_candidate_sampler(true, 1, 1, False, 5, unigrams=[1., 2.])
    with pytest.raises(errors.InvalidArgumentError, match="expected to be a int64 tensor but "
                       "is a int32 tensor"):
        tf2.random.uniform_candidate_sampler(tf2.constant([[1]]), 1, 1, False, 5)


def test_fixed_unigram_reads_a_vocabulary_file(eager, tmp_path):
    vocab = tmp_path / "vocab.csv"
    vocab.write_text("the,5\nof,0\nand,3\n")
    sampled, true_count, _ = tf2.random.fixed_unigram_candidate_sampler(
        np.array([[0], [2]], np.int64), 1, 2, True, 3, vocab_file=str(vocab), seed=1)
    assert sorted(sampled.numpy().tolist()) == [0, 2]          # "of" has weight 0
    # two draws found both classes: TensorFlow's expected count is then p * num_sampled
    np.testing.assert_allclose(true_count.numpy(), [[5 / 8 * 2], [3 / 8 * 2]], rtol=1e-6)
    (tmp_path / "bad.csv").write_text("the,five\n")
    with pytest.raises(errors.InvalidArgumentError, match="Wrong vocabulary format"):
        tf2.random.fixed_unigram_candidate_sampler(np.array([[0]], np.int64), 1, 1, True, 1,
                                                   vocab_file=str(tmp_path / "bad.csv"))


def test_unique_samples_are_distinct_and_counts_follow_the_tries(eager):
    sampled, true_count, sampled_count = tf2.random.log_uniform_candidate_sampler(
        np.array([[0]], np.int64), 1, 20, True, 25, seed=4)
    s = sampled.numpy()
    assert len(set(s.tolist())) == 20 and s.min() >= 0 and s.max() < 25
    assert np.all((sampled_count.numpy() > 0) & (sampled_count.numpy() <= 1))
    assert true_count.numpy()[0, 0] > 0.9         # class 0 is the likeliest


def test_the_learned_unigram_sampler_learns_the_true_classes():
    with tf.Graph().as_default():
        true = tf.constant([[3, 3]], tf.int64)
        op = tf.nn.learned_unigram_candidate_sampler(true, 2, 400, False, 4, seed=2)
        with tf.Session() as sess:
            sess.run(op)
            for _ in range(30):
                sess.run(op)
            sampled, true_count, _ = sess.run(op)
    assert np.bincount(sampled, minlength=4).argmax() == 3     # weights 1, 1, 1, 63
    np.testing.assert_allclose(true_count, [[400 * 63 / 66] * 2], rtol=1e-6)


def test_losses_differentiate_in_a_tf1_training_step():
    with tf.Graph().as_default():
        tf.set_random_seed(0)
        w = tf.Variable(tf.random_normal([20, 4]))
        b = tf.Variable(tf.zeros([20]))
        x = tf.placeholder(tf.float32, [None, 4])
        y = tf.placeholder(tf.int64, [None, 1])
        loss = tf.reduce_mean(tf.nn.sampled_softmax_loss(w, b, y, x, 5, 20))
        gw, gb, gx = tf.gradients(loss, [w, b, x])
        assert isinstance(gw, tf.IndexedSlices) and isinstance(gb, tf.IndexedSlices)
        step = tf.train.AdamOptimizer(0.1).minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            feed = {x: np.eye(4, dtype=np.float32)[[0, 1, 2, 3] * 2],
                    y: np.array([[1], [5], [9], [13]] * 2)}
            first = sess.run(loss, feed)
            for _ in range(40):
                sess.run(step, feed)
            assert sess.run(loss, feed) < first / 4
