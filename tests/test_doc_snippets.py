"""Every ```python block of README.md and docs/ runs, and prints what the page says it prints.

Each block runs in a fresh Python process (in a temporary folder, offline). Where a line
``print(...)`` or a bare expression carries a comment that starts like a value (a number,
``[``, ``(``, a quote, ``array``, ``tf.``, ``<``), the numbers printed or displayed for that
line must equal the comment's first numbers (relative tolerance 1e-4; ``nan``/``inf``
compare as themselves), so a figure in the docs cannot drift from what the code does.

An HTML comment on the line before a block (invisible on the rendered page) changes how it
runs:

- ``<!-- snippet: continue -->``: the block continues the page's previous block (run after it);
- ``<!-- snippet: skip REASON -->``: the block is not run (say why: e.g. another test runs it).
"""
from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))
_BLOCK = re.compile(r"(?:<!--\s*snippet:\s*(\w+)([^>]*)-->\s*\n)?```python\n(.*?)```", re.S)
_NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)"
                     r"(?![\w])|(?<![\w])[-+]?(?:nan|inf)(?![\w])")
_VALUE_START = re.compile(r"\s*(?:[-+]?\d|\.\d|\[|\(|'|\"|array|tf\.|<|nan|inf|True|False)")


def _blocks() -> list:
    """(page, line, code, skip reason) of every block, continued blocks joined."""
    out = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        previous = None
        for m in _BLOCK.finditer(text):
            kind, arg, code = m.group(1), (m.group(2) or "").strip(), m.group(3)
            line = text[:m.start(3)].count("\n") + 1
            if kind == "continue" and previous is not None:
                code = previous + "\n" + code
            previous = code
            rel = page.relative_to(ROOT)
            out.append(pytest.param(str(rel), line, code, arg if kind == "skip" else None,
                                    id="%s:%d" % (rel, line)))
    return out


# The checker that runs inside the snippet's process: records what each line prints and
# what bare expressions with a value comment evaluate to.
_RUNNER = r'''
import builtins, json, sys
_real_print = builtins.print
_seen = {}
def _print(*args, **kwargs):
    line = sys._getframe(1).f_lineno
    if sys._getframe(1).f_code.co_filename == sys.argv[1]:
        sep = kwargs.get("sep", " ")
        _seen.setdefault(str(line), []).append(sep.join(str(a) for a in args))
    _real_print(*args, **kwargs)
builtins.print = _print
def _show(line, value):
    _seen.setdefault(str(line), []).append(repr(value))
    return value
path = sys.argv[1]
with open(path) as f:
    code = f.read()
exec(compile(code, path, "exec"), {"__name__": "__main__", "_show": _show})
_real_print("\n@@SNIPPET@@" + json.dumps(_seen))
'''


def _instrument(code: str) -> tuple[str, dict]:
    """The code with value-commented bare expressions wrapped in ``_show``, and the expected
    comment of each checked line."""
    lines = code.split("\n")
    expected = {}
    tree = ast.parse(code)
    comments = {}
    for i, text in enumerate(lines, 1):
        pos = _comment_start(text)
        if pos is not None and _VALUE_START.match(text[pos + 1:]):
            comments[i] = text[pos + 1:]
    for node in ast.walk(tree):
        if not isinstance(node, ast.Expr) or node.end_lineno not in comments:
            continue
        end = node.end_lineno
        is_print = (isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name)
                    and node.value.func.id == "print")
        expected[node.lineno if is_print else end] = comments[end]
        if not is_print and node.lineno == end:
            text = lines[end - 1]
            seg = text[node.col_offset:node.end_col_offset]
            lines[end - 1] = (text[:node.col_offset] + "_show(%d, %s)" % (end, seg)
                              + text[node.end_col_offset:])
    return "\n".join(lines), expected


def _comment_start(text: str) -> int | None:
    """Index of the ``#`` that starts a comment on the line (not one inside a string)."""
    quote = None
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#":
            return i
    return None


def _numbers(text: str) -> list[tuple[float, float]]:
    """The numbers of ``text``, each with its tolerance: relative 1e-4, or one unit of the last
    digit shown when the page truncates it with ``...`` (``0.0216...``)."""
    out = []
    for m in _NUMBER.finditer(text):
        value = float(m.group())
        tol = 1e-4 * abs(value)
        digits = m.group().partition(".")[2]
        if text.startswith("...", m.end()) and digits.isdigit():
            tol = max(tol, 10.0 ** -len(digits))
        out.append((value, tol))
    return out


@pytest.mark.parametrize("page,line,code,skip", _blocks())
def test_snippet_runs_and_prints_what_the_page_says(page, line, code, skip, tmp_path):
    if skip is not None:
        pytest.skip(skip or "marked skip")
    source, expected = _instrument(code)
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
           "FLOWGRAD_OFFLINE": "1", "FLOWGRAD_DATA": str(ROOT / "data"),
           "OPENBLAS_NUM_THREADS": "1"}
    # A real file, so that tf.function's AutoGraph can read the functions' source.
    snippet = tmp_path / "snippet.py"
    snippet.write_text(source, encoding="utf-8")
    proc = subprocess.run([sys.executable, "-c", _RUNNER, str(snippet)], text=True,
                          capture_output=True, cwd=tmp_path, env=env, timeout=300)
    assert proc.returncode == 0, "%s:%d failed:\n%s" % (page, line, proc.stderr[-3000:])
    seen = json.loads(proc.stdout.rsplit("@@SNIPPET@@", 1)[1])
    for at, comment in expected.items():
        shown = seen.get(str(at))
        assert shown, "%s:%d: line %d printed nothing" % (page, line, at)
        got = [g for g, _ in _numbers(shown[-1])]
        want = _numbers(comment)[:len(got)]
        assert len(want) == len(got) and all(
            (g != g and w != w) or g == w or abs(g - w) <= tol
            for g, (w, tol) in zip(got, want)), (
            "%s:%d: line %d shows %r, the page says %r" % (page, line, at, shown[-1], comment))
