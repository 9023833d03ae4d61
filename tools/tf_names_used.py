"""Lists the ``tf.*`` names that Keras 3's TensorFlow backend uses, and which resolve on flowgrad.

Keras runs on TensorFlow through ``keras/src/backend/tensorflow/*.py``; every ``tf.a.b``
chain written there is a name flowgrad's TF2 face must offer for the real Keras to run on it.
The script greps those files (the installed ``keras`` package is found without importing it),
counts each chain's uses, and resolves each on ``import flowgrad as tf``.

Usage::

    python tools/tf_names_used.py            # the missing names, most used first
    python tools/tf_names_used.py --all      # every name, marked ok / MISSING
"""
from __future__ import annotations

import argparse
import collections
import importlib.util
import re
from pathlib import Path

_CHAIN = re.compile(r"(?<![\w.])tf\.([A-Za-z_][\w.]*)")


def keras_backend_dir() -> Path:
    """The folder of the installed Keras's TensorFlow backend (found without importing keras)."""
    spec = importlib.util.find_spec("keras")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("keras is not installed")
    return Path(list(spec.submodule_search_locations)[0]) / "src" / "backend" / "tensorflow"


def chains_used(folder: Path) -> collections.Counter:
    """How often each ``tf.*`` chain occurs in the ``.py`` files of ``folder``."""
    counts: collections.Counter = collections.Counter()
    for path in sorted(folder.glob("*.py")):
        for match in _CHAIN.finditer(path.read_text()):
            counts["tf." + match.group(1).rstrip(".")] += 1
    return counts


def resolves(chain: str, tf: object) -> bool:
    """Whether ``chain`` (``tf.x.y``) names an attribute of flowgrad's TF2 face."""
    obj = tf
    for part in chain.split(".")[1:]:
        try:
            obj = getattr(obj, part)
        except Exception:  # noqa: BLE001 - any failure to resolve counts as missing
            return False
    return True


def main() -> None:
    """Prints the chains that do not resolve (or all, with ``--all``), most used first."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="list resolving names too")
    args = parser.parse_args()
    import flowgrad as tf

    counts = chains_used(keras_backend_dir())
    missing = 0
    for chain, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        ok = resolves(chain, tf)
        missing += not ok
        if args.all or not ok:
            print(f"{n:4d}  {'ok     ' if ok else 'MISSING'}  {chain}")
    print(f"{len(counts) - missing} of {len(counts)} names resolve; {missing} missing")


if __name__ == "__main__":
    main()
