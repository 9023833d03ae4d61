"""TF1 programs as 2016-2019 GitHub repositories and blog posts write them (round 3:
Supervisor, SessionManager, the initialization checks, ...), each cut to the pattern where
flowgrad printed other numbers than TensorFlow 2.21 (or stopped), run with ``tf`` =
``flowgrad.compat.v1`` and compared with what TensorFlow printed
(tests/data/tf1_programs_round3/tf_2_21.json, made by
tools/tf_reference/tf1_programs_round3.py)."""
from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import flowgrad.compat.v1 as tf

ROOT = Path(__file__).resolve().parents[1]
REF = json.loads((ROOT / "tests" / "data" / "tf1_programs_round3" / "tf_2_21.json").read_text())
PROGRAMS = REF["programs"]


def _stdout(source: str, name: str, cwd: Path) -> str:
    buf = io.StringIO()
    here = os.getcwd()
    os.chdir(cwd)
    try:
        with tf.Graph().as_default(), contextlib.redirect_stdout(buf):
            exec(compile(source, name, "exec"), {"tf": tf, "np": np})
    finally:
        os.chdir(here)
    return buf.getvalue()


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_prints_what_tensorflow_printed(name, tmp_path):
    source = PROGRAMS[name]["source"]
    if "from tensorflow" in source:     # TensorFlow's internal modules: as python -m flowgrad
        run = subprocess.run([sys.executable, "-m", "flowgrad", "--tf1", "-c",
                              "import tensorflow as tf\nimport numpy as np\n" + source],
                             capture_output=True, text=True, cwd=tmp_path, timeout=600)
        assert run.returncode == 0, run.stderr
        assert run.stdout == PROGRAMS[name]["stdout"]
    else:
        assert _stdout(source, name, tmp_path) == PROGRAMS[name]["stdout"]
