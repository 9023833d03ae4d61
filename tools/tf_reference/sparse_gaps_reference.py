"""Records tf.sparse.segment_sum/mean/sqrt_n, softmax, split, to_indicator, eye, reset_shape,
mask and sampled_addmm on TensorFlow 2.21 (values, dtypes and errors) to
tests/data/sparse_gaps/reference.json, which tests/test_sparse_gaps.py replays.

Run with the TensorFlow venv:
``/work/venv-tf/bin/python tools/tf_reference/sparse_gaps_reference.py``.
"""
from __future__ import annotations

import json
import pathlib

import numpy as np

SETUP = """
data = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]])
sp = tf.sparse.SparseTensor([[0, 0], [0, 2], [1, 1], [2, 0], [2, 1], [2, 3]],
                            [1.0, 2.0, 3.0, -1.0, 0.5, 4.0], [3, 4])
sp3 = tf.sparse.SparseTensor([[0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 0, 2]],
                             [1.0, 2.0, 3.0, 4.0], [2, 2, 3])
ids = tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0], [2, 0], [2, 1]], [1, 3, 0, 2, 3], [3, 2])
islices = tf.IndexedSlices(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
                           tf.constant([4, 0, 7]), tf.constant([10, 2]))
m1 = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
m2 = tf.constant([[1.0, 0.5, -1.0], [2.0, 1.0, 0.0]])
"""

CASES = [
    "tf.sparse.segment_sum(data, [0, 1, 3], [0, 0, 1])",
    "tf.sparse.segment_sum(data, [0, 1, 3], [0, 0, 2])",
    "tf.sparse.segment_sum(data, [0, 1, 3], [0, 0, 1], num_segments=4)",
    "tf.sparse.segment_mean(data, [0, 1, 3], [0, 0, 1])",
    "tf.sparse.segment_mean(data, [0, 1, 3], [0, 0, 2])",
    "tf.sparse.segment_sqrt_n(data, [0, 1, 2, 3], [0, 0, 0, 1])",
    "tf.sparse.segment_sqrt_n(data, [0, 1], [0, 1], num_segments=3)",
    "tf.sparse.segment_sum(tf.constant([1, 2, 3]), [2, 2, 0], [0, 1, 1])",
    "tf.sparse.segment_sum(data, [0, 9], [0, 1])",
    "tf.sparse.softmax(sp).values", "tf.sparse.softmax(sp).indices",
    "tf.sparse.softmax(sp3).values",
    "[s.indices for s in tf.sparse.split(sp_input=sp, num_split=2, axis=1)]",
    "[s.values for s in tf.sparse.split(sp_input=sp, num_split=2, axis=1)]",
    "[s.dense_shape for s in tf.sparse.split(sp_input=sp, num_split=2, axis=1)]",
    "[s.dense_shape for s in tf.sparse.split(sp_input=sp, num_split=2, axis=0)]",
    "[s.indices for s in tf.sparse.split(sp_input=sp, num_split=2, axis=0)]",
    "[tf.sparse.to_dense(s) for s in tf.sparse.split(sp_input=sp, num_split=3, axis=1)]",
    "tf.sparse.to_indicator(ids, 4)", "tf.sparse.to_indicator(ids, 5)",
    "tf.sparse.to_dense(tf.sparse.eye(3))", "tf.sparse.eye(2, 3, dtype=tf.int32).indices",
    "tf.sparse.eye(2, 3, dtype=tf.int32).values", "tf.sparse.eye(2, 3).dense_shape",
    "tf.sparse.reset_shape(sp).dense_shape", "tf.sparse.reset_shape(sp, [5, 6]).dense_shape",
    "tf.sparse.reset_shape(sp, [2, 6])",
    "tf.sparse.mask(islices, [0, 4]).indices", "tf.sparse.mask(islices, [0, 4]).values",
    "tf.sparse.mask(islices, [1]).indices",
    "tf.sparse.sampled_addmm([[0, 0], [1, 2], [2, 1]], [1.0, 2.0, 3.0], [3, 3], m1, m2)",
    "tf.sparse.sampled_addmm([[0, 0], [1, 2]], [1.0, 2.0], [3, 3], m1, m2, beta=0.5, "
    "alpha=2.0)",
]


def _plain(x):
    return np.asarray(x).tolist()


def _record(value):
    if isinstance(value, (list, tuple)):
        return {"seq": [_record(v) for v in value]}
    if hasattr(value, "numpy"):
        return {"dtype": value.dtype.name, "shape": value.shape.as_list(),
                "value": _plain(value.numpy())}
    return {"repr": repr(value)}


def main() -> None:
    import tensorflow as tf
    ns = {"tf": tf, "np": np}
    exec(SETUP, ns)  # noqa: S102 - our own set-up
    out = {}
    for expr in CASES:
        try:
            out[expr] = _record(eval(expr, ns))  # noqa: S307 - our own expressions
        except Exception as exc:  # noqa: BLE001 - the class is what is recorded
            out[expr] = {"error": type(exc).__name__}
    path = pathlib.Path(__file__).resolve().parents[2] / "tests/data/sparse_gaps/reference.json"
    path.write_text(json.dumps({"setup": SETUP, "cases": out}, indent=0, sort_keys=True) + "\n")
    print("wrote", path, len(out))


if __name__ == "__main__":
    main()
