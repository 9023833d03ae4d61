"""Runs unmodified TensorFlow programs on flowgrad and tells where each one stops.

Each program runs as ``python -m flowgrad PROGRAM`` in its own folder, with a time limit.
A program that is still running at the limit has at least got through its set-up and first
steps; a program that exits non-zero is reported with the last line of its traceback, the
first place flowgrad (or the machine: no network, no data set) let it down.

Usage::

    python tools/run_programs.py [--timeout 60] [--jobs 2] [--tf1] PROGRAM.py ...

Prints one line per program and a summary: ``ok`` (exit 0), ``running`` (still running at
the limit), ``error`` (the exception), grouped by the most frequent causes.
"""
from __future__ import annotations

import argparse
import collections
import concurrent.futures
import os
import subprocess
import sys
from pathlib import Path


def run_one(program: str, timeout: float, tf1: bool = False) -> tuple[str, str, str]:
    """Runs one program (``tf1``: as written for TensorFlow 1.x, ``--tf1``); returns
    (program, status, detail)."""
    path = Path(program).resolve()
    env = {**os.environ, "MPLBACKEND": "Agg", "PYTHONUNBUFFERED": "1",
           "OPENBLAS_NUM_THREADS": "1"}
    try:
        command = [sys.executable, "-m", "flowgrad"] + (["--tf1"] if tf1 else []) + [path.name]
        proc = subprocess.run(command, cwd=path.parent,
                              capture_output=True, text=True, timeout=timeout, env=env,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return program, "running", "still running after %.0f s" % timeout
    if proc.returncode == 0:
        return program, "ok", ""
    lines = [ln for ln in proc.stderr.strip().splitlines() if ln.strip()]
    return program, "error", lines[-1][:300] if lines else "exit %d" % proc.returncode


def main(argv: list[str] | None = None) -> int:
    """Command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("programs", nargs="+")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--tf1", action="store_true",
                        help="run them as programs written for TensorFlow 1.x")
    args = parser.parse_args(argv)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda p: run_one(p, args.timeout, args.tf1),
                                 args.programs))
    for program, status, detail in results:
        print("%-8s %s  %s" % (status, program, detail))
    counts = collections.Counter(status for _, status, _ in results)
    print("\n%d programs: %s" % (len(results), ", ".join(
        "%d %s" % (n, s) for s, n in counts.most_common())))
    causes = collections.Counter(detail.split(":")[0] + ": " + detail.split(":", 1)[-1][:80]
                                 for _, status, detail in results if status == "error")
    for cause, n in causes.most_common(20):
        print("  %3d  %s" % (n, cause))
    return 0


if __name__ == "__main__":
    sys.exit(main())
