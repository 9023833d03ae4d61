"""``tf.linspace``: evenly spaced values, built from ordinary ops (so differentiable).

As TensorFlow's ``linspace_nd``: ``start`` and ``stop`` may be tensors of one shape
(the values run along the new dimension ``axis``), ``num`` may be a tensor; the
first value is exactly ``start`` and the last exactly ``stop``. (``tf.range`` with
float arguments is ``array_ops.range``.)"""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.graph import name_scope
from flowgrad.framework.shape_rules import constant_value
from flowgrad.framework.tensor import convert_to_tensor, is_tensor
from flowgrad.ops.array_ops import concat, expand_dims, range, reshape, shape, slice
from flowgrad.ops.math_ops import cast, maximum
from flowgrad.framework.type_hints import TensorLike

_LINSPACE_DTYPES = (dtypes.float16, dtypes.float32, dtypes.float64)


def linspace(start: Any, stop: TensorLike, num: Any, name: str | None = None, axis: int = 0) -> Any:
    """``num`` evenly spaced values from ``start`` to ``stop`` (both included) along ``axis``.

    Args:
        start: The first value (a floating tensor).
        stop: The last value.
        num: The number of values (an int scalar).
        name: A name for the operation (optional).
        axis: Where the new axis goes (for tensor ``start``/``stop``).
    """
    with name_scope(name, "linspace", [start, stop]):
        start = convert_to_tensor(start, name="start")
        if start.dtype.is_integer:      # TensorFlow computes integer ends in float64
            start = cast(start, dtypes.float64)
        if is_tensor(stop) and stop.dtype.is_integer:
            stop = cast(stop, start.dtype.base_dtype)
        stop = convert_to_tensor(stop, name="stop", dtype=start.dtype.base_dtype)
        dt = start.dtype.base_dtype
        if dt not in _LINSPACE_DTYPES:
            raise TypeError("linspace: start and stop must be floating point (bfloat16, half, "
                            "float32 or float64), got %s" % dt.name)
        rank = start.shape.rank
        if rank is None:
            raise ValueError("linspace needs the rank of start to be known")
        ndims = rank + 1
        if not -ndims <= axis < ndims:
            raise ValueError("linspace: axis %d is out of range for %d dimensions" % (axis, ndims))
        axis %= ndims
        start_e, stop_e = expand_dims(start, axis), expand_dims(stop, axis)
        n = constant_value(num) if not isinstance(num, (int, np.integer)) else num
        if n is not None:
            return _linspace_static(start_e, stop_e, int(n), axis, ndims, dt)
        return _linspace_dynamic(start_e, stop_e, num, axis, ndims, dt)


def _linspace_static(start_e: Any, stop_e: Any, n: int, axis: int, ndims: int,
                     dt: dtypes.DType) -> Any:
    if n < 0:
        raise ValueError("linspace: num must be >= 0, got %d" % n)
    if n <= 1:
        size = [-1 if d != axis else 0 for d in builtins.range(ndims)]
        return start_e if n == 1 else slice(start_e, [0] * ndims, size)
    delta = (stop_e - start_e) / np.asarray(n - 1, dt.np)
    steps = np.arange(1, n - 1, dtype=dt.np).reshape([n - 2 if d == axis else 1
                                                      for d in builtins.range(ndims)])
    return concat([start_e, start_e + delta * steps, stop_e], axis)


def _linspace_dynamic(start_e: Any, stop_e: Any, num: Any, axis: int, ndims: int,
                      dt: dtypes.DType) -> Any:
    n = cast(num, dtypes.int32)
    n_steps = maximum(n - 1, 1)
    delta = (stop_e - start_e) / cast(n_steps, dt)
    ones_before, ones_after = np.ones(axis, np.int32), np.ones(ndims - axis - 1, np.int32)
    steps = reshape(cast(range(1, n_steps), dt),
                    concat([ones_before, reshape(maximum(n - 2, 0), [1]), ones_after], 0))
    full = concat([start_e, start_e + delta * steps, stop_e], axis)
    s = shape(start_e)
    size = concat([slice(s, [0], [axis]), reshape(n, [1]),
                   slice(s, [axis + 1], [ndims - axis - 1])], 0)
    return slice(full, np.zeros(ndims, np.int32), size)


lin_space = linspace

__all__ = ["linspace", "lin_space"]
