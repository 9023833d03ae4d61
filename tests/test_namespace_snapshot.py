"""Every namespace of both faces keeps its names and their objects while the namespaces move
into the export table (issue 27): a recorded snapshot, read back by object identity.

``tests/data/api/namespaces.json`` holds, for each namespace reachable from
``import flowgrad as tf`` and ``import flowgrad.compat.v1 as tf`` (``tf.math``,
``tf.compat.v1.nn.rnn_cell``, ...; not ``tf.keras`` and its aliases, which the real Keras
serves), each public name and what it is: ``module:qualname`` for a function or class, ``module``
for a namespace, else the value's type and repr. A name may be added anywhere; a recorded name
that goes, or becomes another object, fails here. After a deliberate change, rewrite the file
with ``PYTHONPATH=$PWD python tests/test_namespace_snapshot.py --write`` (from the checkout).
"""
from __future__ import annotations

import json
import re
import sys
import types
from pathlib import Path
from typing import Any

import pytest

import flowgrad
import flowgrad.compat.v1 as v1

SNAPSHOT = Path(__file__).resolve().parent / "data" / "api" / "namespaces.json"

#: Namespaces the real Keras serves (flowgrad/dropin.py), the compat aliases of the faces, and
#: tf.raw_ops (the op registry's types, the ops loaded so far).
SKIPPED = {"tf.keras", "tf.losses", "tf.metrics", "tf.optimizers", "tf.compat.v1.keras",
           "tf.compat", "tf.compat.v1.compat", "tf.raw_ops", "tf.compat.v1.raw_ops"}


def describe(value: Any) -> str:
    """What a public name is, in a form that survives a fresh process."""
    if isinstance(value, types.ModuleType):
        return "module" if value.__name__.startswith("flowgrad") else "module " + value.__name__
    if isinstance(value, (types.FunctionType, type, types.BuiltinFunctionType)):
        return "%s:%s" % (value.__module__, value.__qualname__)
    return "%s %s" % (type(value).__name__, re.sub(" at 0x[0-9a-f]+", "", repr(value))[:60])


def _public(module: types.ModuleType) -> list:
    return sorted(n for n in dir(module) if not n.startswith("_"))


def _namespace_below(path: str, parent: types.ModuleType, name: str, value: Any) -> bool:
    """Whether ``value`` is a namespace to walk: flowgrad's module, and below a face's own
    namespaces not merely a submodule of the implementation package (``tf.debug.explain``)."""
    if not isinstance(value, types.ModuleType) or not value.__name__.startswith("flowgrad"):
        return False
    return (path in ("tf", "tf.compat.v1") or name == "experimental"
            or not hasattr(value, "__file__")        # built from the export table
            or value.__name__ != parent.__name__ + "." + name)


def snapshot() -> dict:
    """Every namespace's names and what each is, walking both faces."""
    found: dict = {}
    seen: set = set()
    todo = [("tf", flowgrad), ("tf.compat.v1", v1)]
    while todo:                         # breadth first: a module is recorded at its first path
        path, module = todo.pop(0)
        if path in SKIPPED or id(module) in seen:
            continue
        seen.add(id(module))
        entries = found[path] = {}
        for name in _public(module):
            try:
                value = getattr(module, name)
            except (AttributeError, ImportError):     # an optional dependency is missing
                entries[name] = "unavailable"
                continue
            entries[name] = describe(value)
            if _namespace_below(path, module, name, value):
                todo.append((path + "." + name, value))
    return dict(sorted(found.items()))


def _namespaces() -> list:
    return sorted(json.loads(SNAPSHOT.read_text())) if SNAPSHOT.exists() else []


@pytest.fixture(scope="module")
def now() -> dict:
    return snapshot()


@pytest.mark.parametrize("path", _namespaces())
def test_namespace_keeps_its_names_and_objects(path, now):
    recorded = json.loads(SNAPSHOT.read_text())[path]
    shown = now.get(path, {})
    lost = sorted(set(recorded) - set(shown))
    assert not lost, "%s lost %s" % (path, lost)
    changed = {n: (recorded[n], shown[n]) for n in recorded
               if "unavailable" not in (recorded[n], shown[n]) and recorded[n] != shown[n]}
    assert not changed, "%s: names now other objects: %s" % (path, changed)


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        SNAPSHOT.write_text(json.dumps(snapshot(), indent=1, sort_keys=True) + "\n")
    else:
        print("usage: python tests/test_namespace_snapshot.py --write")
