"""TF 1.x names programs still use, against TensorFlow 2.21's tf.compat.v1
(tools/tf_reference/tf1_legacy_names.py, recorded in tests/data/tf1_legacy_names/):
``tensorflow.python.ops.resources``, ``tf.gfile.FastGFile``, ``tf.GraphDef`` and a
``Session.run`` with ``tf.RunOptions`` / ``tf.RunMetadata``."""
from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

import flowgrad
import flowgrad.compat.v1 as v1

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tf_reference_program import load  # noqa: E402

PROGRAM, RECORD = load("tf1_legacy_names.py", "tf1_legacy_names/tf_2_21.json")


def test_tf1_names_give_what_tensorflow_gives(tmp_path):
    flowgrad.install_as_tensorflow()
    resources = importlib.import_module("tensorflow.python.ops.resources")
    assert PROGRAM.program(v1, resources, str(tmp_path)) == RECORD


def test_resources_module_serves_only_tensorflows_names():
    flowgrad.install_as_tensorflow()
    resources = importlib.import_module("tensorflow.python.ops.resources")
    assert callable(resources.initialize_resources)
    with pytest.raises(AttributeError, match="no_such_name"):
        resources.no_such_name  # noqa: B018 - the lookup is what is tested
