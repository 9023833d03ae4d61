"""``tf.compat.v1.metrics``' ranking metrics: ``precision_at_k``, ``recall_at_k``, their
``*_at_top_k`` forms, ``average_precision_at_k`` and the deprecated ``sparse_*`` names, and
``sensitivity_at_specificity`` / ``specificity_at_sensitivity`` -- each metric's update-op
results over two batches and its final value, with dense labels of rank N and N+1 (``-1``
padding), SparseTensor labels, ``class_id`` and weights, and the local variables' names.

``program(tf)`` runs with ``tf`` either TensorFlow's ``tf.compat.v1`` or flowgrad's TF1 face.
Record with TensorFlow 2.21::

    /work/venv-tf/bin/python tools/tf_reference/metrics_at_k.py \\
        > tests/data/metrics_v1/at_k_tf_2_21.json

tests/test_metrics_at_k.py runs the same program on flowgrad and compares.
"""
import json

import numpy as np

RNG = np.random.RandomState(5)
SCORES = [RNG.uniform(size=(4, 6)).astype(np.float32) for _ in range(2)]
ONE_LABEL = [RNG.randint(0, 6, size=(4,)).astype(np.int64) for _ in range(2)]
MULTI_LABEL = [np.array([[0, 3, -1], [5, -1, -1], [1, 2, 4], [7, 0, -1]], np.int64),
               np.array([[2, -1, -1], [3, 4, -1], [0, 1, 5], [-1, -1, -1]], np.int64)]
WEIGHTS = [RNG.uniform(0.5, 2.0, size=(4,)).astype(np.float32) for _ in range(2)]
BINARY = [RNG.randint(0, 2, size=(12,)).astype(np.int64) for _ in range(2)]
PROBS = [RNG.uniform(size=(12,)).astype(np.float32) for _ in range(2)]


def _sparse(tf, dense):
    """A SparseTensorValue of the non-negative entries of a [B, n] label matrix."""
    idx = np.argwhere(dense >= 0)
    return tf.SparseTensorValue(idx.astype(np.int64), dense[dense >= 0], dense.shape)


def _metrics(tf, weighted):
    m = tf.metrics
    score = tf.placeholder(tf.float32, [4, 6])
    one = tf.placeholder(tf.int64, [4])
    multi = tf.placeholder(tf.int64, [4, 3])
    sparse = tf.sparse_placeholder(tf.int64, [4, 3])
    w = tf.placeholder(tf.float32, [4]) if weighted else None
    binary = tf.placeholder(tf.int64, [12])
    probs = tf.placeholder(tf.float32, [12])
    _, top3 = tf.nn.top_k(score, 3)
    metrics = {
        "precision_at_k_one": m.precision_at_k(one, score, 2, weights=w),
        "precision_at_k_multi": m.precision_at_k(multi, score, 3, weights=w),
        "precision_at_k_sparse": m.precision_at_k(sparse, score, 2, weights=w),
        "precision_at_k_class": m.precision_at_k(multi, score, 3, class_id=0, weights=w),
        "sparse_precision_at_k": m.sparse_precision_at_k(multi, score, 1, weights=w),
        "recall_at_k_one": m.recall_at_k(one, score, 2, weights=w),
        "recall_at_k_multi": m.recall_at_k(multi, score, 3, weights=w),
        "recall_at_k_sparse": m.recall_at_k(sparse, score, 2, weights=w),
        "recall_at_k_class": m.recall_at_k(multi, score, 3, class_id=5, weights=w),
        "precision_at_top_k": m.precision_at_top_k(multi, top3, k=3, weights=w),
        "recall_at_top_k": m.recall_at_top_k(multi, top3, weights=w),
        "average_precision_at_k_one": m.average_precision_at_k(one, score, 3, weights=w),
        "average_precision_at_k_multi": m.average_precision_at_k(multi, score, 4, weights=w),
        "average_precision_at_k_sparse": m.average_precision_at_k(sparse, score, 2,
                                                                  weights=w),
        "sparse_average_precision_at_k": m.sparse_average_precision_at_k(multi, score, 2,
                                                                         weights=w),
        "sensitivity_at_specificity": m.sensitivity_at_specificity(
            binary, probs, 0.6, weights=None if w is None else tf.tile(w, [3])),
        "specificity_at_sensitivity": m.specificity_at_sensitivity(
            binary, probs, 0.4, weights=None if w is None else tf.tile(w, [3]),
            num_thresholds=50),
    }
    feeds = []
    for i in range(2):
        feed = {score: SCORES[i], one: ONE_LABEL[i], multi: MULTI_LABEL[i],
                sparse: _sparse(tf, MULTI_LABEL[i]), binary: BINARY[i], probs: PROBS[i]}
        if weighted:
            feed[w] = WEIGHTS[i]
        feeds.append(feed)
    return metrics, feeds


def program(tf):
    """Each metric's update-op results (two batches), final value and value dtype, and the
    local variables' names."""
    out = {}
    for weighted in (False, True):
        suffix = "weighted" if weighted else "plain"
        with tf.Graph().as_default():
            metrics, feeds = _metrics(tf, weighted)
            names = sorted(metrics)
            with tf.Session() as sess:
                sess.run(tf.local_variables_initializer())
                updates = [sess.run([metrics[n][1] for n in names], f) for f in feeds]
                values = sess.run([metrics[n][0] for n in names])
            for i, n in enumerate(names):
                out["%s_%s" % (n, suffix)] = {
                    "updates": [np.asarray(u[i]).tolist() for u in updates],
                    "value": np.asarray(values[i]).tolist(),
                    "dtype": str(np.asarray(values[i]).dtype),
                }
            out["local_variables_" + suffix] = sorted(v.name for v in tf.local_variables())
            out["value_names_" + suffix] = {n: metrics[n][0].name for n in names}
    return out


if __name__ == "__main__":
    import tensorflow.compat.v1 as tf1

    tf1.disable_v2_behavior()
    print(json.dumps(program(tf1)))
