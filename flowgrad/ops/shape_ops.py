"""Shape ops: shape, size, rank, reshape, broadcast_to, expand_dims, squeeze,
stack/unstack (add or remove an axis), transpose, invert_permutation, reverse."""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from flowgrad.framework import dtypes, hooks
from flowgrad.framework.errors import InvalidArgumentError, ShapeRuleError, dims_text
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import _NO_GRADIENT, defop, register_jvp, register_op
from flowgrad.framework.shape_rules import shape_from_value, unary
from flowgrad.framework.tensor import convert_to_tensor, is_tensor
from flowgrad.framework.tensor_shape import TensorShape, broadcast_shapes
from flowgrad.framework.type_hints import ShapeLike, TensorLike
from flowgrad.framework.tensor import TensorBase
from flowgrad.ops.array_op_util import (_as_value, _fmt, _int_tensor, _invalid, _known_ints,
                                        _known_scalar, _static_int_list, _vector_length,
                                        _with_nones, linear_in_first_jvp, static_shape)
from flowgrad.ops.fill_ops import linear_in_all_jvp, range, zeros_like
from flowgrad.framework.type_hints import AxisLike, DTypeLike
from flowgrad.framework import dispatch


# --------------------------------------------------------------------------------------
# Helpers used by gradient functions across op families


def shape_of(x: TensorLike) -> Any:
    """``x``'s shape: a tuple when statically known, else a Shape tensor.

    Args:
        x: A tensor.
    """
    s = static_shape(x)
    return s if s is not None else shape(x)


# --------------------------------------------------------------------------------------
# JVP helpers that build shape ops (the others are in array_op_util)


def _to_out_shape(t: Any, out: Any) -> Any:
    """``t`` broadcast to the shape of ``out`` (a no-op where the shapes already agree)."""
    ts, os_ = t.shape.as_tuple(), out.shape.as_tuple()
    if ts is not None and ts == os_ and None not in ts:
        return t
    return broadcast_to(t, shape_of(out))


def sum_tangents(out: Any, parts: list) -> Any:
    """The sum of the tangent ``parts`` (None: zero) in the shape of ``out``; None if all are.

    Args:
        out: The tensor whose shape the sum takes.
        parts: The tangents to add (None for zero).
    """
    parts = [p for p in parts if p is not None]
    if not parts:
        return None
    total = parts[0]
    for p in parts[1:]:
        total = total + p
    return _to_out_shape(total, out)


# --------------------------------------------------------------------------------------
# Shapes


def _int_out(ins: list, attrs: dict) -> dtypes.DType:
    return dtypes.as_dtype(attrs.get("out_type", dtypes.int32))


def _static_shape(op: Any) -> Any:
    """Shape's value when its input's static shape is fully known, else None."""
    s = op.inputs[0].shape
    return np.array(s.as_list(), op.outputs[0].dtype.np) if s.is_fully_defined() else None


def _static_size(op: Any) -> Any:
    s = op.inputs[0].shape
    return op.outputs[0].dtype.np.type(s.num_elements()) if s.is_fully_defined() else None


def _static_rank(op: Any) -> Any:
    if op.inputs[0].op._def.variable:
        return None     # the rank of a variable's ref reads it (tf.assert_variables_initialized)
    r = op.inputs[0].shape.rank
    return None if r is None else np.int32(r)


register_op("Shape", lambda x, out_type=dtypes.int32: np.array(np.shape(x), out_type.np),
            lambda ins, attrs: (_int_out(ins, attrs), TensorShape([ins[0].shape.rank])),
            grad=_NO_GRADIENT, input_names=("input",), static_value=_static_shape, batching="shape",
            shape_only=(0,))


register_op("Size", lambda x, out_type=dtypes.int32: out_type.np.type(np.size(x)),
            lambda ins, attrs: (_int_out(ins, attrs), TensorShape(())), grad=_NO_GRADIENT,
            input_names=("input",), static_value=_static_size, batching="shape", shape_only=(0,))


register_op("Rank", lambda x: np.int32(np.ndim(x)),
            lambda ins, attrs: (dtypes.int32, TensorShape(())), grad=_NO_GRADIENT,
            input_names=("input",), static_value=_static_rank, batching="shape")


@dispatch.add_dispatch_support
def shape(input: TensorLike, name: str | None = None, out_type: DTypeLike = dtypes.int32) -> Any:
    """The shape of ``input`` as a 1-D integer tensor.

    Args:
        input: A tensor (or a SparseTensor).
        name: A name for the operation (optional).
        out_type: int32 or int64.
    """
    if type(input).__name__ == "SparseTensor":      # its dense_shape, as TensorFlow's
        # the Cast op itself: cast_ops sits above this module (tests/test_ops_split.py)
        return apply_op("Cast", (input.dense_shape,), {"DstT": dtypes.as_dtype(out_type)},
                        name=name)
    return apply_op("Shape", [_as_value(input)], {"out_type": dtypes.as_dtype(out_type)},
                    name=name)


@dispatch.add_dispatch_support
def size(input: TensorLike, name: str | None = None, out_type: DTypeLike = dtypes.int32) -> Any:
    """The number of elements of ``input``.

    Args:
        input: A tensor (or a SparseTensor).
        name: A name for the operation (optional).
        out_type: int32 or int64.
    """
    if type(input).__name__ == "SparseTensor":      # its dense shape's product, as TF's
        dense_shape = apply_op("Cast", (input.dense_shape,),
                               {"DstT": dtypes.as_dtype(out_type)})
        return apply_op("Prod", (dense_shape,), {"axis": (0,), "keepdims": False}, name=name)
    return apply_op("Size", [_as_value(input)], {"out_type": dtypes.as_dtype(out_type)},
                    name=name)


@dispatch.add_dispatch_support
def rank(input: TensorLike, name: str | None = None) -> Any:
    """The number of dimensions of ``input``.

    Args:
        input: A tensor.
        name: A name for the operation (optional).
    """
    return apply_op("Rank", [_as_value(input)], name=name)


def _broadcast_gradient_args(s0: Any, s1: Any) -> tuple:
    n = max(len(s0), len(s1))
    a = [1] * (n - len(s0)) + list(s0)
    b = [1] * (n - len(s1)) + list(s1)
    r0 = [i for i in builtins.range(n) if a[i] == 1 and b[i] != 1 or i < n - len(s0)]
    r1 = [i for i in builtins.range(n) if b[i] == 1 and a[i] != 1 or i < n - len(s1)]
    return np.array(r0, np.int32), np.array(r1, np.int32)


register_op("BroadcastGradientArgs", _broadcast_gradient_args,
            lambda ins, attrs: [(dtypes.int32, TensorShape([None]))] * 2, num_outputs=2,
            grad=_NO_GRADIENT, input_names=("s0", "s1"))


def broadcast_gradient_args(s0: TensorLike, s1: TensorLike, name: str | None = None) -> list:
    """The axes to reduce the gradient over for each of two broadcast shapes.

    Args:
        s0: The first shape (a 1-D int32 tensor).
        s1: The second shape (a 1-D int32 tensor).
        name: A name for the operation (optional).
    """
    return apply_op("BroadcastGradientArgs", [s0, s1], name=name, dtype=dtypes.int32)


# --------------------------------------------------------------------------------------
# reshape, broadcast_to


def _empty_target(in_shape: Any, dims: Any) -> tuple:
    """TensorFlow's -1 for an input with no elements: the product of the input's non-zero
    dimensions over that of the target's known non-zero ones (``[0, 3]`` to ``[-1, 0]``
    gives ``[3, 0]``), where NumPy finds it ambiguous."""
    dims = [int(d) for d in dims]
    have = int(np.prod([d for d in in_shape if d]))
    known = int(np.prod([d for d in dims if d not in (0, -1)]))
    dims[dims.index(-1)] = have // known if known else 0
    return tuple(dims)


def _reshape_kernel(x: Any, shape_in: Any = None, *, shape: Any = None) -> Any:
    target = shape if shape_in is None else tuple(shape_in)
    if np.size(x) == 0 and -1 in target and 0 in target:
        target = _empty_target(np.shape(x), target)
    if target and min(target) < -1:         # NumPy takes any negative size for -1
        raise ValueError("negative size")   # the shape rule words the error
    return np.reshape(x, target)


def _reshape_infer(ins: list, attrs: dict) -> tuple:
    x = ins[0]
    target = None if "shape" in attrs else shape_from_value(ins[1])
    if "shape" in attrs:
        dims = list(attrs["shape"])
        n = x.shape.num_elements()
        unknown = [i for i, d in enumerate(dims) if d == -1]
        if len(unknown) > 1:
            raise ShapeRuleError("Only one input size may be -1, not both %d and %d"
                                 % tuple(unknown[:2]))
        for i, d in enumerate(dims):
            if d < -1:
                raise ShapeRuleError("Size %d must be non-negative, not %d" % (i, d))
        if -1 in dims:
            known = int(np.prod([d for d in dims if d != -1]))
            if n == 0 and 0 in dims:
                dims = list(_empty_target(x.shape.as_list(), dims))
            elif n is not None:
                if known == 0 or n % known:
                    raise ShapeRuleError(
                        "Cannot reshape a tensor with %d elements to shape %s" % (n, dims),
                        "Input to reshape is a tensor with %d values, but the requested shape "
                        "requires a multiple of %d" % (n, known))
                dims[dims.index(-1)] = n // known
            else:
                dims[dims.index(-1)] = None
        elif n is not None and n != int(np.prod(dims)):
            raise ShapeRuleError(
                "Cannot reshape a tensor with %d elements to shape %s (%d elements)"
                % (n, dims, int(np.prod(dims))),
                "Input to reshape is a tensor with %d values, but the requested shape has %d"
                % (n, int(np.prod(dims))))
        target = TensorShape(dims)
    return x.dtype.base_dtype, target


@defop("Reshape", _reshape_kernel, _reshape_infer, view=True, input_names=("tensor", "shape"))
def _reshape_grad(op: Any, grad: Any) -> Any:
    return [reshape(grad, shape_of(op.inputs[0])), None][:len(op.inputs)]


register_jvp("Reshape", linear_in_first_jvp)


@dispatch.add_dispatch_support
def reshape(tensor: TensorLike, shape: ShapeLike | TensorLike,
            name: str | None = None) -> TensorBase:
    """Reshapes a tensor, as ``tf.reshape``: the same elements, in row-major order.

    Example:

        >>> t = tf.constant([1, 2, 3, 4, 5, 6])
        >>> print(tf.reshape(t, [2, -1]).numpy())
        [[1 2 3]
         [4 5 6]]

    Args:
        tensor: The tensor to reshape.
        shape: The new shape (a list or 1-D int tensor); one dimension may be -1, inferred
            from the number of elements.
        name: A name for the operation.

    Returns:
        A tensor of ``tensor``'s dtype with shape ``shape``.

    Raises:
        InvalidArgumentError: the number of elements does not fit ``shape``.
    """
    tensor = _as_value(tensor)
    static = _static_int_list(shape)
    if static is not None:
        return apply_op("Reshape", [tensor], {"shape": tuple(static)}, name=name)
    return apply_op("Reshape", [tensor, shape], name=name, dtype=dtypes.int32)


def _broadcast_to_kernel(x: Any, shape_in: Any = None, *, shape: Any = None) -> Any:
    out = np.empty(shape if shape_in is None else tuple(shape_in), np.result_type(x))
    try:
        out[...] = x
    except ValueError:
        shapes = dims_text(list(np.shape(x))), dims_text(list(out.shape))
        try:        # TF's kernel: shapes that do not broadcast at all, else a wrong result
            np.broadcast_shapes(np.shape(x), out.shape)
        except ValueError:
            raise InvalidArgumentError(None, None, "Incompatible shapes: %s vs. %s"
                                       % shapes) from None
        raise InvalidArgumentError(None, None, "Unable to broadcast tensor of shape %s to "
                                   "tensor of shape %s" % shapes) from None
    return out


def _broadcast_to_infer(ins: list, attrs: dict) -> tuple:
    target = TensorShape(attrs["shape"]) if "shape" in attrs else shape_from_value(ins[1])
    broadcast_shapes(ins[0].shape, target)
    return ins[0].dtype.base_dtype, target


@defop("BroadcastTo", _broadcast_to_kernel, _broadcast_to_infer,
       input_names=("input", "shape"))
def _broadcast_to_grad(op: Any, grad: Any) -> Any:
    return [hooks.sum_to(grad, op.inputs[0]), None][:len(op.inputs)]


register_jvp("BroadcastTo", linear_in_first_jvp)


@dispatch.add_dispatch_support
def broadcast_to(input: TensorLike, shape: ShapeLike | TensorLike, name: str | None = None) -> Any:
    """``input`` broadcast to ``shape`` (NumPy rules).

    Args:
        input: The tensor to broadcast.
        shape: The target shape (a 1-D int tensor or a list).
        name: A name for the operation (optional).
    """
    input = _as_value(input)
    static = _static_int_list(shape)
    if static is not None:
        return apply_op("BroadcastTo", [input], {"shape": tuple(static)}, name=name)
    if not isinstance(shape, TensorBase) or shape.dtype.base_dtype not in (dtypes.int32,
                                                                            dtypes.int64):
        shape = convert_to_tensor(shape, dtypes.int32)
    return apply_op("BroadcastTo", [input, shape], name=name)


# --------------------------------------------------------------------------------------
# Stacking (used by convert_to_tensor for lists of tensors)


def _pack_infer(ins: list, attrs: dict) -> tuple:
    axis = attrs["axis"]
    s = ins[0].shape
    for i, x in enumerate(ins[1:], 1):
        try:
            s = s.merge_with(x.shape)
        except ValueError as e:
            raise ShapeRuleError(str(e), "Shapes of all inputs must match: values[0].shape = %s "
                                 "!= values[%d].shape = %s" % (dims_text(ins[0].shape.as_list()),
                                                                i, dims_text(x.shape.as_list()))
                                 ) from None
    if s.rank is None:
        return ins[0].dtype.base_dtype, TensorShape(None)
    dims = s.as_list()
    a = axis if axis >= 0 else axis + len(dims) + 1
    if not 0 <= a <= len(dims):
        raise ValueError("axis %d out of range for stacking tensors of rank %d" % (axis, len(dims)))
    return ins[0].dtype.base_dtype, TensorShape(dims[:a] + [len(ins)] + dims[a:])


@defop("Pack", lambda *xs, axis=0: np.stack(xs, axis=axis), _pack_infer, same_dtype=True,
       input_names=("values",))
def _pack_grad(op: Any, grad: Any) -> Any:
    return unstack(grad, num=len(op.inputs), axis=op.get_attr("axis"))


register_jvp("Pack", linear_in_all_jvp)


@dispatch.add_dispatch_support
def stack(values: list, axis: int = 0, name: str = "stack") -> Any:
    """Stacks tensors of one shape along a new axis.

    Args:
        values: A list of tensors of the same shape and dtype.
        axis: Where the new axis goes (negative counts from the end).
        name: A name for the operation (optional).
    """
    values = [_as_value(v) for v in values]
    dt = next((v.dtype.base_dtype for v in values if is_tensor(v)), None)
    first = values[0] if values else None
    rank = first.shape.rank if is_tensor(first) else np.ndim(first) if values else None
    if rank is not None and not -rank - 1 <= int(axis) < rank + 1:
        # TensorFlow's stack checks the axis before it makes the op
        raise ValueError("Argument `axis` = %d not in range [%d, %d)" % (int(axis), -rank - 1,
                                                                        rank + 1))
    return apply_op("Pack", values, {"axis": int(axis)}, name=name, dtype=dt)


def _unpack_infer(ins: list, attrs: dict) -> list:
    s = ins[0].shape
    axis = attrs["axis"]
    dt = ins[0].dtype.base_dtype
    if s.rank is None:
        return [(dt, TensorShape(None))] * attrs["num"]
    dims = s.as_list()
    if dims[axis] is not None and dims[axis] != attrs["num"]:
        raise ShapeRuleError("Dimension must be %d but is %d for 'Unpack' with input shapes: %s."
                             % (attrs["num"], dims[axis], dims_text(dims)),
                             "Input shape axis %d must equal %d, got shape %s"
                             % (axis, attrs["num"], dims_text(dims)))
    del dims[axis]
    return [(dt, TensorShape(dims))] * attrs["num"]


def _unpack_kernel(x: Any, *, num: int, axis: int) -> Any:
    parts = tuple(np.moveaxis(np.asarray(x), axis, 0))
    if len(parts) != num:                   # the shape rule words the error
        raise ValueError("Unpack of %d parts into %d" % (len(parts), num))
    return parts[0] if num == 1 else parts


@defop("Unpack", _unpack_kernel, _unpack_infer, num_outputs=lambda attrs: attrs["num"],
       input_names=("value",), batching="axis")
def _unpack_grad(op: Any, *grads: Any) -> Any:
    grads = [g if g is not None else zeros_like(o) for g, o in zip(grads, op.outputs)]
    return stack(grads, axis=op.get_attr("axis"))


@dispatch.add_dispatch_support
def unstack(value: TensorLike, num: int | None = None, axis: int = 0,
            name: str = "unstack") -> list:
    """Splits ``value`` along ``axis`` into a list of tensors.

    Args:
        value: A tensor of rank 1 or more.
        num: The length of ``axis``; inferred from the static shape when None.
        axis: The axis to unstack along.
        name: A name for the operation (optional).
    """
    value = convert_to_tensor(_as_value(value))
    r = value.shape.rank
    if r is None:
        if num is None:
            raise ValueError("Cannot infer argument `num` from shape <unknown>")
        return _unstack_list(apply_op("Unpack", [value], {"num": int(num), "axis": axis},
                                      name=name), num)
    if not -r <= axis < r:
        raise ValueError("Argument `axis` = %d not in range [%d, %d) (unstack of %s)"
                         % (axis, -r, r, getattr(value, "name", "a tensor")))
    a = axis % r
    if num is None:
        num = value.shape.as_tuple()[a]
        if num is None:
            raise ValueError("Cannot infer argument `num` from shape %s" % value.shape)
    return _unstack_list(apply_op("Unpack", [value], {"num": int(num), "axis": a}, name=name),
                         num)


def _unstack_list(out: Any, num: int) -> list:
    """Unpack's outputs as a list (an op with no outputs, num == 0, gives [])."""
    return [] if num == 0 else [out] if num == 1 else list(out)


# --------------------------------------------------------------------------------------
# expand_dims, squeeze


def _expand_dims_kernel(x: Any, dim_in: Any = None, *, axis: int | None = None) -> Any:
    a = axis if dim_in is None else int(np.ravel(dim_in)[0])
    if type(x) is np.ndarray and -x.ndim - 1 <= a <= x.ndim:
        a += x.ndim + 1 if a < 0 else 0     # np.expand_dims's view, without its overhead
        return x.reshape(x.shape[:a] + (1,) + x.shape[a:])
    return np.expand_dims(x, a)


def _expand_dims_infer(ins: list, attrs: dict) -> tuple:
    dt, dims, axis = ins[0].dtype.base_dtype, ins[0].shape.as_tuple(), attrs["axis"]
    if dims is None:
        return dt, TensorShape(None)
    r = len(dims)
    if axis is None:
        return dt, TensorShape([None] * (r + 1))
    if not -r - 1 <= axis <= r:
        raise ValueError("Tried to expand dim index %d for tensor with %d dimensions."
                         % (axis, r))
    a = axis % (r + 1)
    return dt, TensorShape(dims[:a] + (1,) + dims[a:])


@defop("ExpandDims", _expand_dims_kernel, _expand_dims_infer, view=True,
       input_names=("input", "dim"))
def _expand_dims_grad(op: Any, grad: Any) -> Any:
    return _with_nones(reshape(grad, shape_of(op.inputs[0])), op)


register_jvp("ExpandDims", linear_in_first_jvp)


@dispatch.add_dispatch_support
def expand_dims(input: TensorLike, axis: AxisLike = None, name: str | None = None,
                dim: AxisLike = None) -> Any:
    """``input`` with a new dimension of size 1 inserted at ``axis`` (TF1 alias: ``dim``).

    Args:
        input: A tensor.
        axis: Where the new axis goes (negative counts from the end).
        name: A name for the operation (optional).
        dim: TF1's name for ``axis``.
    """
    if dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'dim'")
        axis = dim
    if axis is None:
        raise ValueError("Must specify an axis argument to tf.expand_dims()")
    x = _as_value(input)
    a = _known_scalar(axis, "expand_dims axis")
    if a is not None:
        return apply_op("ExpandDims", [x], {"axis": a}, name=name)
    return apply_op("ExpandDims", [x, _int_tensor(axis)], {"axis": None}, name=name)


def _squeeze_kernel(x: Any, *, squeeze_dims: tuple) -> Any:
    if not squeeze_dims:
        return np.squeeze(x)
    shape = np.shape(x)
    for a in squeeze_dims:
        if shape[a] != 1:
            raise _invalid("Can not squeeze dim[%d], expected a dimension of 1, got %d"
                           % (a % len(shape), shape[a]))
    return np.squeeze(x, axis=squeeze_dims)


def _squeeze_infer(ins: list, attrs: dict) -> tuple:
    dt, dims, axes = ins[0].dtype.base_dtype, ins[0].shape.as_tuple(), attrs["squeeze_dims"]
    if dims is None:
        return dt, TensorShape(None)
    r = len(dims)
    if not axes:
        return dt, TensorShape(None if None in dims else [d for d in dims if d != 1])
    drop = set()
    for a in axes:
        if not -r <= a < r:
            raise ValueError("Tried to squeeze dim index %d for tensor with %d dimensions."
                             % (a, r))
        if dims[a] is not None and dims[a] != 1:
            raise ValueError("Can not squeeze dim[%d], expected a dimension of 1, got %d"
                             % (a % r, dims[a]))
        drop.add(a % r)
    return dt, TensorShape([d for i, d in enumerate(dims) if i not in drop])


@defop("Squeeze", _squeeze_kernel, _squeeze_infer, view=True, input_names=("input",))
def _squeeze_grad(op: Any, grad: Any) -> Any:
    return reshape(grad, shape_of(op.inputs[0]))


register_jvp("Squeeze", linear_in_first_jvp)


@dispatch.add_dispatch_support
def squeeze(input: TensorLike, axis: AxisLike = None, name: str | None = None,
            squeeze_dims: Any = None) -> Any:
    """``input`` without its size-1 dimensions (only those in ``axis`` if given).

    Args:
        input: A tensor.
        axis: The axes of length 1 to remove; all of them when None.
        name: A name for the operation (optional).
        squeeze_dims: TF1's name for ``axis``.
    """
    if squeeze_dims is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'squeeze_dims' and 'axis'")
        axis = squeeze_dims
    axes = () if axis is None else _known_ints(axis, "squeeze axis")
    if axes is None:
        raise ValueError("squeeze: axis must be known when the graph is built, got %s" % (axis,))
    return apply_op("Squeeze", [_as_value(input)], {"squeeze_dims": tuple(axes)}, name=name)


# --------------------------------------------------------------------------------------
# transpose, invert_permutation


def _transpose_kernel(x: Any, perm_in: Any = None, *, perm: tuple | None = None) -> Any:
    return np.transpose(x, perm if perm_in is None else tuple(int(p) for p in perm_in))


def _transpose_infer(ins: list, attrs: dict) -> tuple:
    x, perm = ins[0], attrs["perm"]
    dt, dims = x.dtype.base_dtype, x.shape.as_tuple()
    n = len(perm) if perm is not None else _vector_length(ins[1])
    if dims is not None and n is not None and n != len(dims):
        raise ValueError("Dimension must be %d but is %d for transpose with input shapes: %s, "
                         "[%d] (perm %s)" % (len(dims), n, _fmt(x.shape), n,
                                             list(perm) if perm is not None else "?"))
    if perm is not None and n is not None:     # -1 is the last axis, as in TensorFlow
        perm = tuple(p + n if -n <= p < 0 else p for p in perm)
    if perm is not None and sorted(perm) != list(builtins.range(n)):
        bad = [p for p in perm if not 0 <= p < n]
        missing = [i for i in builtins.range(n) if i not in perm]
        raise ShapeRuleError("transpose: perm %s is not a permutation of the dimensions %s"
                             % (list(perm), list(builtins.range(n))),
                             "%d is out of range [0 .. %d)" % (bad[0], n) if bad else
                             "%d is missing from {%s}." % (missing[0],
                                                           ",".join(str(p) for p in perm)))
    if dims is None:
        return dt, TensorShape(None if n is None else [None] * n)
    if perm is None:
        return dt, TensorShape([None] * len(dims))
    return dt, TensorShape([dims[p] for p in perm])


@defop("Transpose", _transpose_kernel, _transpose_infer, view=True, input_names=("x", "perm"))
def _transpose_grad(op: Any, grad: Any) -> Any:
    return _with_nones(transpose(grad, _inverse_perm(op)), op)


register_jvp("Transpose", linear_in_first_jvp)


@defop("ConjugateTranspose", lambda x, perm_in=None, *, perm=None:
       np.conj(_transpose_kernel(x, perm_in, perm=perm)), _transpose_infer,
       input_names=("x", "perm"))
def _conjugate_transpose_grad(op: Any, grad: Any) -> Any:
    return _with_nones(transpose(grad, _inverse_perm(op), conjugate=True), op)


def _inverse_perm(op: Any) -> Any:
    perm = op.get_attr("perm")
    if perm is None:
        return invert_permutation(op.inputs[1])
    return [int(p) for p in np.argsort(perm)]


def transpose(a: TensorLike, perm: TensorLike | None = None, name: str = "transpose",
              conjugate: bool = False) -> Any:
    """``a`` with its dimensions permuted by ``perm`` (reversed by default).

    Args:
        a: A tensor.
        perm: The permutation of the axes; reversed when None.
        name: A name for the operation (optional).
        conjugate: Whether to conjugate as well (complex tensors).
    """
    a = convert_to_tensor(_as_value(a))
    op_type = "ConjugateTranspose" if conjugate and a.dtype.is_complex else "Transpose"
    if perm is None:
        r = a.shape.rank
        if r is not None:
            perm = list(builtins.range(r - 1, -1, -1))
        else:
            k = rank(a)
            perm = hooks.subtract(hooks.subtract(k, 1), range(0, k, 1))
    p = _known_ints(perm, "transpose perm")
    if p is not None:
        return apply_op(op_type, [a], {"perm": tuple(p)}, name=name)
    return apply_op(op_type, [a, _int_tensor(perm)], {"perm": None}, name=name)


def _invert_permutation_kernel(p: Any) -> Any:
    p = np.asarray(p)
    if p.ndim != 1 or not np.array_equal(np.sort(p), np.arange(p.size)):
        raise _invalid("%s is not a valid permutation of [0, %d)" % (p.tolist(), p.size))
    inv = np.empty_like(p)
    inv[p] = np.arange(p.size, dtype=p.dtype)
    return inv


register_op("InvertPermutation", _invert_permutation_kernel, unary, grad=_NO_GRADIENT,
            input_names=("x",))


def invert_permutation(x: TensorLike, name: str | None = None) -> Any:
    """The inverse permutation of the int vector ``x``: y[x[i]] = i.

    Args:
        x: A 1-D int32 or int64 tensor: a permutation of 0..n-1.
        name: A name for the operation (optional).
    """
    return apply_op("InvertPermutation", [_int_tensor(x)], name=name)


# --------------------------------------------------------------------------------------
# reverse


def _reverse_kernel(x: Any, axis_in: Any = None, *, axis: tuple | None = None) -> Any:
    return np.flip(x, axis if axis_in is None else tuple(int(a) for a in np.ravel(axis_in)))


def _reverse_infer(ins: list, attrs: dict) -> tuple:
    x, axis = ins[0], attrs.get("axis")      # absent in a node imported from TensorFlow
    r = x.shape.rank
    if axis is not None and r is not None:
        seen = set()
        for i, a in enumerate(axis):
            if not -r <= a < r:
                raise ValueError("'axis'[%d] = %d is out of valid range [%d, %d)"
                                 % (i, a, -r, r))
            if a % r in seen:
                raise ValueError("'axis'[%d] = %d is duplicated in 'axis'" % (i, a))
            seen.add(a % r)
    return x.dtype.base_dtype, x.shape


@defop("ReverseV2", _reverse_kernel, _reverse_infer, view=True, input_names=("tensor", "axis"),
       batching="axis")
def _reverse_grad(op: Any, grad: Any) -> Any:
    axis = op._attrs.get("axis")            # absent in a node imported from TensorFlow
    return _with_nones(reverse(grad, op.inputs[1] if axis is None else axis), op)


register_jvp("ReverseV2", linear_in_first_jvp)


@dispatch.add_dispatch_support
def reverse(tensor: TensorLike, axis: AxisLike, name: str | None = None) -> Any:
    """``tensor`` with the order of its elements reversed along each axis in ``axis``.

    Args:
        tensor: A tensor.
        axis: The axes to reverse (a 1-D int tensor or a list).
        name: A name for the operation (optional).
    """
    x = _as_value(tensor)
    a = _known_ints(axis, "reverse axis")
    if a is not None:
        return apply_op("ReverseV2", [x], {"axis": tuple(a)}, name=name)
    return apply_op("ReverseV2", [x, _int_tensor(axis)], {"axis": None}, name=name)


reverse_v2 = reverse


# --------------------------------------------------------------------------------------
# TensorFlow 2 argument orders (the TF2 face imports these under the plain names)


@dispatch.add_dispatch_support
def transpose_v2(a: TensorLike, perm: TensorLike | None = None, conjugate: bool = False,
                 name: str = "transpose") -> Any:
    """``transpose`` with TensorFlow 2's argument order (conjugate before name).

    Args:
        a: A tensor.
        perm: The permutation of the axes; reversed when None.
        conjugate: Whether to conjugate as well (complex tensors).
        name: A name for the operation (optional).
    """
    return transpose(a, perm, name, conjugate)
