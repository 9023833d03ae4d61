"""``tf.experimental.DynamicRaggedShape``: ``tf.shape`` of RaggedTensors, ``from_tensor``,
``from_lengths``, ``static_lengths``, ``is_uniform``, indexing, dtypes, reprs, and the ops
that take one (``tf.reshape``, ``tf.broadcast_to``, ``tf.zeros``/``tf.ones``,
``tf.broadcast_dynamic_shape``) with the error classes.

``program(tf)`` runs with ``tf`` either TensorFlow or flowgrad (TF2 face, eager). Record
with TensorFlow 2.21::

    /work/venv-tf/bin/python tools/tf_reference/dynamic_ragged_shape_reference.py \\
        > tests/data/ragged_shape/tf_2_21.json

tests/test_dynamic_ragged_shape.py runs the same program on flowgrad and compares.
"""
import json


def _value(x):
    if hasattr(x, "to_list"):
        return {"ragged": x.to_list(), "dtype": x.dtype.name}
    return {"dense": x.numpy().tolist(), "dtype": x.dtype.name}


def _shape(s):
    return {"repr": repr(s), "rank": s.rank, "num_row_partitions": s.num_row_partitions,
            "inner_shape": s.inner_shape.numpy().tolist(), "dtype": s.dtype.name,
            "static_lengths": json.loads(json.dumps(s.static_lengths())),
            "uniform_lengths": s.static_lengths(ragged_lengths=False),
            "is_uniform": [s.is_uniform(i) for i in range(s.rank)]}


def program(tf):
    """Each case's plain result (or error class)."""
    D = tf.experimental.DynamicRaggedShape
    rt = tf.ragged.constant([[1, 2, 3], [4], [5, 6]])
    rt3 = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
    lengths = D.from_lengths([3, (2, 0, 1), 2])
    cases = {
        "shape_of_ragged": lambda: _shape(tf.shape(rt)),
        "shape_of_ragged_int64": lambda: _shape(tf.shape(rt, out_type=tf.int64)),
        "shape_of_ragged_rank1_3d": lambda: _shape(tf.shape(rt3)),
        "from_tensor_dense": lambda: _shape(D.from_tensor(tf.zeros([2, 3]))),
        "from_tensor_ragged": lambda: _shape(D.from_tensor(rt)),
        "from_lengths": lambda: _shape(lengths),
        "from_lengths_int32": lambda: _shape(D.from_lengths([2, (1, 3)], dtype=tf.int32)),
        "with_dtype": lambda: _shape(D.from_lengths([2, (1, 3)]).with_dtype(tf.int32)),
        "prefix": lambda: _shape(tf.shape(rt)[:1]),
        "dimension_0": lambda: _value(tf.shape(rt)[0]),
        "dimension_inner": lambda: _value(tf.shape(rt3)[2]),
        "row_splits": lambda: _value(lengths.row_partitions[0].row_splits()),
        "broadcast_to_column": lambda: _value(tf.broadcast_to(
            tf.constant([[10], [20], [30]]), D.from_lengths([3, (2, 0, 1)]))),
        "broadcast_to_scalar": lambda: _value(tf.broadcast_to(5, tf.shape(rt3))),
        "broadcast_to_row": lambda: _value(tf.broadcast_to(tf.constant([1, 2]),
                                                           tf.shape(rt3))),
        "broadcast_to_same_ragged": lambda: _value(tf.broadcast_to(
            rt, tf.shape(rt, out_type=tf.int64))),
        "error_broadcast_to_splits_dtype": lambda: tf.broadcast_to(rt, tf.shape(rt)),
        "prefix_rank2_int32": lambda: _shape(D.from_lengths([2, (1, 3), 2],
                                                            dtype=tf.int32)[:2]),
        "prefix_dense_int32": lambda: _shape(D.from_lengths([2, 3], dtype=tf.int32)[:1]),
        "broadcast_dynamic_shape_one": lambda: _shape(tf.broadcast_dynamic_shape(
            tf.shape(rt), D.from_lengths([1], dtype=tf.int32))),
        "broadcast_dynamic_shape_inner": lambda: _shape(tf.broadcast_dynamic_shape(
            tf.shape(rt3, out_type=tf.int64), D.from_lengths([2]))),
        "reshape_to_ragged": lambda: _value(tf.reshape(tf.range(6),
                                                       D.from_lengths([3, (2, 1, 3)]))),
        "reshape_ragged_to_dense": lambda: _value(tf.reshape(rt, D.from_lengths([6]))),
        "zeros": lambda: _value(tf.zeros(D.from_lengths([2, (1, 3)]))),
        "ones_inner": lambda: _value(tf.ones(lengths)),
        "error_lengths": lambda: D.from_lengths([2, (1, 3, 4)]),
        "error_broadcast": lambda: tf.broadcast_dynamic_shape(
            tf.shape(rt), D.from_lengths([4], dtype=tf.int32)),
        "error_ragged_dimension": lambda: tf.shape(rt)[1],
    }
    out = {}
    for key, fn in cases.items():
        try:
            out[key] = fn()
        except Exception as e:  # noqa: BLE001 - the recorded error
            out[key] = {"error": type(e).__name__}
    return out


if __name__ == "__main__":
    import tensorflow as tf2

    print(json.dumps(program(tf2), sort_keys=True, indent=0))
