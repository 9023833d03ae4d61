"""Every seed snippet (../shared/seed-snippets) runs on flowgrad and prints TensorFlow's output.

Each test runs the snippet's check.py in a subprocess from the repository root, with
flowgrad.compat.v1 as ``tf`` (and flowgrad for the TF2 snippet)."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
SNIPPETS = Path(__file__).resolve().parents[2] / "shared" / "seed-snippets"

if not (SNIPPETS / "check.py").is_file():
    pytest.skip("the seed snippets are not here (expected %s/check.py next to the repository)"
                % SNIPPETS, allow_module_level=True)

NUMBERS = ["%02d" % n for n in range(1, 27)]


# One BLAS thread: the snippets' small matrix products gain nothing from threads, and a
# threaded BLAS is many times slower on a machine busy with parallel test processes.
ENV = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")


@pytest.mark.parametrize("number", NUMBERS)
def test_seed_snippet_prints_tensorflows_output(number):
    proc = subprocess.run(
        [sys.executable, str(SNIPPETS / "check.py"), "--module", "flowgrad.compat.v1",
         "--module2", "flowgrad", "-v", number],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=600, env=ENV)
    assert proc.returncode == 0 and "PASS" in proc.stdout, proc.stdout + proc.stderr
