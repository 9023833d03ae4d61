"""``tf.meshgrid``: coordinate grids from 1-D coordinate vectors (reshape and broadcast,
so gradients flow back to the vectors)."""
from __future__ import annotations

from typing import Any

from flowgrad.framework.graph import name_scope
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops.array_ops import _as_value, ones, reshape, size, stack
from flowgrad.ops.math_ops import multiply


def meshgrid(*args: Any, **kwargs: Any) -> list:
    """N-D grids from N coordinate vectors; ``indexing`` 'xy' (Cartesian, default: the first
    two output axes swapped) or 'ij' (matrix).

    Args:
        *args: 1-D tensors: the coordinates along each axis.
        **kwargs: ``indexing`` (``"xy"``, the default, or ``"ij"``) and ``name``.
    """
    indexing = kwargs.pop("indexing", "xy")
    name = kwargs.pop("name", "meshgrid")
    if kwargs:
        raise TypeError("'%s' is an invalid keyword argument for this function"
                        % next(iter(kwargs)))
    if indexing not in ("xy", "ij"):
        raise ValueError("Argument `indexing` parameter must be either 'xy' or 'ij', got '%s'"
                         % indexing)
    with name_scope(name, "meshgrid", list(args)):
        xs = [convert_to_tensor(_as_value(x)) for x in args]
        n = len(xs)
        if not n:
            return []
        dims = [[-1 if j == i else 1 for j in range(n)] for i in range(n)]
        sizes = [size(x) for x in xs]
        if indexing == "xy" and n > 1:
            dims[0], dims[1] = [1, -1] + [1] * (n - 2), [-1, 1] + [1] * (n - 2)
            sizes[0], sizes[1] = sizes[1], sizes[0]
        grid = ones(stack(sizes), xs[0].dtype.base_dtype)
        return [multiply(reshape(x, d), grid) for x, d in zip(xs, dims)]


__all__ = ["meshgrid"]
