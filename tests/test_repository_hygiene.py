"""The checkout itself: no merge-conflict markers in tracked files, and no test fixture that
git ignores (a fixture present only in one engineer's tree passes there and fails in CI)."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(),
                                reason="needs a git checkout")
_MARKER = re.compile(rb"^(<{7} |>{7} |={7}$)", re.M)


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True,
                          check=True).stdout


def test_no_merge_conflict_markers_in_tracked_files():
    bad = []
    for name in _git("ls-files").splitlines():
        path = ROOT / name
        if path.suffix in (".py", ".md", ".toml", ".txt", ".yml", ".cfg", ".json") \
                and path.is_file() and _MARKER.search(path.read_bytes()):
            bad.append(name)
    assert not bad, "merge-conflict markers in %s" % bad


def test_no_test_fixture_is_ignored_by_git():
    ignored = _git("status", "--ignored", "--short", "--", "tests/data", "tools").splitlines()
    ignored = [line[3:] for line in ignored if line.startswith("!!")
               and "__pycache__" not in line]
    assert not ignored, "fixtures git ignores (CI's clone lacks them): %s" % ignored
