"""Summaries are written as TensorFlow 2.21 writes them: every value's tag, tensor bytes
(dtype, shape, content) and plugin metadata (on a tag's first value only, in TF1's
FileWriter) equal those of the event file TensorFlow wrote from the same program
(tools/tf_reference/summary_v2_events.py and summary_v1_events.py; tests/data/summary_v2
and summary_v1)."""
from __future__ import annotations

import glob
import os
import subprocess
import sys

import pytest

from tests.tf_reference_program import ROOT

pytest.importorskip("tensorboard")
from tensorboard.backend.event_processing import event_file_loader  # noqa: E402


def _values(logdir: str) -> dict:
    (path,) = glob.glob(os.path.join(logdir, "events.out.tfevents*"))
    return {(e.step, v.tag): v for e in event_file_loader.EventFileLoader(path).Load()
            for v in e.summary.value}


@pytest.mark.parametrize("api", ["v1", "v2"])
def test_summary_values_equal_tensorflows(api, tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-m", "flowgrad",
                          str(ROOT / "tools" / "tf_reference" / ("summary_%s_events.py" % api)),
                          str(tmp_path)], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    want = _values(str(ROOT / "tests" / "data" / ("summary_" + api)))
    got = _values(str(tmp_path))
    assert sorted(got) == sorted(want)
    for key, value in want.items():
        assert got[key] == value, key
