"""tf.io.parse_sequence_example and RaggedFeature in parse_single_sequence_example
(flowgrad/ops/sequence_parsing_ops.py) against TensorFlow 2.21: parsed values, kinds, shapes,
lengths and error classes recorded by tools/tf_reference/sequence_example_reference.py into
tests/data/sequence_example/tf_2_21.json."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1

sys.path.insert(0, str(Path(__file__).resolve().parent))
import tf_reference_program  # noqa: E402

MODULE, RECORD = tf_reference_program.load("sequence_example_reference.py",
                                           "sequence_example/tf_2_21.json")


@pytest.fixture(autouse=True)
def eager():
    """TF2 behaviour (the conftest starts each test in TF1 graph mode)."""
    tf1.enable_v2_behavior()
    yield


@pytest.fixture
def results(eager):
    return MODULE.program(tf)


@pytest.mark.parametrize("key", sorted(RECORD))
def test_parsed_sequence_examples_match_tensorflow(results, key):
    assert results[key] == RECORD[key]


def test_parse_sequence_example_in_a_traced_function_and_a_dataset():
    ser = MODULE._examples(tf)
    context = {"id": tf.io.FixedLenFeature([], tf.int64)}
    sequence = {"frames": tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True),
                "tokens": tf.io.RaggedFeature(tf.int64)}

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def parse(batch):
        c, s, n = tf.io.parse_sequence_example(batch, context, sequence)
        return c["id"], s["frames"], s["tokens"].to_tensor(), n["frames"]

    assert parse.get_concrete_function().structured_outputs[1].shape.as_list() == [None, None, 2]
    ids, frames, tokens, lengths = parse(tf.constant(ser))
    assert ids.numpy().tolist() == [7, 8, 9] and lengths.numpy().tolist() == [3, 1, 0]
    assert frames.shape == (3, 3, 2) and tokens.numpy()[1, 0].tolist() == [4, 5, 6]
    ds = tf.data.Dataset.from_tensor_slices(ser).batch(2).map(
        lambda b: tf.io.parse_sequence_example(b, context, sequence)[2]["frames"])
    assert [x.numpy().tolist() for x in ds] == [[3, 1], [0]]


def test_parse_sequence_example_in_a_tf1_session():
    tf1.disable_v2_behavior()
    assert tf1.io.parse_sequence_example is tf.io.parse_sequence_example
    with tf1.Graph().as_default():
        ser = tf1.placeholder(tf.string, [None])
        _, s, n = tf1.io.parse_sequence_example(
            ser, sequence_features={"tokens": tf1.VarLenFeature(tf.int64)})
        with tf1.Session() as sess:
            got = sess.run(s["tokens"], {ser: MODULE._examples(tf)[:2]})
    assert n == {} and got.dense_shape.tolist() == [2, 2, 3]
    np.testing.assert_array_equal(got.values, [1, 2, 3, 4, 5, 6])


def test_parse_sequence_example_refuses_bad_input():
    ser = tf.constant(MODULE._examples(tf))
    with pytest.raises(ValueError, match="Must specify at least one of context_features"):
        tf.io.parse_sequence_example(ser)
    with pytest.raises(ValueError, match=r"feature_list.dense_defaults\[frames\] must be None"):
        tf.io.parse_sequence_example(ser, sequence_features={
            "frames": tf.io.FixedLenSequenceFeature([2], tf.float32, default_value=-1.0)})
    with pytest.raises(ValueError, match="Unsupported sequence feature .* for key id"):
        tf.io.parse_sequence_example(ser, sequence_features={
            "id": tf.io.FixedLenFeature([], tf.int64)})
    with pytest.raises(tf.errors.InvalidArgumentError, match="Key: words, Index: 1.  Number "
                                                             "of values != expected"):
        tf.io.parse_sequence_example(ser, sequence_features={
            "words": tf.io.FixedLenSequenceFeature([], tf.string, allow_missing=True)})
