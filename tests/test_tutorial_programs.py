"""Programs written as tensorflow.org's tutorials and Keras's examples write them, each run
unchanged under ``python -m flowgrad`` and printing what TensorFlow 2.21 printed for it
(tests/data/programs/tutorial_programs.json, made by tools/tf_reference/tutorial_programs.py):
Keras's ``fit`` on a dataset of unknown length, tf.Tensor inputs to Keras, an iterator passed
to a tf.function."""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
REF = json.loads((ROOT / "tests" / "data" / "programs" / "tutorial_programs.json").read_text())


@pytest.mark.skipif(importlib.util.find_spec("keras") is None,
                    reason="needs the keras extra: pip install flowgrad[keras]")
@pytest.mark.parametrize("name", sorted(REF))
def test_program_prints_what_tensorflow_prints(tmp_path, name):
    program = tmp_path / (name + ".py")
    program.write_text(REF[name]["source"])
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-m", "flowgrad", str(program)], capture_output=True,
                         text=True, env=env, cwd=tmp_path, timeout=600)
    assert out.returncode == 0, out.stderr[-4000:]
    assert out.stdout == REF[name]["stdout"]
