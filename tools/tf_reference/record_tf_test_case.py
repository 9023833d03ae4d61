"""Runs the test suites of tools/tf_reference/ (tf_test_case_suite.py, tf_test_util_suite.py)
with a Python and records what a user sees: the printed lines, each test's outcome line from
the runner, and the runner's totals.

    /work/venv-tf/bin/python tools/tf_reference/record_tf_test_case.py   # TensorFlow 2.21

writes tests/data/tf_test_case/<suite>.txt; tests/test_tf_test_case_suite.py runs each suite
under ``python -m flowgrad`` and compares with it (through :func:`outcome`)."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SUITES = ("tf_test_case_suite", "tf_test_util_suite")
RECORDS = ROOT / "tests" / "data" / "tf_test_case"


def outcome(stdout: str, stderr: str, returncode: int) -> str:
    """The user-visible result of a run: printed lines, outcome lines (sorted: the runner's
    order differs between unittest versions), totals without the time, exit status.

    Args:
        stdout: The run's standard output.
        stderr: Its standard error (the runner's report).
        returncode: Its exit status.

    Returns:
        The text to compare.
    """
    status = sorted(line for line in stderr.splitlines()
                    if re.match(r"\[ +(OK|FAILED|SKIPPED) +\]", line))
    totals = [re.sub(r" in [0-9.]+s", "", line) for line in stderr.splitlines()
              if re.match(r"(Ran \d+ tests?|FAILED \(|OK\b)", line)]
    return "\n".join(sorted(stdout.splitlines()) + status + totals
                     + ["exit status %d" % returncode]) + "\n"


def run(suite: str, python: str, env: dict | None = None) -> str:
    """Runs a suite with ``python``.

    Args:
        suite: The suite's name (one of :data:`SUITES`).
        python: The command prefix, space-separated (``python -m flowgrad``).
        env: The environment; this process's when None.

    Returns:
        :func:`outcome` of the run.
    """
    path = ROOT / "tools" / "tf_reference" / (suite + ".py")
    out = subprocess.run(python.split() + [path.name], capture_output=True, text=True,
                         env=env, cwd=str(path.parent), timeout=300)
    return outcome(out.stdout, out.stderr, out.returncode)


if __name__ == "__main__":
    RECORDS.mkdir(parents=True, exist_ok=True)
    for name in SUITES:
        (RECORDS / (name + ".txt")).write_text(run(name, sys.executable))
        print((RECORDS / (name + ".txt")).read_text())
