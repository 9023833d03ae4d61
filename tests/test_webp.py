"""tf.io.decode_webp / tf.image.decode_webp against TensorFlow 2.21 (tests/data/tf2_gaps/
webp.json: lossless RGB and RGBA and lossy files, channel checks, non-WebP input)."""
from __future__ import annotations

import pytest

import flowgrad.compat.v1 as v1

from tf2_gaps_replay import load, replay

REF = load("webp")


@pytest.fixture(autouse=True)
def eager():
    """These tests run as TF2 programs (the suite starts each test in graph mode)."""
    v1.enable_v2_behavior()
    yield


@pytest.mark.parametrize("expr", sorted(REF["cases"]))
def test_matches_tensorflow(expr):
    replay(REF, expr)
