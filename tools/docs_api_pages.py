"""The API reference's pages, one per TensorFlow namespace, written at build time (a MkDocs hook).

``mkdocs build`` imports flowgrad, walks the namespaces in :data:`PAGES` (``tf``, ``tf.math``,
``tf.nn``, ..., ``tf.compat.v1``, and any other TF2 namespace of the face) and writes
``reference/<page>.md`` for each: every public function and class is rendered once from its
docstring by mkdocstrings (on the first page that shows it), and the other pages that show it
link there. Names that are not callables (dtypes, constants) are listed with their values.
The pages follow the faces as they are, so they cannot drift from the code;
`tests/test_api_reference.py` checks the walk.

The hook is registered in ``mkdocs.yml`` (``hooks:``); ``python tools/docs_api_pages.py DIR``
writes the pages to DIR to look at them without MkDocs.
"""
from __future__ import annotations

import ast
import importlib
import inspect
import sys
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: The reference's pages: (file stem, title, the namespaces it shows, an introduction).
#: The order decides where an object is rendered in full: on the first page that shows it.
PAGES: tuple = (
    ("tf.math", "tf.math", ("tf.math",), ""),
    ("tf.nn", "tf.nn", ("tf.nn", "tf.nn.experimental"), ""),
    ("tf.linalg", "tf.linalg", ("tf.linalg",), ""),
    ("tf.image", "tf.image", ("tf.image",), ""),
    ("tf.io", "tf.io", ("tf.io", "tf.io.gfile"), ""),
    ("tf.strings", "tf.strings", ("tf.strings",), ""),
    ("tf.sparse", "tf.sparse", ("tf.sparse",), ""),
    ("tf.ragged", "tf.ragged", ("tf.ragged",), ""),
    ("tf.signal", "tf.signal", ("tf.signal",), ""),
    ("tf.bitwise", "tf.bitwise", ("tf.bitwise",), ""),
    ("tf.random", "tf.random", ("tf.random",), ""),
    ("tf.data", "tf.data", ("tf.data", "tf.data.experimental"), ""),
    ("tf.train", "tf.train", ("tf.train",), ""),
    ("tf.summary", "tf.summary", ("tf.summary", "tf.summary.experimental"), ""),
    ("tf.saved_model", "tf.saved_model", ("tf.saved_model",), ""),
    ("tf.distribute", "tf.distribute", ("tf.distribute", "tf.distribute.cluster_resolver"), ""),
    ("tf.debugging", "tf.debugging", ("tf.debugging",), ""),
    ("tf.debug", "Diagnostics (tf.debug)", ("tf.debug",),
     "flowgrad's own diagnostics (not in TensorFlow): `explain_gradient` says why a gradient "
     "is None, check-numerics mode finds the op that made the first NaN, `to_dot` draws a "
     "graph. See the guides [Why is my gradient None?](../gradient-none.md) and "
     "[Where did this NaN come from?](../nan.md)."),
    ("tf.dtypes", "tf.dtypes", ("tf.dtypes",), ""),
    ("tf.errors", "tf.errors", ("tf.errors",), ""),
    ("tf.config", "tf.config", ("tf.config", "tf.config.experimental", "tf.config.threading",
                                "tf.config.optimizer"), ""),
    ("tf.nest", "tf.nest", ("tf.nest",), ""),
    ("tf.autodiff", "tf.autodiff", ("tf.autodiff",), ""),
    ("tf.autograph", "tf.autograph", ("tf.autograph",), ""),
    ("tf.initializers", "tf.initializers", ("tf.initializers",), ""),
    ("tf.losses", "tf.losses", ("tf.losses",), ""),
    ("tf.metrics", "tf.metrics", ("tf.metrics",), ""),
    ("tf.optimizers", "tf.optimizers", ("tf.optimizers",), ""),
    ("tf.test", "tf.test", ("tf.test",), ""),
    ("tf.lite", "tf.lite", ("tf.lite", "tf.lite.experimental"), ""),
    ("tf.tpu", "tf.tpu", ("tf.tpu", "tf.tpu.experimental"), ""),
    ("tf.lookup", "tf.lookup", ("tf.lookup", "tf.lookup.experimental"), ""),
    ("tf.feature_column", "tf.feature_column", ("tf.feature_column",), ""),
    ("tf.audio", "tf.audio", ("tf.audio",), ""),
    ("tf.sets", "tf.sets", ("tf.sets",), ""),
    ("tf.experimental", "tf.experimental",
     ("tf.experimental", "tf.experimental.dtensor", "tf.types.experimental", "tf.version"), ""),
    ("tf.datasets", "Datasets (tf.datasets)", ("tf.datasets.mnist", "tf.datasets.download"),
     "flowgrad's own addition (not in TensorFlow): MNIST as TF1's `input_data` read it, and "
     "the downloads behind it."),
    ("tf", "tf (top level)", ("tf", "tf.compat"),
     "The TF2 face, `import flowgrad as tf`: the tensor, variable, module, gradient tape, "
     "graph and control-flow names, and the ops TensorFlow 2 shows at its top level "
     "(most are also in a sub-namespace, where they are rendered)."),
    ("tf.keras", "tf.keras",
     ("tf.keras", "tf.keras.layers", "tf.keras.models", "tf.keras.losses", "tf.keras.metrics",
      "tf.keras.optimizers", "tf.keras.callbacks", "tf.keras.activations",
      "tf.keras.initializers", "tf.keras.regularizers", "tf.keras.constraints",
      "tf.keras.backend", "tf.keras.utils", "tf.keras.datasets.mnist",
      "tf.keras.datasets.fashion_mnist", "tf.keras.datasets.cifar10"),
     "flowgrad's own `tf.keras` (TensorFlow 2.15's Keras 2 API). Under the drop-in "
     "(`python -m flowgrad`, `install_as_tensorflow()`) with the `keras` extra, `tf.keras` is "
     "the real Keras 3 running on flowgrad instead: its documentation is Keras's own, at "
     "[keras.io/api](https://keras.io/api/)."),
    ("tf.compat.v1", "tf.compat.v1",
     ("tf.compat.v1", "tf.compat.v1.train", "tf.compat.v1.nn", "tf.compat.v1.nn.rnn_cell",
      "tf.compat.v1.layers", "tf.compat.v1.losses", "tf.compat.v1.metrics",
      "tf.compat.v1.summary", "tf.compat.v1.saved_model", "tf.compat.v1.data",
      "tf.compat.v1.distributions", "tf.compat.v1.errors", "tf.compat.v1.gfile",
      "tf.compat.v1.graph_util", "tf.compat.v1.image", "tf.compat.v1.initializers",
      "tf.compat.v1.io", "tf.compat.v1.linalg", "tf.compat.v1.logging", "tf.compat.v1.math",
      "tf.compat.v1.python_io", "tf.compat.v1.ragged", "tf.compat.v1.random",
      "tf.compat.v1.strings", "tf.compat.v1.test"),
     "The TF1 face, `import flowgrad.compat.v1 as tf`: graph mode, `Session`, placeholders, "
     "`tf.train`'s optimizers and `Saver`, `tf.layers`, `tf.losses`, `tf.metrics`."),
    ("tf.raw_ops", "tf.raw_ops", ("tf.raw_ops",),
     "Every registered op by its TensorFlow type name, called with keyword arguments only "
     "(`tf.raw_ops.AddV2(x=a, y=b)`). Each op's docstring lists its inputs and attributes."),
)

#: TF2 namespaces shown on a page of another name (the rest of the face's namespaces that
#: :data:`PAGES` does not list get a page of their own, so a new one is never left out).
FOLDED = {"types": "tf.types.experimental", "keras": "tf.keras", "compat": "tf.compat"}


def all_pages() -> list:
    """:data:`PAGES`, plus a page for each TF2 namespace of the face that they do not show.

    Returns:
        The pages as (file stem, title, namespaces, introduction), the added ones just before
        the ``tf`` page.
    """
    import flowgrad
    from flowgrad.api.exports import EXTENSIONS
    from flowgrad.api.namespaces import modules
    shown = {path for _, _, paths, _ in PAGES for path in paths}
    added = [(f"tf.{name}", f"tf.{name}", (f"tf.{name}",), "")
             for name in sorted(modules("tf") - EXTENSIONS)
             if hasattr(flowgrad, name) and FOLDED.get(name, f"tf.{name}") not in shown]
    at = next(i for i, page in enumerate(PAGES) if page[0] == "tf")
    return list(PAGES[:at]) + added + list(PAGES[at:])


#: Pages whose callables are listed in a table (signature and summary) instead of rendered.
TABLE_ONLY = frozenset({"tf.raw_ops"})


def resolve(path: str) -> Any:
    """The namespace object of a dotted ``tf...`` path (``tf.compat.v1.train``).

    Args:
        path: A namespace as a user writes it, starting with ``tf``.

    Returns:
        The module object the face shows under that path.

    Raises:
        AttributeError: A part of the path is not in the face.
    """
    import flowgrad
    obj: Any = flowgrad
    for part in path.split(".")[1:]:
        obj = getattr(obj, part)
    return obj


def public_names(namespace: Any) -> list:
    """The names a namespace shows (``__all__``, else ``dir``), minus private names and modules.

    Args:
        namespace: A module object of a face.

    Returns:
        The sorted names whose values are not modules.
    """
    names = []
    for name in sorted(getattr(namespace, "__all__", None) or dir(namespace)):
        if name.startswith("_"):
            continue
        try:
            value = getattr(namespace, name)
        except Exception:  # a lazily loaded name whose optional dependency is missing
            continue
        if not isinstance(value, types.ModuleType):
            names.append(name)
    return names


def _top_level_definitions(module_name: str) -> set:
    """The qualified names a module's source defines with ``def``/``class`` (what griffe sees)."""
    try:
        source = inspect.getsource(sys.modules[module_name])
    except (KeyError, OSError, TypeError):
        return set()
    found = set()

    def walk(body: list, prefix: str) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.add(prefix + node.name)
            elif isinstance(node, ast.ClassDef):
                found.add(prefix + node.name)
                walk(node.body, prefix + node.name + ".")
            elif isinstance(node, (ast.If, ast.Try)):  # definitions under `if`/`try` at top level
                walk(node.body, prefix)
                walk(getattr(node, "orelse", []), prefix)

    walk(ast.parse(source).body, "")
    return found


@dataclass
class Reference:
    """What the walk found: the pages' Markdown and where each object is rendered."""

    pages: dict = field(default_factory=dict)  #: file stem -> Markdown
    rendered: dict = field(default_factory=dict)  #: id(object) -> (anchor, tf path)
    definitions: dict = field(default_factory=dict)  #: module name -> qualified names

    def identifier(self, obj: Any) -> str | None:
        """The dotted path mkdocstrings renders ``obj`` from, or None where it cannot.

        Args:
            obj: A function or class.

        Returns:
            ``module.qualname`` where the module's source defines ``obj`` with def/class
            under that name; None for objects made at run time (factories, generated ops).
        """
        module = getattr(obj, "__module__", None) or ""
        qualname = getattr(obj, "__qualname__", "") or ""
        if not module.startswith("flowgrad") or "<" in qualname:
            return None
        if module not in self.definitions:
            self.definitions[module] = _top_level_definitions(module)
        if qualname not in self.definitions[module]:
            return None
        return f"{module}.{qualname}"


def _signature_not_in_source(cls: type) -> bool:
    """Whether ``cls`` takes its arguments in ``__new__`` or an ``__init__`` not flowgrad's."""
    if "__new__" in vars(cls):
        return True
    owner = next(k for k in cls.__mro__ if "__init__" in vars(k))
    return not owner.__module__.startswith("flowgrad")


def _summary(obj: Any) -> str:
    """The first line of ``obj``'s docstring, safe inside a Markdown table."""
    doc = inspect.getdoc(obj) or ""
    line = doc.strip().split("\n\n")[0].replace("\n", " ").strip()
    return line.replace("|", "\\|")


def _signature(obj: Any) -> str:
    try:
        return str(inspect.signature(obj))
    except (TypeError, ValueError):
        return "(...)"


def _runtime_block(tf_path: str, anchor: str, obj: Any) -> list:
    """Markdown for an object griffe cannot find in a source file: signature and docstring."""
    doc = inspect.getdoc(obj) or "(no docstring)"
    return [f"[](){{#{anchor}}}", f"### `{tf_path}`", "", "```python",
            f"{tf_path}{_signature(obj)}", "```", "", "```text", doc, "```", ""]


def _link(reference: Reference, obj: Any, tf_path: str) -> str:
    key, shown_as = reference.rendered[id(obj)]
    return f"[`{tf_path}`][{key}]" + ("" if shown_as == tf_path else f" (as `{shown_as}`)")


def _section(reference: Reference, stem: str, path: str) -> list:
    """The Markdown of one namespace on page ``stem``."""
    namespace = resolve(path)
    lines = [f"## `{path}`", ""]
    links, values, table = [], [], []
    for name in public_names(namespace):
        obj = getattr(namespace, name)
        tf_path = f"{path}.{name}"
        if not (inspect.isfunction(obj) or inspect.isclass(obj) or inspect.isbuiltin(obj)):
            values.append(f"| `{name}` | `{type(obj).__name__}` | `{obj!r}` |"
                          .replace("\n", " "))
            continue
        module = getattr(obj, "__module__", "") or ""
        if not module.startswith("flowgrad"):
            values.append(f"| `{name}` | `{module}.{obj.__qualname__}` | |")
            continue
        if stem in TABLE_ONLY:
            table.append(f"| `{name}{_signature(obj)}` | {_summary(obj)} |")
            continue
        if id(obj) in reference.rendered:
            links.append(f"| {_link(reference, obj, tf_path)} | {_summary(obj)} |")
            continue
        ident = reference.identifier(obj)
        key = ident or f"runtime-{tf_path}"
        reference.rendered[id(obj)] = (key, tf_path)
        if ident is None:
            lines += _runtime_block(tf_path, key, obj)
        else:
            lines += [f"::: {ident}", "    options:", f'      heading: "{tf_path}"',
                      f'      toc_label: "{name}"', "      heading_level: 3"]
            if inspect.isclass(obj) and _signature_not_in_source(obj):
                # The class's docstring documents a signature griffe cannot read from an
                # __init__ of flowgrad's: tf.Variable's __new__ dispatches on *args, a
                # namedtuple's comes from collections.
                lines += ["      docstring_options:", "        warn_unknown_params: false",
                          "        warn_missing_types: false"]
            lines.append("")
    if table:
        lines += ["| op | |", "|---|---|", *table, ""]
    if links:
        lines += ["Also in this namespace (documented where first shown):", "",
                  "| name | |", "|---|---|", *links, ""]
    if values:
        lines += ["| name | type | value |", "|---|---|---|", *values, ""]
    return lines


def build() -> Reference:
    """Walks :func:`all_pages` and writes every page's Markdown.

    Returns:
        A :class:`Reference` holding the pages and where each object is rendered.
    """
    importlib.import_module("flowgrad.compat.v1")
    reference = Reference()
    for stem, title, paths, intro in all_pages():
        lines = [f"# {title}", ""] + ([intro, ""] if intro else [])
        for path in paths:
            lines += _section(reference, stem, path)
        reference.pages[stem] = "\n".join(lines) + "\n"
    return reference


# MkDocs hook events ------------------------------------------------------------------------

_REFERENCE: dict = {}


def on_config(config: Any) -> Any:
    """Adds the pages to the navigation, under "API reference".

    Args:
        config: MkDocs's configuration.

    Returns:
        The configuration, with the generated pages in ``nav``.
    """
    # The faces walked must be the sources mkdocstrings reads (``paths: [.]``), not another
    # installed flowgrad.
    root = str(Path(config["config_file_path"]).resolve().parent)
    if root not in sys.path:
        sys.path.insert(0, root)
    _REFERENCE["built"] = build()
    entries = [{title: f"reference/{stem}.md"} for stem, title, _, _ in all_pages()]
    for item in config["nav"]:
        if isinstance(item, dict) and "API reference" in item:
            item["API reference"] = list(item["API reference"] or []) + entries
            break
    else:
        config["nav"].append({"API reference": entries})
    return config


def on_files(files: Any, config: Any) -> Any:
    """Adds the generated pages to MkDocs's files.

    Args:
        files: The documentation's files.
        config: MkDocs's configuration.

    Returns:
        The files, with ``reference/<page>.md`` for each page of :func:`all_pages`.
    """
    from mkdocs.structure.files import File
    for stem, markdown in _REFERENCE["built"].pages.items():
        files.append(File.generated(config, f"reference/{stem}.md", content=markdown))
    return files


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "build/reference")
    out.mkdir(parents=True, exist_ok=True)
    for stem, markdown in build().pages.items():
        (out / f"{stem}.md").write_text(markdown)
    print(f"wrote {len(all_pages())} pages to {out}")
