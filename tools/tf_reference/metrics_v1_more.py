"""More of ``tf.compat.v1.metrics``: true_negatives, the ``*_at_thresholds`` counters,
precision/recall at thresholds, mean_iou, mean_per_class_accuracy, mean_tensor,
mean_relative_error, mean_cosine_distance and percentage_below -- each metric's value and
update op after two batches, with and without weights, and its local variables' names.

``program(tf)`` runs with ``tf`` either TensorFlow's ``tf.compat.v1`` or flowgrad's TF1 face.
Record with TensorFlow 2.21::

    /work/venv-tf/bin/python tools/tf_reference/metrics_v1_more.py \\
        > tests/data/metrics_v1/more_tf_2_21.json

tests/test_metrics_v1_more.py runs the same program on flowgrad and compares.
"""
import json

import numpy as np

RNG = np.random.RandomState(11)
LABELS = [RNG.randint(0, 2, size=(6,)).astype(np.int64) for _ in range(2)]
SCORES = [RNG.uniform(size=(6,)).astype(np.float32) for _ in range(2)]
WEIGHTS = [RNG.uniform(0.5, 2.0, size=(6,)).astype(np.float32) for _ in range(2)]
CLASSES = [RNG.randint(0, 4, size=(2, 5)).astype(np.int64) for _ in range(2)]
PRED_CLASSES = [RNG.randint(0, 4, size=(2, 5)).astype(np.int64) for _ in range(2)]
VECTORS = [RNG.normal(size=(3, 4)).astype(np.float32) for _ in range(2)]
TARGETS = [RNG.normal(size=(3, 4)).astype(np.float32) for _ in range(2)]


def _metrics(tf, weighted):
    lab = tf.placeholder(tf.int64, [6])
    score = tf.placeholder(tf.float32, [6])
    w = tf.placeholder(tf.float32, [6]) if weighted else None
    cls = tf.placeholder(tf.int64, [2, 5])
    pcls = tf.placeholder(tf.int64, [2, 5])
    vec = tf.placeholder(tf.float32, [3, 4])
    tgt = tf.placeholder(tf.float32, [3, 4])
    pred_bool = tf.greater(score, 0.5)
    th = [0.2, 0.5, 0.8]
    m = tf.metrics
    metrics = {
        "true_negatives": m.true_negatives(lab, pred_bool, w),
        "true_positives_at_thresholds": m.true_positives_at_thresholds(lab, score, th, w),
        "false_positives_at_thresholds": m.false_positives_at_thresholds(lab, score, th, w),
        "true_negatives_at_thresholds": m.true_negatives_at_thresholds(lab, score, th, w),
        "false_negatives_at_thresholds": m.false_negatives_at_thresholds(lab, score, th, w),
        "precision_at_thresholds": m.precision_at_thresholds(lab, score, th, w),
        "recall_at_thresholds": m.recall_at_thresholds(lab, score, th, w),
        "mean_iou": m.mean_iou(cls, pcls, 4, None if w is None else tf.ones([2, 5]) * 0.5),
        "mean_per_class_accuracy": m.mean_per_class_accuracy(
            cls, pcls, 4, None if w is None else tf.ones([2, 5]) * 2.0),
        "mean_tensor": m.mean_tensor(vec, None if w is None else tf.abs(tgt)),
        "mean_relative_error": m.mean_relative_error(tgt, vec, tf.abs(tgt) + 0.5,
                                                     None if w is None else tf.abs(vec)),
        "mean_cosine_distance": m.mean_cosine_distance(tf.nn.l2_normalize(tgt, 1),
                                                       tf.nn.l2_normalize(vec, 1), 1),
        "percentage_below": m.percentage_below(vec, 0.3, None if w is None else tf.abs(tgt)),
    }
    feeds = []
    for i in range(2):
        feed = {lab: LABELS[i], score: SCORES[i], cls: CLASSES[i], pcls: PRED_CLASSES[i],
                vec: VECTORS[i], tgt: TARGETS[i]}
        if weighted:
            feed[w] = WEIGHTS[i]
        feeds.append(feed)
    return metrics, feeds


def program(tf):
    """Each metric's update-op results (two batches) and final value, as plain values."""
    out = {}
    for weighted in (False, True):
        with tf.Graph().as_default():
            metrics, feeds = _metrics(tf, weighted)
            names = sorted(metrics)
            with tf.Session() as sess:
                sess.run(tf.local_variables_initializer())
                updates = [sess.run([metrics[n][1] for n in names], f) for f in feeds]
                values = sess.run([metrics[n][0] for n in names])
            for i, n in enumerate(names):
                out["%s_%s" % (n, "weighted" if weighted else "plain")] = {
                    "updates": [np.asarray(u[i]).tolist() for u in updates],
                    "value": np.asarray(values[i]).tolist(),
                    "dtype": str(np.asarray(values[i]).dtype),
                }
            out["local_variables_" + ("weighted" if weighted else "plain")] = sorted(
                v.name for v in tf.local_variables())
    return out


if __name__ == "__main__":
    import tensorflow.compat.v1 as tf1

    tf1.disable_v2_behavior()
    print(json.dumps(program(tf1)))
