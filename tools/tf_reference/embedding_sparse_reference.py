"""Records tf.nn.embedding_lookup_sparse, tf.nn.safe_embedding_lookup_sparse (TF2 and TF1)
and tf.sparse.fill_empty_rows on TensorFlow, values and gradients
(``/path/to/tf-venv/bin/python tools/tf_reference/embedding_sparse_reference.py``), into
tests/data/sparse/embedding_sparse_tf_2_21.json; tests/test_embedding_sparse.py runs the
same ``program`` with flowgrad as ``tf`` and compares."""
import json
import os

import numpy as np


def program(tf) -> dict:
    """The cases, run with the module ``tf`` eagerly: {case: nested lists}."""
    rng = np.random.RandomState(0)
    table = tf.Variable(rng.randn(6, 3))
    ids = tf.SparseTensor([[0, 0], [0, 1], [2, 0], [2, 2], [3, 1]],
                          tf.constant([1, 4, 4, -1, 5], tf.int64), [5, 3])
    weights = tf.SparseTensor(ids.indices, tf.constant([2.0, 0.5, -1.0, 3.0, 0.25],
                                                        tf.float64), ids.dense_shape)
    valid = tf.SparseTensor([[0, 0], [0, 1], [2, 0], [3, 1], [3, 2]],
                            tf.constant([1, 4, 4, 5, 1], tf.int64), [4, 3])
    vweights = tf.SparseTensor(valid.indices, tf.constant([2.0, 0.5, 1.5, 3.0, 0.25],
                                                          tf.float64), valid.dense_shape)
    ids3 = tf.SparseTensor([[0, 0, 0], [0, 1, 1], [1, 1, 0]],
                           tf.constant([2, 3, 0], tf.int64), [2, 2, 2])
    out = {}
    for combiner in ("sum", "mean", "sqrtn"):
        for wname, w in (("unweighted", None), ("weighted", vweights)):
            with tf.GradientTape() as tape:
                y = tf.nn.embedding_lookup_sparse(table, valid, w, combiner=combiner)
                loss = tf.reduce_sum(y * y)
            g = tf.convert_to_tensor(tape.gradient(loss, table))
            out["lookup_%s_%s" % (combiner, wname)] = [y.numpy().tolist(), g.numpy().tolist()]
        for wname, w in (("unweighted", None), ("weighted", weights)):
            for default_id in (None, 2):
                with tf.GradientTape() as tape:
                    y = tf.nn.safe_embedding_lookup_sparse(table, ids, w, combiner=combiner,
                                                           default_id=default_id)
                    loss = tf.reduce_sum(y * y)
                g = tf.convert_to_tensor(tape.gradient(loss, table))
                out["safe_%s_%s_%s" % (combiner, wname, default_id)] = [
                    y.numpy().tolist(), g.numpy().tolist()]
    out["safe_rank3"] = tf.nn.safe_embedding_lookup_sparse(table, ids3).numpy().tolist()
    out["safe_v1_mod"] = tf.compat.v1.nn.safe_embedding_lookup_sparse(
        [table[:3], table[3:]], ids, partition_strategy="mod").numpy().tolist()
    filled, empty = tf.sparse.fill_empty_rows(ids, tf.constant(-7, tf.int64))
    out["fill"] = [filled.indices.numpy().tolist(), filled.values.numpy().tolist(),
                   empty.numpy().tolist()]
    vals = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0], tf.float64)
    default = tf.constant(0.5, tf.float64)
    with tf.GradientTape() as tape:
        tape.watch([vals, default])
        f, _ = tf.sparse.fill_empty_rows(tf.SparseTensor(ids.indices, vals, ids.dense_shape),
                                         default)
        loss = tf.reduce_sum(f.values * tf.range(1.0, 8.0, dtype=tf.float64))
    gv, gd = tape.gradient(loss, [vals, default])
    out["fill_grad"] = [gv.numpy().tolist(), float(gd.numpy())]
    return out


def main() -> None:
    """Writes the record."""
    import tensorflow as tf
    path = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "sparse",
                        "embedding_sparse_tf_2_21.json")
    with open(path, "w") as f:
        json.dump(program(tf), f)


if __name__ == "__main__":
    main()
