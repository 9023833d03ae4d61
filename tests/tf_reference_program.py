"""Loads a program of tools/tf_reference/ (a module whose ``program(tf)`` returns plain
values) and the values TensorFlow 2.21 gave for it, recorded under tests/data/, so a test can
run the same program with flowgrad as ``tf`` and compare; or runs a program of
tools/tf_reference/ whole under ``python -m flowgrad`` and gives what it printed."""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load(program: str, record: str) -> tuple[ModuleType, object]:
    """(the program's module, its recording).

    Args:
        program: The file name under tools/tf_reference/ (``"float8_reference.py"``).
        record: The JSON recording's path under tests/data/ (``"float8/tf_2_21.json"``).

    Returns:
        The imported module and the decoded recording.
    """
    spec = importlib.util.spec_from_file_location(
        Path(program).stem, ROOT / "tools" / "tf_reference" / program)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, json.loads((ROOT / "tests" / "data" / record).read_text())


def flowgrad_stdout(program: str, timeout: int = 300) -> str:
    """What ``python -m flowgrad tools/tf_reference/<program>`` printed (this checkout's
    flowgrad); AssertionError with its stderr if it failed.

    Args:
        program: The file name under tools/tf_reference/.
        timeout: Seconds the program may run.

    Returns:
        Its standard output.
    """
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-m", "flowgrad",
                          str(ROOT / "tools" / "tf_reference" / program)],
                         capture_output=True, text=True, env=env, timeout=timeout)
    assert out.returncode == 0, out.stderr
    return out.stdout


def recorded_text(record: str) -> str:
    """The text a program printed on TensorFlow 2.21, recorded under tests/data/.

    Args:
        record: The recording's path under tests/data/.

    Returns:
        The recorded text.
    """
    return (ROOT / "tests" / "data" / record).read_text()
