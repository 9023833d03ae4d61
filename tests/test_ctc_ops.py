"""CTC: the CTCLoss op (loss and gradient), tf.nn.ctc_loss (TF2, dense labels, any blank),
TF1's ctc_loss and tf.nn.ctc_greedy_decoder, pinned against TensorFlow 2.21
(tests/data/ctc, made by tools/tf_reference/ctc_reference.py)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.framework.context import state
from gradcheck import check_gradients

REC = json.loads((Path(__file__).parent / "data" / "ctc" / "tensorflow_2.21.json").read_text())
LOGITS = np.asarray(REC["logits"], np.float32)


@pytest.fixture(autouse=True)
def eager():
    state.eager = True
    yield
    state.eager = True


def test_ctc_loss_op_loss_and_gradient_as_tensorflow():
    loss, grad = tf.raw_ops.CTCLoss(
        inputs=LOGITS, labels_indices=tf.constant([[0, 0], [1, 0], [1, 1]], tf.int64),
        labels_values=tf.constant([1, 2, 2]), sequence_length=[4, 3])
    np.testing.assert_allclose(loss.numpy(), REC["op"]["loss"], rtol=1e-5)
    np.testing.assert_allclose(grad.numpy(), REC["op"]["gradient"], atol=1e-6)
    # labels that fit the frames only without the blanks between repeats: infinite loss
    loss, _ = tf.raw_ops.CTCLoss(
        inputs=LOGITS, labels_indices=tf.constant([[0, 0], [0, 1], [0, 2], [1, 0], [1, 1],
                                                   [1, 2]], tf.int64),
        labels_values=tf.constant([1, 1, 2, 3, 3, 3]), sequence_length=[4, 4])
    assert loss.numpy().tolist() == REC["op_infeasible"]


@pytest.mark.parametrize("case", sorted(REC["dense"]))
def test_ctc_loss_dense_labels_any_blank_and_its_gradient(case):
    blank, major = int(case.split()[0]), case.split()[1] == "True"
    x = tf.constant(LOGITS if major else np.transpose(LOGITS, (1, 0, 2)))
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.nn.ctc_loss(labels=tf.constant([[1, 0], [3, 3]]), logits=x,
                              label_length=[1, 2], logit_length=[4, 3], blank_index=blank,
                              logits_time_major=major)
        total = tf.reduce_sum(loss * tf.constant([1.0, 2.0]))
    np.testing.assert_allclose(loss.numpy(), REC["dense"][case]["loss"], rtol=1e-5)
    np.testing.assert_allclose(tape.gradient(total, x).numpy(), REC["dense"][case]["gradient"],
                               atol=1e-5)


@pytest.mark.parametrize("case", sorted(REC["v1"]))
def test_tf1_ctc_loss_collapse_and_longer_labels(case):
    collapse, ignore = (w == "True" for w in case.split())
    sparse = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [1, 1], [1, 2]], [1, 1, 2, 3, 3], [2, 3])
    want = REC["v1"][case]
    if isinstance(want, str):
        with pytest.raises(tf.errors.InvalidArgumentError, match="Not enough time for target "
                           r"transition sequence \(required: 3, available: 2\)"):
            tf1.nn.ctc_loss(sparse, LOGITS, [4, 2], preprocess_collapse_repeated=collapse,
                            ignore_longer_outputs_than_inputs=ignore)
        return
    loss = tf1.nn.ctc_loss(sparse, LOGITS, [4, 2], preprocess_collapse_repeated=collapse,
                           ignore_longer_outputs_than_inputs=ignore)
    np.testing.assert_allclose(loss.numpy(), want, rtol=1e-5)


@pytest.mark.parametrize("case", sorted(REC["greedy"]))
def test_ctc_greedy_decoder_as_tensorflow(case):
    merge, blank = case.split()
    (dec,), neg = tf.nn.ctc_greedy_decoder(LOGITS, [4, 3], merge_repeated=merge == "True",
                                           blank_index=None if blank == "None" else int(blank))
    want = REC["greedy"][case]
    assert dec.indices.numpy().tolist() == want["indices"]
    assert dec.values.numpy().tolist() == want["values"]
    assert dec.dense_shape.numpy().tolist() == want["dense_shape"]
    np.testing.assert_allclose(neg.numpy(), want["neg_sum_logits"], rtol=1e-6)


@pytest.mark.parametrize("mode", ["graph", "eager"])
def test_ctc_loss_gradient_check_and_no_second_derivative(mode):
    """Numerical first-order check in float64; the second derivative raises LookupError
    as in TensorFlow (the fused op's gradient output has none)."""
    x = LOGITS.astype(np.float64)[:3]

    def loss(logits):
        return tf.nn.ctc_loss(labels=tf.constant([[1, 2], [3, 0]]), logits=logits,
                              label_length=[2, 1], logit_length=[3, 2], blank_index=0)

    check_gradients(loss, [x], order=1, mode=mode)
    with pytest.raises(LookupError, match="second derivative of ctc_loss"):
        check_gradients(loss, [x], order=2, mode=mode)


def test_ctc_loss_bad_input_names_the_problem():
    with pytest.raises(ValueError, match="blank_index"):
        tf.nn.ctc_loss(tf.SparseTensor([[0, 0]], [1], [1, 1]), LOGITS[:, :1], None, [4])
    with pytest.raises(TypeError, match="SparseTensor"):
        tf1.nn.ctc_loss(tf.constant([[1]]), LOGITS, [4, 4])
    with pytest.raises(tf.errors.InvalidArgumentError, match="sequence_length"):
        tf.raw_ops.CTCLoss(inputs=LOGITS, labels_indices=tf.constant([[0, 0]], tf.int64),
                           labels_values=tf.constant([1]), sequence_length=[5, 4])
