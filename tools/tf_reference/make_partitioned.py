"""Records TensorFlow 2.21's partitioned variables into tests/data/tf_partitioned/ (run with
the TensorFlow venv: /work/venv-tf/bin/python tools/tf_reference/make_partitioned.py):

- ``partitions.json``: what ``fixed_size_partitioner``, ``min_max_variable_partitioner`` and
  ``variable_axis_size_partitioner`` return for a few shapes and dtypes, and the names and
  shapes of the parts ``get_variable`` makes;
- ``model.ckpt-*`` + ``checkpoint``: a TF1 ``Saver`` checkpoint of partitioned variables
  (``emb`` [7, 3] in 3 parts, ``cols`` [2, 5] in 2 parts along axis 1);
- ``values.npz``: their values, and ``embedding_lookup`` over ``emb`` with the ``mod`` and
  ``div`` partition strategies.
"""
import json
import os
import shutil

import numpy as np
import tensorflow as tf

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "tf_partitioned")
v1 = tf.compat.v1


def partitions():
    cases = []
    for kind, args in (("fixed_size_partitioner", {"num_shards": 3}),
                       ("fixed_size_partitioner", {"num_shards": 4, "axis": 1}),
                       ("fixed_size_partitioner", {"num_shards": 10}),
                       ("min_max_variable_partitioner", {"max_partitions": 5,
                                                         "min_slice_size": 2000}),
                       ("min_max_variable_partitioner", {"max_partitions": 3}),
                       ("min_max_variable_partitioner", {"max_partitions": 8, "axis": 1,
                                                         "min_slice_size": 64}),
                       ("variable_axis_size_partitioner", {"max_shard_bytes": 100}),
                       ("variable_axis_size_partitioner", {"max_shard_bytes": 1000,
                                                           "max_shards": 2}),
                       ("variable_axis_size_partitioner", {"max_shard_bytes": 40, "axis": 1})):
        for shape, dtype in (([7, 3], "float32"), ([4, 600], "float32"), ([6, 8], "float64"),
                             ([9, 4], "string")):
            part = getattr(v1, kind)(**args)(shape=tf.TensorShape(shape),
                                            dtype=tf.as_dtype(dtype))
            with tf.Graph().as_default():
                init = v1.zeros_initializer() if dtype != "string" else None
                pv = v1.get_variable("v", shape=shape, dtype=tf.as_dtype(dtype), initializer=init,
                                     partitioner=getattr(v1, kind)(**args))
                parts = [(v.op.name, v.shape.as_list(),
                          v._get_save_slice_info().spec) for v in pv]
            cases.append({"partitioner": kind, "args": args, "shape": shape, "dtype": dtype,
                          "partitions": list(part), "parts": parts})
    with open(os.path.join(OUT, "partitions.json"), "w") as f:
        json.dump(cases, f, indent=1)


def checkpoint():
    emb_val = np.arange(21, dtype=np.float32).reshape(7, 3) / 4
    cols_val = np.arange(10, dtype=np.float64).reshape(2, 5) - 3
    with tf.Graph().as_default():
        emb = v1.get_variable("emb", initializer=tf.constant(emb_val),
                              partitioner=v1.fixed_size_partitioner(3))
        cols = v1.get_variable("scope/cols", initializer=tf.constant(cols_val),
                               partitioner=v1.fixed_size_partitioner(2, axis=1))
        ids = tf.constant([0, 3, 6, 2, 5, 1])
        mod = v1.nn.embedding_lookup(emb, ids)           # TF1: partition_strategy="mod"
        div = tf.nn.embedding_lookup(emb, ids)           # TF2: "div"
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            v1.train.Saver(save_relative_paths=True).save(
                sess, os.path.join(OUT, "model.ckpt"), global_step=3,
                write_meta_graph=False)
            np.savez(os.path.join(OUT, "values.npz"), emb=emb_val, cols=cols_val, ids=[0, 3, 6,
                     2, 5, 1], mod=sess.run(mod), div=sess.run(div),
                     parts=np.array([v.op.name for v in list(emb) + list(cols)]))


if __name__ == "__main__":
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    partitions()
    checkpoint()
