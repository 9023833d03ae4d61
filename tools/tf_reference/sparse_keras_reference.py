"""Records what TensorFlow 2.21 gives for the SparseTensor operations Keras's TensorFlow
backend uses (tests/test_sparse_keras.py):

    /work/venv-tf/bin/python tools/tf_reference/sparse_keras_reference.py

writes ``tests/data/sparse/keras_ops_tensorflow_2.21.json``: ``tf.sparse.reshape`` (with a
-1), SparseTensor ``/`` and ``*`` by dense tensors (broadcast), ``tf.shape`` and ``tf.cast``
of a SparseTensor, ``tf.sparse.map_values``, ``tf.is_tensor`` of composite tensors and the
error of a reshape to a shape of another size."""
from __future__ import annotations

import json
from pathlib import Path

import tensorflow as tf

OUT = (Path(__file__).resolve().parents[2] / "tests" / "data" / "sparse"
       / "keras_ops_tensorflow_2.21.json")


def main() -> None:
    """Computes every case and writes OUT."""
    s = tf.sparse.reorder(tf.SparseTensor([[0, 1, 0], [1, 2, 1], [1, 0, 0]], [2.0, 4.0, -1.0],
                                          [2, 3, 2]))
    rec = {}
    for key, shape in (("reshape_3_m1", [3, -1]), ("reshape_m1_2_1", [-1, 2, 1])):
        r = tf.sparse.reshape(s, shape)
        rec[key] = {"indices": r.indices.numpy().tolist(),
                    "dense_shape": r.dense_shape.numpy().tolist()}
    rec["div_scalar"] = (s / 2.0).values.numpy().tolist()
    rec["mul_broadcast"] = (s * tf.constant([[[1.0]], [[10.0]]])).values.numpy().tolist()
    rec["shape"] = tf.shape(s).numpy().tolist()
    rec["shape_int64_dtype"] = tf.shape(s, out_type=tf.int64).dtype.name
    rec["cast_int32"] = tf.cast(s, tf.int32).values.numpy().tolist()
    rec["map_values_mul_3"] = tf.sparse.map_values(tf.math.multiply, s, 3.0).values.numpy().tolist()
    rec["is_tensor"] = [tf.is_tensor(s), tf.is_tensor(tf.ragged.constant([[1]])),
                        tf.is_tensor(tf.IndexedSlices(tf.zeros([1, 2]), tf.constant([0])))]
    try:
        tf.sparse.reshape(s, [5, -1])
    except tf.errors.InvalidArgumentError as e:
        rec["reshape_error"] = [type(e).__name__,
                              e.message.split("}} ")[-1].split(". input_shape")[0]]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(rec, indent=1) + "\n")


if __name__ == "__main__":
    main()
