"""Records what TensorFlow 2.21 gives for ops the corpus of real programs
(tools/program_corpus.py) stopped at on flowgrad: tf.sparse.slice (values, indices, dense
shape, the values' gradient), tf.sparse.reduce_max (implicit zeros ignored; empty slices),
tf.sparse.map_values, tf.tensor_scatter_nd_sub (repeated indices),
MirroredStrategy(list_logical_devices('GPU')) without GPUs, TensorShape.dims (Dimensions
in TF2 too), Variable slice assignment (v[0, 0].assign(10)), and
Iterator.get_next_as_optional (eager and in a tf.function).

Run from the repository root:
    /work/venv-tf/bin/python tools/tf_reference/program_ops_reference.py
It writes tests/data/programs/program_ops.json."""
import json
import os

import tensorflow as tf

SP = dict(indices=[[0, 0], [0, 3], [1, 1], [2, 0], [2, 2], [3, 3]],
          values=[1.0, -2.0, 3.0, -4.0, 5.0, 6.0], dense_shape=[4, 4])
SLICES = [([0, 0], [2, 4]), ([1, 1], [3, 3]), ([2, 0], [5, 5]), ([3, 0], [1, 1]),
          ([0, 1], [1, 2])]
MAX_AXES = [None, 0, 1, -1, [0, 1]]


def st():
    return tf.sparse.SparseTensor(**SP)


def sparse_slice():
    out = []
    for start, size in SLICES:
        values = tf.constant(SP["values"], tf.float64)
        with tf.GradientTape() as tape:
            tape.watch(values)
            s = tf.sparse.slice(tf.sparse.SparseTensor(SP["indices"], values,
                                                       SP["dense_shape"]), start, size)
            loss = tf.reduce_sum(s.values ** 2 * tf.range(1.0, tf.cast(tf.size(s.values),
                                                                       tf.float64) + 1))
        out.append({"start": start, "size": size, "indices": s.indices.numpy().tolist(),
                    "values": s.values.numpy().tolist(),
                    "dense_shape": s.dense_shape.numpy().tolist(),
                    "grad": tape.gradient(loss, values).numpy().tolist()})
    return out


def reduce_max():
    out = []
    for axis in MAX_AXES:
        for keepdims in (False, True):
            r = tf.sparse.reduce_max(st(), axis=axis, keepdims=keepdims)
            out.append({"axis": axis, "keepdims": keepdims, "value": r.numpy().tolist()})
    empty_row = tf.sparse.SparseTensor([[0, 1]], [-3.0], [2, 2])
    out.append({"axis": 1, "keepdims": False, "sparse": "empty_row",
                "value": tf.sparse.reduce_max(empty_row, axis=1).numpy().tolist()})
    rs = tf.sparse.reduce_max(st(), axis=1, output_is_sparse=True)
    sparse_out = {"indices": rs.indices.numpy().tolist(), "values": rs.values.numpy().tolist(),
                  "dense_shape": rs.dense_shape.numpy().tolist()}
    return {"cases": out, "output_is_sparse_axis1": sparse_out}


def map_values():
    m = tf.sparse.map_values(tf.multiply, st(), 2.0)
    a = tf.sparse.map_values(tf.add, st(), st())
    return {"mul": m.values.numpy().tolist(), "add": a.values.numpy().tolist()}


def scatter_sub():
    r = tf.tensor_scatter_nd_sub(tf.constant([1.0, 2.0, 3.0, 4.0]), [[1], [1], [3]],
                                 [1.0, 2.0, 3.0])
    r2 = tf.tensor_scatter_nd_sub(tf.ones([2, 3], tf.int32), [[1]], [[5, 6, 7]])
    return {"vector": r.numpy().tolist(), "rows": r2.numpy().tolist()}


def sliced_assign():
    a = tf.Variable(tf.ones([2, 3]))
    a[0, 0].assign(10)
    a[1, ::2].assign([7.0, 8.0])
    try:
        a[1].assign([1.0, 2.0])
        err = None
    except (ValueError, tf.errors.InvalidArgumentError) as e:
        err = [type(e).__name__, str(e).split("\n")[0]]
    return {"value": a.numpy().tolist(), "mismatch": err}


def optional():
    ds = tf.data.Dataset.range(3).map(lambda x: (x, tf.cast(x, tf.float32) * 2))
    it = iter(ds)
    got = []
    for _ in range(4):
        o = it.get_next_as_optional()
        got.append([bool(o.has_value())] + ([[int(o.get_value()[0]), float(o.get_value()[1])]]
                                             if o.has_value() else []))
    it2 = iter(tf.data.Dataset.range(3))

    @tf.function
    def total(iterator):
        s = tf.constant(0, tf.int64)
        for _ in tf.range(5):
            o = iterator.get_next_as_optional()
            if not o.has_value():
                break
            s += o.get_value()
        return s
    o = tf.data.experimental.get_next_as_optional(iter(tf.data.Dataset.range(1)))
    spec = str(o.element_spec)
    try:
        iter(tf.data.Dataset.range(0)).get_next_as_optional().get_value()
        err = None
    except Exception as e:  # noqa: BLE001 - recorded
        err = [type(e).__name__, str(e).split("\n")[0]]
    return {"eager": got, "function_total": int(total(it2)), "experimental_spec": spec,
            "empty_get_value_error": err}


if __name__ == "__main__":
    out = {"sparse": SP, "slice": sparse_slice(), "reduce_max": reduce_max(),
           "map_values": map_values(),
           "mirrored_empty_replicas": tf.distribute.MirroredStrategy(
               tf.config.list_logical_devices("GPU")).num_replicas_in_sync,
           "scatter_sub": scatter_sub(), "optional": optional(),
           "sliced_assign": sliced_assign(),
           "shape_dims": {"dims": repr(tf.TensorShape([2, None]).dims),
                          "iter": repr(list(tf.TensorShape([2, None]))),
                          "compatible": [tf.TensorShape([2, None]).dims[i].is_compatible_with(16)
                                         for i in (0, 1)]},
           "version": tf.__version__}
    path = os.path.join("tests", "data", "programs", "program_ops.json")
    with open(path, "w") as f:
        json.dump(out, f)
    print("wrote", path)
