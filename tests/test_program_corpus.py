"""tools/program_corpus.py's report on its committed logs (tools/program_corpus_logs/) is the
README's table: the figures there are what the logs say."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("program_corpus",
                                               ROOT / "tools" / "program_corpus.py")
program_corpus = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(program_corpus)


def _rows(text: str) -> list:
    """The figures of each row of the first Markdown table in ``text`` (percentages left out)."""
    rows = []
    for line in text.splitlines():
        if line.startswith("| ") and not line.startswith("| programs"):
            rows.append([int(n) for n in re.findall(r"\| (\d+)", line)])
    return rows


def test_readme_table_is_the_report_of_the_committed_logs():
    logs = program_corpus.LOGS
    table = program_corpus.report([logs / "tensorflow.jsonl"], logs / "flowgrad.jsonl")
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("A name that resolves is not a program that runs."):]
    section = section[:section.index("\n\n", section.index("| programs |"))]
    assert _rows(section) == _rows(table.split("\n\n")[0])


def test_every_logged_program_is_in_the_corpus():
    names = {repo + ":" + path for repo, _, path in program_corpus.read_corpus()}
    for log in ("tensorflow.jsonl", "flowgrad.jsonl"):
        logged = program_corpus._load(program_corpus.LOGS / log)
        assert set(logged) <= names, sorted(set(logged) - names)[:5]
