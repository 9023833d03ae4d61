"""``tf.sparse.add``, ``tf.sparse.maximum`` and ``tf.sparse.minimum`` on eager
SparseTensors: the result's indices are the union of the operands' (in row-major order),
an index missing from one operand counts as zero there. ``tf.sparse.add`` of a SparseTensor
and a dense tensor is their dense sum, as in TensorFlow."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad.framework import errors
from flowgrad.framework.tensor import EagerTensor, convert_to_tensor
from flowgrad.ops import math_ops
from flowgrad.ops.sparse_tensor import SparseTensor, to_dense
from flowgrad.framework.type_hints import TensorLike


def _arrays(sp: SparseTensor, what: str) -> tuple:
    parts = (sp.indices, sp.values, sp.dense_shape)
    if not all(isinstance(p, EagerTensor) for p in parts):
        raise NotImplementedError("tf.sparse.%s of SparseTensors is supported eagerly only in "
                                  "flowgrad" % what)
    return tuple(p.numpy() for p in parts)


def _union(a: SparseTensor, b: SparseTensor, fn: Callable, what: str) -> SparseTensor:
    ai, av, ashape = _arrays(a, what)
    bi, bv, bshape = _arrays(b, what)
    if not np.array_equal(ashape, bshape):
        raise errors.InvalidArgumentError(None, None, "Operands do not have the same ranks or "
                                          "dense shapes: %s vs. %s" % (ashape, bshape))
    shape = tuple(int(d) for d in ashape)
    dense_a = np.zeros(shape, av.dtype)
    dense_b = np.zeros(shape, bv.dtype)
    dense_a[tuple(ai.T)] = av
    dense_b[tuple(bi.T)] = bv
    both = np.concatenate([ai, bi]).reshape(-1, len(shape))
    flat = np.unique(np.ravel_multi_index(tuple(both.T), shape)) if both.size else \
        np.zeros([0], np.int64)
    indices = np.stack(np.unravel_index(flat, shape), axis=1).astype(np.int64) \
        if len(shape) else np.zeros([flat.size, 0], np.int64)
    values = fn(dense_a, dense_b)[tuple(indices.T)]
    return SparseTensor(indices, values.astype(av.dtype), np.asarray(shape, np.int64))


def add(a: TensorLike, b: TensorLike, threshold: Any = 0) -> Any:
    """``a + b`` where at least one is a SparseTensor.

    Args:
      a: a SparseTensor or a dense tensor.
      b: a SparseTensor or a dense tensor.
      threshold: for two SparseTensors, sums smaller in magnitude are dropped (0 keeps all).

    Returns:
      A SparseTensor for two SparseTensors, else a dense tensor.

    Raises:
      TypeError: neither operand is a SparseTensor.
    """
    if isinstance(a, SparseTensor) and isinstance(b, SparseTensor):
        out = _union(a, b, np.add, "add")
        if threshold:
            keep = np.abs(out.values.numpy()) >= threshold
            out = SparseTensor(out.indices.numpy()[keep], out.values.numpy()[keep],
                               out.dense_shape)
        return out
    if isinstance(a, SparseTensor):
        return math_ops.add(to_dense(a), convert_to_tensor(b, a.dtype))
    if isinstance(b, SparseTensor):
        return math_ops.add(convert_to_tensor(a, b.dtype), to_dense(b))
    raise TypeError("tf.sparse.add needs at least one SparseTensor, got %s and %s"
                    % (type(a).__name__, type(b).__name__))


def maximum(sp_a: SparseTensor, sp_b: SparseTensor, name: str | None = None) -> SparseTensor:
    """The elementwise maximum of two SparseTensors (missing entries are zeros).

    Args:
        sp_a: A SparseTensor.
        sp_b: A SparseTensor of ``sp_a``'s shape and dtype.
        name: A name for the operation (optional).
    """
    return _union(sp_a, sp_b, np.maximum, "maximum")


def minimum(sp_a: SparseTensor, sp_b: SparseTensor, name: str | None = None) -> SparseTensor:
    """The elementwise minimum of two SparseTensors (missing entries are zeros).

    Args:
        sp_a: A SparseTensor.
        sp_b: A SparseTensor of ``sp_a``'s shape and dtype.
        name: A name for the operation (optional).
    """
    return _union(sp_a, sp_b, np.minimum, "minimum")


__all__ = ["add", "maximum", "minimum"]
