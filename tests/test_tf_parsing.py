"""tf.io.parse_example / parse_single_example against TensorFlow 2.21: each case of
tools/tf_reference/io_reference.py's PARSE_CASES (FixedLenFeature with defaults and shapes,
VarLenFeature -> SparseTensor, FixedLenSequenceFeature(allow_missing=True), RaggedFeature,
and the errors for missing, mistyped and miscounted features) gives TensorFlow's values or
error; parsing works in graph mode and inside ``Dataset.map`` over a TFRecordDataset."""
from __future__ import annotations

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.framework import errors
from io_reference import REF, dec, same_value

CASES = REF["parsing"]
INPUTS = {k: dec(v) for k, v in REF["parse_inputs"].items()}


@pytest.fixture(autouse=True)
def eager_mode():
    tf1.enable_v2_behavior()


def make_feature(face, spec):
    kind = spec[0]
    if kind == "var":
        return face.io.VarLenFeature(getattr(tf, spec[1]))
    if kind == "ragged":
        return tf.io.RaggedFeature(getattr(tf, spec[1]))
    if kind == "fixed":
        return face.io.FixedLenFeature(spec[1], getattr(tf, spec[2]), default_value=spec[3])
    return face.io.FixedLenSequenceFeature(spec[1], getattr(tf, spec[2]), allow_missing=True,
                                           default_value=spec[3])


def run_case(face, spec):
    feats = {k: make_feature(face, v) for k, v in spec["features"].items()}
    return getattr(face.io, spec["fn"])(INPUTS[spec["input"]], feats)


@pytest.mark.parametrize("name", sorted(CASES))
def test_parse_matches_tensorflow(name):
    spec = CASES[name]
    if "error" in spec:
        with pytest.raises(getattr(errors, spec["error"]["class"])) as e:
            run_case(tf, spec)
        assert str(e.value).startswith(spec["error"]["message"])
    else:
        same_value(run_case(tf, spec), spec["result"])


def test_parse_in_graph_mode_with_a_fed_batch():
    spec = CASES["batch_var"]
    g = tf.Graph()
    with g.as_default():
        ser = tf1.placeholder(tf.string, [None])
        out = tf1.io.parse_example(ser, {k: make_feature(tf1, v)
                                         for k, v in spec["features"].items()})
        assert out["scores"].indices.shape.as_list() == [None, 2]
        with tf1.Session() as s:
            got = s.run({"i": out["scores"].indices, "v": out["scores"].values,
                         "s": out["scores"].dense_shape}, {ser: INPUTS["batch"]})
    want = spec["result"]["scores"]
    assert got["i"].tolist() == dec(want["indices"]).tolist()
    assert got["v"].tolist() == dec(want["values"]).tolist()
    assert got["s"].tolist() == dec(want["dense_shape"]).tolist()


def test_parse_single_example_inside_dataset_map(tmp_path):
    path = str(tmp_path / "ex.tfrecord")
    with tf.io.TFRecordWriter(path) as w:
        for s in INPUTS["batch"][:2]:
            w.write(s)
    feats = {"age": tf.io.FixedLenFeature([], tf.int64),
             "scores": tf.io.VarLenFeature(tf.float32)}

    def parse(record):
        ex = tf.io.parse_single_example(record, feats)
        return ex["age"], tf.sparse.to_dense(ex["scores"])
    ds = tf.data.TFRecordDataset(path).map(parse)
    got = [(int(a), s.tolist()) for a, s in ds.as_numpy_iterator()]
    assert got == [(29, [1.5, -2.25, 3.0]), (3, [7.0])]
    batched = tf.data.TFRecordDataset(path).batch(2).map(
        lambda r: tf.io.parse_example(r, {"age": tf.io.FixedLenFeature([], tf.int64)})["age"])
    assert [x.tolist() for x in batched.as_numpy_iterator()] == [[29, 3]]


def test_feature_configs_are_checked():
    with pytest.raises(ValueError, match="requires allow_missing to be True"):
        tf.io.parse_single_example(INPUTS["example"],
                                   {"x": tf.io.FixedLenSequenceFeature([], tf.int64)})
    with pytest.raises(errors.InvalidArgumentError, match="not in the list of allowed values"):
        tf.io.parse_single_example(INPUTS["example"], {"x": tf.io.FixedLenFeature([], tf.int32)})
    with pytest.raises(errors.InvalidArgumentError, match="Could not parse example input"):
        tf.io.parse_single_example(b"garbage", {"x": tf.io.FixedLenFeature([], tf.int64)})
    assert np.asarray(tf1.parse_single_example(
        INPUTS["example"], {"age": tf1.FixedLenFeature([], tf.int64)})["age"]) == 29


def test_decode_json_example_gives_tensorflows_example():
    ref = REF["json_example"]
    got = tf.io.decode_json_example(ref["json"]).numpy()
    Example = tf.train.Example
    # TensorFlow writes the int64 values unpacked; both encodings parse to one Example
    assert Example.FromString(got) == Example.FromString(dec(ref["binary"]))
    assert Example.FromString(got) == Example.FromString(INPUTS["example"])
    with pytest.raises(errors.InvalidArgumentError) as e:
        tf.io.decode_json_example('{"nope": 1}')
    assert ref["error"]["class"] == "InvalidArgumentError"
    assert str(e.value).startswith("Error while parsing JSON: ")
    assert "nope" in str(e.value)


def _seq_feature(spec):
    if spec[0] == "seqreq":
        return tf.io.FixedLenSequenceFeature(spec[1], getattr(tf, spec[2]))
    return make_feature(tf, spec)


@pytest.mark.parametrize("name", sorted(REF["sequence_parsing"]))
def test_parse_single_sequence_example_matches_tensorflow(name):
    spec = REF["sequence_parsing"][name]
    seq = dec(REF["sequence_example"])

    def run():
        c, s = tf.io.parse_single_sequence_example(
            seq, {k: _seq_feature(v) for k, v in spec["context"].items()},
            {k: _seq_feature(v) for k, v in spec["sequence"].items()})
        return {"context": c, "sequence": s}
    if "error" in spec:
        with pytest.raises(getattr(errors, spec["error"]["class"])) as e:
            run()
        assert str(e.value).startswith(spec["error"]["message"])
    else:
        same_value(run(), spec["result"])


def test_sparse_and_ragged_dataset_elements():
    # a VarLenFeature parse result and a strings.split batch are tf.data elements as in TF
    ds = tf.data.Dataset.from_tensor_slices([INPUTS["example"]])
    parsed = ds.map(lambda r: tf.io.parse_single_example(
        r, {"name": tf.io.VarLenFeature(tf.string)})["name"])
    assert isinstance(parsed.element_spec, tf.SparseTensorSpec)
    got = next(iter(parsed))
    want = tf.io.parse_single_example(tf.constant(INPUTS["example"]),
                                      {"name": tf.io.VarLenFeature(tf.string)})["name"]
    for a, b in [(got.indices, want.indices), (got.values, want.values),
                 (got.dense_shape, want.dense_shape)]:
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    split = tf.data.Dataset.from_tensor_slices([["a b"]]).map(tf.strings.split)
    spec = split.element_spec    # TensorFlow's static nrows (1) is not kept by strings.split
    assert (type(spec), spec.dtype, spec.ragged_rank, spec.shape.as_list()[1:]) == (
        tf.RaggedTensorSpec, tf.string, 1, [None])
    assert next(iter(split)).to_list() == [[b"a", b"b"]]
