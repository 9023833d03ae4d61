"""Records TensorFlow 2.21's CTC results for tests/test_ctc_ops.py:

    /work/venv-tf/bin/python tools/tf_reference/ctc_reference.py

writes ``tests/data/ctc/tensorflow_2.21.json``: the CTCLoss op's loss and gradient, TF2's
``tf.nn.ctc_loss`` on dense labels (blank first, last, in the middle, batch-major logits) and
its gradient, TF1's ``ctc_loss`` with ``preprocess_collapse_repeated`` and
``ignore_longer_outputs_than_inputs``, and ``tf.nn.ctc_greedy_decoder``."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import tensorflow as tf

OUT = Path(__file__).resolve().parents[2] / "tests" / "data" / "ctc" / "tensorflow_2.21.json"


def main() -> None:
    """Computes every case and writes OUT."""
    rng = np.random.default_rng(0)
    logits = rng.normal(size=(4, 2, 5)).astype(np.float32)
    rec = {"logits": logits.tolist()}
    loss, grad = tf.raw_ops.CTCLoss(
        inputs=logits, labels_indices=tf.constant([[0, 0], [1, 0], [1, 1]], tf.int64),
        labels_values=tf.constant([1, 2, 2]), sequence_length=[4, 3])
    rec["op"] = {"loss": loss.numpy().tolist(), "gradient": grad.numpy().tolist()}
    loss, _ = tf.raw_ops.CTCLoss(
        inputs=logits, labels_indices=tf.constant([[0, 0], [0, 1], [0, 2], [1, 0], [1, 1],
                                                   [1, 2]], tf.int64),
        labels_values=tf.constant([1, 1, 2, 3, 3, 3]), sequence_length=[4, 4])
    rec["op_infeasible"] = [float(v) for v in loss.numpy()]
    dense = {}
    for blank in (0, 2, 4, -1):
        for major in (True, False):
            x = tf.constant(logits if major else np.transpose(logits, (1, 0, 2)))
            with tf.GradientTape() as tape:
                tape.watch(x)
                loss = tf.nn.ctc_loss(labels=tf.constant([[1, 0], [3, 3]]), logits=x,
                                      label_length=[1, 2], logit_length=[4, 3],
                                      blank_index=blank, logits_time_major=major)
                total = tf.reduce_sum(loss * tf.constant([1.0, 2.0]))
            dense["%d %s" % (blank, major)] = {
                "loss": loss.numpy().tolist(), "gradient": tape.gradient(total, x).numpy()
                .tolist()}
    rec["dense"] = dense
    sparse = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [1, 1], [1, 2]], [1, 1, 2, 3, 3], [2, 3])
    v1 = {}
    for collapse in (False, True):
        for ignore in (False, True):
            try:
                loss = tf.compat.v1.nn.ctc_loss(
                    sparse, logits, [4, 2], preprocess_collapse_repeated=collapse,
                    ignore_longer_outputs_than_inputs=ignore)
                v1["%s %s" % (collapse, ignore)] = loss.numpy().tolist()
            except tf.errors.InvalidArgumentError as e:
                v1["%s %s" % (collapse, ignore)] = "InvalidArgumentError: " + e.message
    rec["v1"] = v1
    greedy = {}
    for merge in (True, False):
        for blank in (None, 0):
            (dec,), neg = tf.nn.ctc_greedy_decoder(logits, [4, 3], merge_repeated=merge,
                                                   blank_index=blank)
            greedy["%s %s" % (merge, blank)] = {
                "indices": dec.indices.numpy().tolist(), "values": dec.values.numpy().tolist(),
                "dense_shape": dec.dense_shape.numpy().tolist(),
                "neg_sum_logits": neg.numpy().tolist()}
    rec["greedy"] = greedy
    OUT.write_text(json.dumps(rec) + "\n")


if __name__ == "__main__":
    main()
