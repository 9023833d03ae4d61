"""Records tf.sparse.bincount, tf.sparse.cross and tf.sparse.cross_hashed on TensorFlow
(``/path/to/tf-venv/bin/python tools/tf_reference/sparse_count_cross_reference.py``) into
tests/data/sparse/count_cross_tf_2_21.json; tests/test_sparse_count_cross.py runs the same
``program`` with flowgrad as ``tf`` and compares."""
import json
import os

import numpy as np


def program(tf) -> dict:
    """The cases, run with the module ``tf``: {case: [indices, values, dtype, dense_shape]}."""
    def show(s):
        return [s.indices.numpy().tolist(),
                [v.decode() if isinstance(v, bytes) else v for v in s.values.numpy().tolist()],
                s.values.dtype.name, s.dense_shape.numpy().tolist()]
    out = {}
    d = np.array([[10, 2, 3, 2], [1, 0, 1, 7]])
    out["b_rows"] = show(tf.sparse.bincount(d, axis=-1))
    out["b_all_max"] = show(tf.sparse.bincount(d.astype(np.int32), axis=0, maxlength=5))
    out["b_binary"] = show(tf.sparse.bincount(d, axis=-1, minlength=4, maxlength=4,
                                              binary_output=True))
    out["b_weights"] = show(tf.sparse.bincount(d, weights=d * 0.5, axis=-1, minlength=12))
    out["b_ragged"] = show(tf.sparse.bincount(tf.ragged.constant([[1, 1, 3], [], [2]]),
                                              axis=-1))
    sp = tf.sparse.from_dense(np.array([[0, 2, 2], [3, 0, 0]]))
    out["b_sparse_rows"] = show(tf.sparse.bincount(sp, axis=-1))
    out["b_sparse_all"] = show(tf.sparse.bincount(sp, axis=0))
    s1 = tf.sparse.from_dense(tf.constant([["a", ""], ["b", "c"]]))
    s2 = tf.SparseTensor([[0, 0], [1, 0], [1, 1]], tf.constant([5, 6, 7], tf.int64), [2, 3])
    dn = tf.constant([["x"], ["y"]])
    out["c_str"] = show(tf.sparse.cross([s1, s2, dn]))
    out["c_sep"] = show(tf.sparse.cross([s1, dn], separator="+"))
    out["h_default"] = show(tf.sparse.cross_hashed([s1, s2, dn]))
    out["h_buckets"] = show(tf.sparse.cross_hashed([s1, dn], num_buckets=10))
    out["h_key"] = show(tf.sparse.cross_hashed(
        [tf.constant([[1, 2], [3, 4]]), tf.constant([["a"], ["b"]])], num_buckets=1000,
        hash_key=123))
    st = tf.SparseTensor([[0, 0, 1], [0, 2, 1], [1, 1, 0], [1, 1, 2], [3, 0, 0]],
                         tf.constant([1.5, -2.0, 4.0, 0.5, 3.0]), [4, 3, 3])
    out["r_sum_sparse"] = show(tf.sparse.reduce_sum(st, axis=1, output_is_sparse=True))
    out["r_sum_sparse_keep"] = show(tf.sparse.reduce_sum(st, axis=[0, 2], keepdims=True,
                                                         output_is_sparse=True))
    out["r_max_sparse"] = show(tf.sparse.reduce_max(st, axis=-1, output_is_sparse=True))
    out["math_bincount_float"] = tf.math.bincount(tf.constant([1.7, 2.2, 1.0, 0.5]),
                                                  minlength=4).numpy().tolist()
    out["math_bincount_rows"] = tf.math.bincount(tf.constant([[1.0, 3.0], [2.0, 2.0]]),
                                                 axis=-1).numpy().tolist()
    errors = {}
    for name, fn in [("math_weights_and_binary", lambda: tf.math.bincount(
                         d, weights=d, binary_output=True)),
                     ("negative", lambda: tf.sparse.bincount(np.array([-1, 2]), axis=-1)),
                     ("weights_and_binary", lambda: tf.sparse.bincount(
                         d, weights=d, binary_output=True)),
                     ("axis", lambda: tf.sparse.bincount(d, axis=1)),
                     ("not_a_list", lambda: tf.sparse.cross(dn))]:
        try:
            fn()
            errors[name] = None
        except Exception as e:  # noqa: BLE001 - the class is the record
            errors[name] = type(e).__name__
    out["errors"] = errors
    return out


def main() -> None:
    """Writes the record."""
    import tensorflow as tf
    path = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "sparse",
                        "count_cross_tf_2_21.json")
    with open(path, "w") as f:
        json.dump(program(tf), f, indent=1)


if __name__ == "__main__":
    main()
