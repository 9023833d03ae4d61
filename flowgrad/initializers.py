"""``tf.initializers`` / ``tf.keras.initializers``: TF2 initializers (Keras defaults).

They differ from TF1's ``init_ops`` classes only where TF2 does: random
initializers default to a 0.05 scale, and ``Constant`` takes its dtype from the
value and only broadcasts scalars."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.tensor import constant as _constant
from flowgrad.ops import init_ops
from flowgrad.ops.init_ops import (
    GlorotNormal,
    GlorotUniform,
    Identity,
    Initializer,
    Ones,
    VarianceScaling,
    Zeros,
)
from flowgrad.framework.type_hints import DTypeLike, ShapeLike, TensorLike


class Constant(Initializer):
    """Tensors holding ``value`` (a scalar is broadcast; otherwise the sizes must match).

    Args:
        value: A Python scalar (or array) every value equals.
    """

    def __init__(self, value: Any = 0):
        if not (np.isscalar(value) or isinstance(value, (list, tuple, np.ndarray))):
            raise TypeError("Invalid type for initial value: %s. Expected Python scalar, list "
                            "or tuple of values, or numpy.ndarray." % type(value).__name__)
        self.value = value

    def __call__(self, shape: ShapeLike, dtype: DTypeLike | None = None, **kwargs: Any) -> Any:
        return _constant(self.value, None if dtype is None else dtypes.as_dtype(dtype),
                         shape=shape)


class RandomUniform(init_ops.RandomUniform):
    """Uniform samples in [minval, maxval), by default [-0.05, 0.05).

    Args:
        minval: The lower bound (inclusive).
        maxval: The upper bound (exclusive).
        seed: The seed; with the global seed it fixes the values.
    """

    def __init__(self, minval: TensorLike = -0.05, maxval: TensorLike = 0.05,
                 seed: int | None = None):
        super().__init__(minval, maxval, seed)


class RandomNormal(init_ops.RandomNormal):
    """Normal samples N(mean, stddev**2), by default stddev 0.05.

    Args:
        mean: The mean of the normal distribution.
        stddev: Its standard deviation.
        seed: The seed; with the global seed it fixes the values.
    """

    def __init__(self, mean: Any = 0.0, stddev: TensorLike = 0.05, seed: int | None = None):
        super().__init__(mean, stddev, seed)


class TruncatedNormal(init_ops.TruncatedNormal):
    """Truncated normal samples, by default stddev 0.05.

    Args:
        mean: The mean of the normal distribution.
        stddev: Its standard deviation (before truncation).
        seed: The seed; with the global seed it fixes the values.
    """

    def __init__(self, mean: Any = 0.0, stddev: TensorLike = 0.05, seed: int | None = None):
        super().__init__(mean, stddev, seed)


class HeNormal(VarianceScaling):
    """Truncated normal with stddev sqrt(2 / fan_in).

    Args:
        seed: The seed; with the global seed it fixes the values.
    """

    def __init__(self, seed: int | None = None):
        super().__init__(2.0, "fan_in", "truncated_normal", seed)


class HeUniform(VarianceScaling):
    """U(-limit, limit) with limit = sqrt(6 / fan_in).

    Args:
        seed: The seed; with the global seed it fixes the values.
    """

    def __init__(self, seed: int | None = None):
        super().__init__(2.0, "fan_in", "uniform", seed)


class LecunNormal(VarianceScaling):
    """Truncated normal with stddev sqrt(1 / fan_in).

    Args:
        seed: The seed; with the global seed it fixes the values.
    """

    def __init__(self, seed: int | None = None):
        super().__init__(1.0, "fan_in", "truncated_normal", seed)


class LecunUniform(VarianceScaling):
    """U(-limit, limit) with limit = sqrt(3 / fan_in).

    Args:
        seed: The seed; with the global seed it fixes the values.
    """

    def __init__(self, seed: int | None = None):
        super().__init__(1.0, "fan_in", "uniform", seed)


class Orthogonal(Initializer):
    """A (semi-)orthogonal matrix times ``gain``: the Q of a QR decomposition of a normal
    sample, signs fixed by R's diagonal (shapes of rank > 2 are flattened to
    [prod(shape[:-1]), shape[-1]]), as Keras's ``orthogonal``.

    Args:
        gain: The factor the orthogonal matrix is multiplied by.
        seed: The seed; with the global seed it fixes the values.
    """

    def __init__(self, gain: float = 1.0, seed: int | None = None):
        self.gain = gain
        self.seed = seed

    def __call__(self, shape: ShapeLike, dtype: DTypeLike | None = None, **kwargs: Any) -> Any:
        from flowgrad.ops.random_ops import random_normal
        from flowgrad.ops.script_ops import numpy_function
        shape = tuple(int(d) for d in shape)
        if len(shape) < 2:
            raise ValueError("The tensor to initialize must be at least two-dimensional. "
                             "Received: shape=%s of rank %d." % (shape, len(shape)))
        dt = dtypes.as_dtype(dtype or dtypes.float32)
        rows, cols = int(np.prod(shape[:-1])), shape[-1]
        sample = random_normal((max(rows, cols), min(rows, cols)), dtype=dt, seed=self.seed)

        def orthogonalize(a: np.ndarray) -> np.ndarray:
            q, r = np.linalg.qr(a)
            q = q * np.sign(np.diag(r))
            q = q.T if rows < cols else q
            return (self.gain * q).reshape(shape).astype(dt.as_numpy_dtype)
        out = numpy_function(orthogonalize, [sample], dt, stateful=False)
        out.set_shape(shape)
        return out

    def get_config(self) -> dict:
        return {"gain": self.gain, "seed": self.seed}


zeros = Zeros
ones = Ones
constant = Constant
random_uniform = RandomUniform
random_normal = RandomNormal
truncated_normal = TruncatedNormal
variance_scaling = VarianceScaling
glorot_uniform = GlorotUniform
glorot_normal = GlorotNormal
he_normal = HeNormal
he_uniform = HeUniform
lecun_normal = LecunNormal
lecun_uniform = LecunUniform
identity = Identity
orthogonal = Orthogonal

_BY_NAME = {"zeros": Zeros, "ones": Ones, "constant": Constant, "random_uniform": RandomUniform,
            "random_normal": RandomNormal, "truncated_normal": TruncatedNormal,
            "variance_scaling": VarianceScaling, "glorot_uniform": GlorotUniform,
            "glorot_normal": GlorotNormal, "he_normal": HeNormal, "he_uniform": HeUniform,
            "lecun_normal": LecunNormal, "lecun_uniform": LecunUniform, "identity": Identity,
            "orthogonal": Orthogonal}
_BY_NAME.update({cls.__name__: cls for cls in list(_BY_NAME.values())})


def get(identifier: Any) -> Any:
    """An initializer from a name ('glorot_uniform', 'HeNormal'), a config dict or itself.

    Args:
        identifier: A name, a config dict, an initializer, or None.
    """
    if identifier is None or callable(identifier) and not isinstance(identifier, type):
        return identifier
    if isinstance(identifier, type) and issubclass(identifier, Initializer):
        return identifier()
    if isinstance(identifier, str) and identifier in _BY_NAME:
        return _BY_NAME[identifier]()
    if isinstance(identifier, dict) and identifier.get("class_name") in _BY_NAME:
        return _BY_NAME[identifier["class_name"]](**identifier.get("config", {}))
    raise ValueError("Could not interpret initializer identifier: %r" % (identifier,))


__all__ = ["Initializer", "Zeros", "Ones", "Constant", "RandomUniform", "RandomNormal",
           "TruncatedNormal", "VarianceScaling", "GlorotUniform", "GlorotNormal", "HeNormal",
           "HeUniform", "LecunNormal", "LecunUniform", "Identity", "zeros", "ones", "constant",
           "random_uniform", "random_normal", "truncated_normal", "variance_scaling",
           "glorot_uniform", "glorot_normal", "he_normal", "he_uniform", "lecun_normal",
           "lecun_uniform", "identity", "Orthogonal", "orthogonal", "get"]
