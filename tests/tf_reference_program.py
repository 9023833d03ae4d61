"""Loads a program of tools/tf_reference/ (a module whose ``program(tf)`` returns plain
values) and the values TensorFlow 2.21 gave for it, recorded under tests/data/, so a test can
run the same program with flowgrad as ``tf`` and compare."""
from __future__ import annotations

import importlib.util
import json
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
