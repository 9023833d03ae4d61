"""TF2-face names older programs use, against TensorFlow 2.21
(tools/tf_reference/tf2_legacy_names.py, recorded in tests/data/tf2_legacy_names/):
``tf.distribute.experimental.CentralStorageStrategy`` with one device, ``tf.distribute.Server``
(``tf.compat.v1.train.Server``), the TPUStrategy names."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

import flowgrad
import flowgrad.compat.v1 as v1
from flowgrad.framework import errors

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tf_reference_program import load  # noqa: E402

PROGRAM, RECORD = load("tf2_legacy_names.py", "tf2_legacy_names/tf_2_21.json")


@pytest.fixture(autouse=True)
def eager():
    v1.enable_v2_behavior()     # the graph_mode fixture restores graph mode afterwards
    yield


def test_names_give_what_tensorflow_gives():
    assert PROGRAM.program(flowgrad) == RECORD


def test_central_storage_with_several_compute_devices_is_an_error_naming_them():
    with pytest.raises(errors.InvalidArgumentError, match="/gpu:1"):
        flowgrad.distribute.experimental.CentralStorageStrategy(["/gpu:0", "/gpu:1"])
    assert v1.distribute.experimental.CentralStorageStrategy is \
        flowgrad.distribute.experimental.CentralStorageStrategy


def test_tpu_strategy_names_are_the_strategy_flowgrad_cannot_make():
    for cls in (flowgrad.distribute.experimental.TPUStrategy,
                v1.distribute.experimental.TPUStrategy):
        with pytest.raises(NotImplementedError, match="TPU"):
            cls()


def test_executing_eagerly_outside_functions_is_false_in_tf1_mode():
    v1.disable_eager_execution()
    try:
        assert v1.executing_eagerly_outside_functions() is False
    finally:
        v1.enable_eager_execution()
