"""``tf.io.parse_sequence_example`` (a batch of serialized ``tf.train.SequenceExample``):
context FixedLen/VarLen/Ragged features, feature-list FixedLenSequence/VarLen/Ragged
features, padding, defaults, ``allow_missing``, the lengths dict and the errors; and the same
features through ``parse_single_sequence_example`` with RaggedFeature.

``program(tf)`` runs with ``tf`` either TensorFlow or flowgrad (TF2 face, eager). Record
with TensorFlow 2.21::

    /work/venv-tf/bin/python tools/tf_reference/sequence_example_reference.py \\
        > tests/data/sequence_example/tf_2_21.json

tests/test_sequence_example.py runs the same program on flowgrad and compares.
"""
import json

import numpy as np


def _examples(tf):
    """Three SequenceExamples of different lengths (the last without the 'tokens' list)."""
    train = tf.train

    def ints(v):
        return train.Feature(int64_list=train.Int64List(value=v))

    def floats(v):
        return train.Feature(float_list=train.FloatList(value=v))

    def strs(v):
        return train.Feature(bytes_list=train.BytesList(value=v))

    rows = [
        ({"id": ints([7]), "tags": strs([b"a", b"b"]), "weight": floats([0.5, 1.5])},
         {"tokens": [ints([1, 2]), ints([3])], "frames": [floats([1, 2]), floats([3, 4]),
                                                          floats([5, 6])],
          "words": [strs([b"x"]), strs([b"y", b"z"])]}),
        ({"id": ints([8]), "tags": strs([]), "weight": floats([2.5, 3.5])},
         {"tokens": [ints([4, 5, 6])], "frames": [floats([7, 8])], "words": []}),
        ({"id": ints([9]), "weight": floats([0.0, 1.0])},
         {"frames": [], "words": [strs([b"w"])]}),
    ]
    out = []
    for ctx, lists in rows:
        fl = {k: train.FeatureList(feature=v) for k, v in lists.items()}
        out.append(train.SequenceExample(
            context=train.Features(feature=ctx),
            feature_lists=train.FeatureLists(feature_list=fl)).SerializeToString())
    return out


def _plain(x):
    """Plain values of a tensor, SparseTensor or RaggedTensor (with its kind)."""
    name = type(x).__name__
    if "Sparse" in name:
        return {"kind": "sparse", "indices": x.indices.numpy().tolist(),
                "values": _plain(x.values)["value"], "shape": x.dense_shape.numpy().tolist()}
    if "Ragged" in name:
        return {"kind": "ragged", "value": _plain(x.to_tensor())["value"],
                "row_lengths": [r.numpy().tolist() for r in x.nested_row_lengths()]}
    v = x.numpy()
    if v.dtype == object:
        v = np.vectorize(lambda b: b.decode())(v) if v.size else v.astype(str)
    return {"kind": "dense", "value": v.tolist(), "dtype": x.dtype.name}


def _parsed(d):
    return {k: _plain(v) for k, v in sorted(d.items())}


def program(tf):
    """Each case's parsed context, feature lists and lengths (or the error), as plain values."""
    io = tf.io
    ser = _examples(tf)
    context = {"id": io.FixedLenFeature([], tf.int64),
               "tags": io.VarLenFeature(tf.string),
               "weight": io.FixedLenFeature([2], tf.float32)}
    cases = {
        "dense_and_sparse": (context, {
            "frames": io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True),
            "tokens": io.VarLenFeature(tf.int64),
            "words": io.VarLenFeature(tf.string)}),
        "padding_default": ({"id": io.FixedLenFeature([], tf.int64)}, {
            "frames": io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True,
                                                 default_value=-1.0)}),
        "string_list": ({}, {"words": io.FixedLenSequenceFeature([], tf.string,
                                                                 allow_missing=True)}),
        "ragged": ({"tags": io.RaggedFeature(tf.string)}, {
            "tokens": io.RaggedFeature(tf.int64),
            "words": io.RaggedFeature(tf.string)}),
        "missing_required_list": ({}, {"tokens": io.FixedLenSequenceFeature([], tf.int64)}),
        "missing_context": ({"absent": io.FixedLenFeature([], tf.int64)}, {}),
        "wrong_type": ({"id": io.FixedLenFeature([], tf.float32)}, {}),
    }
    out = {}
    for key, (ctx, seq) in cases.items():
        try:
            c, s, n = io.parse_sequence_example(tf.constant(ser), ctx, seq)
            out[key] = {"context": _parsed(c), "sequence": _parsed(s), "lengths": _parsed(n)}
        except Exception as e:  # noqa: BLE001 - the recorded error
            out[key] = {"error": type(e).__name__}
    for key in ("ragged", "dense_and_sparse"):
        ctx, seq = cases[key]
        c, s = io.parse_single_sequence_example(tf.constant(ser[0]), ctx, seq)
        out["single_" + key] = {"context": _parsed(c), "sequence": _parsed(s)}
    return out


if __name__ == "__main__":
    import tensorflow as tf2

    print(json.dumps(program(tf2), indent=0, sort_keys=True))
