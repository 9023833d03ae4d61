"""Ranks the ``tf.*`` names that public TensorFlow programs use, and checks them on flowgrad.

The scan reads programs (``.py`` files, the code cells of ``.ipynb`` notebooks and the
```` ```python ```` blocks of Markdown pages) from local checkouts of public repositories,
keeps those that import TensorFlow, and collects every attribute chain rooted at a name bound
to TensorFlow: ``import tensorflow as tf`` then ``tf.nn.relu(x)`` gives ``tf.nn.relu``;
``import tensorflow.compat.v1 as tf`` gives ``tf.compat.v1.placeholder``;
``from tensorflow.keras import layers`` then ``layers.Dense`` gives ``tf.keras.layers.Dense``.

Each chain is ranked by how many programs use it. ``--check`` then resolves every chain on
flowgrad's faces (``tf`` is ``flowgrad``) and prints the coverage: the share of all uses whose
chain resolves, and the share of programs whose chains all resolve.

Usage::

    python tools/api_scan.py scan SRC... --out tools/api_scan_results.json
    python tools/api_scan.py check [--results tools/api_scan_results.json] [--top 40]
    /path/to/tf-venv/bin/python tools/api_scan.py reference   # marks what TensorFlow has

``SRC`` is a folder, or a bare git repository (read at ``HEAD`` with ``git``); the sources
used for the committed results are listed in ``tools/api_scan_sources.txt``. The results file
holds names and counts only, never the programs' code.
"""
from __future__ import annotations

import argparse
import ast
import collections
import json
import re
import subprocess
import sys
from pathlib import Path

_FENCE = re.compile(r"```(?:python|py|python3)\s*\n(.*?)```", re.S)
_ALIAS_RE = re.compile(r"^\s*import\s+(tensorflow(?:\.[\w.]+)?)\s+as\s+(\w+)", re.M)
_FROM_RE = re.compile(r"^\s*from\s+(tensorflow(?:\.[\w.]+)?)\s+import\s+([\w ,()]+)", re.M)


def _code_of(path: str, text: str) -> str:
    """The Python source of one file: notebooks' code cells, Markdown's python blocks."""
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
    # IPython magics and shell escapes are not Python.
    return "\n".join("" if line.lstrip().startswith(("%", "!")) else line
                     for line in text.splitlines())


def _chain(node: ast.AST) -> list[str] | None:
    """``a.b.c`` as ``['a', 'b', 'c']``; None when the root is not a plain name."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return parts[::-1]


#: Names only TensorFlow 1 has at the top level: a program using one was written for TF 1.x,
#: and on TensorFlow 2 it runs as ``tf.compat.v1`` (its chains are counted there).
_TF1_MARKERS = frozenset({
    "tf.Session", "tf.InteractiveSession", "tf.placeholder", "tf.global_variables_initializer",
    "tf.initialize_all_variables", "tf.variable_scope", "tf.get_variable",
    "tf.train.AdamOptimizer", "tf.train.GradientDescentOptimizer",
    "tf.train.RMSPropOptimizer", "tf.train.MomentumOptimizer"})
#: Chains that stay as written in a TF 1.x program (not moved under ``tf.compat.v1``;
#: ``tf.python`` is the module path ``from tensorflow.python.ops import resources`` names).
_TF1_KEEP = ("tf.contrib", "tf.examples", "tf.compat", "tf.keras", "tf.__version__",
             "tf.python")


def _as_tf1(uses: collections.Counter) -> collections.Counter:
    """A TF 1.x program's chains as TensorFlow 2 reaches them (``tf.X`` -> ``tf.compat.v1.X``)."""
    if not any(c in _TF1_MARKERS or c.startswith("tf.contrib.") for c in uses):
        return uses
    out: collections.Counter = collections.Counter()
    for chain, n in uses.items():
        keep = chain == "tf" or chain.startswith(_TF1_KEEP) or not chain.startswith("tf.")
        out[chain if keep else "tf.compat.v1." + chain[3:]] += n
    return out


def _normal(module: str) -> str:
    """``tensorflow.x.y`` as ``tf.x.y``."""
    return "tf" + module[len("tensorflow"):]


def chains_of(code: str) -> collections.Counter | None:
    """The TensorFlow attribute chains one program uses (None: it does not import TensorFlow)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return _chains_by_regex(code)
    aliases: dict[str, str] = {}
    uses: collections.Counter = collections.Counter()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "tensorflow" or a.name.startswith("tensorflow."):
                    if a.asname:
                        aliases[a.asname] = _normal(a.name)
                    else:
                        aliases["tensorflow"] = "tf"
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            if node.module == "tensorflow" or node.module.startswith("tensorflow."):
                base = _normal(node.module)
                for a in node.names:
                    if a.name == "*":
                        continue
                    aliases[a.asname or a.name] = base + "." + a.name
                    uses[base + "." + a.name] += 1
    if not aliases:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and not isinstance(getattr(node, "_parent", None),
                                                                ast.Attribute):
            parts = _chain(node)
            if parts and parts[0] in aliases:
                uses[".".join([aliases[parts[0]]] + parts[1:])] += 1
        for child in ast.iter_child_nodes(node):
            child._parent = node  # noqa: SLF001 - marks inner links of a chain
    return uses


def _chains_by_regex(code: str) -> collections.Counter | None:
    """Fallback for sources ``ast`` cannot parse (Python 2 prints): the same, by regex."""
    aliases = {m.group(2): _normal(m.group(1)) for m in _ALIAS_RE.finditer(code)}
    uses: collections.Counter = collections.Counter()
    for m in _FROM_RE.finditer(code):
        for name in re.split(r"[\s,()]+", m.group(2)):
            if name and name != "as":
                aliases[name] = _normal(m.group(1)) + "." + name
                uses[_normal(m.group(1)) + "." + name] += 1
    if re.search(r"^\s*import\s+tensorflow\s*$", code, re.M):
        aliases["tensorflow"] = "tf"
    if not aliases:
        return None
    pattern = re.compile(r"(?<![\w.])(%s)((?:\.[A-Za-z_]\w*)+)" % "|".join(map(re.escape,
                                                                             aliases)))
    for m in pattern.finditer(code):
        uses[aliases[m.group(1)] + m.group(2)] += 1
    return uses


def _files(src: str):
    """(name, text) of every candidate file of ``src``: ``PATH`` or ``PATH:PREFIX`` (only
    files under ``PREFIX``), where PATH is a folder or a bare git repository (read at HEAD)."""
    path, _, prefix = src.partition(":")
    root = Path(path)
    suffixes = (".py", ".ipynb", ".md")
    if (root / "HEAD").exists() and (root / "objects").exists():
        listing = subprocess.run(["git", "-C", path, "ls-tree", "-r", "-z", "--name-only",
                                  "HEAD", "--", prefix or "."],
                                 capture_output=True, check=True).stdout
        for raw in listing.split(b"\0"):
            name = raw.decode("utf-8", "replace")
            if name.endswith(suffixes):
                blob = subprocess.run(["git", "-C", path, "show", b"HEAD:" + raw],
                                      capture_output=True, check=False).stdout
                yield name, blob.decode("utf-8", "replace")
    else:
        for f in sorted((root / prefix).rglob("*")):
            if f.suffix in suffixes and f.is_file():
                yield str(f.relative_to(root)), f.read_text("utf-8", "replace")


def scan(sources: list[str]) -> dict:
    """Chains and programs over ``sources``.

    Args:
      sources: folders or bare git repositories.

    Returns:
      ``{"chains": [[chain, programs, uses], ...], "programs": [[name, [chain index, ...]],
      ...]}``, chains sorted by the number of programs using them.
    """
    programs: collections.Counter = collections.Counter()
    uses: collections.Counter = collections.Counter()
    per_program = []
    for src in sources:
        path = Path(src.partition(":")[0].rstrip("/"))
        label = path.parent.name if path.name == "repo" else path.name
        for name, text in _files(src):
            if "tensorflow" not in text:
                continue
            found = chains_of(_code_of(name, text))
            if not found:
                continue
            found = _as_tf1(found)
            uses.update(found)
            programs.update(found.keys())
            per_program.append((label + ":" + name, sorted(found)))
    order = sorted(programs, key=lambda c: (-programs[c], c))
    index = {c: i for i, c in enumerate(order)}
    return {"chains": [[c, programs[c], uses[c]] for c in order],
            "programs": [[n, [index[c] for c in cs]] for n, cs in per_program]}


def resolves(chain: str, package: str = "flowgrad", tf1_roots: frozenset = frozenset()) -> bool:
    """Whether ``chain`` (``tf.a.b``) names something a program sees as ``tensorflow``:
    flowgrad through its drop-in (``package="flowgrad"``: what ``python -m flowgrad`` serves,
    the real Keras as ``tf.keras`` where it is installed, and ``tf.contrib`` or a name in
    ``tf1_roots`` as ``python -m flowgrad --tf1`` serves the TF 1.x programs that use them),
    or TensorFlow itself (``package="tensorflow"``, for the reference).

    ``tf1_roots`` are the top-level names only TensorFlow 1's API has (``tf.GraphDef``,
    ``tf.gfile``: TensorFlow 2 has them as ``tf.compat.v1.*`` only), recorded by
    :func:`reference`: a program that uses one was written for TF 1.x."""
    import importlib

    if package == "flowgrad":
        import flowgrad

        flowgrad.install_as_tensorflow()
    obj = importlib.import_module("tensorflow")
    parts = chain.split(".")[1:]
    if package == "flowgrad" and parts[:1] and (parts[0] == "contrib" or
                                                parts[0] in tf1_roots):
        # only TF 1.x programs use tf.contrib or TF1's top-level names, and flowgrad serves
        # them its TF1 face (``python -m flowgrad --tf1``), where TF 1.15's tf.contrib is
        obj = obj.compat.v1
    for i, part in enumerate(parts):
        try:
            obj = getattr(obj, part)
            continue
        except Exception:  # noqa: BLE001 - any failure means "look for a module path"
            pass
        try:  # a module path not bound as an attribute (tensorflow.examples.tutorials...)
            obj = importlib.import_module("tensorflow." + ".".join(parts[:i + 1]))
        except Exception:  # noqa: BLE001
            return False
    return True


def reference(results: str) -> int:
    """Marks in ``results`` which chains TensorFlow itself resolves (run with TensorFlow
    installed); ``check`` then also reports coverage of the names TensorFlow 2 still has.
    Also records the top-level names only TensorFlow 1's API has (``tf1_only_roots``: in
    ``tf.compat.v1`` but not in ``tf``), which ``check`` resolves on the TF1 face.

    Args:
      results: the JSON file written by ``scan``; updated in place.

    Returns:
      How many chains TensorFlow resolves.
    """
    import tensorflow as tf

    with open(results, encoding="utf-8") as f:
        data = json.load(f)
    data["reference"] = "tensorflow " + tf.__version__
    data["tf1_only_roots"] = sorted(n for n in dir(tf.compat.v1)
                                    if not n.startswith("_") and not hasattr(tf, n))
    data["tf_resolves"] = [int(resolves(c, "tensorflow")) for c, _, _ in data["chains"]]
    with open(results, "w", encoding="utf-8") as f:
        json.dump(data, f, separators=(",", ":"))
        f.write("\n")
    return sum(data["tf_resolves"])


def check(results: str, top: int) -> dict:
    """Resolves every chain of ``results`` on flowgrad and prints the coverage table.

    Args:
      results: the JSON file written by ``scan``.
      top: how many of the most used unresolved chains to list.

    Returns:
      The figures: ``uses``, ``uses_covered``, ``chains``, ``chains_covered``, ``programs``,
      ``programs_covered`` and ``missing`` (unresolved chains, most used first).
    """
    with open(results, encoding="utf-8") as f:
        data = json.load(f)
    rows = data["chains"]
    tf1_roots = frozenset(data.get("tf1_only_roots", ()))
    ok = [resolves(chain, tf1_roots=tf1_roots) for chain, _, _ in rows]
    total = sum(u for _, _, u in rows)
    covered = sum(u for (_, _, u), good in zip(rows, ok) if good)
    progs = data["programs"]
    full = sum(all(ok[i] for i in idx) for _, idx in progs)
    missing = [(c, p, u) for (c, p, u), good in zip(rows, ok) if not good]
    tf_ok = data.get("tf_resolves") or [1] * len(rows)
    tf_total = sum(u for (_, _, u), t in zip(rows, tf_ok) if t)
    tf_covered = sum(u for (_, _, u), good, t in zip(rows, ok, tf_ok) if good and t)
    tf_progs = [idx for _, idx in progs if all(tf_ok[i] for i in idx)]
    tf_full = sum(all(ok[i] for i in idx) for idx in tf_progs)
    figures = {"uses": total, "uses_covered": covered, "chains": len(rows),
               "chains_covered": sum(ok), "programs": len(progs), "programs_covered": full,
               "tf_uses": tf_total, "tf_uses_covered": tf_covered,
               "tf_programs": len(tf_progs), "tf_programs_covered": tf_full,
               "missing": missing}
    ref = data.get("reference", "TensorFlow")
    print("| measure | covered | total | share |")
    print("|---|---|---|---|")
    for label, a, b in (("uses of tf.* names", covered, total),
                        ("uses of names %s has" % ref, tf_covered, tf_total),
                        ("distinct tf.* names", sum(ok), len(rows)),
                        ("programs using only covered names", full, len(progs)),
                        ("programs %s runs (all names resolve there) fully covered" % ref,
                         tf_full, len(tf_progs))):
        print("| %s | %d | %d | %.1f%% |" % (label, a, b, 100.0 * a / max(b, 1)))
    print()
    print("Most used names that do not resolve (programs, uses; * = %s lacks it too):" % ref)
    marks = {c: t for (c, _, _), t in zip(rows, tf_ok)}
    for c, p, u in missing[:top]:
        print("  %-64s %4d %5d %s" % (c, p, u, "" if marks[c] else "*"))
    return figures


def main(argv: list[str] | None = None) -> int:
    """Command line: ``scan`` or ``check`` (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p_scan = sub.add_parser("scan", help="collect chains from source checkouts")
    p_scan.add_argument("sources", nargs="+", help="folders or bare git repositories")
    p_scan.add_argument("--out", default="tools/api_scan_results.json")
    p_check = sub.add_parser("check", help="resolve the collected chains on flowgrad")
    p_check.add_argument("--results", default="tools/api_scan_results.json")
    p_check.add_argument("--top", type=int, default=40)
    p_check.add_argument("--json", action="store_true",
                         help="print the figures as JSON instead of the table")
    p_ref = sub.add_parser("reference", help="mark the chains TensorFlow resolves (run it "
                           "where TensorFlow is installed)")
    p_ref.add_argument("--results", default="tools/api_scan_results.json")
    args = parser.parse_args(argv)
    if args.cmd == "scan":
        data = scan(args.sources)
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(data, f, separators=(",", ":"))
            f.write("\n")
        print("%d programs, %d distinct chains -> %s" % (len(data["programs"]),
                                                        len(data["chains"]), args.out))
    elif args.cmd == "reference":
        print("%d chains resolve on TensorFlow" % reference(args.results))
    elif args.json:
        import contextlib
        import io

        with contextlib.redirect_stdout(io.StringIO()):
            figures = check(args.results, 0)
        figures.pop("missing")
        print(json.dumps(figures))
    else:
        check(args.results, args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
