"""The TF2 face's names: ``import flowgrad as tf`` shows TensorFlow 2's API.

- Names TensorFlow 2 has no top-level name for (TF1's ``placeholder``, ``to_float``, ``log``,
  ``div``, ..., and helpers that star imports brought in, such as ``np`` and ``Any``) are
  removed; the TF1 face (``flowgrad.compat.v1``) and ``tf.math`` keep theirs.
- ``tf.train`` is TensorFlow 2's (Checkpoint, CheckpointManager, checkpoint utilities); the
  TF1 optimizers, ``Saver`` and the global step live in ``flowgrad.compat.v1.train``.
- ``tf.dtypes`` is a module of the face's DType objects, ``as_dtype`` and ``cast``
  (:data:`TF2_DTYPES`).
- flowgrad's implementation packages (``flowgrad.runtime``, ``flowgrad.ops``, ...) stay
  importable but are left out of ``dir(flowgrad)`` and ``__all__``.
- flowgrad's own additions are :data:`EXTENSIONS` (see docs/differences.md).
"""
from __future__ import annotations

import sys
import types
from typing import Any

#: flowgrad additions shown by the TF2 face.
EXTENSIONS = frozenset({"explain_gradient", "safe_norm", "debug", "datasets",
                        "install_as_tensorflow"})

#: TensorFlow 2 namespaces the TF2 face provides (as flowgrad submodules or aliases).
TF2_MODULES = frozenset({
    "autodiff", "autograph", "compat", "config", "data", "debugging", "distribute", "dtypes",
    "errors", "experimental", "image", "initializers", "io", "keras", "linalg", "losses", "math",
    "metrics", "mixed_precision", "nest", "nn", "optimizers", "random", "saved_model", "signal",
    "sparse", "strings", "summary", "test", "train", "types", "version",
    "bitwise", "raw_ops",
    "lite", "tpu", "lookup", "feature_column", "audio", "sets",
})

#: Top-level names of the TF1 API (and helpers) that TensorFlow 2 does not have.
REMOVED = frozenset({
    "Any", "annotations", "builtins", "np", "flowgrad",
    "broadcast_gradient_args", "ceil", "clip_by_average_norm", "count_nonzero", "cumprod", "div",
    "div_no_nan", "divide_no_nan", "expm1", "float32_ref", "float64_ref", "floordiv", "floormod",
    "from_numpy", "global_norm", "int32_ref", "int64_ref", "invert_permutation",
    "is_differentiable", "is_finite", "is_inf", "is_nan", "log", "log1p", "logical_xor", "mod",
    "placeholder", "placeholder_with_default", "reciprocal", "reduce_euclidean_norm",
    "reduce_std", "reduce_variance", "reverse_v2", "rint", "rsqrt", "squared_difference",
    "sum_to", "to_double", "to_float", "to_int32", "to_int64", "unsorted_segment_sum",
})

#: TF2 namespaces that are ``tf.keras``'s of the same name (``tf.losses`` is
#: ``tf.keras.losses``): the real Keras's under the drop-in with the keras extra.
KERAS_ALIASES = ("losses", "metrics", "optimizers")

#: TensorFlow 2's ``tf.train`` names that flowgrad has.
TF2_TRAIN = ("Checkpoint", "CheckpointManager", "ExponentialMovingAverage",
             "checkpoints_iterator", "get_checkpoint_state", "latest_checkpoint",
             "list_variables", "load_checkpoint", "load_variable")


#: TensorFlow 2's ``tf.dtypes`` names; those the face has make its ``tf.dtypes`` module.
TF2_DTYPES = ("DType", "QUANTIZED_DTYPES", "as_dtype", "cast", "complex", "saturate_cast",
              "bfloat16", "bool", "complex128", "complex64", "double", "float16", "float32",
              "float64", "half", "int16", "int32", "int64", "int8", "qint16", "qint32", "qint8",
              "quint16", "quint8", "resource", "string", "uint16", "uint32", "uint64", "uint8",
              "variant")


def _subset(name: str, doc: str | None, members: dict, names: tuple) -> types.ModuleType:
    """A module holding the ``names`` that ``members`` has."""
    view = types.ModuleType(name, doc)
    view.__all__ = [n for n in names if n in members]
    for n in view.__all__:
        setattr(view, n, members[n])
    return view


def _hidden(name: str, value: Any) -> bool:
    """Whether ``dir(flowgrad)`` leaves ``name`` out: private names and implementation modules."""
    if name.startswith("_"):
        return True
    return (isinstance(value, types.ModuleType) and name not in TF2_MODULES
            and name not in EXTENSIONS)


def public_names(namespace: dict) -> list:
    """The names ``dir(flowgrad)`` shows."""
    return sorted(n for n, v in list(namespace.items()) if not _hidden(n, v))


def _lazy_names(view: types.ModuleType, names: tuple, getter: Any) -> None:
    """Adds ``names``, looked up by ``getter`` on first use, to the module ``view``."""
    view.__all__ = list(view.__all__) + list(names)
    view.__getattr__ = getter
    view.__dir__ = lambda: sorted(view.__all__)


def finish(namespace: dict) -> None:
    """Makes the package namespace ``namespace`` TensorFlow 2's (see the module docstring)."""
    for name in REMOVED:
        namespace.pop(name, None)
    train = sys.modules["flowgrad.train"]
    namespace["train"] = _subset("flowgrad.train", train.__doc__, vars(train), TF2_TRAIN)
    _lazy_names(namespace["train"], train.EXAMPLE_MESSAGES, train.__getattr__)
    namespace["train"].ClusterSpec = sys.modules["flowgrad.cluster_resolver_api"].ClusterSpec
    namespace["train"].__all__.append("ClusterSpec")
    namespace["dtypes"] = _subset("flowgrad.dtypes", "``tf.dtypes``: the DType objects and casts.",
                                  namespace, TF2_DTYPES)
    for name in KERAS_ALIASES:    # TF2's tf.losses is tf.keras.losses (TF1's: compat.v1.losses)
        namespace[name] = getattr(namespace["keras"], name)
