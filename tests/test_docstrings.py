"""Every public function and class of both faces documents its parameters (an Args section).

The walk covers `flowgrad` (the TF2 face) and `flowgrad.compat.v1` (the TF1 face) and every
sub-namespace reachable from them (`tf.math`, `tf.nn`, `tf.keras.layers`, ...). A callable with
parameters whose docstring (the class's or its ``__init__``'s, for a class) has no ``Args:``
section is an offender. `tests/data/docstrings/missing_args.txt` lists today's offenders by
defining module and qualified name; the list may only shrink: a new offender fails, and so
does a listed name that now has its Args section (remove it from the list) or no longer exists.
"""
from __future__ import annotations

import enum
import inspect
import re
import types
from pathlib import Path

import flowgrad
import flowgrad.compat.v1 as tf1

ALLOW_LIST = Path(__file__).resolve().parent / "data" / "docstrings" / "missing_args.txt"
ARGS = re.compile(r"^\s*(Args|Arguments):\s*$", re.M)


def _public_callables():
    """Yields (key, object) for every flowgrad-defined public callable of both faces."""
    seen_modules, seen = set(), {}
    queue = [flowgrad, tf1]
    while queue:
        namespace = queue.pop(0)
        if id(namespace) in seen_modules:
            continue
        seen_modules.add(id(namespace))
        for name in sorted(dir(namespace)):
            if name.startswith("_"):
                continue
            try:
                obj = getattr(namespace, name)
            except Exception:  # a lazily loaded name whose optional dependency is missing
                continue
            if isinstance(obj, types.ModuleType):
                if obj.__name__.startswith("flowgrad"):
                    queue.append(obj)
                continue
            if not (inspect.isfunction(obj) or inspect.isclass(obj)):
                continue
            module = getattr(obj, "__module__", "") or ""
            if not module.startswith("flowgrad"):
                continue
            seen.setdefault(f"{module}.{obj.__qualname__}", obj)
    return seen


def _has_parameters(obj) -> bool:
    if inspect.isclass(obj) and issubclass(obj, enum.Enum):
        return False  # called with one of its values (a member lookup), as TensorFlow's enums
    try:
        signature = inspect.signature(obj)
    except (TypeError, ValueError):
        return False
    return any(p.name not in ("self", "cls") for p in signature.parameters.values())


def _documents_args(obj) -> bool:
    docs = [inspect.getdoc(obj) or ""]
    if inspect.isclass(obj) and "__init__" in vars(obj):
        docs.append(inspect.getdoc(obj.__init__) or "")
    return any(ARGS.search(doc) for doc in docs)


def offenders() -> set[str]:
    return {key for key, obj in _public_callables().items()
            if _has_parameters(obj) and not _documents_args(obj)}


def test_public_callables_document_their_args():
    allowed = {line.strip() for line in ALLOW_LIST.read_text().splitlines()
               if line.strip() and not line.startswith("#")}
    found = offenders()
    new = sorted(found - allowed)
    assert not new, ("public callables without an Args section in their docstring (write one, "
                     "Google style): " + ", ".join(new))
    done = sorted(allowed - found)
    assert not done, ("documented or gone: remove from tests/data/docstrings/missing_args.txt: "
                      + ", ".join(done))


if __name__ == "__main__":  # regenerates the allow-list (only ever to shrink it)
    ALLOW_LIST.write_text("# Public callables without an Args section (may only shrink).\n"
                          + "".join(k + "\n" for k in sorted(offenders())))
