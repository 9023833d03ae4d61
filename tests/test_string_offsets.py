"""tf.strings.to_hash_bucket (TensorFlow's Hash64 buckets), unicode_decode_with_offsets and
unicode_split_with_offsets (byte offsets, invalid text, rank-2 inputs), and unicode_decode /
unicode_split of rank-2 inputs, against TensorFlow 2.21 (tests/data/tf2_gaps/strings.json)."""
from __future__ import annotations

import pytest

import flowgrad as tf
import flowgrad.compat.v1 as v1

from tf2_gaps_replay import load, replay

REF = load("strings")


@pytest.fixture(autouse=True)
def eager():
    """These tests run as TF2 programs (the suite starts each test in graph mode)."""
    v1.enable_v2_behavior()
    yield


@pytest.mark.parametrize("expr", sorted(REF["cases"]))
def test_matches_tensorflow(expr):
    replay(REF, expr)


def test_hash_bucket_in_a_graph():
    v1.disable_v2_behavior()
    x = v1.placeholder(tf.string, [None])
    y = tf.strings.to_hash_bucket(x, 1000003)
    with v1.Session() as sess:
        got = sess.run(y, {x: [b"a", b"hello world"]})
    v1.enable_v2_behavior()
    assert got.tolist() == [789371, 168296]
