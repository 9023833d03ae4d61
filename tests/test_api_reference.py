"""The API reference's namespace pages (tools/docs_api_pages.py, a MkDocs hook) cover both faces.

The pages are written at build time from the faces, so they cannot go stale; what can go
wrong is a namespace left off the pages, or an object the pages point mkdocstrings at
that is not where they say (mkdocstrings reads the source files, not the live objects).
CI's ``mkdocs build --strict`` renders them; these checks need no MkDocs.
"""
from __future__ import annotations

import functools
import importlib
import inspect
import re
import sys
from pathlib import Path

import flowgrad
from flowgrad.api import namespaces
from flowgrad.api.exports import EXTENSIONS

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import docs_api_pages  # noqa: E402



@functools.lru_cache(maxsize=1)
def _reference() -> docs_api_pages.Reference:
    return docs_api_pages.build()


def _shown() -> set:
    return {path for _, _, paths, _ in docs_api_pages.all_pages() for path in paths}


def test_every_tf2_namespace_has_a_page():
    shown = _shown()
    missing = sorted(name for name in namespaces.modules("tf") - EXTENSIONS | {"debug"}
                     if hasattr(flowgrad, name)
                     and docs_api_pages.FOLDED.get(name, f"tf.{name}") not in shown)
    assert not missing, missing


def test_every_listed_namespace_exists_and_is_a_module():
    for path in _shown():
        assert inspect.ismodule(docs_api_pages.resolve(path)), path


def test_each_object_is_rendered_once_from_where_its_source_defines_it():
    reference = _reference()
    directives = [m.group(1) for page in reference.pages.values()
                  for m in re.finditer(r"^::: (\S+)$", page, re.M)]
    assert len(directives) == len(set(directives)), "an object is rendered twice"
    assert len(directives) > 500
    for ident in directives:  # mkdocstrings finds it at module.qualname in the source
        module_name, _, qualname = ident.rpartition(".")
        obj = None
        while module_name:
            try:
                obj = importlib.import_module(module_name)
                break
            except ImportError:
                module_name, _, head = module_name.rpartition(".")
                qualname = f"{head}.{qualname}"
        for part in qualname.split("."):
            obj = getattr(obj, part)
        assert inspect.isfunction(obj) or inspect.isclass(obj), ident


def test_every_public_callable_of_a_page_is_documented_or_linked():
    reference = _reference()
    for stem, _, paths, _ in docs_api_pages.all_pages():
        page = reference.pages[stem]
        for path in paths:
            namespace = docs_api_pages.resolve(path)
            for name in docs_api_pages.public_names(namespace):
                obj = getattr(namespace, name)
                if (inspect.isfunction(obj) or inspect.isclass(obj)) and \
                        (obj.__module__ or "").startswith("flowgrad"):
                    assert f"{path}.{name}" in page or f"`{name}(" in page, (stem, path, name)


def test_the_nav_gets_the_pages():
    config = {"nav": [{"Home": "index.md"}, {"API reference": []}],
              "config_file_path": str(ROOT / "mkdocs.yml")}
    docs_api_pages.on_config(config)
    entries = config["nav"][1]["API reference"]
    assert [next(iter(e.values())) for e in entries] == [
        f"reference/{stem}.md" for stem, _, _, _ in docs_api_pages.all_pages()]
    assert "::: flowgrad.ops.state_ops.Variable" in docs_api_pages._REFERENCE["built"].pages["tf"]


def test_a_namespace_pages_do_not_list_gets_a_page_of_its_own(monkeypatch):
    pages = [page for page in docs_api_pages.PAGES if page[0] != "tf.signal"]
    monkeypatch.setattr(docs_api_pages, "PAGES", tuple(pages))
    stems = [stem for stem, _, _, _ in docs_api_pages.all_pages()]
    assert "tf.signal" in stems and stems.index("tf.signal") < stems.index("tf")
