"""TensorFlow 1.15's ``tf.contrib``, in the TF1 face only (``import flowgrad.compat.v1 as tf``,
``python -m flowgrad --tf1``): the parts TF 1.x programs use most, as thin compositions of
flowgrad's TF1 API with TF 1.15's names, defaults and variable names. TensorFlow 2 has no
``tf.contrib``, so the TF2 face has none either.

Each sub-namespace (``tf.contrib.layers``, ``tf.contrib.rnn``, ``tf.contrib.slim``,
``tf.contrib.framework``, ``tf.contrib.eager``, ...) is loaded on first use."""
from __future__ import annotations

import importlib
import types

#: The sub-namespaces, each a module of this package.
SUBMODULES = ("crf", "eager", "factorization", "framework", "image", "layers", "learn",
              "legacy_seq2seq", "losses", "metrics", "rnn", "seq2seq", "slim", "training")

__all__ = list(SUBMODULES)


def __getattr__(name: str) -> types.ModuleType:
    """Loads the sub-namespace ``name`` on first use.

    Args:
      name: A sub-namespace of ``tf.contrib``.

    Returns:
      Its module.

    Raises:
      AttributeError: ``name`` is not one flowgrad has.
    """
    if name in SUBMODULES:
        module = importlib.import_module(__name__ + "." + name)
        globals()[name] = module
        return module
    raise AttributeError("module 'tensorflow.contrib' has no attribute %r (flowgrad has "
                         "TF 1.15's tf.contrib.%s)" % (name, ", ".join(SUBMODULES)))


def __dir__() -> list:
    return sorted(__all__)
