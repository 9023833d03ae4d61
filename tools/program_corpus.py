"""A corpus of real TensorFlow 2 programs, run on TensorFlow 2.21 and on flowgrad.

``list`` picks the programs: the ``.py`` files and the code cells of the ``.ipynb`` notebooks
(the ```` ```python ```` blocks of the Markdown chapters of eat_tensorflow2_in_30_days) that
import TensorFlow or Keras and are not written for TensorFlow 1.x, from bare git checkouts of
the repositories in :data:`SOURCES`. It writes ``tools/program_corpus.txt``: one line per
program, ``owner/name commit path`` (the programs' code is not in this repository).

``extract`` writes each repository's tree (its data files too: programs read them by relative
path) under ``DIR`` and each program beside its source as ``PATH.run.py`` (notebook cells
joined, IPython magics and shell escapes dropped).

``run`` runs the extracted programs, each in its own folder with a time limit, on
TensorFlow (``--python /work/venv-tf/bin/python``) or on flowgrad (``--flowgrad``: ``python
-m flowgrad``), and appends one JSON line per program to a log: status ``ok`` (exit 0),
``running`` (still running at the limit), ``error`` (the last line of the traceback).
The machine is offline: ``keras.datasets.mnist`` reads a ``mnist.npz`` made from the local
MNIST copy (``--mnist DIR``; ``tools/program_shims`` makes Keras accept it), and programs
that use it are counted apart (``data``). ``report`` compares two logs: the programs that run
on TensorFlow, those of them that run on flowgrad, and where the others stop, by cause.

Usage::

    python tools/program_corpus.py list /work/.mirror > tools/program_corpus.txt
    python tools/program_corpus.py extract /work/.mirror /tmp/corpus
    python tools/program_corpus.py run /tmp/corpus --python /work/venv-tf/bin/python --log tf.jsonl
    python tools/program_corpus.py run /tmp/corpus --flowgrad --log fg.jsonl [--only tf.jsonl]
    python tools/program_corpus.py run /tmp/corpus --python /work/venv-tf/bin/python \\
        --again fg.jsonl --timeout 300 --log tf.jsonl   # did TensorFlow stop there too?
    python tools/program_corpus.py report fg.jsonl tf.jsonl [tf2.jsonl ...]
    python tools/program_corpus.py report   # the committed logs, tools/program_corpus_logs/

``PROGRAM_DEPS=DIR`` puts ``DIR`` (say, a ``pip install --target`` of matplotlib, pandas and
scikit-learn) on the programs' path, for a Python that lacks them (TensorFlow's venv).
"""
from __future__ import annotations

import argparse
import ast
import collections
import concurrent.futures
import gzip
import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "program_corpus.txt"
SHIMS = HERE / "program_shims"
#: The logs the README's table is made from (one line per program, the latest run's).
LOGS = HERE / "program_corpus_logs"

#: ``owner/name``: the folders read (all of the repository where empty).
SOURCES = {
    "tensorflow/docs": ("site/en/guide/", "site/en/tutorials/"),
    "dragen1860/TensorFlow-2.x-Tutorials": (),
    "YunYang1994/TensorFlow2.0-Examples": (),
    "lyhue1991/eat_tensorflow2_in_30_days": (),
    "ageron/handson-ml2": (),
    "ageron/handson-ml3": (),
    "fchollet/deep-learning-with-python-notebooks": (),
    "aymericdamien/TensorFlow-Examples": ("tensorflow_v2/",),
    "keras-team/keras": ("guides/", "examples/", "integration_tests/", "benchmarks/"),
    "tensorflow/examples": ("courses/", "tensorflow_examples/", "templates/"),
    "Hvass-Labs/TensorFlow-Tutorials": (),
}

_IMPORTS_TF = re.compile(r"^\s*(?:import|from)\s+(?:tensorflow|keras)\b", re.M)
#: Names only TensorFlow 1.x has at the top level: such a program is not a TF2 program.
_TF1 = re.compile(r"\btf\.(?:Session|InteractiveSession|placeholder|global_variables_initializer|"
                  r"variable_scope|get_variable|contrib)\b|tensorflow\.compat\.v1 import|"
                  r"tf\.compat\.v1\.disable_v2_behavior|tensorflow\.examples\.tutorials")
_FENCE = re.compile(r"```(?:python|py|python3)\s*\n(.*?)```", re.S)
_MNIST = re.compile(r"datasets\.mnist|mnist\.load_data|datasets import mnist")


def _git(mirror: Path, repo: str, *args: str, data: bytes | None = None) -> bytes:
    git_dir = mirror / repo.replace("/", "+") / "repo"
    return subprocess.run(["git", "--git-dir", str(git_dir), *args], check=True,
                          capture_output=True, input=data).stdout


def _blobs(mirror: Path, repo: str, commit: str, folders: tuple = ()):
    """``(path, bytes)`` of the files of ``repo`` at ``commit`` (under ``folders``), leaving
    out those the mirror lacks (its largest files)."""
    listing = _git(mirror, repo, "ls-tree", "-r", "-z", commit, *folders).split(b"\0")
    entries = []
    for entry in listing:
        if entry:
            meta, path = entry.split(b"\t", 1)
            mode, kind, sha = meta.split()
            if kind == b"blob" and mode != b"120000":
                entries.append((path.decode("utf-8", "replace"), sha))
    out = _git(mirror, repo, "cat-file", "--batch",
               data=b"".join(sha + b"\n" for _, sha in entries))
    pos = 0
    for path, _ in entries:
        end = out.index(b"\n", pos)
        header = out[pos:end].split()
        pos = end + 1
        if header[-1] == b"missing":
            continue
        size = int(header[2])
        yield path, out[pos:pos + size]
        pos += size + 1


def code_of(path: str, text: str) -> str:
    """The program in one file: a notebook's code cells, a Markdown page's python blocks."""
    if path.endswith(".ipynb"):
        try:
            cells = json.loads(text).get("cells", [])
        except (ValueError, AttributeError):
            return ""
        parts = []
        for cell in cells:
            if cell.get("cell_type") == "code":
                src = cell.get("source", "")
                parts.append("".join(src) if isinstance(src, list) else src)
        text = "\n".join(parts)
    elif path.endswith(".md"):
        text = "\n".join(_FENCE.findall(text))
    lines = []
    for line in text.splitlines():
        stripped = line.lstrip()
        if stripped.startswith(("%", "!")):   # IPython magics and shell escapes
            line = line[:len(line) - len(stripped)] + "pass"
        lines.append(line)
    return "\n".join(lines) + "\n"


def _is_program(path: str, code: str) -> bool:
    if not _IMPORTS_TF.search(code) or _TF1.search(code):
        return False
    try:
        compile(code, path, "exec")
    except (SyntaxError, ValueError):
        return False      # Python 2, or a notebook of fragments
    return True


def list_programs(mirror: Path) -> list[tuple[str, str, str]]:
    """``(repo, commit, path)`` of every TF2 program of :data:`SOURCES`."""
    found = []
    for repo, folders in SOURCES.items():
        commit = _git(mirror, repo, "rev-parse", "HEAD").decode().strip()
        exts = (".py", ".ipynb", ".md") if repo.startswith("lyhue1991/") else (".py", ".ipynb")
        for name, blob in _blobs(mirror, repo, commit, folders):
            if not name.endswith(exts):
                continue
            if _is_program(name, code_of(name, blob.decode("utf-8", "replace"))):
                found.append((repo, commit, name))
    return found


def read_corpus(corpus: Path = CORPUS) -> list[tuple[str, str, str]]:
    """The ``(repo, commit, path)`` lines of ``corpus``."""
    rows = []
    for line in corpus.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            repo, commit, path = line.split(maxsplit=2)
            rows.append((repo, commit, path))
    return rows


def extract(mirror: Path, out: Path, corpus: Path = CORPUS) -> None:
    """Writes the repositories' trees and the runnable programs under ``out``."""
    rows = read_corpus(corpus)
    for repo, commit in sorted({(r, c) for r, c, _ in rows}):
        dest = out / repo.replace("/", "+")
        if not dest.exists():
            for path, blob in _blobs(mirror, repo, commit, SOURCES.get(repo, ())):
                (dest / path).parent.mkdir(parents=True, exist_ok=True)
                (dest / path).write_bytes(blob)
    for repo, _commit, path in rows:
        src = out / repo.replace("/", "+") / path
        text = src.read_text(encoding="utf-8", errors="replace")
        Path(str(src) + ".run.py").write_text(code_of(path, text))


def _mnist_npz(folder: Path) -> Path:
    """A Keras cache folder whose ``datasets/mnist.npz`` holds the MNIST of ``folder``."""
    import numpy as np
    home = Path("/tmp/program_corpus_keras")
    target = home / "datasets" / "mnist.npz"
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)

        def idx(name: str, offset: int) -> np.ndarray:
            with gzip.open(folder / name) as f:
                return np.frombuffer(f.read(), np.uint8, offset=offset)
        np.savez_compressed(
            target, x_train=idx("train-images-idx3-ubyte.gz", 16).reshape(-1, 28, 28),
            y_train=idx("train-labels-idx1-ubyte.gz", 8),
            x_test=idx("t10k-images-idx3-ubyte.gz", 16).reshape(-1, 28, 28),
            y_test=idx("t10k-labels-idx1-ubyte.gz", 8))
    return home


def run_one(program: Path, command: list[str], timeout: float, env: dict,
            output: Path | None = None) -> dict:
    """Runs ``command + [program]`` in the program's folder; its status and last error
    (its standard output written to ``output`` when given, to compare two runs)."""
    start = time.time()
    try:
        proc = subprocess.run(["nice", "-n", "10", *command, program.name], cwd=program.parent,
                              capture_output=True, text=True, timeout=timeout, env=env,
                              stdin=subprocess.DEVNULL, errors="replace")
    except subprocess.TimeoutExpired as stopped:
        if output is not None:
            text = stopped.stdout or b""
            output.write_text(text.decode("utf-8", "replace") if isinstance(text, bytes)
                              else text)
        return {"status": "running", "detail": "", "seconds": round(time.time() - start, 1)}
    seconds = round(time.time() - start, 1)
    if output is not None:
        output.write_text(proc.stdout)
    if proc.returncode == 0:
        return {"status": "ok", "detail": "", "seconds": seconds}
    lines = [ln for ln in proc.stderr.strip().splitlines() if ln.strip()]
    where = [ln.strip() for ln in lines if ln.lstrip().startswith('File "')]
    return {"status": "error", "detail": lines[-1][:300] if lines else "exit %d" %
            proc.returncode, "where": where[-1][:300] if where else "", "seconds": seconds}


#: A program that downloads (a data set other than MNIST, a model, a web page) stops offline
#: on TensorFlow too; it is left out without running (``out``).
_NETWORK = re.compile(
    r"get_file\(|tfds\.|tensorflow_datasets|tensorflow_hub|urlretrieve|urlopen|requests\.get|"
    r"wget|kaggle|download|(?:cifar10|cifar100|imdb|reuters|boston_housing|fashion_mnist|"
    r"california_housing)\.load_data")


def _imports(code: str) -> set:
    """The top-level modules ``code`` imports."""
    names = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def _missing(command: list, modules: set, folders: set, env: dict) -> set:
    """The modules of ``modules`` that ``command`` (a Python) cannot import (a program's own
    modules, in ``folders``, count as there)."""
    probe = ("import importlib.util, json, sys\n"
             "print(json.dumps([m for m in json.loads(sys.argv[1]) "
             "if importlib.util.find_spec(m) is None]))")
    out = subprocess.run([*command, "-c", probe, json.dumps(sorted(modules))], env=env,
                         capture_output=True, text=True, check=True).stdout
    return {m for m in json.loads(out)
            if not any((f / m).exists() or (f / (m + ".py")).exists() for f in folders)}


def run(out: Path, command: list[str], timeout: float, log: Path, mnist: Path | None,
        only: set | None = None, jobs: int = 1, corpus: Path = CORPUS,
        again: bool = False, outputs: Path | None = None) -> None:
    """Runs every program of the corpus (those in ``only`` when given), appending to ``log``
    (``again``: those already there too; the last line of a program counts) and, with
    ``outputs``, writing each program's standard output there.

    A program runs with its repository's root on its path (the repository's own packages,
    as ``tensorflow_examples``, import as from a checkout). A program that downloads or
    imports a module this Python lacks is logged as ``out`` without running."""
    done = set()
    if log.exists() and not again:
        done = {json.loads(line)["program"] for line in log.read_text().splitlines() if line}
    env = {**os.environ, "MPLBACKEND": "Agg", "PYTHONUNBUFFERED": "1",
           "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "TF_NUM_INTEROP_THREADS": "1",
           "TF_NUM_INTRAOP_THREADS": "1", "TF_CPP_MIN_LOG_LEVEL": "2"}
    extra = [str(SHIMS)] + ([os.environ["PROGRAM_DEPS"]] if os.environ.get("PROGRAM_DEPS") else [])
    env["PYTHONPATH"] = os.pathsep.join(extra + [p for p in [env.get("PYTHONPATH")] if p])
    if mnist is not None:
        env["KERAS_HOME"] = str(_mnist_npz(mnist))
    todo = []
    for repo, _, path in read_corpus(corpus):
        name = repo + ":" + path
        if name not in done and (only is None or name in only):
            todo.append((name, Path(str(out / repo.replace("/", "+") / path) + ".run.py")))
    codes = {name: program.read_text(errors="replace") for name, program in todo}
    modules = set().union(*map(_imports, codes.values())) if codes else set()
    folders = {program.parent for _, program in todo}
    roots = {name: out.resolve() / name.split(":", 1)[0].replace("/", "+") for name, _ in todo}
    missing = _missing(command, modules, folders | set(roots.values()), env)
    lock = threading.Lock()

    def one(item: tuple) -> None:
        name, program = item
        code = codes[name]
        root = roots[name]
        lacking = sorted((_imports(code) & missing) - {
            m for m in missing for folder in (program.parent, root)
            if (folder / m).exists() or (folder / (m + ".py")).exists()})
        if _NETWORK.search(code):
            result = {"status": "out", "detail": "downloads (offline)"}
        elif lacking:
            result = {"status": "out", "detail": "imports %s (not installed)" % ", ".join(lacking)}
        else:
            own = {**env, "PYTHONPATH": os.pathsep.join([env["PYTHONPATH"], str(root)])}
            saved = None
            if outputs is not None:
                outputs.mkdir(parents=True, exist_ok=True)
                saved = outputs / (re.sub(r"[^\w.-]+", "_", name) + ".txt")
            result = run_one(program, command, timeout, own, saved)
        result = {"program": name, **result, "data": bool(_MNIST.search(code))}
        with lock, log.open("a") as f:
            f.write(json.dumps(result) + "\n")
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        list(pool.map(one, todo))


def _load(log: Path) -> dict:
    return {r["program"]: r for r in map(json.loads, log.read_text().splitlines()) if r}


def cause(detail: str) -> str:
    """A failure's cause: the exception class and its message without numbers and quotes."""
    text = re.sub(r"'[^']*'|\"[^\"]*\"", "'...'", detail)
    text = re.sub(r"\d+", "N", text)
    return text[:110]


def report(tf_logs: list, fg_log: Path) -> str:
    """The comparison table (Markdown) of TensorFlow logs (a later line of a program wins)
    and a flowgrad log, then where the programs that run on TensorFlow stop on flowgrad."""
    tf: dict = {}
    for log in tf_logs:
        tf.update(_load(log) if log.exists() else {})
    fg = _load(fg_log)
    names = sorted(set(tf) | set(fg))
    groups: dict = collections.defaultdict(list)
    for n in names:
        t, f = tf.get(n, {}).get("status"), fg.get(n, {}).get("status")
        if "out" in (t, f):
            groups["left out before running (downloads, or imports a module not installed)"] \
                .append(n)
        elif t == "error":      # flowgrad need not run what stops on TensorFlow
            groups["stop on TensorFlow 2.21 too (offline, Keras 3, the program's own bugs)"] \
                .append(n)
        elif t is None or f is None:
            groups["not run on both yet"].append(n)
        else:
            groups["run on TensorFlow 2.21 (exit 0, or still running at the limit)"].append(n)
            groups["of those, run on flowgrad" if f in ("ok", "running") else
                   "of those, stop on flowgrad"].append(n)
    data = {n for n in names if tf.get(n, fg.get(n, {})).get("data")}
    lines = ["| programs | all | using keras.datasets.mnist | others |", "|---|---|---|---|"]
    order = ["left out before running (downloads, or imports a module not installed)",
             "stop on TensorFlow 2.21 too (offline, Keras 3, the program's own bugs)",
             "run on TensorFlow 2.21 (exit 0, or still running at the limit)",
             "of those, run on flowgrad", "of those, stop on flowgrad", "not run on both yet"]
    for label in ["in the corpus so far"] + order:
        group = names if label == "in the corpus so far" else groups[label]
        d = len(set(group) & data)
        lines.append("| %s | %d | %d | %d |" % (label, len(group), d, len(group) - d))
    causes = collections.defaultdict(list)
    for n in groups["of those, stop on flowgrad"]:
        causes[cause(fg[n]["detail"])].append(n)
    lines.append("\nWhere they stop on flowgrad:\n")
    for text, progs in sorted(causes.items(), key=lambda kv: -len(kv[1])):
        lines.append("- %d: `%s` (%s)" % (len(progs), text, ", ".join(
            p.split(":", 1)[1] for p in progs)))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("list")
    p.add_argument("mirror", type=Path)
    p = sub.add_parser("extract")
    p.add_argument("mirror", type=Path)
    p.add_argument("out", type=Path)
    p.add_argument("--corpus", type=Path, default=CORPUS, help="the programs to extract")
    p = sub.add_parser("run")
    p.add_argument("out", type=Path)
    p.add_argument("--python", default=sys.executable)
    p.add_argument("--flowgrad", action="store_true", help="run as python -m flowgrad")
    p.add_argument("--timeout", type=float, default=60.0)
    p.add_argument("--log", type=Path, required=True)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--only", type=Path, help="a TensorFlow log: its programs that ran")
    p.add_argument("--again", type=Path,
                   help="a flowgrad log: run (again, appending) the programs that stopped on "
                        "flowgrad and have no exit status here (not run, or still running at "
                        "the limit): with a longer --timeout, whether TensorFlow stops too")
    p.add_argument("--mnist", type=Path, default=HERE.parent.parent / "shared" / "data" / "mnist")
    p.add_argument("--corpus", type=Path, default=CORPUS,
                   help="the programs to run (default: the whole corpus list)")
    p.add_argument("--outputs", type=Path, help="a folder for each program's standard output")
    p = sub.add_parser("report")
    p.add_argument("fg_log", type=Path, nargs="?", default=LOGS / "flowgrad.jsonl")
    p.add_argument("tf_logs", type=Path, nargs="*", default=[LOGS / "tensorflow.jsonl"])
    args = parser.parse_args(argv)
    if args.cmd == "list":
        print("# TF2 programs run by tools/program_corpus.py: owner/name commit path")
        for row in list_programs(args.mirror):
            print(" ".join(row))
    elif args.cmd == "extract":
        extract(args.mirror, args.out, args.corpus)
    elif args.cmd == "run":
        command = [args.python] + (["-m", "flowgrad"] if args.flowgrad else [])
        only = None
        if args.only:
            only = {n for n, r in _load(args.only).items() if r["status"] in ("ok", "running")}
        mnist = args.mnist if args.mnist.is_dir() else None
        again = False
        if args.again:
            mine = _load(args.log) if args.log.exists() else {}
            only = {n for n, r in _load(args.again).items() if r["status"] == "error"
                    and mine.get(n, {}).get("status") in (None, "running")}
            again = True
        run(args.out, command, args.timeout, args.log, mnist, only, args.jobs, args.corpus,
            again, args.outputs)
    else:
        print(report(args.tf_logs, args.fg_log))
    return 0


if __name__ == "__main__":
    sys.exit(main())
