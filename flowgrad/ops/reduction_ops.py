"""Reductions besides reduce_sum (which lives in ``sum_ops``): mean, max and min (ties share
the gradient), prod, all/any, the euclidean norm, logsumexp, variance and std,
count_nonzero; argmax and argmin; the scans cumsum and cumprod (norm and safe_norm, which
include the spectral norm, are in ``linalg_ops``, as in TensorFlow). Integer means truncate
toward zero, as in TensorFlow."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from flowgrad.framework.context import executing_eagerly
from flowgrad.framework import dtypes
from flowgrad.framework.errors import InvalidArgumentError
from flowgrad.framework.graph import name_scope
from flowgrad.framework.op_call import apply_op, argument_error
from flowgrad.framework.registry import _NO_GRADIENT, defop, register_jvp, register_op
from flowgrad.framework.shape_rules import constant_value, reduced_shape, unary
from flowgrad.framework.tensor import convert_to_tensor, is_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.framework.type_hints import AxisLike, DTypeLike, TensorLike
from flowgrad.framework.tensor import TensorBase
from flowgrad.framework import dispatch
from flowgrad.ops.array_ops import (_as_value, linear_in_first_jvp, reshape, shape, shape_of,
                                    size, stop_gradient, zeros_like)
from flowgrad.ops.broadcast_grad_ops import reduced_size
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.arithmetic_ops import (add, conj_if_complex, div_no_nan, multiply, realdiv,
                                          subtract)
from flowgrad.ops.comparison_ops import equal, not_equal, where
from flowgrad.ops.elementwise_ops import exp, is_finite, log, sqrt, square
from flowgrad.ops.math_helpers import _BOOL, _FLOATING, _NUMERIC, _REAL, _check_kind
from flowgrad.ops.sum_ops import (_axes, _grad_to_input_shape, _reduce, _reduce_infer,
                                  _reduce_specialize, reduce_sum)


# --------------------------------------------------------------------------------------
# Reductions


def _mean_kernel(x: Any, axes_in: Any = None, *, axis: Any = None, keepdims: bool = False) -> Any:
    a = _axes(x, axis, axes_in)
    if x.dtype.kind in "iu":    # TensorFlow's integer mean truncates toward zero; the sum
        # does not wrap around (int8 200 ones: 1, not -56 // 200), as TensorFlow's kernel
        s = np.sum(x, axis=a, keepdims=keepdims, dtype=np.int64 if x.dtype.kind == "i"
                   else np.uint64)
        n = max(np.size(x) if a is None else int(np.prod([np.shape(x)[i] for i in a])), 1)
        q = np.abs(s) // n
        return np.where(s < 0, -q, q).astype(x.dtype)
    s = np.add.reduce(x, axis=a, keepdims=keepdims)
    n = x.size // max(s.size, 1) if s.size else 1
    return s / x.dtype.type(n)      # the count in x's dtype, as true_divide(dtype=) would


@defop("Mean", _mean_kernel, _reduce_infer, specialize=_reduce_specialize(_mean_kernel),
       fresh_output=True, input_names=("input", "reduction_indices"), batching="reduction")
def _mean_grad(op: Any, grad: Any) -> Any:
    x, y = op.inputs[0], op.outputs[0]
    axis = op.get_attr("axis")
    dims = x.shape.as_tuple()
    reduced = None if dims is None or len(op.inputs) > 1 else (
        dims if axis is None else tuple(dims[a] for a in axis))
    if reduced is not None and None not in reduced:
        count = max(math.prod(reduced), 1)
        g = realdiv(grad, np.asarray(count, grad.dtype.np))
    elif len(op.inputs) == 1:
        g = realdiv(grad, reduced_size(x, axis, grad.dtype))
    else:
        factor = realdiv(cast(size(x), grad.dtype), cast(size(y), grad.dtype))
        g = realdiv(grad, factor)
    return [_grad_to_input_shape(op, g), None][:len(op.inputs)]


register_jvp("Mean", linear_in_first_jvp)


@dispatch.add_dispatch_support
def reduce_mean(input_tensor: TensorLike, axis: AxisLike = None, keepdims: bool = False,
                name: str | None = None, reduction_indices: AxisLike = None,
                keep_dims: bool | None = None) -> TensorBase:
    """Computes the mean of elements across dimensions of a tensor, as ``tf.reduce_mean``.

    Integer means truncate toward zero, as in TensorFlow.

    Example:

        >>> x = tf.constant([[1.0, 1.0], [2.0, 2.0]])
        >>> print(tf.reduce_mean(x).numpy())
        1.5
        >>> print(tf.reduce_mean(x, 0).numpy())
        [1.5 1.5]
        >>> print(tf.reduce_mean(tf.constant([1, 2])).numpy())  # integers stay integers
        1

    Args:
        input_tensor: The tensor to reduce (numeric).
        axis: The dimensions to reduce: an int, a list of ints or a tensor; None reduces all
            dimensions. Negative values count from the end.
        keepdims: If true, keeps the reduced dimensions with length 1.
        name: A name for the operation.
        reduction_indices: TensorFlow 1's name for ``axis``.
        keep_dims: TensorFlow 1's name for ``keepdims``.

    Returns:
        The reduced tensor, of ``input_tensor``'s dtype.

    Raises:
        InvalidArgumentError: an axis is out of range.
    """
    return _reduce("Mean", input_tensor, axis, keepdims, name, reduction_indices, keep_dims)


def _lowest(dt: np.dtype) -> Any:
    return -np.inf if dt.kind in "fc" else (np.iinfo(dt).min if dt.kind in "iu" else False)


def _highest(dt: np.dtype) -> Any:
    return np.inf if dt.kind in "fc" else (np.iinfo(dt).max if dt.kind in "iu" else True)


def _max_kernel(x: Any, axes_in: Any = None, *, axis: Any = None, keepdims: bool = False) -> Any:
    a = _axes(x, axis, axes_in)
    if np.size(x) == 0:     # TensorFlow: the lowest value of the dtype (-inf for floats)
        return np.max(x, axis=a, keepdims=keepdims, initial=_lowest(x.dtype))
    return np.max(x, axis=a, keepdims=keepdims)


def _min_kernel(x: Any, axes_in: Any = None, *, axis: Any = None, keepdims: bool = False) -> Any:
    a = _axes(x, axis, axes_in)
    if np.size(x) == 0:
        return np.min(x, axis=a, keepdims=keepdims, initial=_highest(x.dtype))
    return np.min(x, axis=a, keepdims=keepdims)


def _prod_kernel(x: Any, axes_in: Any = None, *, axis: Any = None, keepdims: bool = False) -> Any:
    return np.prod(x, axis=_axes(x, axis, axes_in), keepdims=keepdims, dtype=x.dtype)


def _all_kernel(x: Any, axes_in: Any = None, *, axis: Any = None, keepdims: bool = False) -> Any:
    return np.all(x, axis=_axes(x, axis, axes_in), keepdims=keepdims)


def _any_kernel(x: Any, axes_in: Any = None, *, axis: Any = None, keepdims: bool = False) -> Any:
    return np.any(x, axis=_axes(x, axis, axes_in), keepdims=keepdims)


def _euclidean_norm_kernel(x: Any, axes_in: Any = None, *, axis: Any = None,
                           keepdims: bool = False) -> Any:
    a = _axes(x, axis, axes_in)
    if x.dtype.kind in "iu":    # TensorFlow truncates the root to the integer dtype
        sq = np.square(np.asarray(x, np.float64))
        return np.sqrt(np.sum(sq, axis=a, keepdims=keepdims)).astype(x.dtype)
    if x.dtype.kind == "c":     # TensorFlow's: sqrt(sum(x conj(x))), complex
        return np.sqrt(np.sum(x * np.conj(x), axis=a, keepdims=keepdims))
    return np.sqrt(np.sum(np.square(x), axis=a, keepdims=keepdims))


def _with_kept_dims(op: Any, t: Any) -> Any:
    """``t``, shaped like a reduction's output, with the reduced axes kept (as size 1)."""
    if op.get_attr("keepdims"):
        return t
    x, axis = op.inputs[0], op.get_attr("axis")
    if len(op.inputs) == 1:
        kept = reduced_shape(x.shape, axis, True).as_tuple()
        if kept is not None and None not in kept:
            return t if t.shape.as_tuple() == kept else reshape(t, kept)
    kept = apply_op("ReducedShape", [shape(x), *op.inputs[1:]], {"axis": axis},
                    dtype=dtypes.int32)
    return reshape(t, kept)


def _reduction_axes(op: Any) -> Any:
    """The axes a reduction op reduces: its static attr, or its axes input."""
    return op.inputs[1] if len(op.inputs) > 1 else op.get_attr("axis")


def _min_or_max_grad(op: Any, grad: Any) -> list:
    """The gradient goes to the inputs equal to the result, split evenly among ties."""
    x = op.inputs[0]
    y = _with_kept_dims(op, op.outputs[0])
    g = _with_kept_dims(op, grad)
    indicators = cast(equal(y, x), g.dtype)
    num_selected = reduce_sum(indicators, _reduction_axes(op), keepdims=True)
    return [multiply(realdiv(indicators, num_selected), g), None][:len(op.inputs)]


_REDUCE = dict(infer=_reduce_infer, input_names=("input", "reduction_indices"))

defop("Max", _max_kernel, specialize=_reduce_specialize(_max_kernel), **_REDUCE,
batching="reduction")(
    _min_or_max_grad)
defop("Min", _min_kernel, specialize=_reduce_specialize(_min_kernel), **_REDUCE,
batching="reduction")(
    _min_or_max_grad)
register_op("All", _all_kernel, grad=_NO_GRADIENT, specialize=_reduce_specialize(_all_kernel),
            **_REDUCE, batching="reduction")
register_op("Any", _any_kernel, grad=_NO_GRADIENT, specialize=_reduce_specialize(_any_kernel),
            **_REDUCE, batching="reduction")


def _others_product(x: Any, axis: int) -> Any:
    """For each element, the product of the others along ``axis`` (exact with zeros)."""
    return multiply(cumprod(x, axis, exclusive=True),
                    cumprod(x, axis, exclusive=True, reverse=True))


def _others_product_over(x: Any, axes: tuple) -> Any:
    """For each element, the product of the others in its slice over ``axes``.

    One axis at a time: the product over the first axis of the partial products over
    the rest, times the product within the element's own partial product."""
    if len(axes) == 1:
        return _others_product(x, axes[0])
    partial = reduce_prod(x, axes[1:], keepdims=True)
    return multiply(_others_product(partial, axes[0]), _others_product_over(x, axes[1:]))


@defop("Prod", _prod_kernel, specialize=_reduce_specialize(_prod_kernel), **_REDUCE,
       batching="reduction")
def _prod_grad(op: Any, grad: Any) -> Any:
    if len(op.inputs) > 1:
        raise NotImplementedError(
            "The gradient of reduce_prod (op '%s') needs its axes when the graph is built; "
            "pass a constant axis" % op.name)
    x, axis = op.inputs[0], op.get_attr("axis")
    g = _grad_to_input_shape(op, grad)
    if axis == ():
        return g
    if axis is None or len(axis) == x.shape.rank:
        others = reshape(_others_product(reshape(x, [-1]), 0), shape_of(x))
    else:
        others = _others_product_over(x, axis)
    return multiply(g, conj_if_complex(others))     # TensorFlow's: the conjugate direction


@defop("EuclideanNorm", _euclidean_norm_kernel,
       specialize=_reduce_specialize(_euclidean_norm_kernel), **_REDUCE, batching="reduction")
def _euclidean_norm_grad(op: Any, grad: Any) -> Any:
    # x * grad / norm: NaN where the norm is 0, as in TensorFlow (safe_norm avoids it).
    x = op.inputs[0]
    y = _with_kept_dims(op, op.outputs[0])
    return [realdiv(x, realdiv(y, _with_kept_dims(op, grad))), None][:len(op.inputs)]


@dispatch.add_dispatch_support
def reduce_max(input_tensor: TensorLike, axis: AxisLike = None, keepdims: bool = False,
               name: str | None = None, reduction_indices: AxisLike = None,
               keep_dims: bool | None = None) -> Any:
    """Maximum over ``axis`` (all axes if None); the gradient is split evenly among ties.

    Args:
        input_tensor: The tensor to reduce.
        axis: The axis or axes to reduce; all of them when None.
        keepdims: Whether to keep the reduced axes with length 1.
        name: A name for the operation (optional).
        reduction_indices: TF1's name for ``axis``.
        keep_dims: TF1's name for ``keepdims``.
    """
    return _reduce("Max", input_tensor, axis, keepdims, name, reduction_indices, keep_dims,
                   _REAL)


@dispatch.add_dispatch_support
def reduce_min(input_tensor: TensorLike, axis: AxisLike = None, keepdims: bool = False,
               name: str | None = None, reduction_indices: AxisLike = None,
               keep_dims: bool | None = None) -> Any:
    """Minimum over ``axis`` (all axes if None); the gradient is split evenly among ties.

    Args:
        input_tensor: The tensor to reduce.
        axis: The axis or axes to reduce; all of them when None.
        keepdims: Whether to keep the reduced axes with length 1.
        name: A name for the operation (optional).
        reduction_indices: TF1's name for ``axis``.
        keep_dims: TF1's name for ``keepdims``.
    """
    return _reduce("Min", input_tensor, axis, keepdims, name, reduction_indices, keep_dims,
                   _REAL)


@dispatch.add_dispatch_support
def reduce_prod(input_tensor: TensorLike, axis: AxisLike = None, keepdims: bool = False,
                name: str | None = None, reduction_indices: AxisLike = None,
                keep_dims: bool | None = None) -> Any:
    """Product over ``axis`` (all axes if None).

    Args:
        input_tensor: The tensor to reduce.
        axis: The axis or axes to reduce; all of them when None.
        keepdims: Whether to keep the reduced axes with length 1.
        name: A name for the operation (optional).
        reduction_indices: TF1's name for ``axis``.
        keep_dims: TF1's name for ``keepdims``.
    """
    return _reduce("Prod", input_tensor, axis, keepdims, name, reduction_indices, keep_dims,
                   _NUMERIC)


def _as_bool(x: Any) -> Any:
    """A value that is not a tensor as a bool tensor (``[]`` is an empty bool tensor): the op's
    input type, as TensorFlow converts it."""
    return x if is_tensor(x) else convert_to_tensor(_as_value(x), dtypes.bool)


@dispatch.add_dispatch_support
def reduce_all(input_tensor: TensorLike, axis: AxisLike = None, keepdims: bool = False,
               name: str | None = None, reduction_indices: AxisLike = None,
               keep_dims: bool | None = None) -> Any:
    """Logical AND over ``axis`` (all axes if None) of a bool tensor.

    Args:
        input_tensor: A bool tensor.
        axis: The axis or axes to reduce; all of them when None.
        keepdims: Whether to keep the reduced axes with length 1.
        name: A name for the operation (optional).
        reduction_indices: TF1's name for ``axis``.
        keep_dims: TF1's name for ``keepdims``.
    """
    return _reduce("All", _as_bool(input_tensor), axis, keepdims, name, reduction_indices,
                   keep_dims, _BOOL)


@dispatch.add_dispatch_support
def reduce_any(input_tensor: TensorLike, axis: AxisLike = None, keepdims: bool = False,
               name: str | None = None, reduction_indices: AxisLike = None,
               keep_dims: bool | None = None) -> Any:
    """Logical OR over ``axis`` (all axes if None) of a bool tensor.

    Args:
        input_tensor: A bool tensor.
        axis: The axis or axes to reduce; all of them when None.
        keepdims: Whether to keep the reduced axes with length 1.
        name: A name for the operation (optional).
        reduction_indices: TF1's name for ``axis``.
        keep_dims: TF1's name for ``keepdims``.
    """
    return _reduce("Any", _as_bool(input_tensor), axis, keepdims, name, reduction_indices,
                   keep_dims, _BOOL)


@dispatch.add_dispatch_support
def reduce_euclidean_norm(input_tensor: TensorLike, axis: AxisLike = None, keepdims: bool = False,
                          name: str | None = None) -> Any:
    """sqrt(sum(x ** 2)) over ``axis`` (all axes if None); its gradient at 0 is NaN, as in
    TensorFlow (``flowgrad.safe_norm`` gives 0 there).

    Args:
        input_tensor: The tensor to reduce.
        axis: The axis or axes to reduce; all of them when None.
        keepdims: Whether to keep the reduced axes with length 1.
        name: A name for the operation (optional).
    """
    return _reduce("EuclideanNorm", input_tensor, axis, keepdims, name, kinds=_NUMERIC)


@dispatch.add_dispatch_support
def reduce_logsumexp(input_tensor: TensorLike, axis: AxisLike = None, keepdims: bool = False,
                     name: str | None = None, reduction_indices: AxisLike = None,
                     keep_dims: bool | None = None) -> Any:
    """log(sum(exp(x))) over ``axis``, computed stably (shifted by the maximum).

    Args:
        input_tensor: The tensor to reduce.
        axis: The axis or axes to reduce; all of them when None.
        keepdims: Whether to keep the reduced axes with length 1.
        name: A name for the operation (optional).
        reduction_indices: TF1's name for ``axis``.
        keep_dims: TF1's name for ``keepdims``.
    """
    if reduction_indices is not None:
        if axis is not None:
            raise ValueError("Can not specify both 'axis' and 'reduction_indices'.")
        axis = reduction_indices
    keepdims = bool(keepdims if keep_dims is None else keep_dims)
    with name_scope(name, "ReduceLogSumExp", [input_tensor]) as scope:
        x = convert_to_tensor(_as_value(input_tensor))
        _check_kind("ReduceLogSumExp", "input_tensor", x.dtype.base_dtype, _FLOATING)
        raw_max = reduce_max(x, axis, keepdims=True)
        my_max = stop_gradient(where(is_finite(raw_max), raw_max, zeros_like(raw_max)))
        result = log(reduce_sum(exp(subtract(x, my_max)), axis, keepdims=keepdims))
        if not keepdims:
            my_max = reshape(my_max, shape_of(result))
        return add(result, my_max, name=scope)


@dispatch.add_dispatch_support
def reduce_variance(input_tensor: TensorLike, axis: AxisLike = None, keepdims: bool = False,
                    name: str | None = None) -> Any:
    """The variance (mean squared deviation from the mean) over ``axis``.

    Args:
        input_tensor: A real or complex tensor.
        axis: The axis or axes to reduce; all of them when None.
        keepdims: Whether to keep the reduced axes with length 1.
        name: A name for the operation (optional).
    """
    with name_scope(name or "reduce_variance"):
        x = convert_to_tensor(_as_value(input_tensor))
        if x.dtype.base_dtype.np.kind not in _FLOATING:
            raise TypeError("Input must be either real or complex. Received integer type %s."
                            % x.dtype.base_dtype.name)
        means = reduce_mean(x, axis, keepdims=True)
        diff = subtract(x, means)
        if x.dtype.is_complex:      # TensorFlow's: real(conj(diff) * diff), a real variance
            return reduce_mean(apply_op("Real", (multiply(conj_if_complex(diff), diff),)),
                               axis, keepdims=keepdims)
        return reduce_mean(square(diff), axis, keepdims=keepdims)


@dispatch.add_dispatch_support
def reduce_std(input_tensor: TensorLike, axis: AxisLike = None, keepdims: bool = False,
               name: str | None = None) -> Any:
    """The standard deviation over ``axis``.

    Args:
        input_tensor: A real or complex tensor.
        axis: The axis or axes to reduce; all of them when None.
        keepdims: Whether to keep the reduced axes with length 1.
        name: A name for the operation (optional).
    """
    with name_scope(name or "reduce_std"):
        return sqrt(reduce_variance(input_tensor, axis, keepdims))


@dispatch.add_dispatch_support
def count_nonzero(input_tensor: TensorLike | None = None, axis: AxisLike = None,
                  keepdims: bool | None = None, dtype: DTypeLike = dtypes.int64,
                  name: str | None = None, reduction_indices: AxisLike = None,
                  keep_dims: bool | None = None, input: TensorLike | None = None) -> Any:
    """The number of non-zero elements over ``axis`` (all axes if None), as ``dtype``.

    Args:
        input_tensor: The tensor whose nonzero elements to count.
        axis: The axis or axes to reduce; all of them when None.
        keepdims: Whether to keep the reduced axes with length 1.
        dtype: The dtype of the count.
        name: A name for the operation (optional).
        reduction_indices: TF1's name for ``axis``.
        keep_dims: TF1's name for ``keepdims``.
        input: TensorFlow 2's name for ``input_tensor``.
    """
    if input is not None:
        if input_tensor is not None:
            raise ValueError("Cannot specify both 'input' and 'input_tensor'.")
        input_tensor = input
    if reduction_indices is not None:
        if axis is not None:
            raise ValueError("Can not specify both 'axis' and 'reduction_indices'.")
        axis = reduction_indices
    keepdims = bool(keepdims if keep_dims is None else keep_dims)
    with name_scope(name, "count_nonzero", [input_tensor]):
        x = convert_to_tensor(_as_value(input_tensor), name="input_tensor")
        nonzero = cast(not_equal(x, np.zeros((), x.dtype.base_dtype.np)), dtypes.int64)
        return cast(reduce_sum(nonzero, axis, keepdims=keepdims), dtype)


# --------------------------------------------------------------------------------------
# argmax, argmin


def _arg_kernel(fn: Any, nan_as: float) -> Any:
    # TensorFlow's kernel compares with ">" ("<" for argmin) from the first entry, so a NaN
    # never wins: it counts as the worst value (index 0 where every entry is NaN).
    def kernel(x: Any, axis_in: Any = None, *, axis: Any = 0, output_type: Any) -> Any:
        a = axis if axis_in is None else int(axis_in)
        if x.ndim and not x.shape[a] and all(x.shape[:a] + x.shape[a + 1:]):
            raise InvalidArgumentError(None, None, "Reduction axis %d is empty in shape [%s]"
                                       % (a % x.ndim, ",".join(map(str, x.shape))))
        if x.dtype.kind in "fV":
            nan = np.isnan(x)
            if nan.any():
                x = np.where(nan, np.asarray(nan_as, x.dtype), x)
        return fn(x, axis=a).astype(output_type.np)
    return kernel


def _arg_infer(ins: list, attrs: dict) -> tuple:
    x, out = ins[0], attrs["output_type"]
    r = x.shape.rank
    if r is None:
        return out, TensorShape(None)
    if len(ins) > 1:
        return out, TensorShape([None] * (r - 1))
    dims = x.shape.as_list()
    del dims[attrs["axis"]]
    return out, TensorShape(dims)


register_op("ArgMax", _arg_kernel(np.argmax, -np.inf), _arg_infer, grad=_NO_GRADIENT,
            input_names=("input", "dimension"))
register_op("ArgMin", _arg_kernel(np.argmin, np.inf), _arg_infer, grad=_NO_GRADIENT,
            input_names=("input", "dimension"))


def _arg(op_type: str, input: Any, axis: Any, name: str | None, dimension: Any,
         output_type: Any) -> Any:
    if dimension is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'dimension'")
        axis = dimension
    out = dtypes.as_dtype(output_type)
    if out not in (dtypes.int32, dtypes.int64):
        raise TypeError("Value passed to parameter 'output_type' has DataType %s not in list "
                        "of allowed values: int32, int64 (op %s)" % (out.name, op_type))
    x = convert_to_tensor(_as_value(input))
    _check_kind(op_type, "input", x.dtype.base_dtype, _REAL + _BOOL)
    if is_tensor(axis):
        c = constant_value(axis)
        if c is None:
            return apply_op(op_type, (x, axis), {"axis": None, "output_type": out}, name=name)
        axis = c
    axis = 0 if axis is None else axis
    if np.ndim(axis) != 0:
        raise ValueError("%s: the axis must be a scalar, got %r" % (op_type, axis))
    a, r = int(axis), x.shape.rank
    if r is not None:
        if not -r <= a < r:
            raise argument_error("Expected dimension in the range [%d, %d), but got %d %s"
                                 % (-r, r, a, "[Op:%s]" % op_type if executing_eagerly() else
                                    "(in %s of %s)" % (op_type, getattr(x, "name", "a tensor"))))
        a %= r
    return apply_op(op_type, (x,), {"axis": a, "output_type": out}, name=name)


def argmax(input: TensorLike, axis: AxisLike = None, name: str | None = None,
           dimension: AxisLike = None, output_type: DTypeLike = dtypes.int64) -> Any:
    """Returns the index of the largest value along an axis, as TF1's ``tf.argmax``.

    Args:
        input: A numeric tensor.
        axis: The axis to reduce; 0 if None.
        name: A name for the operation.
        dimension: TensorFlow 1's name for ``axis``.
        output_type: ``tf.int32`` or ``tf.int64``, the type of the indices.

    Returns:
        A tensor of ``output_type`` with the ``axis`` dimension removed.
    """
    return _arg("ArgMax", input, axis, name, dimension, output_type)


def argmin(input: TensorLike, axis: AxisLike = None, name: str | None = None,
           dimension: AxisLike = None, output_type: DTypeLike = dtypes.int64) -> Any:
    """Index of the smallest value along ``axis`` (0 if None); TF1 signature.

    Args:
        input: A numeric tensor.
        axis: The axis to reduce; 0 when None.
        name: A name for the operation (optional).
        dimension: TF1's name for ``axis``.
        output_type: int32 or int64: the dtype of the indices.
    """
    return _arg("ArgMin", input, axis, name, dimension, output_type)


@dispatch.add_dispatch_support
def argmax_v2(input: TensorLike, axis: int | TensorLike | None = None,
              output_type: DTypeLike = dtypes.int64, name: str | None = None) -> TensorBase:
    """Index of the largest value along ``axis`` (0 if None); TF2 signature.

    Example:

        >>> print(tf.argmax(tf.constant([[1, 9, 3], [7, 2, 5]]), axis=1).numpy())
        [1 0]

    Args:
        input: A numeric tensor.
        axis: The axis to reduce; 0 when None.
        output_type: int32 or int64: the dtype of the indices.
        name: A name for the operation (optional).
    """
    return _arg("ArgMax", input, axis, name, None, output_type)


@dispatch.add_dispatch_support
def argmin_v2(input: TensorLike, axis: AxisLike = None, output_type: DTypeLike = dtypes.int64,
              name: str | None = None) -> Any:
    """Index of the smallest value along ``axis`` (0 if None); TF2 signature.

    Args:
        input: A numeric tensor.
        axis: The axis to reduce; 0 when None.
        output_type: int32 or int64: the dtype of the indices.
        name: A name for the operation (optional).
    """
    return _arg("ArgMin", input, axis, name, None, output_type)


def arg_max(input: TensorLike, dimension: AxisLike, output_type: DTypeLike = dtypes.int64,
            name: str | None = None) -> Any:
    """TF1's ``tf.arg_max``: the ArgMax op with its raw signature (``dimension`` required).

    Args:
      input: the tensor.
      dimension: the axis to reduce.
      output_type: int32 or int64.
      name: a name for the op.

    Returns:
      The indices of the largest values along ``dimension``.
    """
    return _arg("ArgMax", input, dimension, name, None, output_type)


def arg_min(input: TensorLike, dimension: AxisLike, output_type: DTypeLike = dtypes.int64,
            name: str | None = None) -> Any:
    """TF1's ``tf.arg_min``: the ArgMin op with its raw signature (``dimension`` required).

    Args:
      input: the tensor.
      dimension: the axis to reduce.
      output_type: int32 or int64.
      name: a name for the op.

    Returns:
      The indices of the smallest values along ``dimension``.
    """
    return _arg("ArgMin", input, dimension, name, None, output_type)


# --------------------------------------------------------------------------------------
# cumsum, cumprod


def _shift_in(out: np.ndarray, axis: int, fill: Any) -> np.ndarray:
    """``out`` moved one step along ``axis``, ``fill`` entering at the front."""
    res = np.empty_like(out)
    front = [slice(None)] * out.ndim
    rest, prev = list(front), list(front)
    front[axis], rest[axis], prev[axis] = slice(0, 1), slice(1, None), slice(0, -1)
    res[tuple(front)] = fill
    res[tuple(rest)] = out[tuple(prev)]
    return res


def _scan_kernel(ufunc: Any, identity: int) -> Any:
    def kernel(x: Any, axis_in: Any = None, *, axis: Any = 0, exclusive: bool = False,
               reverse: bool = False) -> Any:
        a = axis if axis_in is None else int(axis_in)
        if reverse:
            x = np.flip(x, a)
        out = ufunc.accumulate(x, axis=a, dtype=x.dtype)
        if exclusive:
            out = _shift_in(out, a, identity)
        return np.flip(out, a) if reverse else out
    return kernel


def _scan_axis(op: Any) -> Any:
    return op.inputs[1] if len(op.inputs) > 1 else op.get_attr("axis")


_SCAN = dict(infer=unary, input_names=("x", "axis"))


@defop("Cumsum", _scan_kernel(np.add, 0), **_SCAN, batching="axis")
def _cumsum_grad(op: Any, grad: Any) -> Any:
    g = cumsum(grad, _scan_axis(op), exclusive=op.get_attr("exclusive"),
               reverse=not op.get_attr("reverse"))
    return [g, None][:len(op.inputs)]


register_jvp("Cumsum", linear_in_first_jvp)


@defop("Cumprod", _scan_kernel(np.multiply, 1), **_SCAN, batching="axis")
def _cumprod_grad(op: Any, grad: Any) -> Any:
    # TensorFlow's formula: exact where x != 0 (div_no_nan gives 0 where x == 0).
    x, axis = op.inputs[0], _scan_axis(op)
    out = cumsum(multiply(op.outputs[0], grad), axis, exclusive=op.get_attr("exclusive"),
                 reverse=not op.get_attr("reverse"))
    return [div_no_nan(out, x), None][:len(op.inputs)]


def _scan(op_type: str, x: Any, axis: Any, exclusive: bool, reverse: bool,
          name: str | None, kinds: Any = _NUMERIC) -> Any:
    x = convert_to_tensor(_as_value(x))
    _check_kind(op_type, "x", x.dtype.base_dtype, kinds)
    attrs = {"exclusive": bool(exclusive), "reverse": bool(reverse)}
    if is_tensor(axis):
        c = constant_value(axis)
        if c is None:
            return apply_op(op_type, (x, axis), dict(attrs, axis=None), name=name)
        axis = c
    if np.ndim(axis) != 0:
        raise ValueError("%s: the axis must be a scalar, got %r" % (op_type, axis))
    a, r = int(axis), x.shape.rank
    if r is not None:
        if not -r <= a < r:
            raise argument_error("Expected scan axis in the range [%d, %d), but got %d (in %s "
                                 "of %s)" % (-r, r, a, op_type, getattr(x, "name", "a tensor")))
        a %= r
    return apply_op(op_type, (x,), dict(attrs, axis=a), name=name)


@dispatch.add_dispatch_support
def cumsum(x: TensorLike, axis: AxisLike = 0, exclusive: bool = False, reverse: bool = False,
           name: str | None = None) -> Any:
    """Running sums along ``axis`` (``exclusive``: leave out the current element;
    ``reverse``: from the end).

    Args:
        x: A numeric tensor.
        axis: The axis to accumulate along.
        exclusive: Whether each output leaves out its own element.
        reverse: Whether to accumulate from the end.
        name: A name for the operation (optional).
    """
    return _scan("Cumsum", x, axis, exclusive, reverse, name)


@dispatch.add_dispatch_support
def cumprod(x: TensorLike, axis: AxisLike = 0, exclusive: bool = False, reverse: bool = False,
            name: str | None = None) -> Any:
    """Running products along ``axis`` (``exclusive``, ``reverse`` as in ``cumsum``).

    Args:
        x: A numeric tensor.
        axis: The axis to accumulate along.
        exclusive: Whether each output leaves out its own element.
        reverse: Whether to accumulate from the end.
        name: A name for the operation (optional).
    """
    return _scan("Cumprod", x, axis, exclusive, reverse, name)
