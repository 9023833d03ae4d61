"""TensorFlow 1.15's ``tf.contrib.layers`` initializers: ``xavier_initializer`` (uniform by
default) and ``variance_scaling_initializer`` (``factor=2.0``, ``FAN_IN``, a truncated normal of
standard deviation ``sqrt(1.3 * factor / n)`` unless ``uniform``)."""
from __future__ import annotations

import math
from collections.abc import Callable

from flowgrad.framework import dtypes
from flowgrad.framework.type_hints import DTypeLike, ShapeLike, TensorLike
from flowgrad.ops import random_ops

_MODES = ("FAN_IN", "FAN_OUT", "FAN_AVG")


def variance_scaling_initializer(factor: float = 2.0, mode: str = "FAN_IN",
                                 uniform: bool = False, seed: int | None = None,
                                 dtype: DTypeLike = dtypes.float32) -> Callable:
    """An initializer drawing with a variance of ``factor / n``: ``n`` is the fan-in, the
    fan-out or their mean (``mode``); uniform in ``[-sqrt(3 factor / n), sqrt(3 factor / n)]``
    or a truncated normal of standard deviation ``sqrt(1.3 factor / n)``.

    Args:
      factor: The scale of the variance.
      mode: ``"FAN_IN"``, ``"FAN_OUT"`` or ``"FAN_AVG"``.
      uniform: Whether to draw uniformly (else from a truncated normal).
      seed: The op seed of the draws.
      dtype: The floating dtype of the values.

    Returns:
      A function ``(shape, dtype=dtype, partition_info=None)`` giving the initial tensor.

    Raises:
      TypeError: ``dtype`` is not floating, or ``mode`` is not one of the three.
    """
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise TypeError("Cannot create initializer for non-floating point type.")
    if mode not in _MODES:
        raise TypeError("Unknown mode %s [FAN_IN, FAN_OUT, FAN_AVG]" % mode)

    def _initializer(shape: ShapeLike, dtype: DTypeLike = dtype,
                     partition_info: object = None) -> TensorLike:
        dtype = dtypes.as_dtype(dtype)
        if not dtype.is_floating:
            raise TypeError("Cannot create initializer for non-floating point type.")
        shape = [int(d) for d in shape]
        if partition_info is not None and getattr(partition_info, "full_shape", None):
            dims = [int(d) for d in partition_info.full_shape]
        else:
            dims = shape
        fan_in = float(dims[-2]) if len(dims) > 1 else float(dims[-1]) if dims else 1.0
        fan_out = float(dims[-1]) if dims else 1.0
        for dim in dims[:-2]:
            fan_in *= float(dim)
            fan_out *= float(dim)
        n = {"FAN_IN": fan_in, "FAN_OUT": fan_out, "FAN_AVG": (fan_in + fan_out) / 2.0}[mode]
        if uniform:
            limit = math.sqrt(3.0 * factor / n)
            return random_ops.random_uniform(shape, -limit, limit, dtype, seed=seed)
        trunc_stddev = math.sqrt(1.3 * factor / n)
        return random_ops.truncated_normal(shape, 0.0, trunc_stddev, dtype, seed=seed)

    return _initializer


def xavier_initializer(uniform: bool = True, seed: int | None = None,
                       dtype: DTypeLike = dtypes.float32) -> Callable:
    """Glorot and Bengio's initializer: ``variance_scaling_initializer(1.0, "FAN_AVG",
    uniform)`` (uniform in ``[-sqrt(6 / (fan_in + fan_out)), ...]`` by default).

    Args:
      uniform: Whether to draw uniformly (else from a truncated normal).
      seed: The op seed of the draws.
      dtype: The floating dtype of the values.

    Returns:
      The initializer function.
    """
    return variance_scaling_initializer(factor=1.0, mode="FAN_AVG", uniform=uniform, seed=seed,
                                        dtype=dtype)


xavier_initializer_conv2d = xavier_initializer

__all__ = ["variance_scaling_initializer", "xavier_initializer", "xavier_initializer_conv2d"]


def __dir__() -> list:
    return sorted(__all__)
