"""Runs Keras 3's own tests (the ``keras`` wheel ships ``keras/src/**/*_test.py``) on flowgrad:
``python -m flowgrad -m pytest`` over chosen folders, then per folder passed / failed / skipped
and the share of the tests that pass on real TensorFlow which pass on flowgrad too.

    python tools/keras_suite.py                       # the issue's folders, every test file
    python tools/keras_suite.py layers/core losses    # chosen folders (under keras/src)
    python tools/keras_suite.py --fast                # the fixed subset CI runs
    python tools/keras_suite.py --max-files 3 ops     # the first N test files of each folder
    python tools/keras_suite.py --python /work/venv-tf/bin/python \\
        --save tests/data/keras_suite/tensorflow.txt  # record real TensorFlow's outcomes

A folder runs as one child process per sub-folder (Keras picks its backend once per process),
with ``KERAS_BACKEND=tensorflow`` and a time limit; the outcomes come from pytest's ``-v``
lines, so a group that times out still counts the tests it finished. ``--python PY`` runs the
tests with that interpreter as it is (no drop-in): with a real TensorFlow it records the
reference. The "% of TF" column compares with the recorded TensorFlow outcomes (RECORD). The
exit status is 1 when a test failed or a group timed out (``--fast``: when fewer tests of a
file pass than FAST records)."""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The folders of keras/src the issue measures.
FOLDERS = ["layers", "models", "trainers", "optimizers", "losses", "metrics", "callbacks",
           "saving", "ops"]

#: The other folders with tests, measured beside them (``--table`` prints them too; run them
#: by name). ``backend`` holds the jax/torch backends' tests too, which fail on both.
MORE_FOLDERS = ["backend", "export", "random", "utils", "tree", "quantizers", "distribution",
                "legacy", "datasets", "applications"]

#: Real TensorFlow 2.21 + Keras 3.15.1's outcome of every test of FOLDERS and MORE_FOLDERS (made
#: with ``--python /work/venv-tf/bin/python --save``): lines ``OUTCOME test-id``.
RECORD = ROOT / "tests" / "data" / "keras_suite" / "tensorflow_2.21.txt"

#: The fixed, fast subset for CI: test files (under keras/src) and how many of their tests
#: pass on flowgrad at least (a ratchet: raise the numbers as more pass).
FAST = {"losses/losses_test.py": 164, "activations/activations_test.py": 51,
        "layers/convolutional/conv_test.py": 41}

#: The pytest plugin Keras's tests import as ``conftest`` (Keras's repository has one at its
#: root, the wheel does not): the markers it registers and ``skip_if_backend``, for the
#: TensorFlow backend on one device.
PLUGIN = """import pytest


def pytest_configure(config):
    config.addinivalue_line("markers", "requires_trainable_backend: needs fit/train_step")
    config.addinivalue_line("markers", "multi_device: needs several devices")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "multi_device" in item.keywords:
            item.add_marker(pytest.mark.skip(reason="Requires multiple devices"))


def skip_if_backend(given_backend, reason):
    return pytest.mark.skipif(given_backend == "tensorflow", reason=reason)
"""

_LINE = re.compile(r"^\S*?(keras/src/\S+?::.*?) (PASSED|FAILED|SKIPPED|ERROR|XFAIL|XPASS)\b")


def keras_src(python: str = sys.executable) -> Path:
    """keras/src of the keras package that ``python`` imports.

    Raises:
      SystemExit: keras is not installed there.
    """
    out = subprocess.run([python, "-c", "import importlib.util as u; s = u.find_spec('keras');"
                          " print(s.origin if s else '')"], capture_output=True, text=True,
                         env=dict(os.environ, KERAS_BACKEND="tensorflow"))
    if not out.stdout.strip():
        raise SystemExit("keras_suite.py needs the keras extra: pip install flowgrad[keras]")
    return Path(out.stdout.strip()).parent / "src"


def groups_of(src: Path, folder: str, max_files: int) -> dict:
    """The test files of ``folder`` in groups, one per sub-folder: {group name: [files]}."""
    base = src / folder
    if base.is_file():
        return {folder: [base]}
    files = sorted(base.rglob("*_test.py"))
    if max_files:
        files = files[:max_files]
    groups: dict = {}
    for f in files:
        rel = f.relative_to(base).parts
        name = folder + ("/" + rel[0] if len(rel) > 1 else "")
        groups.setdefault(name, []).append(f)
    return groups


def run_group(files: list, timeout: float, python: str | None, log: Path,
              keyword: str | None = None) -> tuple:
    """pytest over ``files`` (the tests ``keyword`` selects, pytest's ``-k``): ({test id:
    outcome}, timed_out); the output goes to ``log``."""
    site = next(p for p in files[0].parents if p.name == "keras").parent
    timed_out = False
    with tempfile.TemporaryDirectory() as d, open(log, "w") as out:
        Path(d, "conftest.py").write_text(PLUGIN)
        path = [d] if python else [d, str(ROOT)]
        env = dict(os.environ, KERAS_BACKEND="tensorflow", PYTHONPATH=os.pathsep.join(
            path + [os.environ.get("PYTHONPATH", "")]))
        cmd = [python, "-m", "pytest"] if python else [sys.executable, "-m", "flowgrad", "-m",
                                                        "pytest"]
        cmd += ["-v", "-rfE", "--tb=line", "-p", "no:cacheprovider", "-p", "conftest",
                "--continue-on-collection-errors", "--rootdir", str(site), *map(str, files)]
        if keyword:
            cmd += ["-k", keyword]
        try:
            subprocess.run(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, timeout=timeout,
                           cwd=d)
        except subprocess.TimeoutExpired:
            timed_out = True
    outcomes = {}
    with open(log, errors="replace") as f:
        for line in f:
            m = _LINE.match(line)
            if m:
                test, outcome = m.groups()
                test = test[len("keras/src/"):]
                # a test that passed and then errored in teardown counts as an error
                if outcomes.get(test) != "ERROR":
                    outcomes[test] = outcome
    return outcomes, timed_out


def read_record(path: Path) -> dict:
    """{test id: outcome} from a recording (lines ``OUTCOME test-id``; ``#`` comments)."""
    out = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line and not line.startswith("#"):
                outcome, test = line.split(" ", 1)
                out[test] = outcome
    return out


def tally(outcomes: dict, reference: dict) -> dict:
    """Counts of a set of outcomes, and how many of the reference's passing tests pass."""
    c = {k: sum(1 for v in outcomes.values() if v in keys)
         for k, keys in (("passed", ("PASSED", "XPASS")), ("failed", ("FAILED", "ERROR")),
                         ("skipped", ("SKIPPED", "XFAIL")))}
    ref_pass = {t for t, v in reference.items() if v in ("PASSED", "XPASS")}
    c["tf_passed"] = len(ref_pass)
    c["both"] = sum(1 for t in ref_pass if outcomes.get(t) in ("PASSED", "XPASS"))
    return c


def print_table(folders: list, files: list) -> int:
    """Prints the README's table (per folder passed / failed / skipped on flowgrad, and the
    share of TensorFlow's passing tests that pass) from saved outcomes; returns 0."""
    outcomes, reference = {}, read_record(RECORD)
    for f in files:
        outcomes.update(read_record(Path(f)))
    print("| folder | passed | failed | skipped | passed on TF 2.21 | of those, pass on "
          "flowgrad | % of TF |\n|---|---|---|---|---|---|---|")
    for folder in folders:
        mine = {t: v for t, v in outcomes.items() if t.startswith(folder + "/")}
        ref = {t: v for t, v in reference.items() if t.startswith(folder + "/")}
        if not mine:
            continue
        c = tally(mine, ref)
        pct = "%.1f" % (100.0 * c["both"] / c["tf_passed"]) if c["tf_passed"] else "-"
        print("| %s | %d | %d | %d | %s | %s | %s |" % (
            folder, c["passed"], c["failed"], c["skipped"], c["tf_passed"] or "-",
            c["both"] if c["tf_passed"] else "-", pct))
    return 0


def main(argv: list | None = None) -> int:
    """Runs the suite and prints the table; returns the exit status."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", nargs="*", help="folders under keras/src (default: %s)"
                    % " ".join(FOLDERS))
    ap.add_argument("--fast", action="store_true", help="the fixed subset CI runs")
    ap.add_argument("--max-files", type=int, default=0, help="test files per folder (0: all)")
    ap.add_argument("--timeout", type=float, default=3600, help="seconds per group")
    ap.add_argument("--python", help="run with this interpreter as it is (real TensorFlow)")
    ap.add_argument("--save", help="write every test's outcome to this file")
    ap.add_argument("--logs", help="keep each group's pytest output in this folder")
    ap.add_argument("-k", dest="keyword", help="only the tests this pytest -k expression "
                    "selects (applications: the light models)")
    ap.add_argument("--table", nargs="+", metavar="FILE",
                    help="print the table of saved outcomes (--save files) and run nothing")
    args = ap.parse_args(argv)
    if args.table:
        return print_table(args.folders or FOLDERS + MORE_FOLDERS, args.table)
    src = keras_src(args.python or sys.executable)
    folders = list(FAST) if args.fast else (args.folders or FOLDERS)
    reference = read_record(RECORD) if args.python is None else {}
    logs = Path(args.logs or tempfile.mkdtemp(prefix="keras_suite_"))
    logs.mkdir(parents=True, exist_ok=True)
    print("%-24s %8s %6s %8s %9s %7s" % ("folder", "passed", "failed", "skipped", "TF-passed",
                                         "% of TF"), flush=True)
    bad, everything = False, {}
    for folder in folders:
        outcomes, timed_out = {}, False
        for name, files in groups_of(src, folder, args.max_files).items():
            got, late = run_group(files, args.timeout, args.python,
                                  logs / (name.replace("/", "_") + ".log"), args.keyword)
            outcomes.update(got)
            timed_out = timed_out or late
        everything.update(outcomes)
        ref = {t: v for t, v in reference.items() if t.startswith(folder)}
        c = tally(outcomes, ref)
        pct = "%.1f" % (100.0 * c["both"] / c["tf_passed"]) if c["tf_passed"] else "-"
        print("%-24s %8d %6d %8d %9s %7s%s" % (
            folder, c["passed"], c["failed"], c["skipped"], c["tf_passed"] or "-", pct,
            " (timed out)" if timed_out else ""), flush=True)
        if args.fast:
            bad = bad or c["passed"] < FAST[folder]
        else:
            bad = bad or c["failed"] > 0 or timed_out
    if args.save:
        with open(args.save, "w") as f:
            f.write("# keras_suite.py outcomes: %s\n" % " ".join(folders))
            for test in sorted(everything):
                f.write("%s %s\n" % (everything[test], test))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
