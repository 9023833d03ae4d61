"""Gradient clipping: clip_by_norm, clip_by_global_norm, global_norm, clip_by_average_norm.

Built from ordinary ops, with TensorFlow's formulas (so they are differentiable and
give TensorFlow's numbers). IndexedSlices are clipped through their values; None
entries of a list pass through."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flowgrad.framework import dtypes
from flowgrad.framework.graph import name_scope
from flowgrad.framework.indexed_slices import IndexedSlices
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops.array_ops import identity, ones_like, size, stack
from flowgrad.ops.math_ops import (
    cast,
    greater,
    maximum,
    minimum,
    multiply,
    realdiv,
    reduce_sum,
    rsqrt,
    sqrt,
    subtract,
    where,
)
from flowgrad.ops.nn_ops import l2_loss
from flowgrad.framework.type_hints import AxisLike, TensorLike


def _values(t: Any, name: str) -> Any:
    return convert_to_tensor(t.values if isinstance(t, IndexedSlices) else t, name=name)


def _like(t: Any, values: Any) -> Any:
    """``values`` in the form of ``t`` (IndexedSlices stay IndexedSlices)."""
    if isinstance(t, IndexedSlices):
        return IndexedSlices(values, t.indices, t.dense_shape)
    return values


def _check_list(t_list: Any) -> list:
    if not isinstance(t_list, Sequence) or isinstance(t_list, str):
        raise TypeError("`t_list` should be a sequence of tensors. Received %s."
                        % type(t_list))
    return list(t_list)


def clip_by_norm(t: TensorLike, clip_norm: TensorLike, axes: AxisLike = None,
                 name: str | None = None) -> Any:
    """``t * clip_norm / max(l2norm(t), clip_norm)``: rescales ``t`` so that its L2 norm
    (over ``axes``, all by default) is at most ``clip_norm``. The gradient at t = 0 is
    finite.

    Args:
        t: A tensor (or an IndexedSlices).
        clip_norm: The largest L2 norm (a positive scalar).
        axes: The axes the norm is taken over; all when None.
        name: A name for the operation (optional).
    """
    with name_scope(name, "clip_by_norm", [t, clip_norm]) as scope:
        values = _values(t, "t")
        l2sum = reduce_sum(values * values, axes, keepdims=True)
        pred = greater(l2sum, 0)
        # Two where's: sqrt is never evaluated at 0, so its NaN gradient cannot leak.
        l2sum_safe = where(pred, l2sum, ones_like(l2sum))
        l2norm = where(pred, sqrt(l2sum_safe), l2sum)
        intermediate = values * clip_norm
        if not values.shape.is_compatible_with(intermediate.shape):
            raise ValueError("clip_norm of shape %s would broadcast t of shape %s to %s in "
                             "clip_by_norm" % (convert_to_tensor(clip_norm).shape,
                                               values.shape, intermediate.shape))
        clipped = identity(realdiv(intermediate, maximum(l2norm, clip_norm)), name=scope)
    return _like(t, clipped)


def global_norm(t_list: TensorLike, name: str | None = None) -> Any:
    """sqrt(sum of the squared L2 norms of the tensors in ``t_list``); None entries are
    ignored, IndexedSlices count their values.

    Args:
        t_list: A list of tensors (None entries are ignored).
        name: A name for the operation (optional).
    """
    t_list = _check_list(t_list)
    with name_scope(name, "global_norm", t_list):
        values = [_values(t, "t_%d" % i) if t is not None else None
                  for i, t in enumerate(t_list)]
        half_squared_norms = [l2_loss(v) for v in values if v is not None]
        if not half_squared_norms:
            raise ValueError("global_norm needs at least one tensor that is not None")
        half_squared_norm = reduce_sum(stack(half_squared_norms))
        return sqrt(multiply(half_squared_norm,
                             convert_to_tensor(2.0, half_squared_norm.dtype)),
                    name="global_norm")


def clip_by_global_norm(t_list: TensorLike, clip_norm: TensorLike, use_norm: Any = None,
                        name: str | None = None) -> tuple[list, Any]:
    """Scales every tensor of ``t_list`` by ``clip_norm / max(global_norm, clip_norm)``.

    Returns (the clipped list, the global norm). None entries stay None; a norm
    that is inf or NaN makes every clipped value NaN.

    Args:
        t_list: A list of tensors (None entries stay None).
        clip_norm: The largest global norm (a positive scalar).
        use_norm: The global norm, if already computed; computed from ``t_list`` when None.
        name: A name for the operation (optional).
    """
    t_list = _check_list(t_list)
    if use_norm is None:
        use_norm = global_norm(t_list, name)
    with name_scope(name, "clip_by_global_norm", t_list + [clip_norm]) as scope:
        use_norm = convert_to_tensor(use_norm)
        one = convert_to_tensor(1.0, use_norm.dtype)
        scale_for_finite = multiply(clip_norm, minimum(realdiv(one, use_norm),
                                                       realdiv(one, clip_norm)))
        # A no-op for a finite norm; NaN for inf or NaN.
        scale = scale_for_finite + subtract(use_norm, use_norm)
        clipped = []
        for i, t in enumerate(t_list):
            if t is None:
                clipped.append(None)
                continue
            v = _values(t, "t_%d" % i)
            clipped.append(_like(t, identity(v * scale, name="%s_%d" % (scope, i))))
    return clipped, use_norm


def clip_by_average_norm(t: TensorLike, clip_norm: TensorLike, name: str | None = None) -> Any:
    """``t * clip_norm / max(l2norm(t) / size(t), clip_norm)``: clips the L2 norm per
    element.

    Args:
        t: A tensor.
        clip_norm: The largest average L2 norm (a positive scalar).
        name: A name for the operation (optional).
    """
    with name_scope(name, "clip_by_average_norm", [t, clip_norm]) as scope:
        t = convert_to_tensor(t, name="t")
        n_element = cast(size(t), dtypes.float32)
        l2norm_inv = rsqrt(reduce_sum(t * t))
        return identity(t * clip_norm * minimum(l2norm_inv * n_element,
                                                realdiv(convert_to_tensor(1.0), clip_norm)),
                        name=scope)


__all__ = ["clip_by_norm", "clip_by_global_norm", "global_norm", "clip_by_average_norm"]
