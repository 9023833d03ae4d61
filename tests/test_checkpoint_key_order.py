"""tf.train.Checkpoint adds its keyword arguments in name order, as TensorFlow does, so a
variable reached through two of them (a model's and its optimizer's) is saved under the first
by name: the TF checkpoint guide's keys (tools/tf_reference/checkpoint_key_order.py, recorded
with TensorFlow 2.21 in tests/data/checkpoint_key_order/)."""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

import pytest

from tests.tf_reference_program import ROOT

if importlib.util.find_spec("keras") is None:
    pytest.skip("the keras extra is not installed", allow_module_level=True)


def test_keys_are_tensorflows(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT), KERAS_BACKEND="tensorflow")
    out = subprocess.run([sys.executable, "-m", "flowgrad",
                          str(ROOT / "tools" / "tf_reference" / "checkpoint_key_order.py"),
                          str(tmp_path)], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    want = json.loads((ROOT / "tests" / "data" / "checkpoint_key_order" / "tf_2_21.json")
                      .read_text())
    assert json.loads(out.stdout) == want
