"""tf.strings.unicode_script (flowgrad/ops/unicode_script_ops.py) against TensorFlow 2.21's
ICU script codes: a sample of code points (random ones and both ends of every run of the
table), out-of-range values, a matrix and a ragged tensor, recorded by
tools/tf_reference/unicode_scripts.py into tests/data/unicode_script/tf_2_21.json."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1

RECORD = json.loads((Path(__file__).resolve().parent / "data" / "unicode_script" /
                     "tf_2_21.json").read_text())


@pytest.fixture(autouse=True)
def eager():
    """TF2 behaviour (the conftest starts each test in TF1 graph mode)."""
    tf1.enable_v2_behavior()
    yield


def test_scripts_match_tensorflow():
    got = tf.strings.unicode_script(np.asarray(RECORD["codepoints"], np.int32))
    assert got.dtype == tf.int32
    np.testing.assert_array_equal(got.numpy(), RECORD["scripts"])
    matrix = tf.strings.unicode_script(np.asarray(RECORD["codepoints"][:12], np.int32)
                                       .reshape(3, 4))
    assert matrix.numpy().tolist() == RECORD["matrix"]


def test_ragged_input_and_graph_mode():
    ragged = tf.ragged.constant([[72, 1047, 0x4E2D], [], [0x0627]], dtype=tf.int32)
    assert tf.strings.unicode_script(ragged).to_list() == RECORD["ragged"]
    codes = tf.strings.unicode_decode(tf.constant(["Hi Здравствуй 中"]), "UTF-8")
    assert tf.strings.unicode_script(codes).to_list() == [[25, 25, 0] + [8] * 10 + [0, 17]]
    tf1.disable_v2_behavior()
    x = tf1.placeholder(tf.int32, [None])
    y = tf1.strings.unicode_script(x)
    assert y.shape.as_list() == [None] and y.op.type == "UnicodeScript"
    with tf1.Session() as sess:
        assert sess.run(y, {x: [65, -3]}).tolist() == [25, -1]


def test_unicode_script_takes_int32_only():
    with pytest.raises(tf.errors.InvalidArgumentError, match="UnicodeScript as input #0"):
        tf.strings.unicode_script(tf.constant([1.0]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="int64 tensor"):
        tf.strings.unicode_script(tf.constant([65], tf.int64))
