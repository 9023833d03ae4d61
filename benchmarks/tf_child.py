"""TensorFlow in a child process, timed round by round beside flowgrad and NumPy.

A benchmark script runs itself under TensorFlow's Python (``--as-tensorflow``) and calls
``serve`` there with its timing functions; the parent's ``TensorFlowChild`` asks for one
round of one of them whenever it has timed its own rows, so that all contestants see the
same machine load. Used by ``bench_cnn.py`` and ``bench_rnn.py``.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from typing import Callable

import numpy as np


class TensorFlowChild:
    """``script --as-tensorflow NPZ ...args`` run by ``python`` (TensorFlow's own Python;
    or flowgrad's with ``runner`` ``["-m", "flowgrad"]``, which hosts a TensorFlow program),
    NPZ a temporary file of ``arrays``, with ``env`` added to the environment:
    ``round(name)`` runs one round of the child's function ``name`` and returns its
    seconds. ``alive`` is False where that Python or its TensorFlow is missing, or the
    child failed (its last line of stderr is printed, after ``label``, the contestant's
    name; ``jax_mlp.py`` serves JAX this way)."""

    def __init__(self, python: str, script: str, arrays: dict, args: list = (),
                 runner: list = (), env: dict | None = None, label: str = "TensorFlow"):
        self.proc = None
        self.label = label
        self.alive = os.path.exists(python)
        if not self.alive:
            print("%s skipped: no %s" % (label, python))
            return
        self.tmp = tempfile.TemporaryDirectory()
        npz = os.path.join(self.tmp.name, "arrays.npz")
        np.savez(npz, **arrays)
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3",
                   PYTHONPATH=os.pathsep.join([os.path.dirname(os.path.dirname(
                       os.path.abspath(script))), os.environ.get("PYTHONPATH", "")]),
                   **(env or {}))
        self.proc = subprocess.Popen(
            [python] + list(runner) + [os.path.abspath(script), "--as-tensorflow", npz]
            + [str(a) for a in args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env=env)
        self._answer()                                  # "ready" once the model is built

    def _answer(self) -> str | None:
        line = self.proc.stdout.readline()
        if not line:
            err = self.proc.stderr.read().strip().splitlines() or ["?"]
            print("%s skipped: %s" % (self.label, err[-1]))
            self.alive = False
            return None
        return line

    def round(self, name: str = "run") -> float:
        """Seconds of one round of the child's ``name`` (NaN once the child is gone)."""
        if not self.alive:
            return float("nan")
        self.proc.stdin.write(name + "\n")
        self.proc.stdin.flush()
        line = self._answer()
        return float(line) if line else float("nan")

    def close(self) -> None:
        if self.proc is not None:
            self.proc.stdin.close()
            self.proc.wait()
            self.proc.stdout.close()
            self.proc.stderr.close()
            self.proc = None
            self.tmp.cleanup()


def serve(rounds: dict[str, Callable[[], float]]) -> None:
    """The child's side: prints "ready", then the seconds of ``rounds[name]()`` for each
    line ``name`` read from stdin, until stdin closes."""
    print("ready", flush=True)
    for line in sys.stdin:
        print(rounds[line.strip()](), flush=True)
