"""Runs Keras 3's own tests (the ``keras`` wheel ships ``keras/src/**/*_test.py``) on flowgrad:
``python -m flowgrad -m pytest`` over chosen folders, then passed / failed / skipped per folder.

    python tools/keras_suite.py                       # the issue's folders, every test file
    python tools/keras_suite.py layers/core losses    # chosen folders (under keras/src)
    python tools/keras_suite.py --fast                # the fixed subset CI runs
    python tools/keras_suite.py --max-files 3 ops     # the first N test files of each folder

Each folder runs in its own child process (Keras picks its backend once per process), with
``KERAS_BACKEND=tensorflow`` and a time limit; the counts come from pytest's JUnit XML. The
exit status is 1 when a test failed or a folder timed out (``--fast``: when fewer tests of a
file pass than FAST records)."""
from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The folders of keras/src the issue measures.
FOLDERS = ["layers", "models", "trainers", "optimizers", "losses", "metrics", "callbacks",
           "saving", "ops"]

#: The fixed, fast subset for CI: test files (under keras/src) and how many of their tests
#: pass on flowgrad at least (a ratchet: raise the numbers as more pass).
FAST = {"losses/losses_test.py": 157, "activations/activations_test.py": 50}


def keras_src() -> Path:
    """keras/src of the installed keras package.

    Raises:
      SystemExit: keras is not installed.
    """
    spec = importlib.util.find_spec("keras")
    if spec is None:
        raise SystemExit("keras_suite.py needs the keras extra: pip install flowgrad[keras]")
    return Path(spec.origin).parent / "src"


def run_files(files: list, timeout: float) -> dict:
    """pytest over ``files`` under the drop-in: {passed, failed, skipped, error, timed_out}."""
    with tempfile.TemporaryDirectory() as d:
        xml = os.path.join(d, "junit.xml")
        env = dict(os.environ, KERAS_BACKEND="tensorflow",
                   PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
        cmd = [sys.executable, "-m", "flowgrad", "-m", "pytest", "-q", "-p", "no:cacheprovider",
               "--junitxml", xml, *map(str, files)]
        counts = {"passed": 0, "failed": 0, "skipped": 0, "errors": 0, "timed_out": False}
        try:
            subprocess.run(cmd, env=env, capture_output=True, timeout=timeout, cwd=d)
        except subprocess.TimeoutExpired:
            counts["timed_out"] = True
            return counts
        if not os.path.exists(xml):
            counts["errors"] = 1
            return counts
        for suite in ET.parse(xml).getroot().iter("testsuite"):
            total = int(suite.get("tests", 0))
            failed, errors = int(suite.get("failures", 0)), int(suite.get("errors", 0))
            skipped = int(suite.get("skipped", 0))
            counts["failed"] += failed
            counts["errors"] += errors
            counts["skipped"] += skipped
            counts["passed"] += total - failed - errors - skipped
    return counts


def main(argv: list | None = None) -> int:
    """Runs the suite and prints the table; returns the exit status."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", nargs="*", help="folders under keras/src (default: %s)"
                    % " ".join(FOLDERS))
    ap.add_argument("--fast", action="store_true", help="the fixed subset CI runs")
    ap.add_argument("--max-files", type=int, default=0, help="test files per folder (0: all)")
    ap.add_argument("--timeout", type=float, default=1800, help="seconds per folder")
    args = ap.parse_args(argv)
    src = keras_src()
    if args.fast:
        groups = {f: [src / f] for f in FAST}
    else:
        groups = {}
        for folder in args.folders or FOLDERS:
            files = sorted((src / folder).rglob("*_test.py"))
            groups[folder] = files[:args.max_files] if args.max_files else files
    print("%-24s %6s %8s %6s %8s %7s" % ("folder", "files", "passed", "failed", "skipped",
                                          "pass %"))
    bad = False
    for name, files in groups.items():
        c = run_files(files, args.timeout)
        ran = c["passed"] + c["failed"] + c["errors"]
        pct = "%.1f" % (100.0 * c["passed"] / ran) if ran else "-"
        note = " (timed out)" if c["timed_out"] else ""
        print("%-24s %6d %8d %6d %8d %7s%s" % (name, len(files), c["passed"],
                                               c["failed"] + c["errors"], c["skipped"], pct, note))
        if args.fast:
            bad = bad or c["passed"] < FAST[name]
        else:
            bad = bad or c["failed"] or c["errors"] or c["timed_out"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
