"""``tf.experimental.numpy.random``: NumPy's random functions on TensorFlow's random ops
(``seed`` is ``tf.random.set_seed``; draws are TensorFlow's Philox streams)."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.experimental_numpy import array_api as aa
from flowgrad.experimental_numpy import dtypes_config as dc
from flowgrad.framework import dtypes
from flowgrad.framework.tensor import TensorBase
from flowgrad.ops import random_ops
from flowgrad.ops.stateless_random_ops import stateless_random_poisson
from flowgrad.framework.type_hints import DTypeLike
from flowgrad.framework.type_hints import TensorLike

__all__ = ["poisson", "rand", "randint", "randn", "random", "seed", "standard_normal",
           "uniform"]


def seed(s: int) -> None:
    """Sets the global random seed (``tf.random.set_seed``), as ``np.random.seed``.

    Args:
      s: An integer.

    Raises:
      ValueError: ``s`` is not an integer.
    """
    try:
        s = int(s)
    except TypeError:
        raise ValueError("Argument `s` got an invalid value %s. Only integers are supported."
                         % (s,)) from None
    random_ops.set_seed(s)


def _size(size: Any) -> Any:
    if size is None:
        return ()
    if np.isscalar(size):
        return (int(size),)
    return size


def standard_normal(size: TensorLike | None = None) -> TensorBase:
    """Standard normal samples of shape ``size`` (float64), as
    ``np.random.standard_normal``.

    Args:
      size: The shape (an int, a sequence, or None for a scalar).

    Returns:
      A tensor.
    """
    return random_ops.random_normal(list(_size(size)), dtype=dc.default_float_type())


def randn(*args: int) -> TensorBase:
    """Standard normal samples of shape ``args`` (float64), as ``np.random.randn``.

    Args:
      *args: The shape.

    Returns:
      A tensor.
    """
    return standard_normal(size=args)


def uniform(low: TensorLike = 0.0, high: TensorLike = 1.0,
            size: TensorLike | None = None) -> TensorBase:
    """Uniform samples in ``[low, high)`` (float64), as ``np.random.uniform``.

    Args:
      low: The lower bound.
      high: The upper bound.
      size: The shape (the bounds' broadcast shape when None).

    Returns:
      A tensor.
    """
    dtype = dc.default_float_type()
    low, high = aa.asarray(low, dtype), aa.asarray(high, dtype)
    if size is None:
        size = np.broadcast_shapes(tuple(low.shape.as_list()), tuple(high.shape.as_list()))
    elif np.isscalar(size):
        size = (int(size),)
    return random_ops.random_uniform(list(size), minval=low, maxval=high, dtype=dtype)


def random(size: TensorLike | None = None) -> TensorBase:
    """Uniform samples in ``[0, 1)``, as ``np.random.random``.

    Args:
      size: The shape.

    Returns:
      A tensor.
    """
    return uniform(0.0, 1.0, size)


def rand(*size: int) -> TensorBase:
    """Uniform samples in ``[0, 1)`` of shape ``size``, as ``np.random.rand``.

    Args:
      *size: The shape.

    Returns:
      A tensor.
    """
    return uniform(0.0, 1.0, size)


def randint(low: int, high: int | None = None, size: TensorLike | None = None,
            dtype: DTypeLike = np.int64) -> Any:
    """Uniform integers in ``[low, high)`` (``[0, low)`` without ``high``), as
    ``np.random.randint``.

    Args:
      low: The lower bound (the upper one when ``high`` is None).
      high: The upper bound.
      size: The shape.
      dtype: int32 or int64.

    Returns:
      A tensor.

    Raises:
      ValueError: Another dtype.
    """
    low = int(low)
    if high is None:
        low, high = 0, low
    dt = dc.result_type(dtype)
    if dt not in (dtypes.int32, dtypes.int64):
        raise ValueError("Argument `dtype` got an invalid value %s. Only those convertible to "
                         "(<class 'numpy.int32'>, <class 'numpy.int64'>) are supported."
                         % (dtype,))
    return random_ops.random_uniform(list(_size(size)), minval=low, maxval=high, dtype=dt)


def poisson(lam: TensorLike = 1.0, size: TensorLike | None = None) -> TensorBase:
    """Poisson samples with rate ``lam`` (int64), as ``np.random.poisson``. The draw is
    keyed by a seed from the global stream (TensorFlow's own Poisson draws differ).

    Args:
      lam: The rate.
      size: The shape.

    Returns:
      A tensor.
    """
    key = random_ops.random_uniform([2], minval=0, maxval=2 ** 31 - 1, dtype=dtypes.int64)
    return stateless_random_poisson(list(_size(size)), key, lam, dtype=dtypes.int64)


def __dir__() -> list:
    """TensorFlow's names of ``tf.experimental.numpy.random``."""
    return list(__all__)
