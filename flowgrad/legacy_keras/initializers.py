"""``keras.initializers``: the TF2 initializers (``flowgrad.initializers``) under Keras names."""
from __future__ import annotations

from typing import Any

from flowgrad import initializers as _tf2
from flowgrad.initializers import (
    Constant,
    GlorotNormal,
    GlorotUniform,
    HeNormal,
    HeUniform,
    Identity,
    Initializer,
    LecunNormal,
    LecunUniform,
    Ones,
    Orthogonal,
    RandomNormal,
    RandomUniform,
    TruncatedNormal,
    VarianceScaling,
    Zeros,
    constant,
    glorot_normal,
    glorot_uniform,
    he_normal,
    he_uniform,
    identity,
    lecun_normal,
    lecun_uniform,
    ones,
    orthogonal,
    random_normal,
    random_uniform,
    truncated_normal,
    variance_scaling,
    zeros,
)

IdentityInitializer = Identity
# Keras's short aliases ('uniform' is Embedding's default initializer)
_ALIASES = {"uniform": RandomUniform, "normal": RandomNormal, "one": Ones, "zero": Zeros}


def get(identifier: Any) -> Any:
    """An initializer from a name ('glorot_uniform', 'uniform', 'HeNormal'), a config dict,
    a class, a callable, or None.

    Args:
        identifier: The name, config dict, class, callable or None.

    Returns:
        The initializer (None for None).
    """
    if isinstance(identifier, str) and identifier in _ALIASES:
        return _ALIASES[identifier]()
    return _tf2.get(identifier)


__all__ = ["Initializer", "Zeros", "Ones", "Constant", "RandomUniform", "RandomNormal",
           "TruncatedNormal", "VarianceScaling", "GlorotUniform", "GlorotNormal", "HeNormal",
           "HeUniform", "LecunNormal", "LecunUniform", "Identity",
           "zeros", "ones", "constant", "random_uniform", "random_normal", "truncated_normal",
           "variance_scaling", "glorot_uniform", "glorot_normal", "he_normal", "he_uniform",
           "lecun_normal", "lecun_uniform", "identity", "Orthogonal", "orthogonal", "get"]


def __dir__() -> list:
    """tf.keras.initializers of TensorFlow 2.15 (``__all__``); imported helpers stay hidden."""
    return sorted(__all__)
