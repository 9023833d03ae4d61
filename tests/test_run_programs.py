"""tools/run_programs.py: runs programs unchanged through the drop-in and says where each stops."""
from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import run_programs  # noqa: E402


def test_reports_ok_error_and_running(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    good = tmp_path / "good.py"
    good.write_text("import tensorflow as tf\nprint(int(tf.constant(2) * 3))\n")
    bad = tmp_path / "bad.py"
    bad.write_text("import tensorflow as tf\ntf.no_such_function()\n")
    slow = tmp_path / "slow.py"
    slow.write_text("import time\ntime.sleep(30)\n")
    assert run_programs.run_one(str(good), 60) == (str(good), "ok", "")
    name, status, detail = run_programs.run_one(str(bad), 60)
    assert status == "error" and "AttributeError" in detail and "no_such_function" in detail
    assert run_programs.run_one(str(slow), 2)[1] == "running"
