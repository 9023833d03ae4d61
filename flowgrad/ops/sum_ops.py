"""reduce_sum and sum_to (the sum that undoes broadcasting in every elementwise gradient),
with the machinery all reductions share: the reduced axes (an ``axis`` attr or an axes
input), kept-dims shapes and the gradient broadcast back to the input's shape.

The other reductions live in ``reduction_ops``: their gradients use arithmetic, whose
gradients use this module."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes, errors, hooks
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import _NO_GRADIENT, defop, register_jvp, register_op
from flowgrad.framework.shape_rules import constant_value, normalize_axis, reduced_shape, unary
from flowgrad.framework.tensor import EagerTensor, convert_to_tensor, is_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.framework.type_hints import AxisLike, TensorLike
from flowgrad.framework.tensor import TensorBase
from flowgrad.framework import dispatch
from flowgrad.ops.array_ops import (_as_value, broadcast_to, linear_in_first_jvp, reshape, shape,
                                    static_shape)
from flowgrad.ops.broadcast_grad_ops import broadcast_to_shape_of, reduce_to_shape_of
from flowgrad.ops.math_helpers import _NUMERIC, _check_kind


def _reduce_infer(ins: list, attrs: dict) -> tuple:
    x = ins[0]
    if len(ins) > 1:
        return x.dtype.base_dtype, (TensorShape(None) if not attrs["keepdims"] or
                                    x.shape.rank is None else TensorShape([None] * x.shape.rank))
    return x.dtype.base_dtype, reduced_shape(x.shape, attrs["axis"], attrs["keepdims"])


def _axes(x: Any, axis: Any, axes_in: Any) -> Any:
    """The axes a reduction kernel reduces: the ``axis`` attr (sorted, non-negative unless
    the rank was unknown when the graph was built) or the ``axes_in`` values; negative and
    repeated axes are resolved against ``x``'s rank, as TensorFlow does."""
    if axes_in is None:
        if not axis or axis[0] >= 0:
            return axis
        axes = axis
    else:
        axes = np.ravel(axes_in)
    r = np.ndim(x)
    out = set()
    for a in axes:
        a = int(a)
        if not -r <= a < max(r, 1):
            raise errors.InvalidArgumentError(None, None, "Invalid reduction dimension (%d for "
                                              "input with %d dimension(s)" % (a, r))
        if (a % r if r else 0) in out:
            raise errors.InvalidArgumentError(None, None, "Invalid reduction arguments: Axes "
                                              "contains duplicate dimension: %d" % (a % r))
        out.add(a % r if r else 0)
    return tuple(sorted(out))


def _sum_kernel(x: Any, axes_in: Any = None, *, axis: Any = None, keepdims: bool = False) -> Any:
    dt = x.dtype
    if dt.kind in "iu":
        return np.sum(x, axis=_axes(x, axis, axes_in), keepdims=keepdims, dtype=dt)
    return np.add.reduce(x, axis=_axes(x, axis, axes_in), keepdims=keepdims)


def _reduce_specialize(kernel: Any) -> Any:
    def specialize(attrs: dict) -> Any:
        axis, keepdims = attrs["axis"], attrs["keepdims"]
        return lambda x, axes_in=None: kernel(x, axes_in, axis=axis, keepdims=keepdims)
    return specialize


def _grad_to_input_shape(op: Any, grad: Any) -> Any:
    """Broadcasts a reduction's gradient back to the input's shape."""
    x = op.inputs[0]
    keepdims, axis = op.get_attr("keepdims"), op.get_attr("axis")
    if type(x) is EagerTensor and len(op.inputs) == 1:    # eager: every shape is known
        xs = x._value.shape
        if not keepdims and (axis is None or axis == tuple(range(len(axis)))):
            g = grad        # only leading axes were reduced: broadcasting restores them
        else:
            kept = tuple(1 if axis is None or i in axis else d for i, d in enumerate(xs))
            g = grad
            if not keepdims and grad.shape.as_tuple() != kept:
                g = apply_op("Reshape", [grad], {"shape": kept})
        return g if g.shape.as_tuple() == xs else apply_op("BroadcastTo", [g], {"shape": xs})
    xs = static_shape(x)
    if len(op.inputs) == 1 and xs is not None:
        kept = reduced_shape(x.shape, axis, True).as_tuple()
        g = grad if keepdims or grad.shape.as_tuple() == kept else reshape(grad, kept)
        return g if kept == xs else broadcast_to(g, xs)
    if len(op.inputs) == 1:
        return broadcast_to_shape_of(grad, x, None if keepdims or axis is None else axis)
    sx = shape(x)
    if not keepdims:
        kept = apply_op("ReducedShape", [sx, op.inputs[1]], {"axis": axis}, dtype=dtypes.int32)
        grad = reshape(grad, kept)
    return broadcast_to(grad, sx)


def _reduced_shape_kernel(s: Any, axes_in: Any = None, *, axis: Any = None) -> Any:
    out = np.array(s, copy=True)
    a = axis if axes_in is None else np.ravel(axes_in)     # negative or repeated: fine here
    if a is None:
        out[:] = 1
    elif len(out):
        out[np.asarray(a, dtype=np.intp) % len(out)] = 1
    return out


register_op("ReducedShape", _reduced_shape_kernel, unary, grad=_NO_GRADIENT,
            input_names=("input_shape", "axes"))


@defop("Sum", _sum_kernel, _reduce_infer, specialize=_reduce_specialize(_sum_kernel),
       fresh_output=True, input_names=("input", "reduction_indices"), batching="reduction")
def _sum_grad(op: Any, grad: Any) -> Any:
    return [_grad_to_input_shape(op, grad), None][:len(op.inputs)]


register_jvp("Sum", linear_in_first_jvp)


def _reduce(op_type: str, input_tensor: Any, axis: Any, keepdims: Any, name: str | None,
            reduction_indices: Any = None, keep_dims: Any = None,
            kinds: str = _NUMERIC) -> Any:
    if reduction_indices is not None:
        if axis is not None:
            raise ValueError("Can not specify both 'axis' and 'reduction_indices'.")
        axis = reduction_indices
    if keep_dims is not None:
        keepdims = keep_dims
    keepdims = bool(keepdims)
    if type(input_tensor) is EagerTensor:
        x, dt, rank = input_tensor, input_tensor._dtype, input_tensor._value.ndim
    else:
        x = convert_to_tensor(_as_value(input_tensor))
        dt, rank = x.dtype.base_dtype, x.shape.rank
    if dt.kind not in kinds:
        _check_kind(op_type, "input", dt, kinds)
    if axis is not None and is_tensor(axis):
        c = constant_value(axis)
        if c is None:
            return apply_op(op_type, (x, axis), {"axis": None, "keepdims": keepdims},
                            name=name, dtype=dtypes.int32)
        axis = c
    if axis is not None and np.ndim(axis) > 1 and not executing_eagerly():
        dims = "[%s]" % ",".join("?" if d is None else str(d) for d in x.shape.as_list()) \
            if x.shape.rank is not None else "?"
        raise ValueError("Shape must be at most rank 1 but is rank %d for '%s' (op: '%s') with "
                         "input shapes: %s, [%s]." % (np.ndim(axis), name or op_type, op_type,
                                                      dims, ",".join(map(str, np.shape(axis)))))
    if rank and axis is not None and np.size(axis) > 1:
        # repeated axes: TensorFlow's kernel refuses them when it runs, so they go to the
        # kernel as an input (with an unknown rank, the kernel checks the axis attr)
        flat = [int(a) % rank for a in np.ravel(axis) if -rank <= int(a) < rank]
        if len(set(flat)) < len(flat):
            return apply_op(op_type, (x, convert_to_tensor(np.ravel(axis), dtypes.int32)),
                            {"axis": None, "keepdims": keepdims}, name=name)
    try:
        ax = normalize_axis(axis, rank)
    except ValueError as e:
        if executing_eagerly():     # the kernel's message, as TensorFlow's eager op
            raise errors.EAGER_ERROR_CLASSES[ValueError](None, None, "%s [Op:%s]" % (
                getattr(e, "kernel_message", e), op_type)) from None
        raise ValueError("%s (in %s of %s)" % (e, op_type, getattr(x, "name", "a tensor"))) \
            from None
    return apply_op(op_type, (x,), {"axis": ax, "keepdims": keepdims}, name=name)


@dispatch.add_dispatch_support
def reduce_sum(input_tensor: TensorLike, axis: AxisLike = None, keepdims: bool = False,
               name: str | None = None, reduction_indices: AxisLike = None,
               keep_dims: bool | None = None) -> TensorBase:
    """Computes the sum of elements across dimensions of a tensor, as ``tf.reduce_sum``.

    Example:

        >>> x = tf.constant([[1, 1, 1], [1, 1, 1]])
        >>> print(tf.reduce_sum(x).numpy())
        6
        >>> print(tf.reduce_sum(x, 0).numpy())
        [2 2 2]
        >>> print(tf.reduce_sum(x, 1, keepdims=True).numpy())
        [[3]
         [3]]

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
    return _reduce("Sum", input_tensor, axis, keepdims, name, reduction_indices, keep_dims)


def sum_to(grad: TensorLike, x: TensorLike) -> Any:
    """Sums ``grad`` over the axes along which ``x`` was broadcast, giving x's shape.

    Args:
        grad: The gradient, of the broadcast result's shape.
        x: The input that was broadcast.

    Returns:
        ``grad`` summed to ``x``'s shape.
    """
    if type(grad) is EagerTensor and type(x) is EagerTensor:
        gs, xs = grad._value.shape, x._value.shape
    else:
        gs, xs = grad.shape.as_tuple(), x.shape.as_tuple()
    if gs == xs and gs is not None and None not in gs:
        return grad
    if gs is not None and xs is not None and None not in xs:
        lead = len(gs) - len(xs)
        axes = list(range(lead)) + [lead + i for i, d in enumerate(xs)
                                    if d == 1 and gs[lead + i] != 1]
        r = reduce_sum(grad, tuple(axes)) if axes else grad
        return r if r.shape.as_tuple() == xs else reshape(r, xs)
    return reduce_to_shape_of(grad, x)


hooks.register(reduce_sum=reduce_sum, sum_to=sum_to)     # for the array families below
