"""Records tf.feature_column outputs from TensorFlow 2.21: the dense tensor
``tf.compat.v1.feature_column.input_layer`` makes of each column (numeric, bucketized,
indicator of vocabulary-list / vocabulary-file / identity / hash-bucket / crossed / weighted
columns, embedding with each combiner), the column names and widths, and
``make_parse_example_spec``.

Run from the repository root:
/work/venv-tf/bin/python tools/tf_reference/feature_column_reference.py
It writes tests/data/api_names/feature_column.json. ``record(tf, tmpdir)`` runs unchanged on
flowgrad (tests/test_feature_column.py)."""
import json
import os

import numpy as np

VOCAB_FILE = "red\ngreen\nblue\n"
EMBEDDING = (np.arange(24, dtype=np.float32).reshape(6, 4) / 8 - 1).tolist()


def features(tf):
    """One batch of raw features: dense and sparse, strings and integers."""
    return {
        "age": tf.constant([[23.0], [41.0], [65.0]]),
        "pair": tf.constant([[1.0, 2.0], [3.0, 4.0], [0.5, -1.0]]),
        "color": tf.constant([["red", "blue"], ["green", ""], ["pink", "red"]]),
        "shade": tf.SparseTensor([[0, 0], [1, 0], [1, 1], [2, 0]],
                                 tf.constant(["blue", "red", "blue", "teal"]), [3, 2]),
        "bucket_id": tf.constant([[0], [3], [7]], tf.int64),
        "word": tf.constant([["the"], ["cat"], ["sat"]]),
        "code": tf.constant([[12], [7], [12]], tf.int64),
        "color_weight": tf.constant([[0.5, 2.0], [1.5, 0.0], [3.0, -1.0]]),
    }


def columns(tf, tmpdir):
    """name -> a dense column (each made fresh: input_layer makes its variables)."""
    fc = tf.feature_column
    path = os.path.join(tmpdir, "colors.txt")
    with open(path, "w") as f:
        f.write(VOCAB_FILE)
    color = fc.categorical_column_with_vocabulary_list("color", ["red", "green", "blue"])

    def init(shape, dtype=None, partition_info=None):
        return tf.constant(np.array(EMBEDDING, np.float32)[:shape[0], :shape[1]])
    return {
        "numeric": fc.numeric_column("age"),
        "numeric_norm": fc.numeric_column("pair", shape=(2,),
                                          normalizer_fn=lambda x: (x - 1.0) * 2.0),
        "bucketized": fc.bucketized_column(fc.numeric_column("age"), [18, 30, 50]),
        "bucketized_2d": fc.bucketized_column(fc.numeric_column("pair", shape=(2,)), [0, 2]),
        "vocab_list": fc.indicator_column(color),
        "vocab_list_oov": fc.indicator_column(fc.categorical_column_with_vocabulary_list(
            "color", ["red", "green", "blue"], num_oov_buckets=3)),
        "vocab_list_default": fc.indicator_column(fc.categorical_column_with_vocabulary_list(
            "color", ["red", "green", "blue"], default_value=0)),
        "vocab_sparse": fc.indicator_column(fc.categorical_column_with_vocabulary_list(
            "shade", ["red", "blue"])),
        "vocab_file": fc.indicator_column(fc.categorical_column_with_vocabulary_file(
            "color", path, num_oov_buckets=2)),
        "identity": fc.indicator_column(fc.categorical_column_with_identity("bucket_id", 8)),
        "hash": fc.indicator_column(fc.categorical_column_with_hash_bucket("word", 5)),
        "hash_int": fc.indicator_column(fc.categorical_column_with_hash_bucket(
            "code", 4, dtype=tf.int64)),
        "crossed": fc.indicator_column(fc.crossed_column(["word", "code"], 7)),
        "crossed_bucket": fc.indicator_column(fc.crossed_column(
            [fc.bucketized_column(fc.numeric_column("age"), [30, 50]), "word"], 5)),
        "weighted": fc.indicator_column(fc.weighted_categorical_column(color, "color_weight")),
        "embedding_mean": fc.embedding_column(fc.categorical_column_with_vocabulary_list(
            "color", ["red", "green", "blue"], num_oov_buckets=3), 4, initializer=init),
        "embedding_sum": fc.embedding_column(color, 4, combiner="sum", initializer=init),
        "embedding_sqrtn": fc.embedding_column(
            fc.weighted_categorical_column(color, "color_weight"), 4, combiner="sqrtn",
            initializer=init),
    }


def _spec_text(spec):
    out = {}
    for key, value in sorted(spec.items()):
        if type(value).__name__ == "FixedLenFeature":
            default = value.default_value
            out[key] = ["FixedLenFeature", list(value.shape), value.dtype.name,
                        None if default is None else list(default)]
        else:
            out[key] = [type(value).__name__, value.dtype.name]
    return out


def record_gradients(tf):
    """Gradients of a weighted sum of input_layer's output w.r.t. a numeric feature (through
    its normalizer), the weights of a weighted column and an embedding variable."""
    v1 = tf.compat.v1
    fc = tf.feature_column
    with tf.Graph().as_default():
        age = tf.constant([[0.5, -1.0], [2.0, 0.25], [1.5, 3.0]])
        weight = tf.constant([[0.5, 2.0], [1.5, 0.0], [3.0, 0.5]])  # 0 where "" is
        feats = dict(features(tf), pair=age, color_weight=weight)
        color = fc.categorical_column_with_vocabulary_list("color", ["red", "green", "blue"])

        def init(shape, dtype=None, partition_info=None):
            return tf.constant(np.array(EMBEDDING, np.float32)[:shape[0], :shape[1]])

        dense = v1.feature_column.input_layer(feats, [
            fc.numeric_column("pair", shape=(2,), normalizer_fn=lambda x: x * x),
            fc.indicator_column(fc.weighted_categorical_column(color, "color_weight")),
            fc.embedding_column(fc.weighted_categorical_column(color, "color_weight"), 4,
                                combiner="sqrtn", initializer=init)])
        loss = tf.reduce_sum(dense * np.linspace(-1, 1, 2 + 3 + 4, dtype=np.float32))
        table = v1.global_variables()[0]
        grads = v1.gradients(loss, [age, weight, table])
        with v1.Session() as sess:
            sess.run([v1.global_variables_initializer(), v1.tables_initializer()])
            got = sess.run([dense] + [tf.convert_to_tensor(g) for g in grads])
    return {"value": got[0].tolist(), "grad_pair": got[1].tolist(),
            "grad_weight": got[2].tolist(), "grad_embedding": got[3].tolist()}


def record(tf, tmpdir):
    out = {}
    v1 = tf.compat.v1
    cols = columns(tf, tmpdir)
    for name, column in cols.items():
        with tf.Graph().as_default():
            dense = v1.feature_column.input_layer(features(tf), [column])
            variables = [v.name for v in v1.global_variables()]
            with v1.Session() as sess:
                sess.run([v1.global_variables_initializer(), v1.tables_initializer()])
                out[name] = {"value": sess.run(dense).tolist(), "column": column.name,
                             "variables": variables}
    with tf.Graph().as_default():
        both = v1.feature_column.input_layer(features(tf), [cols["vocab_list"], cols["numeric"],
                                                            cols["bucketized"]])
        with v1.Session() as sess:
            sess.run(v1.tables_initializer())
            out["ordered_by_name"] = sess.run(both).tolist()
    out["gradients"] = record_gradients(tf)
    out["parse_spec"] = _spec_text(tf.feature_column.make_parse_example_spec(
        [cols["numeric_norm"], cols["vocab_list"], cols["hash_int"], cols["weighted"],
         tf.feature_column.numeric_column("x", shape=(2,), default_value=1.5)]))
    return out


def main():
    import tempfile

    import tensorflow as tf

    with tempfile.TemporaryDirectory() as tmpdir:
        out = record(tf, tmpdir)
    path = os.path.join("tests", "data", "api_names", "feature_column.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
    print("wrote", path)


if __name__ == "__main__":
    main()
