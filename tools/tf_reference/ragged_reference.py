"""Records RaggedTensor methods, tf.ragged functions and TensorFlow's ragged dispatch of
tf.math ops and reductions on TensorFlow 2.21: every expression of CASES is evaluated and its
kind (RaggedTensor, Tensor or Python value), dtype and value (``to_list()``) -- or its error
class -- saved to tests/data/ragged/reference.json, which tests/test_ragged_ops.py replays.

Run with the TensorFlow venv:
``/work/venv-tf/bin/python tools/tf_reference/ragged_reference.py``.
"""
from __future__ import annotations

import json
import pathlib

import numpy as np

SETUP = """
rt = tf.ragged.constant([[1.0, 2.0, 3.0], [], [4.0, 5.0], [6.0]])
ri = tf.ragged.constant([[3, 1], [4], [], [1, 5, 9]], dtype=tf.int64)
r3 = tf.ragged.constant([[[1, 2], [3]], [], [[4, 5, 6], [], [7]]])
ru = tf.ragged.constant([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0]]], ragged_rank=1)
"""

CASES = [
    # methods
    "rt.value_rowids()", "r3.value_rowids()", "rt.row_starts()", "rt.row_limits()",
    "r3.nested_row_lengths()", "r3.nested_value_rowids()", "rt.bounding_shape()",
    "r3.bounding_shape()", "ru.bounding_shape()", "rt.bounding_shape(axis=1)",
    "rt.merge_dims(0, 1)", "r3.merge_dims(1, 2)", "r3.merge_dims(0, 1)", "r3.merge_dims(0, -1)",
    "ru.merge_dims(1, 2)", "rt.to_sparse().indices", "rt.to_sparse().values",
    "rt.to_sparse().dense_shape", "r3.to_sparse().indices", "ru.to_sparse().indices",
    "rt.uniform_row_length", "rt.with_row_splits_dtype(tf.int32).row_splits",
    "r3.with_row_splits_dtype(tf.int32).values.row_splits", "rt.get_shape()", "r3.shape",
    "rt.to_tensor()", "rt.to_tensor(default_value=-1.0)", "rt.to_tensor(shape=[2, 2])",
    "rt.to_tensor(shape=[5, 4])", "r3.to_tensor()", "rt.nrows()", "rt.row_lengths()",
    "tf.RaggedTensor.from_nested_row_lengths([1, 2, 3, 4, 5], [[2, 0, 1], [1, 3, 1]])",
    "tf.RaggedTensor.from_nested_value_rowids([1, 2, 3, 4, 5], [[0, 0, 2], [0, 1, 1, 1, 2]])",
    "tf.RaggedTensor.from_nested_value_rowids([1, 2, 3], [[0, 2]], nested_nrows=[4])",
    "tf.RaggedTensor.from_row_lengths([1, 2, 3], [2, 0, 1]).row_splits",
    "tf.RaggedTensor.from_value_rowids([1, 2, 3], [0, 0, 3], nrows=5)",
    "tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 2, 1])",
    # tf.ragged
    "tf.ragged.range([3, 5, 2])", "tf.ragged.range([0, 5, 8], [3, 3, 12])",
    "tf.ragged.range(0, [3, 5], 2)", "tf.ragged.range([0.0, 1.0], [1.0, 2.5], 0.5)",
    "tf.ragged.range([5, 0], [0, 3], [-2, 1])",
    "tf.ragged.range([1, 2], row_splits_dtype=tf.int32).row_splits",
    "tf.ragged.row_splits_to_segment_ids([0, 2, 2, 5])",
    "tf.ragged.segment_ids_to_row_splits([0, 0, 2, 2, 2])",
    "tf.ragged.segment_ids_to_row_splits([0, 1], num_segments=4)",
    "tf.ragged.stack([rt, tf.ragged.constant([[7.0], [8.0, 9.0]])])",
    "tf.ragged.stack([tf.constant([[1, 2], [3, 4]]), tf.ragged.constant([[5], [6, 7, 8]])])",
    "tf.ragged.stack([tf.constant([1, 2]), tf.constant([3, 4, 5])])",
    "tf.ragged.stack([rt, tf.ragged.constant([[7.0], [], [8.0], [9.0, 9.5]])], axis=1)",
    "tf.ragged.boolean_mask(tf.constant([[1, 2, 3], [4, 5, 6]]), "
    "tf.constant([[True, False, True], [False, False, True]]))",
    "tf.ragged.boolean_mask(rt, tf.ragged.constant([[True, False, True], [], [False, True], "
    "[True]]))",
    "tf.ragged.boolean_mask(rt, tf.constant([True, False, False, True]))",
    "tf.ragged.stack_dynamic_partitions(tf.constant([10, 20, 30, 40, 50]), "
    "tf.constant([1, 0, 1, 2, 1]), 3)",
    "tf.concat([rt, rt], axis=0)", "tf.concat([rt, rt], axis=1)",
    # dispatch: element-wise
    "rt + 1.0", "rt * 2.0", "2.0 - rt", "rt / rt", "-rt", "abs(-rt)", "rt ** 2", "rt > 2.5",
    "rt + tf.constant([[10.0], [20.0], [30.0], [40.0]])", "ri // 2", "ri % 2",
    "tf.math.exp(rt)", "tf.math.log(rt)", "tf.math.sqrt(rt)", "tf.square(rt)", "tf.abs(-rt)",
    "tf.math.sin(rt)", "tf.nn.relu(rt - 3.0)", "tf.math.sigmoid(rt)", "tf.cast(rt, tf.int32)",
    "tf.math.add(rt, rt)", "tf.math.multiply(rt, 3.0)", "tf.maximum(rt, 2.5)",
    "tf.math.equal(ri, 1)", "tf.where(rt > 2.5, rt, tf.zeros_like(rt))", "tf.ones_like(rt)",
    "tf.zeros_like(ri)", "tf.math.logical_not(rt > 2.0)", "tf.round(rt / 2.0)",
    "tf.strings.as_string(ri)", "tf.math.floor(ru * 0.5)", "tf.clip_by_value(rt, 2.0, 4.0)",
    # dispatch: reductions
    "tf.reduce_sum(rt)", "tf.reduce_sum(rt, axis=0)", "tf.reduce_sum(rt, axis=1)",
    "tf.reduce_sum(rt, axis=-1)", "tf.reduce_mean(rt, axis=1)", "tf.reduce_mean(rt, axis=0)",
    "tf.reduce_max(rt, axis=1)", "tf.reduce_min(rt, axis=1)", "tf.reduce_max(ri, axis=1)",
    "tf.reduce_prod(rt, axis=1)", "tf.reduce_any(rt > 4.0, axis=1)",
    "tf.reduce_all(rt > 0.5, axis=1)", "tf.reduce_sum(r3, axis=2)", "tf.reduce_sum(r3, axis=1)",
    "tf.reduce_max(r3, axis=2)", "tf.reduce_sum(ru, axis=2)", "tf.reduce_sum(ru, axis=1)",
    "tf.reduce_sum(rt, axis=1, keepdims=True)", "tf.reduce_mean(rt)", "tf.reduce_max(rt)",
    "tf.math.reduce_std(rt, axis=1)", "tf.math.reduce_variance(rt, axis=1)",
    "tf.reduce_sum(ri, axis=0)",
    "tf.argmax(rt.to_tensor(default_value=-1.0), axis=1)",
]


def _plain(x):
    arr = np.asarray(x)
    if arr.dtype.kind in "SO":
        return [v.decode() if isinstance(v, bytes) else v for v in arr.ravel().tolist()]
    return arr.tolist()


def _record(value):
    if isinstance(value, (list, tuple)):
        return {"seq": [_record(v) for v in value]}
    if type(value).__name__ == "RaggedTensor":
        flat = value.flat_values
        out = value.to_list()
        if flat.dtype.name == "string":
            out = json.loads(json.dumps(out, default=lambda b: b.decode()))
        return {"kind": "ragged", "dtype": flat.dtype.name, "ragged_rank": value.ragged_rank,
                "splits_dtype": value.row_splits.dtype.name, "value": out}
    if hasattr(value, "as_list"):
        return {"kind": "shape", "value": value.as_list()}
    if hasattr(value, "numpy"):
        return {"kind": "tensor", "dtype": value.dtype.name, "shape": value.shape.as_list(),
                "value": _plain(value.numpy())}
    return {"kind": "python", "value": value}


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
    path = pathlib.Path(__file__).resolve().parents[2] / "tests/data/ragged/reference.json"
    path.write_text(json.dumps({"setup": SETUP, "cases": out}, indent=0, sort_keys=True) + "\n")
    print("wrote", path, len(out))


if __name__ == "__main__":
    main()
