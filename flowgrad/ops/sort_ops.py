"""Sorting: ``tf.math.top_k`` (the TopKV2 op), ``tf.sort`` and ``tf.argsort``.

TopKV2 returns the k largest entries of the last axis and their indices (ties: the lower
index first). Its gradient scatters the values' gradient back to the chosen positions
with ``scatter_nd`` (whose own gradient is a gather), so it differentiates to any order.
``sort``/``argsort`` are top_k over the whole axis, moved last, as in TensorFlow."""
from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from flowgrad.framework import context, dtypes
from flowgrad.framework.errors import InvalidArgumentError
from flowgrad.framework.graph import name_scope
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import defop
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.array_ops import (_as_value, _known_scalar, expand_dims, range, reshape,
                                    shape, size, stack, transpose)
from flowgrad.ops.comparison_ops import equal, where
from flowgrad.ops.math_ops import add, multiply, negative
from flowgrad.ops.shape_ops import rank
from flowgrad.ops.scatter_nd_ops import scatter_nd
from flowgrad.framework.type_hints import TensorLike
from flowgrad.framework import dispatch


def _top_k_kernel(x: Any, *, k: int | None, sorted: bool = True,  # noqa: A002
                  index_type: Any = dtypes.int32) -> tuple:
    x = np.asarray(x)
    if x.ndim == 0:
        raise InvalidArgumentError(None, None, "TopKV2: input must be at least 1-D, got a "
                                   "scalar")
    if k is None:               # tf.sort: the whole last axis, whatever its size
        k = x.shape[-1]
    if k > x.shape[-1]:
        raise InvalidArgumentError(None, None, "TopKV2: input must have at least k=%d columns, "
                                   "got %d" % (k, x.shape[-1]))
    order = np.argsort(-x if x.dtype.kind != "u" else ~x, axis=-1, kind="stable")[..., :k]
    return np.take_along_axis(x, order, -1), order.astype(index_type.as_numpy_dtype)


def _top_k_infer(ins: list, attrs: dict) -> list:
    s, k = ins[0].shape, attrs["k"]
    index_type = attrs.get("index_type", dtypes.int32)
    if s.rank == 0:
        raise ValueError("top_k: input must be at least 1-D, got a scalar (%s)" % ins[0].name)
    if k is None:
        return [(ins[0].dtype.base_dtype, s), (index_type, s)]
    if s.rank is not None and s.as_list()[-1] is not None and k > s.as_list()[-1]:
        raise ValueError("top_k: input must have at least k=%d columns, got shape %s" % (k, s))
    out = TensorShape(None) if s.rank is None else TensorShape(s.as_list()[:-1] + [k])
    return [(ins[0].dtype.base_dtype, out), (index_type, out)]


@defop("TopKV2", _top_k_kernel, _top_k_infer, num_outputs=2, input_names=("input",))
def _top_k_grad(op: Any, grad: Any, _: Any) -> Any:
    x, idx = op.inputs[0], op.outputs[1]
    n, k = shape(x)[-1], shape(idx)[-1]
    rows = reshape(idx, stack([-1, k]))
    offsets = expand_dims(multiply(range(shape(rows)[0]), n), -1)   # n may be 0
    flat = reshape(add(rows, offsets), [-1, 1])
    return reshape(scatter_nd(flat, reshape(grad, [-1]), reshape(size(x), [1])), shape(x))


class TopKV2(NamedTuple):
    """What ``top_k`` returns, as TensorFlow's generated op wrapper does."""

    values: Any
    indices: Any


@dispatch.add_dispatch_support
def top_k(input: TensorLike, k: int = 1, sorted: bool = True,  # noqa: A002
          index_type: Any = dtypes.int32, name: str | None = None) -> TopKV2:
    """The k largest entries along the last axis and their indices.

    Args:
        input: A tensor of rank >= 1.
        k: How many entries to keep (a Python int or a scalar tensor known at build time).
        sorted: Whether the values come in descending order.
        index_type: The indices' dtype: ``tf.int16``, ``tf.int32`` or ``tf.int64``.
        name: A name for the op.

    Returns:
        A ``TopKV2(values, indices)`` named tuple.

    Raises:
        ValueError: If ``k`` is negative or unknown when the graph is built.
        TypeError: If ``index_type`` is not one of those integer types (eagerly:
            InvalidArgumentError, as TensorFlow's).
    """
    index_type = dtypes.as_dtype(index_type)
    if index_type not in (dtypes.int16, dtypes.int32, dtypes.int64):
        if context.executing_eagerly():
            raise InvalidArgumentError(None, None, "Value for attr 'index_type' of %s is not "
                                       "in the list of allowed values: int16, int32, int64"
                                       % index_type.name)
        raise TypeError("Value passed to parameter 'index_type' has DataType %s not in list "
                        "of allowed values: int16, int32, int64" % index_type.name)
    x = convert_to_tensor(_as_value(input))
    kk = _known_scalar(k, "top_k k")
    if kk is None:
        raise ValueError("top_k: k must be known when the graph is built, got %s" % (k,))
    if kk < 0:
        raise ValueError("top_k: k must be non-negative, got %d" % kk)
    out = apply_op("TopKV2", [x], {"k": int(kk), "sorted": bool(sorted),
                                   "index_type": index_type}, name=name)
    return TopKV2(out[0], out[1])


def _sort_or_argsort(values: Any, axis: int, direction: str, argsort: bool,
                     name: str | None, default: str) -> Any:
    if direction not in ("ASCENDING", "DESCENDING"):
        raise ValueError('"direction" should be one of ASCENDING, DESCENDING, got %r'
                         % (direction,))
    with name_scope(name, default, [values]):
        x = convert_to_tensor(_as_value(values))
        r = x.shape.rank
        a = _known_scalar(axis, "%s axis" % default)
        if a is None or r is not None and not -r <= a < r:
            raise ValueError("%s: axis %s is out of range for rank %s" % (default, axis, r))
        if r is not None:
            a %= r
            perm: Any = list(np.arange(r))
            perm[a], perm[-1] = perm[-1], perm[a]
            last = a == r - 1
        else:                   # unknown rank: the permutation is computed at run time
            n = rank(x)
            pos = range(n)
            a_t = add(a, n) if a < 0 else convert_to_tensor(a)
            perm = where(equal(pos, a_t), n - 1, where(equal(pos, n - 1), a_t, pos))
            last = a == -1
        moved = x if last else transpose(x, perm)
        ascending = direction == "ASCENDING"
        # the whole last axis (k=None: its size need not be known while building)
        inp = negative(moved) if ascending else moved
        vals, idx = apply_op("TopKV2", [inp], {"k": None, "sorted": True})
        out = idx if argsort else (negative(vals) if ascending else vals)
        return out if last else transpose(out, perm)


@dispatch.add_dispatch_support
def sort(values: TensorLike, axis: int = -1, direction: str = "ASCENDING",
         name: str | None = None) -> Any:
    """``values`` sorted along ``axis``.

    Args:
        values: A numeric tensor.
        axis: The axis to sort along.
        direction: ``"ASCENDING"`` or ``"DESCENDING"``.
        name: A name for the operation (optional).
    """
    return _sort_or_argsort(values, axis, direction, False, name, "sort")


@dispatch.add_dispatch_support
def argsort(values: TensorLike, axis: int = -1, direction: str = "ASCENDING", stable: bool = False,
            name: str | None = None) -> Any:
    """The int32 indices that sort ``values`` along ``axis`` (ties keep their order).

    Args:
        values: A numeric tensor.
        axis: The axis to sort along.
        direction: ``"ASCENDING"`` or ``"DESCENDING"``.
        stable: Whether equal values keep their order (the sort is always stable here).
        name: A name for the operation (optional).
    """
    return _sort_or_argsort(values, axis, direction, True, name, "argsort")


__all__ = ["argsort", "sort", "top_k"]
