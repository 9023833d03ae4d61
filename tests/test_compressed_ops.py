"""tf.io.decode_compressed against TensorFlow 2.21 (tests/data/tf2_gaps/io.json: ZLIB, GZIP,
none, corrupt streams, unknown types), tf.io.match_filenames_once and
tf.io.gfile.get_registered_schemes."""
from __future__ import annotations

import pytest

import flowgrad as tf
import flowgrad.compat.v1 as v1

from tf2_gaps_replay import load, replay

REF = load("io")


@pytest.fixture(autouse=True)
def eager():
    """These tests run as TF2 programs (the suite starts each test in graph mode)."""
    v1.enable_v2_behavior()
    yield


@pytest.mark.parametrize("expr", sorted(REF["cases"]))
def test_matches_tensorflow(expr):
    replay(REF, expr)


def test_match_filenames_once(tmp_path):
    for name in ("b.txt", "a.txt", "c.csv"):
        (tmp_path / name).write_text("x")
    v = tf.io.match_filenames_once(str(tmp_path / "*.txt"))
    assert not v.trainable
    assert [p.decode() for p in v.numpy()] == [str(tmp_path / "a.txt"), str(tmp_path / "b.txt")]
    assert v1.io.match_filenames_once is tf.io.match_filenames_once


def test_registered_schemes_hold_plain_paths():
    schemes = tf.io.gfile.get_registered_schemes()
    assert "" in schemes and "file" in schemes
