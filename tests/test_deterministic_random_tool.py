"""``tf.compat.v1.keras.utils.DeterministicRandomTestTool`` (Keras 2; TF 2.16+ dropped it):
random ops draw what Keras 2's tool made TensorFlow draw, eagerly and in a TF1 graph, in both
modes (tools/tf_reference/deterministic_random_tool.py, recorded with tf_keras 2.21 in
tests/data/deterministic_random_tool/)."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as v1

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tf_reference_program import load  # noqa: E402

PROGRAM, RECORD = load("deterministic_random_tool.py",
                       "deterministic_random_tool/tf_keras_2_21.json")


def _close(got, want, key):
    if isinstance(want, str):
        assert got == want, key
    elif isinstance(want, list) and want and isinstance(want[-1], str):   # values, message
        _close(got[0], want[0], key)
        assert got[1] == want[1], key
    elif isinstance(want, list):
        assert len(got) == len(want), key
        for g, w in zip(got, want):
            np.testing.assert_allclose(np.asarray(g, float), np.asarray(w, float), atol=2e-5,
                                       err_msg=key)
    else:
        assert got == want, key


def test_random_ops_draw_what_keras_2s_tool_made_tensorflow_draw():
    v1.enable_v2_behavior()     # the graph_mode fixture restores graph mode afterwards
    got = PROGRAM.program(flowgrad, v1.keras.utils.DeterministicRandomTestTool)
    assert got.keys() == RECORD.keys()
    for key, want in RECORD.items():
        _close(got[key], want, key)


def test_eager_and_graph_draw_the_same_numbers_in_num_random_ops_mode():
    v1.enable_v2_behavior()
    assert RECORD["num_random_ops eager"] == RECORD["num_random_ops graph"]
    tool = v1.keras.utils.DeterministicRandomTestTool(mode="num_random_ops")
    with tool.scope():
        a = flowgrad.random.uniform((4,)).numpy()
        b = flowgrad.random.uniform((4,)).numpy()
    assert tool.operation_seed == 2 and not np.array_equal(a, b)


def test_a_bad_mode_is_a_value_error_naming_it():
    with pytest.raises(ValueError, match="Got: sometimes"):
        v1.keras.utils.DeterministicRandomTestTool(mode="sometimes")
