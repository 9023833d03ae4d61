"""Runs tools/tf_reference/tf_test_case_suite.py with a Python and records what a user sees:
its printed lines, each test's outcome line from the runner, and the runner's totals.

    /work/venv-tf/bin/python tools/tf_reference/record_tf_test_case.py   # TensorFlow 2.21

writes tests/data/tf_test_case/tf_2_21.txt; tests/test_tf_test_case_suite.py runs the suite
under ``python -m flowgrad`` and compares with it (through :func:`outcome`)."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT / "tools" / "tf_reference" / "tf_test_case_suite.py"
RECORD = ROOT / "tests" / "data" / "tf_test_case" / "tf_2_21.txt"


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


def run(python: str, env: dict | None = None) -> str:
    """Runs the suite with ``python`` (argv list allowed through ``python -m flowgrad``).

    Args:
        python: The command prefix, space-separated.
        env: The environment; this process's when None.

    Returns:
        :func:`outcome` of the run.
    """
    out = subprocess.run(python.split() + [str(SUITE)], capture_output=True, text=True,
                         env=env, cwd=str(SUITE.parent), timeout=300)
    return outcome(out.stdout, out.stderr, out.returncode)


if __name__ == "__main__":
    RECORD.parent.mkdir(parents=True, exist_ok=True)
    RECORD.write_text(run(sys.executable))
    print(RECORD.read_text())
