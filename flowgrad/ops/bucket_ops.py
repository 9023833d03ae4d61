"""Searching sorted sequences and counting into buckets: ``LowerBound``/``UpperBound``
(``tf.searchsorted``), ``Bucketize``, ``DenseBincount`` (``tf.math.bincount``) and
``HistogramFixedWidth`` (``tf.histogram_fixed_width``; ``histogram_fixed_width_bins`` is made
of ops as in TensorFlow). Their outputs are indices and counts: TensorFlow registers no
gradient for them, and neither does flowgrad."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.errors import InvalidArgumentError
from flowgrad.framework.graph import name_scope
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import register_op
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.framework.shape_rules import constant_value
from flowgrad.ops.arithmetic_ops import (clip_by_value, maximum, minimum, multiply, realdiv,
                                         subtract)
from flowgrad.ops.array_ops import _as_value, reshape, shape, stack
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.comparison_ops import greater, where
from flowgrad.ops.elementwise_ops import floor
from flowgrad.ops.reduction_ops import reduce_max, reduce_prod
from flowgrad.framework.type_hints import AxisLike, DTypeLike, TensorLike
from flowgrad.framework import dispatch


# --------------------------------------------------------------------------------------
# LowerBound / UpperBound


def _bound_kernel(side: str) -> Any:
    def kernel(sorted_inputs: Any, values: Any, *, out_type: Any) -> np.ndarray:
        s, v = np.asarray(sorted_inputs), np.asarray(values)
        if s.ndim != 2 or v.ndim != 2 or s.shape[0] != v.shape[0]:
            raise InvalidArgumentError(None, None, "%s: sorted_inputs and values must be 2-D "
                                       "with the same number of rows, got %s and %s"
                                       % ("LowerBound" if side == "left" else "UpperBound",
                                          list(s.shape), list(v.shape)))
        out = np.empty(v.shape, dtype=out_type.np)
        for row in range(s.shape[0]):
            out[row] = np.searchsorted(s[row], v[row], side=side)
        return out
    return kernel


def _bound_infer(ins: list, attrs: dict) -> tuple:
    return attrs["out_type"], ins[1].shape


register_op("LowerBound", _bound_kernel("left"), _bound_infer,
            input_names=("sorted_inputs", "values"))
register_op("UpperBound", _bound_kernel("right"), _bound_infer,
            input_names=("sorted_inputs", "values"))


def searchsorted(sorted_sequence: Any, values: TensorLike, side: str = "left",
                 out_type: DTypeLike = dtypes.int32, name: str | None = None) -> Any:
    """Where ``values`` would go in ``sorted_sequence``, along the innermost axis.

    Args:
      sorted_sequence: A tensor of shape ``[..., N]`` sorted along its last axis.
      values: A tensor of shape ``[..., M]`` with the same leading dimensions.
      side: ``"left"`` (the first suitable index) or ``"right"`` (the last).
      out_type: int32 or int64.
      name: A name for the operation.

    Returns:
      An ``out_type`` tensor of ``values``' shape.

    Raises:
      ValueError: if ``side`` is neither ``"left"`` nor ``"right"``.
    """
    if side not in ("left", "right"):
        raise ValueError("Argument `side` must be either 'right' or 'left'. Received: "
                         "`side` = %r." % (side,))
    with name_scope(name, "SearchSorted", [sorted_sequence, values]) as scope:
        seq = convert_to_tensor(_as_value(sorted_sequence), name="sorted_sequence")
        vals = convert_to_tensor(_as_value(values), seq.dtype.base_dtype, name="values")
        rows = reduce_prod(shape(seq)[:-1])
        out = apply_op("LowerBound" if side == "left" else "UpperBound",
                       (reshape(seq, stack([rows, shape(seq)[-1]])),
                        reshape(vals, stack([rows, shape(vals)[-1]]))),
                       {"out_type": dtypes.as_dtype(out_type)})
        return reshape(out, shape(vals), name=scope)


# --------------------------------------------------------------------------------------
# Bucketize


def _bucketize_kernel(x: Any, *, boundaries: tuple) -> np.ndarray:
    return np.searchsorted(np.asarray(boundaries, np.float64), np.asarray(x, np.float64),
                           side="right").astype(np.int32)


register_op("Bucketize", _bucketize_kernel, lambda ins, attrs: (dtypes.int32, ins[0].shape),
            input_names=("input",))


def bucketize(input: TensorLike, boundaries: TensorLike, name: str | None = None) -> Any:  # noqa: A002
    """The bucket of each value: how many of the sorted ``boundaries`` are <= it (int32).

    Args:
      input: A numeric tensor.
      boundaries: A sorted list of floats.
      name: A name for the operation.

    Returns:
      An int32 tensor of ``input``'s shape.

    Raises:
      InvalidArgumentError: if ``boundaries`` is not sorted.
    """
    bounds = tuple(float(b) for b in boundaries)
    if any(b > a for a, b in zip(bounds[1:], bounds[:-1])):
        raise InvalidArgumentError(None, None, "Bucketize: Expected sorted boundaries, got %s"
                                   % (list(bounds),))
    x = convert_to_tensor(_as_value(input), name="input")
    return apply_op("Bucketize", (x,), {"boundaries": bounds}, name=name)


# --------------------------------------------------------------------------------------
# DenseBincount


def _bincount_kernel(arr: Any, size: Any, weights: Any, *, binary_output: bool) -> np.ndarray:
    arr, w = np.asarray(arr), np.asarray(weights)
    n = int(size)
    if n < 0:
        raise InvalidArgumentError(None, None, "DenseBincount: size (%d) must be non-negative"
                                   % n)
    if arr.size and arr.min() < 0:
        raise InvalidArgumentError(None, None, "DenseBincount: input arr must be non-negative, "
                                   "got %d" % int(arr.min()))
    rows = arr.reshape(-1, arr.shape[-1]) if arr.ndim == 2 else arr.reshape(1, -1)
    wrows = None if w.size == 0 else w.reshape(rows.shape)
    out = np.zeros((rows.shape[0], n), dtype=w.dtype)
    for r in range(rows.shape[0]):
        keep = rows[r] < n
        if binary_output:
            out[r, rows[r][keep]] = 1
        else:
            np.add.at(out[r], rows[r][keep], 1 if wrows is None else wrows[r][keep])
    return out if arr.ndim == 2 else out[0]


def _bincount_infer(ins: list, attrs: dict) -> tuple:
    n = constant_value(ins[1])
    n = None if n is None else int(n)
    rank = ins[0].shape.rank
    if rank == 2:
        return ins[2].dtype.base_dtype, TensorShape([ins[0].shape.as_list()[0], n])
    return ins[2].dtype.base_dtype, TensorShape([n])


register_op("DenseBincount", _bincount_kernel, _bincount_infer,
            input_names=("input", "size", "weights"))


@dispatch.add_dispatch_support
def bincount(arr: TensorLike, weights: TensorLike | None = None, minlength: Any = None,
             maxlength: Any = None, dtype: DTypeLike = dtypes.int32, name: str | None = None,
             axis: AxisLike = None, binary_output: bool = False) -> Any:
    """Counts of each value of a non-negative integer tensor (summed ``weights`` if given).

    Args:
      arr: An int32/int64 tensor of non-negative values.
      weights: None, or a tensor of ``arr``'s shape whose entries are summed per value.
      minlength: The output has at least this many bins.
      maxlength: The output has at most this many bins (larger values are ignored).
      dtype: The counts' dtype when ``weights`` is None.
      name: A name for the operation.
      axis: None (count all values) or -1 (count each row of a 2-D ``arr``).
      binary_output: Whether to give 1 for every value present instead of counts.

    Returns:
      A vector of ``max(arr) + 1`` bins (clamped by ``minlength``/``maxlength``), or one
      row of bins per row of ``arr`` with ``axis=-1``.

    Raises:
      InvalidArgumentError: for a negative value.
      ValueError: for an ``axis`` other than None, 0 and -1, or ``weights`` with
        ``binary_output``.
    """
    if weights is not None and binary_output:
        raise ValueError("Arguments `binary_output` and `weights` are mutually exclusive. "
                         "Please specify only one.")
    with name_scope(name, "bincount", [arr, weights]) as scope:
        a = convert_to_tensor(_as_value(arr), name="arr")
        if not a.dtype.is_integer:          # as TensorFlow: other values count as int32
            a = cast(a, dtypes.int32)
        if axis is None:
            a = reshape(a, [-1])
        elif axis not in (0, -1):
            raise ValueError("Unsupported axis value %s. Only 0 and -1 are currently "
                             "supported." % (axis,))
        if weights is not None:
            w = convert_to_tensor(_as_value(weights), name="weights")
            if axis is None:
                w = reshape(w, [-1])
        else:
            w = convert_to_tensor(np.zeros([0], dtypes.as_dtype(dtype).np))
        size = where(greater(cast(shape(reshape(a, [-1]))[0], a.dtype.base_dtype), 0),
                     reduce_max(a) + 1, cast(0, a.dtype.base_dtype))
        if minlength is not None:
            size = maximum(size, cast(minlength, a.dtype.base_dtype))
        if maxlength is not None:
            size = minimum(size, cast(maxlength, a.dtype.base_dtype))
        return apply_op("DenseBincount", (a, size, w), {"binary_output": bool(binary_output)},
                        name=scope)


# --------------------------------------------------------------------------------------
# HistogramFixedWidth


def _bin_indices(values: np.ndarray, lo: Any, hi: Any, nbins: int) -> np.ndarray:
    scaled = (values - lo) / (hi - lo)
    return np.clip(np.floor(nbins * scaled), 0, nbins - 1).astype(np.int64)


def _histogram_kernel(values: Any, value_range: Any, nbins: Any, *, dtype: Any) -> np.ndarray:
    values, rng, n = np.asarray(values), np.asarray(value_range), int(nbins)
    if n <= 0:
        raise InvalidArgumentError(None, None, "HistogramFixedWidth: nbins should be a "
                                   "positive number, but got '%d'" % n)
    if not rng[0] < rng[1]:
        raise InvalidArgumentError(None, None, "HistogramFixedWidth: value_range should "
                                   "satisfy value_range[0] < value_range[1], but got '[%s, %s]'"
                                   % (rng[0], rng[1]))
    idx = _bin_indices(values.reshape(-1).astype(np.float64), float(rng[0]), float(rng[1]), n)
    return np.bincount(idx, minlength=n).astype(dtype.np)


def _histogram_infer(ins: list, attrs: dict) -> tuple:
    n = constant_value(ins[2])
    return attrs["dtype"], TensorShape([None if n is None else int(n)])


register_op("HistogramFixedWidth", _histogram_kernel, _histogram_infer,
            input_names=("values", "value_range", "nbins"))


def histogram_fixed_width(values: TensorLike, value_range: TensorLike, nbins: Any = 100,
                          dtype: DTypeLike = dtypes.int32, name: str | None = None) -> Any:
    """Counts of ``values`` in ``nbins`` equal bins over ``value_range`` (outliers go to the
    first or last bin).

    Args:
      values: A numeric tensor.
      value_range: ``[lo, hi]`` of ``values``' dtype, ``lo < hi``.
      nbins: The number of bins (an int32 scalar).
      dtype: int32 or int64, the counts' dtype.
      name: A name for the operation.

    Returns:
      A 1-D tensor of ``nbins`` counts.

    Raises:
      InvalidArgumentError: if ``nbins <= 0`` or ``lo >= hi``.
    """
    v = convert_to_tensor(_as_value(values), name="values")
    rng = convert_to_tensor(_as_value(value_range), v.dtype.base_dtype, name="value_range")
    n = convert_to_tensor(_as_value(nbins), dtypes.int32, name="nbins")
    return apply_op("HistogramFixedWidth", (v, rng, n), {"dtype": dtypes.as_dtype(dtype)},
                    name=name)


def histogram_fixed_width_bins(values: TensorLike, value_range: TensorLike, nbins: Any = 100,
                               dtype: DTypeLike = dtypes.int32, name: str | None = None) -> Any:
    """The bin of each of ``values`` among ``nbins`` equal bins over ``value_range``; see
    :func:`histogram_fixed_width`.

    Args:
        values: A numeric tensor.
        value_range: A shape [2] tensor of ``values``' dtype: [lower, upper) of the bins.
        nbins: The number of equal-width bins.
        dtype: int32 or int64: the dtype of the bin indices.
        name: A name for the operation (optional).

    Returns:
      A ``dtype`` tensor of ``values``' shape.
    """
    with name_scope(name, "histogram_fixed_width_bins", [values, value_range]) as scope:
        v = convert_to_tensor(_as_value(values), name="values")
        rng = convert_to_tensor(_as_value(value_range), v.dtype.base_dtype, name="value_range")
        n = cast(convert_to_tensor(_as_value(nbins), dtypes.int32), v.dtype.base_dtype)
        scaled = realdiv(subtract(v, rng[0]), subtract(rng[1], rng[0]))
        idx = clip_by_value(floor(multiply(n, scaled)), 0, subtract(n, 1))
        return cast(idx, dtype, name=scope)
