"""Builds the faces from the export table (``flowgrad/api/exports.py``).

A table entry's source is one of three forms:

- ``"flowgrad.ops.math_ops:add"``: the attribute ``add`` of that module;
- ``"flowgrad.data"``: the module itself (an implementation package that is also a TensorFlow
  namespace, such as ``tf.data``; ``flowgrad.keras`` is the real Keras 3's ``tf.keras``,
  which the TF2 face loads on first use);
- ``"tf.math"``: another namespace of the table, built by :func:`namespace`.

The two faces (``flowgrad/__init__.py``, ``flowgrad/compat/v1.py``) bind their names with
:func:`populate`; every other namespace of the table is a module built once by
:func:`namespace`, which resolves each name on first use (so a name whose module needs an
optional dependency, such as ``tf.train.Example``, costs nothing until it is used).
"""
from __future__ import annotations

import importlib
import types
from typing import Any

from flowgrad.api.exports import EXPORTS, KERAS

_built: dict[str, types.ModuleType] = {}


def module_name(path: str) -> str:
    """The ``__name__`` of the namespace ``path``: ``tf.math`` -> ``flowgrad.math``.

    Args:
      path: A namespace of the table (``tf``, ``tf.math``, ``tf.compat.v1.nn``, ...).

    Returns:
      The dotted name under ``flowgrad``.
    """
    return "flowgrad" + path[len("tf"):]


def is_namespace(source: str) -> bool:
    """Whether the entry ``source`` names a module or a namespace of the table (not an
    attribute).

    Args:
      source: A table entry's source.

    Returns:
      True for ``"tf.math"`` and ``"flowgrad.data"``, False for ``"module:attribute"``.
    """
    return ":" not in source


def resolve(source: str) -> Any:
    """The object a table entry names (see the module docstring for the three forms).

    Args:
      source: A table entry's source.

    Returns:
      The module, namespace or attribute.
    """
    if source == "tf" or source.startswith("tf."):
        return namespace(source)
    module, _, attribute = source.partition(":")
    value = importlib.import_module(module)
    return getattr(value, attribute) if attribute else value


def namespace(path: str) -> types.ModuleType:
    """The module of the table's namespace ``path`` (``tf.math``, ``tf.compat.v1.nn``, ...),
    built once: ``dir()`` and ``__all__`` are the table's names, each resolved on first use.

    Args:
      path: A namespace of the table other than the two faces.

    Returns:
      The namespace module.
    """
    view = _built.get(path)
    if view is None:
        entries = EXPORTS[path]
        name = module_name(path)
        view = types.ModuleType(name, "TensorFlow's ``%s``; its names are declared in "
                                      "flowgrad/api/exports.py." % path)
        view.__all__ = sorted(entries)

        def __getattr__(attribute: str) -> Any:
            if attribute not in entries:
                raise AttributeError("module %r has no attribute %r" % (name, attribute))
            value = resolve(entries[attribute])
            setattr(view, attribute, value)
            return value

        view.__getattr__ = __getattr__
        view.__dir__ = lambda: list(view.__all__)
        _built[path] = view
    return view


def is_real_keras(source: str) -> bool:
    """Whether the entry ``source`` is the real Keras 3 (``tf.keras``, ``tf.losses``, ...):
    the TF2 face loads those on first use (its ``__getattr__``), as TensorFlow 2.16+ does.

    Args:
      source: A table entry's source.

    Returns:
      True for ``"flowgrad.keras"`` and the modules under it.
    """
    return source == KERAS or source.startswith(KERAS + ".")


def populate(face: dict, path: str) -> list:
    """Binds every name of the namespace ``path`` into a face module's globals ``face`` (the
    real Keras's names are left to the face's ``__getattr__``: :func:`is_real_keras`).

    Args:
      face: The face module's ``globals()``.
      path: ``tf`` or ``tf.compat.v1``.

    Returns:
      The public names bound, sorted (the face's ``__all__``; ``tf.__internal__`` is not one).
    """
    entries = EXPORTS[path]
    values = {name: resolve(source) for name, source in entries.items()
              if not is_real_keras(source)}
    face.update(values)     # after every import: a submodule loaded meanwhile rebinds nothing
    return sorted(name for name in entries if not name.startswith("_"))


def modules(path: str) -> frozenset:
    """The names of the namespace ``path`` that are namespaces themselves (``tf.math``,
    ``tf.keras``, ...), without importing anything.

    Args:
      path: A namespace of the table.

    Returns:
      The names whose source is a module or a namespace of the table.
    """
    return frozenset(name for name, source in EXPORTS[path].items() if is_namespace(source))
