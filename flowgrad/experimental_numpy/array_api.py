"""``tf.experimental.numpy``'s array creation, shape manipulation, indexing and reductions,
written on flowgrad's ops (so every result differentiates), with NumPy's dtype rules as
TensorFlow's ``np_array_ops`` applies them."""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from flowgrad.experimental_numpy import dtypes_config as dc
from flowgrad.framework import dtypes, errors
from flowgrad.framework.tensor import TensorBase, constant, convert_to_tensor
from flowgrad.ops import (arithmetic_ops, comparison_ops, concat_ops, fill_ops, indexing_ops,
                          linalg_ops, manip_ops, reduction_ops, shape_ops, slicing_ops,
                          sort_ops, sum_ops)
from flowgrad.ops.batch_gather_nd_ops import gather_nd
from flowgrad.ops import elementwise_ops
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.sequence_ops import linspace as _tf_linspace
from flowgrad.ops.complex_ops import imag as _tf_imag, real as _tf_real
from flowgrad.framework.type_hints import AxisLike, DTypeLike, ShapeLike, TensorLike

newaxis = None
ndarray = TensorBase


def _contains_tensor(value: Any) -> bool:
    if isinstance(value, TensorBase) or hasattr(value, "_as_graph_element"):
        return True
    if isinstance(value, (list, tuple)):
        return builtins.any(_contains_tensor(v) for v in value)
    return False


def _is_tensor(x: Any) -> bool:
    return isinstance(x, TensorBase)


def _as_dtype(dtype: Any) -> dtypes.DType:
    return dc.result_type(dtype)


def array(val: TensorLike, dtype: DTypeLike | None = None, copy: bool = True,
          ndmin: int = 0) -> TensorBase:
    """A tensor of ``val``, as ``np.array``: Python floats become float64 (float32 with
    ``prefer_float32``), Python ints int64, and ``dtype`` casts as NumPy does.

    Args:
      val: A tensor, NumPy array, Python scalar or (nested) sequence of them.
      dtype: The result's dtype; inferred with NumPy's rules when None.
      copy: Accepted for NumPy's signature (tensors are immutable).
      ndmin: The least rank of the result (ones are prepended to the shape).

    Returns:
      A tensor.
    """
    del copy
    if _is_tensor(val):
        result = cast(val, _as_dtype(dtype)) if dtype is not None else val
    else:
        target = _as_dtype(dtype) if dtype is not None else dc.result_type(
            np.str_ if isinstance(val, str) else np.bytes_ if isinstance(val, bytes) else val)
        if _contains_tensor(val):
            result = cast(convert_to_tensor(val), target)
        elif target == dtypes.string:
            result = constant(val)
        else:
            result = constant(np.asarray(val).astype(target.as_numpy_dtype))
    rank = result.shape.rank
    if ndmin and rank is not None and rank < ndmin:
        result = shape_ops.reshape(result, [1] * (ndmin - rank) + result.shape.as_list())
    return result


def _dims(x: TensorBase) -> Any:
    """``x``'s shape: a list when static, else the shape tensor."""
    if x.shape.is_fully_defined():
        return x.shape.as_list()
    return shape_ops.shape(x)


def asarray(a: TensorLike, dtype: DTypeLike | None = None) -> TensorBase:
    """``a`` as a tensor (no cast when it is one of ``dtype`` already), as ``np.asarray``.

    Args:
      a: A tensor or array-like value.
      dtype: The result's dtype; inferred when None.

    Returns:
      A tensor.
    """
    if _is_tensor(a) and (dtype is None or a.dtype.base_dtype == _as_dtype(dtype)):
        return a
    return array(a, dtype, copy=False)


asanyarray = asarray
ascontiguousarray = asarray


def copy(a: TensorLike) -> TensorBase:
    """A copy of ``a``, as ``np.copy``.

    Args:
      a: A tensor or array-like value.

    Returns:
      A tensor.
    """
    return array(a, copy=True)


def _shape_arg(shape: Any) -> Any:
    if isinstance(shape, (int, np.integer)):
        return [int(shape)]
    if _is_tensor(shape):
        return shape
    return [int(s) for s in shape]


def _creation_dtype(dtype: Any) -> dtypes.DType:
    return _as_dtype(float if dtype is None else dtype)


def zeros(shape: ShapeLike, dtype: DTypeLike = float) -> TensorBase:
    """An array of zeros, as ``np.zeros`` (float64 by default).

    Args:
      shape: An int or a sequence of ints.
      dtype: The dtype.

    Returns:
      A tensor.
    """
    return fill_ops.zeros(_shape_arg(shape), _creation_dtype(dtype))


def ones(shape: ShapeLike, dtype: DTypeLike = float) -> TensorBase:
    """An array of ones, as ``np.ones`` (float64 by default).

    Args:
      shape: An int or a sequence of ints.
      dtype: The dtype.

    Returns:
      A tensor.
    """
    return fill_ops.ones(_shape_arg(shape), _creation_dtype(dtype))


def empty(shape: ShapeLike, dtype: DTypeLike = float) -> TensorBase:
    """An array of ``shape`` (zeros: tensors have no uninitialised memory), as ``np.empty``.

    Args:
      shape: An int or a sequence of ints.
      dtype: The dtype.

    Returns:
      A tensor.
    """
    return zeros(shape, dtype)


def full(shape: ShapeLike, fill_value: TensorLike, dtype: DTypeLike | None = None) -> TensorBase:
    """An array of ``shape`` filled with ``fill_value``, as ``np.full``.

    Args:
      shape: An int or a sequence of ints.
      fill_value: A scalar or an array broadcastable to ``shape``.
      dtype: The dtype; ``fill_value``'s when None.

    Returns:
      A tensor.
    """
    value = asarray(fill_value, dtype)
    return shape_ops.broadcast_to(value, _shape_arg(shape))


def _like(a: Any, dtype: Any) -> tuple:
    a = asarray(a)
    return a, (a.dtype.base_dtype if dtype is None else _as_dtype(dtype))


def zeros_like(a: TensorLike, dtype: DTypeLike | None = None) -> TensorBase:
    """Zeros of ``a``'s shape (and dtype unless ``dtype``), as ``np.zeros_like``.

    Args:
      a: A tensor or array-like value.
      dtype: The dtype.

    Returns:
      A tensor.
    """
    a, dtype = _like(a, dtype)
    return fill_ops.zeros_like(a, dtype)


def ones_like(a: TensorLike, dtype: DTypeLike | None = None) -> TensorBase:
    """Ones of ``a``'s shape (and dtype unless ``dtype``), as ``np.ones_like``.

    Args:
      a: A tensor or array-like value.
      dtype: The dtype.

    Returns:
      A tensor.
    """
    a, dtype = _like(a, dtype)
    return fill_ops.ones_like(a, dtype)


empty_like = zeros_like


def full_like(a: TensorLike, fill_value: TensorLike, dtype: DTypeLike | None = None) -> TensorBase:
    """``fill_value`` in ``a``'s shape (and dtype unless ``dtype``), as ``np.full_like``.

    Args:
      a: A tensor or array-like value.
      fill_value: A scalar or an array broadcastable to ``a``'s shape.
      dtype: The dtype.

    Returns:
      A tensor.
    """
    a, dtype = _like(a, dtype)
    return shape_ops.broadcast_to(asarray(fill_value, dtype), shape_ops.shape(a))


def arange(start: Any, stop: TensorLike | None = None, step: Any = 1,
           dtype: DTypeLike | None = None) -> TensorBase:
    """Evenly spaced values in ``[start, stop)``, as ``np.arange``.

    Args:
      start: The first value (the end when ``stop`` is None).
      stop: The end (excluded).
      step: The spacing.
      dtype: The dtype; NumPy's promotion of the three numbers when None.

    Returns:
      A 1-D tensor.

    Raises:
      ValueError: ``step`` is zero.
    """
    if stop is None:
        start, stop = 0, start
    if not _is_tensor(step) and step == 0:
        raise ValueError("Argument `step` should be non-zero. Received: step=0")
    dtype = _as_dtype(dtype) if dtype is not None else dc.result_type(start, stop, step)
    work = dtype if dtype.is_floating or dtype.is_integer else dtypes.float64
    if work.is_integer:
        out = fill_ops.range(cast(start, work), cast(stop, work), cast(step, work), dtype=work)
    else:
        out = fill_ops.range(cast(start, work), cast(stop, work), cast(step, work), dtype=work)
    return cast(out, dtype)


def linspace(start: Any, stop: TensorLike, num: int = 50, endpoint: bool = True,
             retstep: bool = False, dtype: DTypeLike = float, axis: int = 0) -> Any:
    """``num`` evenly spaced values from ``start`` to ``stop``, as ``np.linspace``.

    Args:
      start: The first value (array-like broadcasts).
      stop: The last value (included when ``endpoint``).
      num: How many values.
      endpoint: Whether ``stop`` is the last value.
      retstep: Whether to return the spacing too.
      dtype: The dtype (integer dtypes floor the values, as NumPy).
      axis: Where the new axis goes.

    Returns:
      A tensor, or ``(tensor, step)`` with ``retstep``.

    Raises:
      ValueError: ``num`` is negative.
    """
    if dtype:
        # TF 2.21 with NumPy 2 takes the dtype from start and stop (NumPy 2's rule), not from
        # the ``dtype`` argument.
        dtype = dc.result_type([_as_float_operand(start), _as_float_operand(stop)])
    if num < 0:
        raise ValueError("Argument `num` (number of samples) must be a non-negative integer. "
                         "Received: num=%s" % num)
    work = dtype if dtype is not None else dc.default_float_type()
    start = array(start, dtype=work)
    stop = array(stop, dtype=work)
    step = constant(np.nan, dtypes.float32)
    if endpoint:
        result = _tf_linspace(start, stop, num, axis=axis)
        if num > 1:
            step = (stop - start) / (num - 1)
    else:
        if num > 0:
            step = (stop - start) / num
        if num > 1:
            result = _tf_linspace(start, stop - step, num, axis=axis)
        else:
            result = _tf_linspace(start, stop, num, axis=axis)
    if dtype is not None:
        if dtype.is_integer:
            result = elementwise_ops.floor(result)
        result = cast(result, dtype)
    return (result, step) if retstep else result


def _as_float_operand(x: Any) -> Any:
    """``x * 1.0`` as TensorFlow's tnp writes it for dtype inference (a float for Python
    numbers and arrays; a tensor keeps a float dtype, an integer one becomes the default)."""
    if _is_tensor(x):
        return x if x.dtype.is_floating or x.dtype.is_complex else dc.default_float_type()
    return np.asarray(x) * 1.0


def logspace(start: Any, stop: TensorLike, num: int = 50, endpoint: bool = True, base: float = 10.0,
             dtype: DTypeLike | None = None, axis: int = 0) -> TensorBase:
    """``base`` to the powers of ``linspace(start, stop)``, as ``np.logspace``.

    Args:
      start: The first exponent.
      stop: The last exponent.
      num: How many values.
      endpoint: Whether ``stop`` is included.
      base: The base.
      dtype: The dtype.
      axis: Where the new axis goes.

    Returns:
      A tensor.
    """
    work = dc.result_type([_as_float_operand(start), _as_float_operand(stop)])
    result = linspace(start, stop, num=num, endpoint=endpoint, dtype=work, axis=axis)
    result = elementwise_ops.pow(cast(base, result.dtype), result)
    return cast(result, _as_dtype(dtype)) if dtype else result


def geomspace(start: Any, stop: TensorLike, num: int = 50, endpoint: bool = True,
              dtype: DTypeLike | None = None, axis: int = 0) -> TensorBase:
    """Numbers spaced evenly on a log scale from ``start`` to ``stop``, as ``np.geomspace``.

    Args:
      start: The first value (non-zero).
      stop: The last value (non-zero, of ``start``'s sign).
      num: How many values.
      endpoint: Whether ``stop`` is included.
      dtype: The dtype.
      axis: Where the new axis goes.

    Returns:
      A tensor.
    """
    out = _as_dtype(dtype) if dtype else dc.result_type(start, stop, float(num),
                                                        zeros((), float))
    work = dtypes.as_dtype(np.promote_types(out.as_numpy_dtype, np.float32))
    start, stop = asarray(start, work), asarray(stop, work)
    flip = 1 - (1 - elementwise_ops.sign(start)) * (1 - elementwise_ops.sign(stop)) // 4 * 2
    ln10 = np.log(10.0)
    res = flip * logspace(elementwise_ops.log(flip * start) / ln10,
                          elementwise_ops.log(flip * stop) / ln10, num,
                          endpoint=endpoint, base=10.0, dtype=work, axis=0)
    if axis != 0:
        res = moveaxis(res, 0, axis)
    return cast(res, out)


def eye(N: int, M: int | None = None, k: int = 0, dtype: DTypeLike = float) -> TensorBase:  # noqa: N803
    """A 2-D array with ones on the ``k``-th diagonal, as ``np.eye``.

    Args:
      N: Rows.
      M: Columns (``N`` when None).
      k: The diagonal (positive: above the main one).
      dtype: The dtype.

    Returns:
      A tensor.
    """
    dtype = _creation_dtype(dtype)
    m = N if M is None else M
    return constant(np.eye(N, m, k, dtype=dtype.as_numpy_dtype))


def identity(n: int, dtype: DTypeLike = float) -> TensorBase:
    """The ``n`` x ``n`` identity matrix, as ``np.identity``.

    Args:
      n: Its size.
      dtype: The dtype.

    Returns:
      A tensor.
    """
    return eye(n, dtype=dtype)


def tri(N: int, M: int | None = None, k: int = 0, dtype: DTypeLike | None = None) -> TensorBase:  # noqa: N803
    """Ones at and below the ``k``-th diagonal, as ``np.tri``.

    Args:
      N: Rows.
      M: Columns (``N`` when None).
      k: The diagonal.
      dtype: The dtype (float64 when None).

    Returns:
      A tensor.
    """
    return constant(np.tri(N, M, k, dtype=_creation_dtype(dtype).as_numpy_dtype))


def _band(m: Any, k: int, lower: bool) -> TensorBase:
    m = asarray(m)
    if m.shape.rank is not None and m.shape.rank < 2:
        raise ValueError("Argument to %s should have rank at least 2." % (
            "tril" if lower else "triu"))
    rows, cols = m.shape.as_list()[-2:]
    keep = np.tri(rows, cols, k if lower else k - 1, dtype=bool)
    if not lower:
        keep = ~keep
    return comparison_ops.where(constant(keep), m, fill_ops.zeros_like(m))


def tril(m: TensorLike, k: int = 0) -> TensorBase:
    """``m`` with the elements above the ``k``-th diagonal zeroed, as ``np.tril``.

    Args:
      m: An array of rank 2 or more.
      k: The diagonal.

    Returns:
      A tensor.
    """
    return _band(m, k, True)


def triu(m: TensorLike, k: int = 0) -> TensorBase:
    """``m`` with the elements below the ``k``-th diagonal zeroed, as ``np.triu``.

    Args:
      m: An array of rank 2 or more.
      k: The diagonal.

    Returns:
      A tensor.
    """
    return _band(m, k, False)


def diagonal(a: TensorLike, offset: int = 0, axis1: int = 0, axis2: int = 1) -> TensorBase:
    """The ``offset``-th diagonal over ``axis1`` and ``axis2``, as ``np.diagonal`` (the
    diagonal is the last axis of the result).

    Args:
      a: An array of rank 2 or more.
      offset: The diagonal.
      axis1: The first axis.
      axis2: The second axis.

    Returns:
      A tensor.
    """
    a = asarray(a)
    rank = a.shape.rank
    axis1, axis2 = axis1 % rank, axis2 % rank
    rest = [i for i in range(rank) if i not in (axis1, axis2)]
    a = shape_ops.transpose(a, rest + [axis1, axis2])
    rows, cols = a.shape.as_list()[-2:]
    if offset >= 0:
        n = builtins.max(0, builtins.min(rows, cols - offset))
        pairs = [[i, i + offset] for i in range(n)]
    else:
        n = builtins.max(0, builtins.min(rows + offset, cols))
        pairs = [[i - offset, i] for i in range(n)]
    moved = shape_ops.transpose(a, [rank - 2, rank - 1] + list(range(rank - 2)))
    picked = gather_nd(moved, constant(np.asarray(pairs, np.int32).reshape(n, 2)))
    return shape_ops.transpose(picked, list(range(1, rank - 1)) + [0])


def diag(v: TensorLike, k: int = 0) -> TensorBase:
    """The ``k``-th diagonal of a matrix, or a matrix with ``v`` on it, as ``np.diag``.

    Args:
      v: A 1-D array (builds a matrix) or a 2-D one (takes its diagonal).
      k: The diagonal.

    Returns:
      A tensor.

    Raises:
      ValueError: ``v`` is not of rank 1 or 2.
    """
    v = asarray(v)
    if v.shape.rank == 2:
        return diagonal(v, k)
    if v.shape.rank != 1:
        raise ValueError("Input to diag must be 1 or 2-d. Received rank %s." % v.shape.rank)
    m = linalg_ops.diag(v)
    if k == 0:
        return m
    pad = [[0, k], [k, 0]] if k > 0 else [[-k, 0], [0, -k]]
    return slicing_ops.pad(m, pad)


def diagflat(v: TensorLike, k: int = 0) -> TensorBase:
    """A matrix with the flattened ``v`` on its ``k``-th diagonal, as ``np.diagflat``.

    Args:
      v: An array.
      k: The diagonal.

    Returns:
      A tensor.
    """
    return diag(ravel(v), k)


def diag_indices(n: int, ndim: int = 2) -> tuple:
    """The indices of an array's main diagonal, as ``np.diag_indices``.

    Args:
      n: The size of each axis.
      ndim: The rank.

    Returns:
      A tuple of ``ndim`` int32 tensors.

    Raises:
      ValueError: ``n`` is negative.
    """
    if n < 0:
        raise ValueError("n argument to diag_indices must be nonnegative, got %s" % n)
    return tuple(constant(np.arange(n, dtype=np.int32)) for _ in range(ndim))


def vander(x: TensorLike, N: int | None = None, increasing: bool = False) -> TensorBase:  # noqa: N803
    """The Vandermonde matrix of ``x``, as ``np.vander``.

    Args:
      x: A 1-D array.
      N: Columns (``len(x)`` when None).
      increasing: Whether powers increase left to right.

    Returns:
      A tensor.
    """
    x = asarray(x)
    n = x.shape.as_list()[0] if N is None else N
    powers = np.arange(n) if increasing else np.arange(n - 1, -1, -1)
    powers = cast(constant(powers), x.dtype)
    return elementwise_ops.pow(shape_ops.expand_dims(x, 1), shape_ops.expand_dims(powers, 0))


def ix_(*args: Any) -> tuple:
    """Open meshes from 1-D sequences, for cross indexing, as ``np.ix_``.

    Args:
      *args: 1-D integer or boolean arrays.

    Returns:
      A tuple of tensors, the ``i``-th of rank ``len(args)``.

    Raises:
      ValueError: An argument is not 1-D.
    """
    out = []
    for i, a in enumerate(args):
        a = asarray(a)
        if a.shape.rank != 1:
            raise ValueError("Arguments must be 1-d, got arg %d of rank %s" % (i, a.shape.rank))
        if a.dtype == dtypes.bool:
            a = nonzero(a)[0]
        shape = [1] * len(args)
        shape[i] = -1
        out.append(shape_ops.reshape(a, shape))
    return tuple(out)


# ---- shape manipulation ----

def shape(a: TensorLike) -> Any:
    """``a``'s shape, as ``np.shape`` (a ``TensorShape``, as TensorFlow's tnp returns).

    Args:
      a: A tensor or array-like value.

    Returns:
      A TensorShape.
    """
    return asarray(a).shape


def ndim(a: TensorLike) -> int:
    """``a``'s rank, as ``np.ndim``.

    Args:
      a: A tensor or array-like value.

    Returns:
      An int.
    """
    return asarray(a).shape.rank


def size(x: TensorLike, axis: int | None = None) -> Any:
    """How many elements ``x`` (or its ``axis``) has, as ``np.size``.

    Args:
      x: A tensor or array-like value.
      axis: An axis, or None for all elements.

    Returns:
      A NumPy int64 (a tensor when the shape is not static).
    """
    x = asarray(x)
    if axis is not None:
        return x.shape.as_list()[axis]
    if x.shape.is_fully_defined():
        return np.prod(x.shape.as_list(), dtype=np.int64)
    return shape_ops.size(x)


def isscalar(num: Any) -> bool:
    """Whether ``num`` is of rank 0, as ``np.isscalar`` on arrays.

    Args:
      num: A tensor or array-like value.

    Returns:
      A bool.
    """
    return ndim(num) == 0


def reshape(a: TensorLike, newshape: ShapeLike | TensorLike, order: str = "C") -> TensorBase:
    """``a`` in a new shape (one dimension may be -1), as ``np.reshape``.

    Args:
      a: A tensor or array-like value.
      newshape: An int or a sequence of ints.
      order: ``"C"`` (row-major) or ``"F"`` (column-major).

    Returns:
      A tensor.

    Raises:
      ValueError: ``order`` is neither.
    """
    if order not in ("C", "F"):
        raise ValueError(f"Unsupported order argument {order}")
    a = asarray(a)
    newshape = _shape_arg(newshape)
    if order == "F":
        rank = a.shape.rank
        t = shape_ops.transpose(a, list(range(rank))[::-1])
        r = shape_ops.reshape(t, list(newshape)[::-1])
        return shape_ops.transpose(r, list(range(len(newshape)))[::-1])
    return shape_ops.reshape(a, newshape)


def ravel(a: TensorLike) -> TensorBase:
    """``a`` flattened to 1-D, as ``np.ravel``.

    Args:
      a: A tensor or array-like value.

    Returns:
      A 1-D tensor.
    """
    return shape_ops.reshape(asarray(a), [-1])


def flatten(a: TensorLike, order: str = "C") -> TensorBase:
    """``a`` flattened to 1-D, as ``ndarray.flatten``.

    Args:
      a: A tensor or array-like value.
      order: ``"C"`` or ``"F"``.

    Returns:
      A 1-D tensor.
    """
    return reshape(a, [-1], order)


def transpose(a: TensorLike, axes: AxisLike = None) -> TensorBase:
    """``a`` with its axes permuted (reversed by default), as ``np.transpose``.

    Args:
      a: A tensor or array-like value.
      axes: A permutation, or None.

    Returns:
      A tensor.
    """
    a = asarray(a)
    if axes is None:
        axes = list(range(a.shape.rank))[::-1]
    return shape_ops.transpose(a, list(axes))


def swapaxes(a: TensorLike, axis1: int, axis2: int) -> TensorBase:
    """``a`` with two axes swapped, as ``np.swapaxes``.

    Args:
      a: A tensor or array-like value.
      axis1: An axis.
      axis2: Another.

    Returns:
      A tensor.
    """
    a = asarray(a)
    perm = list(range(a.shape.rank))
    perm[axis1], perm[axis2] = perm[axis2], perm[axis1]
    return shape_ops.transpose(a, perm)


def moveaxis(a: TensorLike, source: AxisLike, destination: AxisLike) -> TensorBase:
    """``a`` with axes moved to new positions, as ``np.moveaxis``.

    Args:
      a: A tensor or array-like value.
      source: An axis or a sequence of axes.
      destination: Their new positions.

    Returns:
      A tensor.
    """
    a = asarray(a)
    rank = a.shape.rank
    source = [s % rank for s in ([source] if isinstance(source, int) else source)]
    destination = [d % rank for d in (
        [destination] if isinstance(destination, int) else destination)]
    order = [i for i in range(rank) if i not in source]
    for d, s in sorted(zip(destination, source)):
        order.insert(d, s)
    return shape_ops.transpose(a, order)


def expand_dims(a: TensorLike, axis: AxisLike) -> TensorBase:
    """``a`` with a new axis of size one at ``axis``, as ``np.expand_dims``.

    Args:
      a: A tensor or array-like value.
      axis: The position of the new axis (a sequence for several).

    Returns:
      A tensor.
    """
    a = asarray(a)
    if isinstance(axis, (list, tuple)):
        rank = a.shape.rank + len(axis)
        for ax in sorted(x % rank for x in axis):
            a = shape_ops.expand_dims(a, ax)
        return a
    return shape_ops.expand_dims(a, axis)


def squeeze(a: TensorLike, axis: AxisLike = None) -> TensorBase:
    """``a`` without its axes of size one (or just ``axis``), as ``np.squeeze``.

    Args:
      a: A tensor or array-like value.
      axis: An axis or axes, or None for all of size one.

    Returns:
      A tensor.
    """
    a = asarray(a)
    if isinstance(axis, int):
        axis = [axis]
    return shape_ops.squeeze(a, axis)


def atleast_1d(*arys: Any) -> Any:
    """Each argument as an array of rank 1 or more, as ``np.atleast_1d``.

    Args:
      *arys: Tensors or array-like values.

    Returns:
      A tensor, or a list of them for several arguments.
    """
    return _atleast(arys, 1)


def atleast_2d(*arys: Any) -> Any:
    """Each argument as an array of rank 2 or more, as ``np.atleast_2d``.

    Args:
      *arys: Tensors or array-like values.

    Returns:
      A tensor, or a list of them for several arguments.
    """
    return _atleast(arys, 2)


def atleast_3d(*arys: Any) -> Any:
    """Each argument as an array of rank 3 or more (a 2-D one gains a last axis), as
    ``np.atleast_3d``.

    Args:
      *arys: Tensors or array-like values.

    Returns:
      A tensor, or a list of them for several arguments.
    """
    return _atleast(arys, 3)


def _atleast(arys: tuple, n: int) -> Any:
    out = []
    for a in arys:
        a = asarray(a)
        rank = a.shape.rank
        if rank < n:
            dims = a.shape.as_list()
            if n == 3:
                new = {0: [1, 1, 1], 1: [1] + dims + [1], 2: dims + [1]}[rank]
            else:
                new = [1] * (n - rank) + dims
            a = shape_ops.reshape(a, new)
        out.append(a)
    return out[0] if len(out) == 1 else out


def broadcast_to(array_: TensorLike, shape_: ShapeLike | TensorLike) -> TensorBase:
    """``array_`` broadcast to ``shape_``, as ``np.broadcast_to``.

    Args:
      array_: A tensor or array-like value.
      shape_: The target shape.

    Returns:
      A tensor.
    """
    return full(shape_, array_)


def broadcast_arrays(*args: Any, **kwargs: Any) -> list:
    """The arguments broadcast against each other, as ``np.broadcast_arrays``.

    Args:
      *args: Tensors or array-like values.
      **kwargs: ``subok`` (accepted, ignored).

    Returns:
      A list of tensors.
    """
    kwargs.pop("subok", None)
    args = [asarray(a) for a in args]
    target = np.broadcast_shapes(*(tuple(a.shape.as_list()) for a in args))
    return [shape_ops.broadcast_to(a, list(target)) for a in args]


def _promote(*arrays: Any) -> list:
    dtype = dc.result_type(*arrays)
    return [asarray(a, dtype) for a in arrays]


def concatenate(arys: TensorLike, axis: int | None = 0) -> TensorBase:
    """Arrays joined along an existing axis (flattened first when ``axis`` is None), as
    ``np.concatenate``.

    Args:
      arys: A sequence of arrays.
      axis: The axis.

    Returns:
      A tensor.

    Raises:
      ValueError: ``arys`` is empty.
    """
    if not isinstance(arys, (list, tuple)):
        arys = [arys]
    if not arys:
        raise ValueError("Need at least one array to concatenate. Received empty input: "
                         "arys=%s" % (arys,))
    arys = _promote(*arys)
    if axis is None:
        arys = [ravel(a) for a in arys]
        axis = 0
    return concat_ops.concat(arys, axis)


def stack(arrays: TensorLike, axis: int = 0) -> TensorBase:
    """Arrays joined along a new axis, as ``np.stack``.

    Args:
      arrays: A sequence of arrays of one shape.
      axis: The new axis.

    Returns:
      A tensor.
    """
    if _is_tensor(arrays):
        arrays = shape_ops.unstack(arrays)
    return shape_ops.stack(_promote(*arrays), axis)


def hstack(tup: TensorLike) -> TensorBase:
    """Arrays joined column-wise (axis 1; axis 0 for 1-D ones), as ``np.hstack``.

    Args:
      tup: A sequence of arrays.

    Returns:
      A tensor.
    """
    arrays = [atleast_1d(a) for a in tup]
    return concatenate(arrays, 0 if arrays[0].shape.rank == 1 else 1)


def vstack(tup: TensorLike) -> TensorBase:
    """Arrays joined row-wise (1-D ones become rows), as ``np.vstack``.

    Args:
      tup: A sequence of arrays.

    Returns:
      A tensor.
    """
    return concatenate([atleast_2d(a) for a in tup], 0)


def dstack(tup: TensorLike) -> TensorBase:
    """Arrays joined along the third axis, as ``np.dstack``.

    Args:
      tup: A sequence of arrays.

    Returns:
      A tensor.
    """
    return concatenate([atleast_3d(a) for a in tup], 2)


def split(ary: TensorLike, indices_or_sections: TensorLike, axis: int = 0) -> list:
    """``ary`` split into equal sections or at indices along ``axis``, as ``np.split``.

    Args:
      ary: A tensor or array-like value.
      indices_or_sections: How many equal sections, or the indices to split at.
      axis: The axis.

    Returns:
      A list of tensors.

    Raises:
      InvalidArgumentError: The sections are not equal.
    """
    ary = asarray(ary)
    n = ary.shape.as_list()[axis]
    if isinstance(indices_or_sections, (int, np.integer)):
        if n % indices_or_sections:
            raise errors.InvalidArgumentError(
                None, None, "Number of ways to split should evenly divide the split dimension, "
                "but got split_dim %d (size = %d) and num_split %d" % (
                    axis, n, indices_or_sections))
        return concat_ops.split(ary, int(indices_or_sections), axis)
    bounds = [0] + [int(i) for i in indices_or_sections] + [n]
    sizes = [builtins.max(0, builtins.min(b, n) - builtins.min(a, n))
             for a, b in zip(bounds[:-1], bounds[1:])]
    return concat_ops.split(ary, sizes, axis)


def _split_on(axis: int, least: int, name: str) -> Any:
    def fn(ary: Any, indices_or_sections: Any) -> list:
        ary = asarray(ary)
        if ary.shape.rank < least:
            raise ValueError("%s only works on arrays of %d or more dimensions" % (name, least))
        ax = 0 if name == "hsplit" and ary.shape.rank == 1 else axis
        return split(ary, indices_or_sections, ax)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = ("``ary`` split along axis %d, as ``np.%s``.\n\n    Args:\n      ary: An "
                  "array.\n      indices_or_sections: Sections or indices.\n\n    Returns:\n"
                  "      A list of tensors.\n" % (axis, name))
    return fn


hsplit = _split_on(1, 1, "hsplit")
vsplit = _split_on(0, 2, "vsplit")
dsplit = _split_on(2, 3, "dsplit")


def flip(m: TensorLike, axis: AxisLike = None) -> TensorBase:
    """``m`` reversed along ``axis`` (all axes when None), as ``np.flip``.

    Args:
      m: A tensor or array-like value.
      axis: An axis, a sequence of axes, or None.

    Returns:
      A tensor.
    """
    m = asarray(m)
    if axis is None:
        axis = list(range(m.shape.rank))
    elif isinstance(axis, int):
        axis = [axis]
    return shape_ops.reverse(m, list(axis))


def fliplr(m: TensorLike) -> TensorBase:
    """``m`` reversed along axis 1, as ``np.fliplr``.

    Args:
      m: An array of rank 2 or more.

    Returns:
      A tensor.
    """
    return flip(m, 1)


def flipud(m: TensorLike) -> TensorBase:
    """``m`` reversed along axis 0, as ``np.flipud``.

    Args:
      m: An array of rank 1 or more.

    Returns:
      A tensor.
    """
    return flip(m, 0)


def rot90(m: TensorLike, k: int = 1, axes: tuple = (0, 1)) -> TensorBase:
    """``m`` rotated by 90 degrees ``k`` times in the plane of ``axes``, as ``np.rot90``.

    Args:
      m: An array of rank 2 or more.
      k: How many turns.
      axes: The plane.

    Returns:
      A tensor.
    """
    m = asarray(m)
    k %= 4
    a0, a1 = axes
    if k == 0:
        return m
    if k == 2:
        return flip(flip(m, a0), a1)
    if k == 1:
        return swapaxes(flip(m, a1), a0, a1)
    return flip(swapaxes(m, a0, a1), a1)


def roll(a: TensorLike, shift: Any, axis: AxisLike = None) -> TensorBase:
    """``a``'s elements shifted by ``shift`` along ``axis`` (of the flat array when None),
    as ``np.roll``.

    Args:
      a: A tensor or array-like value.
      shift: An int or a sequence of them.
      axis: An axis, a sequence of axes, or None.

    Returns:
      A tensor.
    """
    a = asarray(a)
    if axis is None:
        return shape_ops.reshape(manip_ops.roll(ravel(a), shift, 0), _dims(a))
    return manip_ops.roll(a, shift, axis)


def tile(a: TensorLike, reps: TensorLike) -> TensorBase:
    """``a`` repeated ``reps`` times per axis, as ``np.tile``.

    Args:
      a: A tensor or array-like value.
      reps: An int or a sequence of ints.

    Returns:
      A tensor.
    """
    a = asarray(a)
    reps = [int(reps)] if isinstance(reps, (int, np.integer)) else [int(r) for r in reps]
    rank = a.shape.rank
    reps = [1] * (rank - len(reps)) + reps
    if len(reps) > rank:
        a = shape_ops.reshape(a, [1] * (len(reps) - rank) + a.shape.as_list())
    return concat_ops.tile(a, reps)


def repeat(a: TensorLike, repeats: TensorLike, axis: int | None = None) -> TensorBase:
    """Each element of ``a`` repeated ``repeats`` times, as ``np.repeat``.

    Args:
      a: A tensor or array-like value.
      repeats: An int or one per element along ``axis``.
      axis: The axis (of the flattened array when None).

    Returns:
      A tensor.
    """
    a = asarray(a)
    if axis is None:
        a, axis = ravel(a), 0
    return manip_ops.repeat(a, repeats, axis)


def pad(array_: TensorLike, pad_width: TensorLike, mode: str = "constant",
        **kwargs: Any) -> TensorBase:
    """``array_`` padded, as ``np.pad`` (``constant``, ``reflect`` and ``symmetric`` modes).

    Args:
      array_: A tensor or array-like value.
      pad_width: ``((before, after), ...)`` per axis, or one pair/int for all.
      mode: ``"constant"``, ``"reflect"`` or ``"symmetric"``.
      **kwargs: ``constant_values`` for the constant mode.

    Returns:
      A tensor.

    Raises:
      ValueError: Another mode.
    """
    array_ = asarray(array_)
    width = np.broadcast_to(np.asarray(pad_width, np.int64), (array_.shape.rank, 2))
    mode = mode.upper()
    if mode == "CONSTANT":
        value = kwargs.get("constant_values", 0)
        return slicing_ops.pad(array_, width.tolist(), "CONSTANT",
                               constant_values=asarray(value, array_.dtype))
    if mode in ("REFLECT", "SYMMETRIC"):
        return slicing_ops.pad(array_, width.tolist(), mode)
    raise ValueError("Unsupported padding mode: " + mode)


# ---- indexing ----

def take(a: TensorLike, indices: TensorLike, axis: int | None = None, out: Any = None,
         mode: str = "clip") -> TensorBase:
    """Elements of ``a`` at ``indices`` along ``axis``, as ``np.take`` (``clip`` and ``wrap``
    modes).

    Args:
      a: A tensor or array-like value.
      indices: Integer indices.
      axis: The axis (of the flattened array when None).
      out: Not supported (must be None).
      mode: ``"clip"``, ``"wrap"`` or ``"raise"``.

    Returns:
      A tensor.

    Raises:
      ValueError: ``out`` is given, or ``mode`` is unknown.
    """
    if out is not None:
        raise ValueError("out argument is not supported in take.")
    if mode not in {"raise", "clip", "wrap"}:
        raise ValueError(f"Invalid mode '{mode}' for take")
    a = asarray(a)
    indices = asarray(indices, np.int64)
    if axis is None:
        a, axis = ravel(a), 0
    n = shape_ops.shape(a, out_type=dtypes.int64)[axis]
    if mode == "clip":
        indices = arithmetic_ops.clip_by_value(indices, 0, n - 1)
    elif mode == "wrap":
        indices = arithmetic_ops.floormod(indices, n)
    return indexing_ops.gather_v2(a, indices, axis=axis)


def take_along_axis(arr: TensorLike, indices: TensorLike, axis: int | None) -> TensorBase:
    """``arr``'s elements picked by ``indices`` along ``axis``, as ``np.take_along_axis``
    (for ``argsort``'s and ``argmax``'s results).

    Args:
      arr: A tensor or array-like value.
      indices: Integer indices of ``arr``'s rank.
      axis: The axis (of the flattened array when None).

    Returns:
      A tensor.
    """
    arr = asarray(arr)
    indices = asarray(indices, np.int64)
    if axis is None:
        return take(arr, ravel(indices))
    rank = arr.shape.rank
    axis %= rank
    target = np.broadcast_shapes(
        tuple(d for i, d in enumerate(arr.shape.as_list()) if i != axis),
        tuple(d for i, d in enumerate(indices.shape.as_list()) if i != axis))
    idx_shape = list(target)
    idx_shape.insert(axis, indices.shape.as_list()[axis])
    arr_shape = list(target)
    arr_shape.insert(axis, arr.shape.as_list()[axis])
    indices = shape_ops.broadcast_to(indices, idx_shape)
    arr = shape_ops.broadcast_to(arr, arr_shape)
    grids = np.meshgrid(*[np.arange(d) for d in idx_shape], indexing="ij")
    parts = [constant(g.astype(np.int64)) for g in grids]
    n = arr_shape[axis]
    parts[axis] = arithmetic_ops.floormod(indices, n)
    return gather_nd(arr, shape_ops.stack(parts, axis=-1))


def nonzero(a: TensorLike) -> tuple:
    """The indices of ``a``'s non-zero elements, one tensor per axis, as ``np.nonzero``.

    Args:
      a: A tensor or array-like value.

    Returns:
      A tuple of int64 tensors.

    Raises:
      ValueError: ``a`` is a scalar.
    """
    a = atleast_1d(a)
    if a.shape.rank is None:
        raise ValueError("The rank of `a` is unknown, so we can't decide how many arrays "
                         "to return.")
    where = comparison_ops.where(comparison_ops.not_equal(a, fill_ops.zeros_like(a)))
    return tuple(shape_ops.unstack(where, a.shape.rank, axis=1))


def where(condition: TensorLike, x: TensorLike | None = None, y: TensorLike | None = None) -> Any:
    """Elements of ``x`` where ``condition`` holds, else of ``y``; with one argument, the
    non-zero indices, as ``np.where``.

    Args:
      condition: A boolean array.
      x: Values where it holds.
      y: Values where it does not.

    Returns:
      A tensor, or a tuple from :func:`nonzero`.

    Raises:
      ValueError: Only one of ``x`` and ``y`` is given.
    """
    condition = asarray(condition, dtype=np.bool_)
    if x is None and y is None:
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("Both x and y must be ndarrays, or both must be None.")
    x, y = _promote(x, y)
    return comparison_ops.where(condition, x, y)


def select(condlist: TensorLike, choicelist: TensorLike, default: Any = 0) -> TensorBase:
    """The element of the first choice whose condition holds, as ``np.select``.

    Args:
      condlist: Boolean arrays.
      choicelist: Arrays, one per condition.
      default: The value where none holds.

    Returns:
      A tensor.

    Raises:
      ValueError: The lists differ in length.
    """
    if len(condlist) != len(choicelist):
        raise ValueError("condlist must have length equal to choicelist (%d vs %d)"
                         % (len(condlist), len(choicelist)))
    if not condlist:
        raise ValueError("condlist must be non-empty")
    choices = _promote(default, *choicelist)
    out = choices[0]
    for cond, choice in zip(condlist[::-1], choices[:0:-1]):
        out = where(cond, choice, out)
    return out


def compress(condition: TensorLike, a: TensorLike, axis: int | None = None) -> TensorBase:
    """The slices of ``a`` along ``axis`` where ``condition`` holds, as ``np.compress``.

    Args:
      condition: A 1-D boolean array.
      a: A tensor or array-like value.
      axis: The axis (of the flattened array when None).

    Returns:
      A tensor.
    """
    condition = asarray(condition, np.bool_)
    a = asarray(a)
    if axis is None:
        a, axis = ravel(a), 0
    n = a.shape.as_list()[axis]
    m = condition.shape.as_list()[0]
    if m < n:
        condition = concat_ops.concat([condition, fill_ops.zeros([n - m], dtypes.bool)], 0)
    elif m > n:
        condition = condition[:n]
    return indexing_ops.boolean_mask_v2(a, condition, axis=axis)


# ---- reductions ----

def _reduce(tf_fn: Any, a: Any, axis: Any, dtype: Any, keepdims: Any, promote_int: str | None,
            tf_bool_fn: Any = None, preserve_bool: bool = False) -> TensorBase:
    if dtype:
        dtype = _as_dtype(dtype)
    a = asarray(a, dtype)
    keepdims = bool(keepdims)
    if (dtype == dtypes.bool or preserve_bool and a.dtype == dtypes.bool) and tf_bool_fn:
        return tf_bool_fn(a, axis=axis, keepdims=keepdims)
    if dtype is None:
        dt = a.dtype.base_dtype
        if dt.is_integer or dt == dtypes.bool:
            if promote_int == "int":
                if dt == dtypes.bool or (not dt.is_unsigned and dt.size < 8):
                    a = cast(a, dtypes.int64)
                elif dt.is_unsigned and dt.size < 8:
                    a = cast(a, dtypes.uint64)
            elif promote_int == "float":
                a = cast(a, dc.default_float_type())
    if isinstance(axis, list):
        axis = tuple(axis)
    return tf_fn(a, axis=axis, keepdims=keepdims)


def sum(a: TensorLike, axis: AxisLike = None, dtype: DTypeLike | None = None,  # noqa: A001
        keepdims: bool | None = None) -> TensorBase:
    """The sum over ``axis``, as ``np.sum`` (integers and bools sum as int64).

    Args:
      a: A tensor or array-like value.
      axis: An axis, axes, or None for all.
      dtype: The accumulator and result dtype.
      keepdims: Whether reduced axes stay with size one.

    Returns:
      A tensor.
    """
    return _reduce(sum_ops.reduce_sum, a, axis, dtype, keepdims, "int",
                   reduction_ops.reduce_any)


def prod(a: TensorLike, axis: AxisLike = None, dtype: DTypeLike | None = None,
         keepdims: bool | None = None) -> TensorBase:
    """The product over ``axis``, as ``np.prod``.

    Args:
      a: A tensor or array-like value.
      axis: An axis, axes, or None for all.
      dtype: The result dtype.
      keepdims: Whether reduced axes stay with size one.

    Returns:
      A tensor.
    """
    return _reduce(reduction_ops.reduce_prod, a, axis, dtype, keepdims, "int",
                   reduction_ops.reduce_all)


def mean(a: TensorLike, axis: AxisLike = None, dtype: DTypeLike | None = None, out: Any = None,
         keepdims: bool | None = None) -> TensorBase:
    """The mean over ``axis``, as ``np.mean`` (integers average as float64).

    Args:
      a: A tensor or array-like value.
      axis: An axis, axes, or None for all.
      dtype: The result dtype.
      out: Not supported (must be None).
      keepdims: Whether reduced axes stay with size one.

    Returns:
      A tensor.

    Raises:
      ValueError: ``out`` is given.
    """
    if out is not None:
        raise ValueError("Setting out is not supported.")
    return _reduce(reduction_ops.reduce_mean, a, axis, dtype, keepdims, "float")


def amax(a: TensorLike, axis: AxisLike = None, out: Any = None,
         keepdims: bool | None = None) -> TensorBase:
    """The maximum over ``axis``, as ``np.amax``.

    Args:
      a: A tensor or array-like value.
      axis: An axis, axes, or None for all.
      out: Not supported (must be None).
      keepdims: Whether reduced axes stay with size one.

    Returns:
      A tensor.

    Raises:
      ValueError: ``out`` is given.
    """
    if out is not None:
        raise ValueError("Setting out is not supported.")
    return _reduce(reduction_ops.reduce_max, a, axis, None, keepdims, None,
                   reduction_ops.reduce_any, preserve_bool=True)


def amin(a: TensorLike, axis: AxisLike = None, out: Any = None,
         keepdims: bool | None = None) -> TensorBase:
    """The minimum over ``axis``, as ``np.amin``.

    Args:
      a: A tensor or array-like value.
      axis: An axis, axes, or None for all.
      out: Not supported (must be None).
      keepdims: Whether reduced axes stay with size one.

    Returns:
      A tensor.

    Raises:
      ValueError: ``out`` is given.
    """
    if out is not None:
        raise ValueError("Setting out is not supported.")
    return _reduce(reduction_ops.reduce_min, a, axis, None, keepdims, None,
                   reduction_ops.reduce_all, preserve_bool=True)


max = amax  # noqa: A001 - NumPy's name
min = amin  # noqa: A001 - NumPy's name


def var(a: TensorLike, axis: AxisLike = None, dtype: DTypeLike | None = None, out: Any = None,
        ddof: int = 0, keepdims: bool | None = None) -> TensorBase:
    """The variance over ``axis`` with ``ddof`` degrees of freedom removed, as ``np.var``.

    Args:
      a: A tensor or array-like value.
      axis: An axis, axes, or None for all.
      dtype: The result dtype.
      out: Not supported (must be None).
      ddof: Subtracted from the element count in the divisor.
      keepdims: Whether reduced axes stay with size one.

    Returns:
      A tensor.

    Raises:
      ValueError: ``out`` is given.
    """
    if out is not None:
        raise ValueError("Setting out is not supported.")
    if dtype:
        a = asarray(a, dtype)
    a = asarray(a)
    if not (a.dtype.is_floating or a.dtype.is_complex):
        a = cast(a, dc.default_float_type())
    if isinstance(axis, list):
        axis = tuple(axis)
    centered = a - reduction_ops.reduce_mean(a, axis=axis, keepdims=True)
    if a.dtype.is_complex:
        sq = elementwise_ops.square(_tf_real(centered)) + elementwise_ops.square(
            _tf_imag(centered))
    else:
        sq = elementwise_ops.square(centered)
    total = sum_ops.reduce_sum(sq, axis=axis, keepdims=bool(keepdims))
    count = cast(shape_ops.size(a), total.dtype) / cast(shape_ops.size(total), total.dtype)
    return total / (count - ddof)


def std(a: TensorLike, axis: AxisLike = None, keepdims: bool | None = None) -> TensorBase:
    """The standard deviation over ``axis``, as ``np.std``.

    Args:
      a: A tensor or array-like value.
      axis: An axis, axes, or None for all.
      keepdims: Whether reduced axes stay with size one.

    Returns:
      A tensor.
    """
    return elementwise_ops.sqrt(var(a, axis=axis, keepdims=keepdims))


def all(a: TensorLike, axis: AxisLike = None, keepdims: bool | None = None) -> TensorBase:  # noqa: A001
    """Whether every element (along ``axis``) is true, as ``np.all``.

    Args:
      a: A tensor or array-like value.
      axis: An axis, axes, or None for all.
      keepdims: Whether reduced axes stay with size one.

    Returns:
      A boolean tensor.
    """
    a = asarray(a, np.bool_)
    return reduction_ops.reduce_all(a, axis=axis, keepdims=bool(keepdims))


def any(a: TensorLike, axis: AxisLike = None, keepdims: bool | None = None) -> TensorBase:  # noqa: A001
    """Whether any element (along ``axis``) is true, as ``np.any``.

    Args:
      a: A tensor or array-like value.
      axis: An axis, axes, or None for all.
      keepdims: Whether reduced axes stay with size one.

    Returns:
      A boolean tensor.
    """
    a = asarray(a, np.bool_)
    return reduction_ops.reduce_any(a, axis=axis, keepdims=bool(keepdims))


def _cumulative(tf_fn: Any, a: Any, axis: Any, dtype: Any) -> TensorBase:
    a = asarray(a, dtype)
    if dtype is None and (a.dtype.is_integer or a.dtype == dtypes.bool):
        if a.dtype == dtypes.bool or (not a.dtype.is_unsigned and a.dtype.size < 8):
            a = cast(a, dtypes.int64)
    if axis is None:
        a, axis = ravel(a), 0
    return tf_fn(a, axis=axis)


def cumsum(a: TensorLike, axis: int | None = None, dtype: DTypeLike | None = None) -> TensorBase:
    """Running sums along ``axis`` (of the flattened array when None), as ``np.cumsum``.

    Args:
      a: A tensor or array-like value.
      axis: The axis.
      dtype: The result dtype.

    Returns:
      A tensor.
    """
    return _cumulative(reduction_ops.cumsum, a, axis, dtype)


def cumprod(a: TensorLike, axis: int | None = None, dtype: DTypeLike | None = None) -> TensorBase:
    """Running products along ``axis`` (of the flattened array when None), as
    ``np.cumprod``.

    Args:
      a: A tensor or array-like value.
      axis: The axis.
      dtype: The result dtype.

    Returns:
      A tensor.
    """
    return _cumulative(reduction_ops.cumprod, a, axis, dtype)


def argmax(a: TensorLike, axis: int | None = None) -> TensorBase:
    """The index of the largest element (along ``axis``; of the flat array when None), as
    ``np.argmax``.

    Args:
      a: A tensor or array-like value.
      axis: The axis.

    Returns:
      An int64 tensor.
    """
    a = asarray(a)
    if axis is None:
        a, axis = ravel(a), 0
    return reduction_ops.argmax_v2(a, axis=axis)


def argmin(a: TensorLike, axis: int | None = None) -> TensorBase:
    """The index of the smallest element (along ``axis``; of the flat array when None), as
    ``np.argmin``.

    Args:
      a: A tensor or array-like value.
      axis: The axis.

    Returns:
      An int64 tensor.
    """
    a = asarray(a)
    if axis is None:
        a, axis = ravel(a), 0
    return reduction_ops.argmin_v2(a, axis=axis)


def sort(a: TensorLike, axis: int | None = -1, kind: str = "quicksort",
         order: str | None = None) -> TensorBase:
    """``a`` sorted along ``axis`` (the flattened array when None), as ``np.sort``.

    Args:
      a: A tensor or array-like value.
      axis: The axis.
      kind: ``"quicksort"`` only.
      order: Not supported (must be None).

    Returns:
      A tensor.

    Raises:
      ValueError: Another ``kind`` or an ``order``.
    """
    if kind != "quicksort":
        raise ValueError("Invalid value for argument `kind`. Only kind=\"quicksort\" is "
                         "supported. Received: kind=%s" % kind)
    if order is not None:
        raise ValueError("The `order` argument is not supported. Pass order=None")
    a = asarray(a)
    if axis is None:
        a, axis = ravel(a), 0
    return sort_ops.sort(a, axis)


def argsort(a: TensorLike, axis: int | None = -1, kind: str = "quicksort",
            order: str | None = None) -> TensorBase:
    """The indices that sort ``a`` along ``axis``, as ``np.argsort``.

    Args:
      a: A tensor or array-like value.
      axis: The axis (of the flattened array when None).
      kind: ``"quicksort"`` or ``"stable"``.
      order: Not supported (must be None).

    Returns:
      An int64 tensor.

    Raises:
      ValueError: Another ``kind`` or an ``order``.
    """
    if kind not in ("quicksort", "stable"):
        raise ValueError("Invalid value for argument `kind`. Only kind=\"quicksort\" and "
                         "kind=\"stable\" are supported. Received: kind=%s" % kind)
    if order is not None:
        raise ValueError("The `order` argument is not supported. Pass order=None")
    a = asarray(a)
    if a.shape.rank == 0:
        return constant([0], dtypes.int64)
    if axis is None:
        a, axis = ravel(a), 0
    return cast(sort_ops.argsort(a, axis, stable=True), dtypes.int64)


def real(val: TensorLike) -> TensorBase:
    """The real part, as ``np.real``.

    Args:
      val: A tensor or array-like value.

    Returns:
      A tensor.
    """
    return _tf_real(asarray(val))


def imag(val: TensorLike) -> TensorBase:
    """The imaginary part (zeros for real input), as ``np.imag``.

    Args:
      val: A tensor or array-like value.

    Returns:
      A tensor.
    """
    val = asarray(val)
    if val.dtype.is_complex:
        return _tf_imag(val)
    return fill_ops.zeros_like(val)


def around(a: TensorLike, decimals: int = 0) -> TensorBase:
    """``a`` rounded half to even to ``decimals`` places, as ``np.around``.

    Args:
      a: A tensor or array-like value.
      decimals: The decimal places (may be negative).

    Returns:
      A tensor.
    """
    a = asarray(a)
    dtype = a.dtype.base_dtype
    # TensorFlow's tnp casts the Python factor through float32 (math_ops.cast of a Python
    # float), so 10**-1 is 0.100000001: around(5, -1) is 9 there, and here.
    factor = float(np.float32(10.0 ** decimals))
    if dtype.is_integer or dtype == dtypes.bool:
        if decimals >= 0:
            return a
        work = cast(a, dc.default_float_type())
    elif dtype == dtypes.float16:
        work = cast(a, dtypes.float32)
    else:
        work = a
    work = elementwise_ops.round(work * factor) / factor
    return cast(work, dtype)


round = around  # noqa: A001 - NumPy's name

