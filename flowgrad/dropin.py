"""flowgrad as ``tensorflow``: unmodified TensorFlow programs import flowgrad.

:func:`install_as_tensorflow` puts :class:`TensorFlowFinder` first on ``sys.meta_path``.
It serves every module name under ``tensorflow``:

- ``tensorflow`` itself is the TF2 face (the ``flowgrad`` package object).
- ``tensorflow.<name>`` for a TF2 namespace of the face (``keras``, ``compat``, ``nn``,
  ``math``, ``data``, ...) is the face's attribute of that name, and deeper names follow the
  attribute chain (``tensorflow.compat.v1`` is ``flowgrad.compat.v1``,
  ``tensorflow.keras.layers`` is the face's ``keras.layers``), importing a flowgrad
  submodule of the same name where the attribute is not loaded yet.
- Every other name (``tensorflow.python.*``, ``tensorflow.core.*``, the tutorials' MNIST
  reader, ...) is the module of the same path under ``flowgrad.tf_internal``: the home of
  the TensorFlow-internal modules that libraries such as Keras import; the internal modules
  programs import directly (``tensorflow.python.framework.ops``, ``...ops.math_ops``,
  ``...client.device_lib``, ``...platform.test``, ...) are views of the faces
  (``flowgrad.dropin_aliases``).

The modules served are the flowgrad modules themselves, registered under both names, so
``tensorflow.nn is flowgrad.nn``; their ``__name__`` and ``__spec__`` stay flowgrad's.
``tf.keras`` of the TF2 face is the real Keras 3 (:func:`tf_keras`, the keras extra), as in
TensorFlow 2.16+: ``tensorflow.keras is flowgrad.keras is keras._tf_keras.keras``. The TF1
face's ``tf.keras`` is flowgrad's own (``flowgrad.legacy_keras``: graph mode, placeholders).
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types

_ROOT = "tensorflow"
_INTERNAL = "flowgrad.tf_internal"
#: Which API ``tensorflow`` is: 2 (TensorFlow 2, the default) or 1 (as TensorFlow 1.x was,
#: for programs written for it: ``install_as_tensorflow(version=1)``, ``--tf1``).
_API = [2]


def _face() -> types.ModuleType:
    """The face ``tensorflow`` is: the TF2 face, or the TF1 face under ``version=1``."""
    if _API[0] == 1:
        return importlib.import_module("flowgrad.compat.v1")
    return sys.modules["flowgrad"]


def _child(parent: types.ModuleType, name: str) -> types.ModuleType | None:
    """``parent``'s submodule ``name``: its attribute, else a flowgrad submodule of that name."""
    value = getattr(parent, name, None)
    if isinstance(value, types.ModuleType):
        return value
    if value is None and hasattr(parent, "__path__") and parent.__name__.startswith("flowgrad"):
        try:
            return importlib.import_module(parent.__name__ + "." + name)
        except ModuleNotFoundError as e:
            if e.name != parent.__name__ + "." + name:
                raise
    return None


def resolve(fullname: str) -> types.ModuleType | None:
    """The flowgrad module that serves the TensorFlow module ``fullname``, or None.

    Args:
      fullname: a dotted module name, ``tensorflow`` or below it.

    Returns:
      The module object, or None when ``fullname`` is not a TensorFlow name flowgrad has.
    """
    parts = fullname.split(".")
    if parts[0] != _ROOT:
        return None
    face = _face()
    if len(parts) == 1:
        return face
    from flowgrad.api import namespaces
    head = parts[1]
    if _API[0] == 1:    # TF 1.x's namespaces are the TF1 face's modules
        public = isinstance(getattr(face, head, None), types.ModuleType)
    else:
        public = head in namespaces.modules("tf")
    module = _child(face, head) if public else None
    if module is not None:
        for name in parts[2:]:
            module = _child(module, name)
            if module is None:
                return None
        return module
    try:
        return importlib.import_module(".".join([_INTERNAL] + parts[1:]))
    except ModuleNotFoundError as e:
        if e.name is not None and e.name.startswith(_INTERNAL):
            return _internal_alias(parts)
        raise


def _internal_alias(parts: list) -> types.ModuleType | None:
    """A TensorFlow-internal module served as a view of the faces
    (``flowgrad.dropin_aliases``); ``tensorflow.python.keras.*`` is ``tensorflow.keras.*``."""
    if parts[1:3] == ["python", "keras"]:
        return resolve(".".join([_ROOT, "keras"] + parts[3:]))
    from flowgrad import dropin_aliases as aliases
    return aliases.make_module(".".join(parts[1:]))


class _ExistingModuleLoader(importlib.abc.Loader):
    """Loads a TensorFlow name as the flowgrad module that already serves it."""

    def __init__(self, module: types.ModuleType) -> None:
        self._module = module
        self._spec = getattr(module, "__spec__", None)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        return self._module

    def exec_module(self, module: types.ModuleType) -> None:
        module.__spec__ = self._spec      # the import system set it to the tensorflow one


class TensorFlowFinder(importlib.abc.MetaPathFinder):
    """Serves ``tensorflow`` and its submodule names from flowgrad (see the module doc)."""

    def find_spec(self, fullname: str, path, target=None):  # noqa: ANN001, ANN201
        if fullname.startswith(_INTERNAL + "."):
            return self._internal_alias_spec(fullname, path)
        if fullname != _ROOT and not fullname.startswith(_ROOT + "."):
            return None
        module = resolve(fullname)
        if module is None:     # not None: the finders after this one would load flowgrad's files
            raise ModuleNotFoundError("No module named %r (flowgrad serves `tensorflow`; it has "
                                      "no module of that name)" % fullname, name=fullname)
        # is_package: every served module may be a parent (``tensorflow.compat.v1.nn``)
        return importlib.machinery.ModuleSpec(fullname, _ExistingModuleLoader(module),
                                              is_package=True)

    @staticmethod
    def _internal_alias_spec(fullname: str, path):  # noqa: ANN001, ANN205
        """A served internal module under its flowgrad name: ``from
        tensorflow.python.framework import test_util`` imports it by the parent's
        ``__name__``, ``flowgrad.tf_internal.python.framework``. A module of that name on
        disk comes first."""
        if importlib.machinery.PathFinder.find_spec(fullname, path) is not None:
            return None
        from flowgrad import dropin_aliases
        module = dropin_aliases.make_module(fullname[len(_INTERNAL) + 1:])
        if module is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _ExistingModuleLoader(module),
                                              is_package=True)


def installed() -> bool:
    """Whether ``tensorflow`` names resolve to flowgrad in this process."""
    return any(isinstance(f, TensorFlowFinder) for f in sys.meta_path)


#: The module TensorFlow 2.16+ serves as ``tf.keras``: the keras package's ``tf.keras`` API.
_KERAS_API = "keras._tf_keras.keras"


def real_keras_available() -> bool:
    """Whether the keras extra (the ``keras`` package and its ``optree``) is installed."""
    return importlib.util.find_spec("keras") is not None and \
        importlib.util.find_spec("optree") is not None


def tf_keras() -> types.ModuleType:
    """``tf.keras`` of the TF2 face: the real Keras 3's ``keras._tf_keras.keras``, the module
    TensorFlow 2.16+ serves as ``tf.keras``, running on flowgrad as its TensorFlow.

    Keras imports ``tensorflow``: the first use registers flowgrad under that name
    (:func:`install_as_tensorflow`), as the drop-in does.

    Returns:
      The module; the face binds it (and ``tf.losses``, ``tf.metrics``, ``tf.optimizers``).

    Raises:
      ImportError: the keras extra is not installed (as TensorFlow 2.16+ without the keras
        package, ``tf.keras`` cannot be served), the real TensorFlow is already imported in
        this process, or flowgrad is installed as TensorFlow 1 (Keras 3 needs TensorFlow 2).
    """
    if not real_keras_available():
        raise ImportError(
            "tf.keras is the keras package (Keras 3), as in TensorFlow 2.16+, and it is not "
            "installed: pip install flowgrad[keras]", name="keras")
    if installed() and _API[0] == 1:
        raise ImportError(
            "tf.keras of the TF2 face is Keras 3, which runs on TensorFlow 2, and flowgrad is "
            "installed as TensorFlow 1 (install_as_tensorflow(version=1), --tf1): use the TF1 "
            "face's tf.keras (tf.compat.v1.keras)", name="keras")
    try:
        install_as_tensorflow()
    except ImportError as e:
        raise ImportError("tf.keras: Keras 3 imports `tensorflow`, which must be flowgrad; "
                          + str(e), name="keras") from None
    module = importlib.import_module(_KERAS_API)
    from flowgrad import keras2_names
    keras2_names.install(module)       # Keras 2's names programs for TF <= 2.15 use
    face = sys.modules["flowgrad"]
    face.__dict__["keras"] = module
    for name in _tf2_aliases():         # tf.losses is tf.keras.losses
        face.__dict__[name] = getattr(module, name)
    return module


def _tf2_aliases() -> tuple:
    """The TF2 namespaces that are ``tf.keras``'s (``tf.losses``, ...)."""
    from flowgrad.api.exports import KERAS_ALIASES
    return KERAS_ALIASES


class KerasFinder(importlib.abc.MetaPathFinder):
    """Serves ``flowgrad.keras`` and the names under it (``import flowgrad.keras.layers``) as
    the real Keras's modules of ``tf.keras`` (the attributes of ``keras._tf_keras.keras``, else
    its submodules of that name): the same module objects, so ``flowgrad.keras.layers is
    tf.keras.layers``."""

    _NAME = "flowgrad.keras"

    def find_spec(self, fullname: str, path, target=None):  # noqa: ANN001, ANN201
        if fullname != self._NAME and not fullname.startswith(self._NAME + "."):
            return None
        module, name = tf_keras(), _KERAS_API
        for part in fullname.split(".")[2:]:     # the attribute chain, as tf.keras.layers is
            name += "." + part
            value = getattr(module, part, None)
            module = value if isinstance(value, types.ModuleType) else \
                importlib.import_module(name)
        return importlib.machinery.ModuleSpec(fullname, _ExistingModuleLoader(module),
                                              is_package=hasattr(module, "__path__"))


def install_keras_finder() -> None:
    """Puts :class:`KerasFinder` first on ``sys.meta_path`` (once): ``import flowgrad.keras``
    then loads the real Keras, on first use only."""
    if not any(isinstance(f, KerasFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, KerasFinder())


def install_as_tensorflow(version: int = 2) -> None:
    """Makes ``import tensorflow`` (and every ``tensorflow.*`` name flowgrad has) import flowgrad.

    The pattern of ``pymysql.install_as_MySQLdb()``: call it before the program (or a
    library it uses) imports TensorFlow. Calling it again does nothing.

    Args:
      version: 2 (the default): ``tensorflow`` is TensorFlow 2's API (``import tensorflow as tf``
        gives ``flowgrad``), as TensorFlow 2.21 is; ``tf.keras`` is then the real Keras 3 as in
        TensorFlow 2.16+ (the keras extra; without it ``tf.keras`` raises an ImportError
        naming it; ``$FLOWGRAD_TF_KERAS=flowgrad`` keeps flowgrad's own). 1: ``tensorflow``
        is TensorFlow 1.x's API, for programs written for TF 1.x (``tf.placeholder``,
        ``tf.Session`` at the top level): the TF1 face ``flowgrad.compat.v1``, in graph mode
        as TF 1.x starts (an opt-in flowgrad extension: TensorFlow 2 itself has no such
        switch).

    Raises:
      ImportError: the real TensorFlow is already imported in this process (mixing the two
        would hand flowgrad tensors to TensorFlow and the reverse).
      ValueError: ``version`` is not 1 or 2, or differs from an earlier call's.
    """
    if version not in (1, 2):
        raise ValueError("install_as_tensorflow(version=%r): the version is 1 or 2" % (version,))
    if installed() and version != _API[0]:
        raise ValueError("flowgrad is already installed as TensorFlow %d; it cannot become "
                         "TensorFlow %d in the same process" % (_API[0], version))
    loaded = sys.modules.get(_ROOT)
    if loaded is not None and not loaded.__name__.startswith("flowgrad"):
        raise ImportError(
            "flowgrad.install_as_tensorflow(): the real TensorFlow is already imported (from %s);"
            " call it before anything imports tensorflow, or run the program with "
            "`python -m flowgrad SCRIPT`." % getattr(loaded, "__file__", loaded))
    if not installed():
        _API[0] = version
        sys.meta_path.insert(0, TensorFlowFinder())
        if version == 1:
            face = _face()
            face.disable_v2_behavior()         # TF 1.x starts in graph mode
            if not hasattr(face, "__path__"):  # so that `tensorflow.x` imports reach the finder
                face.__path__ = []
    sys.modules[_ROOT] = _face()
