"""Records tf.sparse.sparse_dense_matmul values and gradients from TensorFlow 2.21.

Run from the repository root: /work/venv-tf/bin/python tools/tf_reference/sparse_ops_reference.py
It writes tests/data/sparse/ops_reference.json (the cases of ``CASES``, each the product and
the gradients of sum(product * weights) w.r.t. the sparse values and the dense matrix)."""
import json
import os

import numpy as np

INDICES = [[0, 1], [1, 0], [2, 1], [2, 2]]
VALUES = [1.5, -2.0, 0.5, 3.0]
SHAPE = [3, 3]
CASES = {"plain": (False, False), "adjoint_a": (True, False), "adjoint_b": (False, True),
         "both": (True, True)}

REDUCE_CASES = [(None, False), (1, False), (-2, True), ([0, 1], True), (0, None)]


def dense_b(adjoint_b):
    b = np.arange(6, dtype=np.float64).reshape(3, 2) / 4 - 0.5
    return b.T.copy() if adjoint_b else b


def weights():
    return np.arange(6, dtype=np.float64).reshape(3, 2) / 3 + 0.25


def record(tf):
    out = {}
    for name, (adj_a, adj_b) in CASES.items():
        values = tf.constant(VALUES, tf.float64)
        b = tf.constant(dense_b(adj_b))
        with tf.GradientTape() as tape:
            tape.watch([values, b])
            y = tf.sparse.sparse_dense_matmul(tf.SparseTensor(INDICES, values, SHAPE), b,
                                              adjoint_a=adj_a, adjoint_b=adj_b)
            s = tf.reduce_sum(y * weights())
        gv, gb = tape.gradient(s, [values, b])
        out[name] = {"product": y.numpy().tolist(), "grad_values": gv.numpy().tolist(),
                     "grad_b": gb.numpy().tolist()}
    values = tf.constant(VALUES, tf.float64)
    default = tf.constant(0.5, tf.float64)
    with tf.GradientTape() as tape:
        tape.watch([values, default])
        dense = tf.sparse.to_dense(tf.SparseTensor(INDICES, values, SHAPE), default)
        s = tf.reduce_sum(dense * np.arange(9.0).reshape(3, 3))
    gv, gd = tape.gradient(s, [values, default])
    for axis, keepdims in REDUCE_CASES:
        values = tf.constant(VALUES, tf.float64)
        with tf.GradientTape() as tape:
            tape.watch(values)
            y = tf.sparse.reduce_sum(tf.SparseTensor(INDICES, values, SHAPE), axis, keepdims)
            s = tf.reduce_sum(y * (np.arange(np.size(y.numpy())).reshape(y.shape) + 1.0))
        out["reduce_sum %s %s" % (axis, keepdims)] = {
            "sum": y.numpy().tolist(), "grad_values": tape.gradient(s, values).numpy().tolist()}
    unordered = [[2, 1], [0, 2], [1, 0], [0, 1]]
    for what in ("reorder", "transpose"):
        values = tf.constant(VALUES, tf.float64)
        with tf.GradientTape() as tape:
            tape.watch(values)
            sp = tf.SparseTensor(unordered, values, [3, 4])
            r = tf.sparse.reorder(sp) if what == "reorder" else tf.sparse.transpose(sp)
            s = tf.reduce_sum(r.values * np.arange(1.0, 5.0))
        out[what] = {"indices": r.indices.numpy().tolist(), "values": r.values.numpy().tolist(),
                     "dense_shape": r.dense_shape.numpy().tolist(),
                     "grad_values": tape.gradient(s, values).numpy().tolist()}
    for what, fn in [("expand_dims 0", lambda sp: tf.sparse.expand_dims(sp, 0)),
                     ("expand_dims -1", lambda sp: tf.sparse.expand_dims(sp, -1)),
                     ("expand_dims 1", lambda sp: tf.sparse.expand_dims(sp, 1)),
                     ("retain", lambda sp: tf.sparse.retain(sp, [True, False, True, True]))]:
        values = tf.constant(VALUES, tf.float64)
        with tf.GradientTape() as tape:
            tape.watch(values)
            r = fn(tf.SparseTensor(INDICES, values, SHAPE))
            s = tf.reduce_sum(r.values * np.arange(1.0, 1.0 + len(r.values.numpy())))
        out[what] = {"indices": r.indices.numpy().tolist(), "values": r.values.numpy().tolist(),
                     "dense_shape": r.dense_shape.numpy().tolist(),
                     "grad_values": tf.convert_to_tensor(tape.gradient(s, values))
                     .numpy().tolist()}
    a = tf.SparseTensor([[0, 1], [1, 0]], [1.0, 2.0], [2, 3])
    b = tf.SparseTensor([[0, 0], [1, 2]], [3.0, 4.0], [2, 3])
    wide = tf.SparseTensor([[2, 0]], [5.0], [3, 1])
    for what, c in [("concat 0", lambda: tf.sparse.concat(0, [a, b])),
                    ("concat 1", lambda: tf.sparse.concat(1, [a, b])),
                    ("concat -1", lambda: tf.sparse.concat(-1, [a, b, a])),
                    ("concat expand", lambda: tf.sparse.concat(1, [a, wide],
                                                               expand_nonconcat_dims=True))]:
        r = c()
        out[what] = {"indices": r.indices.numpy().tolist(), "values": r.values.numpy().tolist(),
                     "dense_shape": r.dense_shape.numpy().tolist()}
    out["to_dense"] = {"grad_values": gv.numpy().tolist(), "grad_default": float(gd.numpy())}
    return out


if __name__ == "__main__":
    import tensorflow as tf
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests",
                        "data", "sparse", "ops_reference.json")
    data = {"tensorflow": tf.__version__, "cases": record(tf)}
    with open(path, "w") as f:
        json.dump(data, f, indent=1)
