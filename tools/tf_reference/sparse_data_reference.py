"""Records how TensorFlow 2.21's tf.data carries SparseTensor and RaggedTensor elements.

Run with the TensorFlow venv from the repository root:

    /work/venv-tf/bin/python tools/tf_reference/sparse_data_reference.py

It writes tests/data/sparse/data_reference.json: for each pipeline of ``CASES`` (built from
whichever ``tf`` module is passed in, so tests/test_sparse_data.py runs the very same
pipelines on flowgrad), the element_spec and every element, eagerly and through a TF1
one-shot iterator in a Session."""
import json
import os
import sys


def _slices(tf):
    return tf.data.Dataset.from_tensor_slices([[1, 2, 0], [3, 0, 0], [4, 5, 6], [0, 0, 7]])


def _sparse(tf):
    return _slices(tf).map(lambda x: tf.sparse.from_dense(tf.reshape(x, [1, 3])))


def _masked(tf):
    return _slices(tf).map(lambda x: tf.boolean_mask(x, x > 0))


def _ragged(tf):
    return _masked(tf).map(
        lambda x: tf.RaggedTensor.from_row_lengths(x, tf.reshape(tf.size(x, out_type=tf.int64),
                                                                 [1])))


def _var_len(tf):
    # a VarLenFeature-like vector SparseTensor whose length varies by element
    return _masked(tf).map(lambda x: (tf.sparse.from_dense(x), tf.reduce_sum(x)))


CASES = {
    "sparse_elements": _sparse,
    "sparse_batch": lambda tf: _sparse(tf).batch(3),
    "sparse_batch_varying_shape": lambda tf: _var_len(tf).batch(2),
    "sparse_batch_drop": lambda tf: _var_len(tf).batch(3, drop_remainder=True),
    "sparse_map_to_dense": lambda tf: _sparse(tf).map(lambda s: tf.sparse.to_dense(s) * 2),
    "ragged_elements": _ragged,
    "ragged_batch_of_ragged": lambda tf: _ragged(tf).batch(3),
    "ragged_batch": lambda tf: _masked(tf).ragged_batch(3),
    "ragged_batch_int32_splits": lambda tf: _masked(tf).ragged_batch(
        2, row_splits_dtype=tf.int32),
    "ragged_batch_scalars_and_matrices": lambda tf: tf.data.Dataset.range(4).map(
        lambda x: (x, tf.fill(tf.stack([tf.cast(x, tf.int32), 2]), x))).ragged_batch(3),
    "dense_to_ragged_batch": lambda tf: _masked(tf).apply(
        tf.data.experimental.dense_to_ragged_batch(2, drop_remainder=True)),
    "ragged_map_flat_values": lambda tf: _masked(tf).ragged_batch(2).map(
        lambda r: tf.ragged.map_flat_values(lambda v: v * 10, r)),
}


def encode(value):
    """An element (or spec) as JSON: composites by their components."""
    if isinstance(value, dict):
        return {k: encode(v) for k, v in sorted(value.items())}
    if isinstance(value, tuple):
        return [encode(v) for v in value]
    if hasattr(value, "dense_shape"):
        return {"sparse": [_arr(value.indices), _arr(value.values), _arr(value.dense_shape)],
                "dtype": value.dtype.name}
    if hasattr(value, "nested_row_splits"):
        return {"ragged": [_arr(value.flat_values)] + [_arr(s)
                                                       for s in value.nested_row_splits],
                "splits_dtype": value.row_splits.dtype.name, "dtype": value.dtype.name}
    return {"dense": _arr(value), "dtype": value.dtype.name}


def _arr(x):
    import numpy as np
    return np.asarray(x).tolist()


def spec_text(spec):
    """A spec as comparable text: class, shape, dtype (and ragged_rank, splits dtype)."""
    if isinstance(spec, dict):
        return {k: spec_text(v) for k, v in sorted(spec.items())}
    if isinstance(spec, tuple):
        return [spec_text(s) for s in spec]
    out = [type(spec).__name__, spec.shape.as_list() if spec.shape.rank is not None else None,
           spec.dtype.name]
    if hasattr(spec, "ragged_rank"):
        out += [spec.ragged_rank, spec.row_splits_dtype.name]
    return out


def record(tf):
    out = {}
    for name, build in CASES.items():
        ds = build(tf)
        eager = [encode(e) for e in ds]
        with tf.Graph().as_default():
            it = tf.compat.v1.data.make_one_shot_iterator(build(tf))
            nxt = it.get_next()
            graph = []
            with tf.compat.v1.Session() as sess:
                while True:
                    try:
                        graph.append(sess.run(nxt))
                    except tf.errors.OutOfRangeError:
                        break
        out[name] = {"element_spec": spec_text(ds.element_spec), "eager": eager,
                     "graph": [encode_fetched(g) for g in graph]}
    return out


def encode_fetched(value):
    """A Session fetch (SparseTensorValue, RaggedTensorValue, ndarray) as JSON."""
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return [encode_fetched(v) for v in value]
    if hasattr(value, "dense_shape"):
        return {"sparse": [_arr(value.indices), _arr(value.values), _arr(value.dense_shape)]}
    if hasattr(value, "nested_row_splits"):
        return {"ragged": [_arr(value.flat_values)] + [_arr(s)
                                                       for s in value.nested_row_splits]}
    return {"dense": _arr(value)}


if __name__ == "__main__":
    import tensorflow as tf
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "..", "tests", "data", "sparse", "data_reference.json")
    data = {"tensorflow": tf.__version__, "cases": record(tf)}
    with open(path, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
    print("wrote", os.path.normpath(path), file=sys.stderr)
