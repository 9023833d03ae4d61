"""Runs TensorFlow's own Python tests (``tensorflow/python/kernel_tests/**``,
``tensorflow/python/ops/*_test.py``...) on flowgrad: ``python -m flowgrad -m pytest`` per test
file, then per file passed / failed / skipped and the failures grouped by cause.

    python tools/tf_suite.py --src /tmp/tft                  # every file of FILES
    python tools/tf_suite.py --src /tmp/tft math_ops/cwise   # files whose path contains these
    python tools/tf_suite.py --src /tmp/tft --causes 40      # the 40 most frequent causes
    python tools/tf_suite.py --src /tmp/tft --save out.txt   # every test's outcome and cause
    python tools/tf_suite.py --table out.txt                 # the README's table, runs nothing

The test files are not in the ``tensorflow`` wheel: ``--src`` is a checkout of TensorFlow's
repository (FILES says how to get one). Each file runs in its own child process, with this
checkout's flowgrad first on ``PYTHONPATH`` and a time limit; the outcomes come from pytest's
``-v`` lines, so a file that times out still counts the tests it finished. A failure's cause is
read from pytest's one-line summary: an internal module flowgrad does not serve, a missing
name, a wrong value (an assertion on numbers, dtypes or shapes), an error of the wrong class or
message, or another exception. The exit status is 1 when a test failed.
"""
from __future__ import annotations

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The measured test files (paths in TensorFlow's repository, one a line; ``#`` comments).
FILES = ROOT / "tools" / "tf_suite_files.txt"

_LINE = re.compile(r"^(\S+?::\S+) (PASSED|FAILED|SKIPPED|ERROR|XFAIL|XPASS)\b")
_SUMMARY = re.compile(r"^(FAILED|ERROR) (\S+?)(?: - (.*))?$")

#: (cause pattern, label) in order: the first whose pattern matches the summary's message.
_CAUSES = [
    (re.compile(r"ImportError: cannot import name '(\w+)' from 'flowgrad\.tf_internal\.([\w.]+)'"),
     "import tensorflow.{1}.{0}"),
    (re.compile(r"(?:ModuleNotFoundError|ImportError): .*?'(tensorflow[\w.]*)'"),
     "import {0}"),
    (re.compile(r"AttributeError: module '([\w.]+)' has no attribute '(\w+)'"),
     "missing name {0}.{1}"),
    (re.compile(r"AttributeError: (?:type object )?'(\w+)' (?:object )?has no attribute '(\w+)'"),
     "missing attribute {0}.{1}"),
    (re.compile(r"AttributeError: flowgrad has no raw op for (\S+)"), "missing raw op {0}"),
    (re.compile(r"(?:Exception of type \w+: .* does not match|DID NOT RAISE|not raised|"
                r"Expected exception)"), "error class/message"),
    (re.compile(r"AssertionError: .*(?:[Nn]ot equal|[Mm]ismatch|[Nn]ot close|!=|"
                r"[Nn]ot all close|[Aa]rrays are not|shape)"), "wrong value"),
    (re.compile(r"^(\w+(?:Error|Exception))\b"), "exception {0}"),
]


def cause_of(message: str) -> str:
    """The cause label of a failure's one-line summary message."""
    for pattern, label in _CAUSES:
        m = pattern.search(message or "")
        if m:
            return label.format(*m.groups())
    return "other"


def read_files(src: Path, patterns: list) -> list:
    """The test files of FILES under ``src`` whose path contains one of ``patterns``."""
    paths = [line.strip() for line in FILES.read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    if patterns:
        paths = [p for p in paths if any(s in p for s in patterns)]
    missing = [p for p in paths if not (src / p).is_file()]
    if missing:
        raise SystemExit("not under %s: %s (see %s)" % (src, ", ".join(missing), FILES))
    return paths


def run_file(src: Path, path: str, timeout: float, python: str | None) -> tuple:
    """pytest over one test file: ({test id: (outcome, cause)}, timed_out, output)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        ([] if python else [str(ROOT)]) + [os.environ.get("PYTHONPATH", "")]),
        TF_CPP_MIN_LOG_LEVEL="3", COLUMNS="400")
    cmd = [python, "-m", "pytest"] if python else [sys.executable, "-m", "flowgrad", "-m",
                                                    "pytest"]
    cmd += ["-v", "-rfE", "--tb=short", "-p", "no:cacheprovider", "--rootdir", str(src),
            str(src / path)]
    timed_out = False
    with tempfile.TemporaryFile("w+", errors="replace") as out:
        try:
            subprocess.run(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, timeout=timeout,
                           cwd=src)
        except subprocess.TimeoutExpired:
            timed_out = True
        out.seek(0)
        text = out.read()
    outcomes: dict = {}
    for line in text.splitlines():
        m = _LINE.match(line)
        if m and outcomes.get(m.group(1), ("",))[0] != "ERROR":
            outcomes[m.group(1)] = (m.group(2), "")
        m = _SUMMARY.match(line)
        if m:
            outcomes[m.group(2)] = (m.group(1), cause_of(m.group(3) or _collect_error(
                text, m.group(2))))
    return outcomes, timed_out, text


def _collect_error(text: str, test: str) -> str:
    """The first ``E`` line of the error pytest printed for ``test`` (a file that did not
    import has no message in the summary)."""
    start = text.find("ERROR collecting " + test)
    for line in text[start:].splitlines() if start >= 0 else ():
        if line.startswith("E   "):
            return line[4:].strip()
    return ""


def tally(outcomes: dict) -> dict:
    """Counts of passed / failed (or errored) / skipped outcomes."""
    c = collections.Counter()
    for outcome, _ in outcomes.values():
        c[{"PASSED": "passed", "XPASS": "passed", "FAILED": "failed", "ERROR": "failed"}.get(
            outcome, "skipped")] += 1
    return c


def read_saved(paths: list) -> dict:
    """{test id: (outcome, cause)} from ``--save`` files (``OUTCOME test-id\\tcause``)."""
    out = {}
    for p in paths:
        for line in Path(p).read_text().splitlines():
            if line and not line.startswith("#"):
                head, _, cause = line.partition("\t")
                outcome, test = head.split(" ", 1)
                out[test] = (outcome, cause)
    return out


def print_table(outcomes: dict) -> None:
    """Prints the markdown table: per test file passed / failed / skipped, and the total."""
    by_file: dict = collections.defaultdict(dict)
    for test, value in outcomes.items():
        by_file[test.split("::")[0]][test] = value
    print("| test file | passed | failed | skipped | % passed |\n|---|---|---|---|---|")
    total = collections.Counter()
    for name in sorted(by_file):
        c = tally(by_file[name])
        total.update(c)
        ran = c["passed"] + c["failed"]
        print("| %s | %d | %d | %d | %s |" % (
            name.replace("tensorflow/python/", ""), c["passed"], c["failed"], c["skipped"],
            "%.0f" % (100.0 * c["passed"] / ran) if ran else "-"))
    ran = total["passed"] + total["failed"]
    print("| **all %d files** | %d | %d | %d | %s |" % (
        len(by_file), total["passed"], total["failed"], total["skipped"],
        "%.1f" % (100.0 * total["passed"] / ran) if ran else "-"))


def print_causes(outcomes: dict, top: int) -> None:
    """Prints the ``top`` most frequent failure causes, with up to three tests each."""
    causes: dict = collections.defaultdict(list)
    for test, (outcome, cause) in outcomes.items():
        if outcome in ("FAILED", "ERROR"):
            causes[cause or "other"].append(test)
    print("\nfailures by cause:")
    for cause, tests in sorted(causes.items(), key=lambda kv: -len(kv[1]))[:top]:
        print("%5d  %s\n       e.g. %s" % (len(tests), cause, "\n            ".join(
            t.replace("tensorflow/python/", "") for t in tests[:3])))


def main(argv: list | None = None) -> int:
    """Runs the chosen test files, prints the counts and causes; returns the exit status."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("patterns", nargs="*", help="run the files whose path contains one")
    ap.add_argument("--src", help="a checkout of TensorFlow's repository (FILES says how)")
    ap.add_argument("--timeout", type=float, default=600, help="seconds per test file")
    ap.add_argument("--python", help="run with this interpreter as it is (real TensorFlow)")
    ap.add_argument("--save", help="write every test's outcome and cause to this file")
    ap.add_argument("--logs", help="keep each file's pytest output in this folder")
    ap.add_argument("--causes", type=int, default=25, help="how many causes to print")
    ap.add_argument("--table", nargs="+", metavar="FILE",
                    help="print the table of saved outcomes (--save files) and run nothing")
    args = ap.parse_args(argv)
    if args.table:
        saved = read_saved(args.table)
        print_table(saved)
        print_causes(saved, args.causes)
        return 0
    if not args.src:
        ap.error("--src (a checkout of TensorFlow's repository) is needed to run tests")
    src = Path(args.src).resolve()
    everything: dict = {}
    print("%-62s %6s %6s %7s" % ("test file", "passed", "failed", "skipped"), flush=True)
    for path in read_files(src, args.patterns):
        outcomes, timed_out, text = run_file(src, path, args.timeout, args.python)
        if not outcomes:      # nothing collected: the module did not import
            last = [ln for ln in text.splitlines() if "Error" in ln][-1:] or ["no tests"]
            outcomes = {path + "::<module>": ("ERROR", cause_of(last[0].strip("E ")))}
        everything.update(outcomes)
        if args.save:         # after every file, so an interrupted run keeps what it measured
            Path(args.save).write_text("".join("%s %s\t%s\n" % (o, t, cause) for t, (o, cause)
                                               in sorted(everything.items())))
        if args.logs:
            Path(args.logs).mkdir(parents=True, exist_ok=True)
            Path(args.logs, path.replace("/", "_") + ".log").write_text(text)
        c = tally(outcomes)
        print("%-62s %6d %6d %7d%s" % (path.replace("tensorflow/python/", ""), c["passed"],
                                       c["failed"], c["skipped"],
                                       "  (timed out)" if timed_out else ""), flush=True)
    print()
    print_table(everything)
    print_causes(everything, args.causes)
    return 1 if tally(everything)["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
