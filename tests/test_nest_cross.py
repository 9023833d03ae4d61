"""tf.nest.assert_same_structure and tf.ragged.cross / cross_hashed against TensorFlow 2.21
(tools/tf_reference/nest_cross_reference.py recorded tests/data/nest_cross/reference.json)."""
from __future__ import annotations

import collections
import json
from pathlib import Path

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as v1

REF = json.loads((Path(__file__).resolve().parent / "data" / "nest_cross"
                  / "reference.json").read_text())


@pytest.fixture(autouse=True)
def eager():
    """These tests run as TF2 programs (the suite starts each test in graph mode)."""
    v1.enable_v2_behavior()
    yield


def _plain(value):
    return json.loads(json.dumps(value, default=lambda v: v.decode() if isinstance(
        v, bytes) else str(v)))


@pytest.mark.parametrize("expr", sorted(REF["cases"]))
def test_matches_tensorflow(expr):
    ns = {"tf": tf, "np": np, "collections": collections}
    exec(REF["setup"], ns)  # noqa: S102 - the recorded set-up
    want = REF["cases"][expr]
    if "error" in want:
        with pytest.raises(Exception) as info:
            eval(expr, ns)  # noqa: S307 - the recorded expression
        assert type(info.value).__name__ == want["error"], (expr, info.value)
        return
    assert _plain(eval(expr, ns)) == want["value"], expr  # noqa: S307
