"""What flowgrad's TF1 face lacks of TensorFlow 2.21's ``tf.compat.v1``, recursively, for
tests/test_compat_v1_names.py.

``python tests/compat_v1_names.py`` prints the missing names (the allow-list's format) and a
count per namespace; ``--write`` rewrites tests/data/compat_v1_names/missing.txt (do so only
after building names: the list may only shrink)."""
from __future__ import annotations

import collections
import json
import sys
import types
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "compat_v1_names"
RECORD = DATA / "tf_2_21.json"
MISSING = DATA / "missing.txt"


def tensorflow_namespaces() -> dict:
    """{namespace path: {name: kind}} of TensorFlow 2.21's tf.compat.v1 (the recording)."""
    return json.loads(RECORD.read_text())["namespaces"]


def _flowgrad_namespace(path: str):
    import flowgrad.compat.v1 as v1

    module = v1
    for part in path.split(".")[3:]:
        try:
            module = getattr(module, part)
        except Exception:  # noqa: BLE001 - a namespace flowgrad lacks, or fails to load
            return None
        if not isinstance(module, types.ModuleType):
            return None
    return module


def _load_every_op_module() -> None:
    """Imports every module of flowgrad.ops: an op joins ``tf.raw_ops`` when its module is
    loaded, so the walk does not depend on what the process loaded before."""
    import importlib
    import pkgutil

    import flowgrad.ops

    for info in pkgutil.iter_modules(flowgrad.ops.__path__, "flowgrad.ops."):
        importlib.import_module(info.name)


def missing_names() -> list:
    """The dotted names of TF 2.21's tf.compat.v1 that flowgrad's TF1 face lacks; a namespace
    flowgrad lacks is one entry (its names are not listed apart)."""
    _load_every_op_module()
    namespaces = tensorflow_namespaces()
    lacking_namespaces = set()
    out = []
    for path in sorted(namespaces, key=lambda p: (p.count("."), p)):
        if any(path.startswith(m + ".") for m in lacking_namespaces):
            continue
        module = _flowgrad_namespace(path)
        if module is None:
            lacking_namespaces.add(path)
            continue
        for name, kind in sorted(namespaces[path].items()):
            try:
                present = hasattr(module, name)
            except Exception:  # noqa: BLE001 - a name whose optional dependency is absent
                present = False
            if not present:
                out.append(path + "." + name)
                if kind == "module":
                    lacking_namespaces.add(path + "." + name)
    return sorted(out)


def allowed() -> list:
    """The committed allow-list (tests/data/compat_v1_names/missing.txt)."""
    return [line.strip() for line in MISSING.read_text().splitlines()
            if line.strip() and not line.startswith("#")]


if __name__ == "__main__":
    names = missing_names()
    if sys.argv[1:] == ["--write"]:
        MISSING.write_text(
            "# TensorFlow 2.21's tf.compat.v1 names flowgrad's TF1 face lacks (a namespace it\n"
            "# lacks is one line). Written by `python tests/compat_v1_names.py --write`; the\n"
            "# list may only shrink (tests/test_compat_v1_names.py).\n" +
            "".join(n + "\n" for n in names))
    counts = collections.Counter(n.rsplit(".", 1)[0] for n in names)
    for ns, n in counts.most_common():
        print("%5d %s" % (n, ns))
    print(len(names), "missing")
