"""Math ops: elementwise arithmetic and functions, reductions, matmul, casts, comparisons."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import _NO_GRADIENT, defop, register_op
from flowgrad.framework.shape_rules import (
    binary,
    comparison,
    constant_value,
    normalize_axis,
    reduced_shape,
    unary,
)
from flowgrad.framework.tensor import convert_to_tensor, infer_dtype, is_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.array_ops import (
    _as_value,
    broadcast_gradient_args,
    broadcast_to,
    reshape,
    shape,
    static_shape,
)

# --------------------------------------------------------------------------------------
# Helpers


def _binary(op_type: str, x: Any, y: Any, name: str | None) -> Any:
    """Applies a same-dtype binary op, converting Python values to the other input's dtype."""
    x, y = _as_value(x), _as_value(y)
    if is_tensor(x):
        dt = x.dtype.base_dtype
    elif is_tensor(y):
        dt = y.dtype.base_dtype
    else:
        dt = infer_dtype(x)
    return apply_op(op_type, (x, y), name=name, dtype=dt)


def _unary(op_type: str, x: Any, name: str | None) -> Any:
    return apply_op(op_type, (_as_value(x),), name=name)


def sum_to(grad: Any, x: Any) -> Any:
    """Sums ``grad`` over the axes along which ``x`` was broadcast, giving x's shape."""
    gs, xs = grad.shape.as_tuple(), x.shape.as_tuple()
    if gs == xs and gs is not None and None not in gs:
        return grad
    if gs is not None and xs is not None and None not in xs:
        lead = len(gs) - len(xs)
        axes = list(range(lead)) + [lead + i for i, d in enumerate(xs)
                                    if d == 1 and gs[lead + i] != 1]
        r = reduce_sum(grad, axes) if axes else grad
        return r if r.shape.as_tuple() == xs else reshape(r, xs)
    sx, sg = shape(x), shape(grad)
    rx, _ = broadcast_gradient_args(sx, sg)
    return reshape(reduce_sum(grad, rx), sx)


# --------------------------------------------------------------------------------------
# Binary arithmetic

_ARITH = dict(infer=binary, same_dtype=True, input_names=("x", "y"))


@defop("AddV2", np.add, **_ARITH)
def _add_grad(op: Any, grad: Any) -> Any:
    x, y = op.inputs
    return sum_to(grad, x), sum_to(grad, y)


@defop("Sub", np.subtract, **_ARITH)
def _sub_grad(op: Any, grad: Any) -> Any:
    x, y = op.inputs
    return sum_to(grad, x), sum_to(negative(grad), y)


@defop("Mul", np.multiply, **_ARITH)
def _mul_grad(op: Any, grad: Any) -> Any:
    x, y = op.inputs
    return sum_to(multiply(grad, y), x), sum_to(multiply(x, grad), y)


@defop("RealDiv", np.true_divide, **_ARITH)
def _realdiv_grad(op: Any, grad: Any) -> Any:
    x, y = op.inputs
    return (sum_to(realdiv(grad, y), x),
            sum_to(multiply(grad, realdiv(realdiv(negative(x), y), y)), y))


@defop("Pow", np.power, **_ARITH)
def _pow_grad(op: Any, grad: Any) -> Any:
    x, y = op.inputs
    z = op.outputs[0]
    gx = multiply(grad, multiply(y, pow(x, subtract(y, 1))))
    mask = greater(x, 0)
    safe_log = where(mask, log(where(mask, x, 1)), 0)
    gy = multiply(grad, multiply(z, safe_log))
    return sum_to(gx, x), sum_to(gy, y)


def add(x: Any, y: Any, name: str | None = None) -> Any:
    """x + y elementwise (broadcasting)."""
    return _binary("AddV2", x, y, name)


def subtract(x: Any, y: Any, name: str | None = None) -> Any:
    """x - y elementwise."""
    return _binary("Sub", x, y, name)


def multiply(x: Any, y: Any, name: str | None = None) -> Any:
    """x * y elementwise."""
    return _binary("Mul", x, y, name)


def realdiv(x: Any, y: Any, name: str | None = None) -> Any:
    """x / y for floating tensors."""
    return _binary("RealDiv", x, y, name)


def pow(x: Any, y: Any, name: str | None = None) -> Any:  # noqa: A001 - TensorFlow's name
    """x ** y elementwise."""
    return _binary("Pow", x, y, name)


# --------------------------------------------------------------------------------------
# Unary functions


@defop("Neg", np.negative, unary, input_names=("x",))
def _neg_grad(op: Any, grad: Any) -> Any:
    return negative(grad)


@defop("Square", np.square, unary, input_names=("x",))
def _square_grad(op: Any, grad: Any) -> Any:
    return multiply(grad, multiply(2.0, op.inputs[0]))


@defop("Exp", np.exp, unary, input_names=("x",))
def _exp_grad(op: Any, grad: Any) -> Any:
    return multiply(grad, op.outputs[0])


@defop("Log", np.log, unary, input_names=("x",))
def _log_grad(op: Any, grad: Any) -> Any:
    return multiply(grad, reciprocal(op.inputs[0]))


@defop("Reciprocal", np.reciprocal, unary, input_names=("x",))
def _reciprocal_grad(op: Any, grad: Any) -> Any:
    y = op.outputs[0]
    return multiply(negative(grad), multiply(y, y))


register_op("Sign", np.sign, unary, grad=lambda op, grad: zeros_like_f(op.inputs[0]),
            input_names=("x",))


def zeros_like_f(x: Any) -> Any:
    from flowgrad.ops.array_ops import zeros_like
    return zeros_like(x)


def negative(x: Any, name: str | None = None) -> Any:
    """-x elementwise."""
    return _unary("Neg", x, name)


def square(x: Any, name: str | None = None) -> Any:
    """x * x elementwise."""
    return _unary("Square", x, name)


def exp(x: Any, name: str | None = None) -> Any:
    """e ** x elementwise."""
    return _unary("Exp", x, name)


def log(x: Any, name: str | None = None) -> Any:
    """Natural logarithm elementwise."""
    return _unary("Log", x, name)


def reciprocal(x: Any, name: str | None = None) -> Any:
    """1 / x elementwise."""
    return _unary("Reciprocal", x, name)


def sign(x: Any, name: str | None = None) -> Any:
    """-1, 0 or 1 by the sign of x."""
    return _unary("Sign", x, name)


# --------------------------------------------------------------------------------------
# Comparisons and selection

register_op("Greater", np.greater, comparison, grad=_NO_GRADIENT, same_dtype=True,
            input_names=("x", "y"))
register_op("Equal", np.equal, comparison, grad=_NO_GRADIENT, same_dtype=True,
            input_names=("x", "y"))
register_op("NotEqual", np.not_equal, comparison, grad=_NO_GRADIENT, same_dtype=True,
            input_names=("x", "y"))


def greater(x: Any, y: Any, name: str | None = None) -> Any:
    """x > y elementwise (bool)."""
    return _binary("Greater", x, y, name)


def equal(x: Any, y: Any, name: str | None = None) -> Any:
    """x == y elementwise (bool)."""
    return _binary("Equal", x, y, name)


def not_equal(x: Any, y: Any, name: str | None = None) -> Any:
    """x != y elementwise (bool)."""
    return _binary("NotEqual", x, y, name)


def _select_infer(ins: list, attrs: dict) -> tuple:
    from flowgrad.framework.tensor_shape import broadcast_shapes
    s = broadcast_shapes(broadcast_shapes(ins[0].shape, ins[1].shape), ins[2].shape)
    if ins[1].dtype.base_dtype is not ins[2].dtype.base_dtype:
        raise TypeError("where: x and y must have one dtype, got %s and %s"
                        % (ins[1].dtype.name, ins[2].dtype.name))
    return ins[1].dtype.base_dtype, s


@defop("SelectV2", np.where, _select_infer, input_names=("condition", "t", "e"))
def _select_grad(op: Any, grad: Any) -> Any:
    c, x, y = op.inputs
    z = zeros_like_f(grad)
    return None, sum_to(where(c, grad, z), x), sum_to(where(c, z, grad), y)


def where(condition: Any, x: Any = None, y: Any = None, name: str | None = None) -> Any:
    """Elementwise ``x if condition else y`` (broadcasting)."""
    if x is None and y is None:
        raise NotImplementedError("where(condition) without x and y is not supported")
    x, y = _as_value(x), _as_value(y)
    dt = x.dtype.base_dtype if is_tensor(x) else (y.dtype.base_dtype if is_tensor(y)
                                                  else infer_dtype(x))
    x = convert_to_tensor(x, dt) if not is_tensor(x) else x
    y = convert_to_tensor(y, dt) if not is_tensor(y) else y
    return apply_op("SelectV2", (condition, x, y), name=name)


# --------------------------------------------------------------------------------------
# Casts


def _cast_kernel(x: Any, *, DstT: Any) -> Any:
    return x.astype(DstT.np)


@defop("Cast", _cast_kernel,
       lambda ins, attrs: (attrs["DstT"], ins[0].shape), input_names=("x",))
def _cast_grad(op: Any, grad: Any) -> Any:
    src = op.inputs[0].dtype.base_dtype
    if dtypes.is_differentiable(src) and dtypes.is_differentiable(op.outputs[0].dtype):
        return cast(grad, src)
    return None


def cast(x: Any, dtype: Any, name: str | None = None) -> Any:
    """``x`` converted to ``dtype``."""
    dt = dtypes.as_dtype(dtype).base_dtype
    x = convert_to_tensor(_as_value(x))
    if x.dtype.base_dtype is dt:
        return x
    return apply_op("Cast", (x,), {"DstT": dt}, name=name)


# --------------------------------------------------------------------------------------
# Reductions


def _reduce_infer(ins: list, attrs: dict) -> tuple:
    x = ins[0]
    if len(ins) > 1:
        return x.dtype.base_dtype, (TensorShape(None) if not attrs["keepdims"] or
                                    x.shape.rank is None else TensorShape([None] * x.shape.rank))
    return x.dtype.base_dtype, reduced_shape(x.shape, attrs["axis"], attrs["keepdims"])


def _axes(axis: Any, axes_in: Any) -> Any:
    return axis if axes_in is None else tuple(int(a) for a in np.ravel(axes_in))


def _sum_kernel(x: Any, axes_in: Any = None, *, axis: Any = None, keepdims: bool = False) -> Any:
    dt = x.dtype
    return np.sum(x, axis=_axes(axis, axes_in), keepdims=keepdims,
                  dtype=dt if dt.kind in "iu" else None)


def _mean_kernel(x: Any, axes_in: Any = None, *, axis: Any = None, keepdims: bool = False) -> Any:
    dt = x.dtype
    a = _axes(axis, axes_in)
    if dt.kind in "iu":
        n = np.size(x) // max(np.size(np.sum(x, axis=a)), 1)
        return (np.sum(x, axis=a, keepdims=keepdims, dtype=dt) // max(n, 1)).astype(dt)
    return np.mean(x, axis=a, keepdims=keepdims)


def _reduce_specialize(kernel: Any) -> Any:
    def specialize(attrs: dict) -> Any:
        axis, keepdims = attrs["axis"], attrs["keepdims"]
        return lambda x, axes_in=None: kernel(x, axes_in, axis=axis, keepdims=keepdims)
    return specialize


def _grad_to_input_shape(op: Any, grad: Any) -> Any:
    """Broadcasts a reduction's gradient back to the input's shape."""
    x = op.inputs[0]
    keepdims, axis = op.get_attr("keepdims"), op.get_attr("axis")
    xs = static_shape(x)
    if len(op.inputs) == 1 and xs is not None:
        kept = reduced_shape(x.shape, axis, True).as_tuple()
        g = grad if keepdims or grad.shape.as_tuple() == kept else reshape(grad, kept)
        return g if kept == xs else broadcast_to(g, xs)
    sx = shape(x)
    if not keepdims:
        axes = op.inputs[1:] if len(op.inputs) > 1 else ()
        kept = apply_op("ReducedShape", [sx, *axes], {"axis": axis}, dtype=dtypes.int32)
        grad = reshape(grad, kept)
    return broadcast_to(grad, sx)


def _reduced_shape_kernel(s: Any, axes_in: Any = None, *, axis: Any = None) -> Any:
    out = np.array(s, copy=True)
    a = _axes(axis, axes_in)
    if a is None:
        out[:] = 1
    elif len(out):
        out[np.asarray(a, dtype=np.intp) % len(out)] = 1
    return out


register_op("ReducedShape", _reduced_shape_kernel, unary, grad=_NO_GRADIENT,
            input_names=("input_shape", "axes"))


@defop("Sum", _sum_kernel, _reduce_infer, specialize=_reduce_specialize(_sum_kernel),
       input_names=("input", "reduction_indices"))
def _sum_grad(op: Any, grad: Any) -> Any:
    return [_grad_to_input_shape(op, grad), None][:len(op.inputs)]


@defop("Mean", _mean_kernel, _reduce_infer, specialize=_reduce_specialize(_mean_kernel),
       input_names=("input", "reduction_indices"))
def _mean_grad(op: Any, grad: Any) -> Any:
    x, y = op.inputs[0], op.outputs[0]
    xs, ys = static_shape(x), static_shape(y)
    if xs is not None and ys is not None:
        factor = max(int(np.prod(xs)) // max(int(np.prod(ys)), 1), 1)
        g = realdiv(grad, np.asarray(factor, grad.dtype.np))
    else:
        from flowgrad.ops.array_ops import size
        factor = realdiv(cast(size(x), grad.dtype), cast(size(y), grad.dtype))
        g = realdiv(grad, factor)
    return [_grad_to_input_shape(op, g), None][:len(op.inputs)]


def _reduce(op_type: str, input_tensor: Any, axis: Any, keepdims: Any, name: str | None,
            reduction_indices: Any = None, keep_dims: Any = None) -> Any:
    if reduction_indices is not None:
        if axis is not None:
            raise ValueError("Can not specify both 'axis' and 'reduction_indices'.")
        axis = reduction_indices
    if keep_dims is not None:
        keepdims = keep_dims
    keepdims = bool(keepdims)
    x = convert_to_tensor(_as_value(input_tensor))
    if axis is not None and is_tensor(axis):
        c = constant_value(axis)
        if c is None:
            return apply_op(op_type, (x, axis), {"axis": None, "keepdims": keepdims},
                            name=name, dtype=dtypes.int32)
        axis = c
    try:
        ax = normalize_axis(axis, x.shape.rank)
    except ValueError as e:
        raise ValueError("%s (in %s of %s)" % (e, op_type, getattr(x, "name", "a tensor"))) \
            from None
    return apply_op(op_type, (x,), {"axis": ax, "keepdims": keepdims}, name=name)


def reduce_sum(input_tensor: Any, axis: Any = None, keepdims: bool = False,
               name: str | None = None, reduction_indices: Any = None,
               keep_dims: Any = None) -> Any:
    """Sum over ``axis`` (all axes if None)."""
    return _reduce("Sum", input_tensor, axis, keepdims, name, reduction_indices, keep_dims)


def reduce_mean(input_tensor: Any, axis: Any = None, keepdims: bool = False,
                name: str | None = None, reduction_indices: Any = None,
                keep_dims: Any = None) -> Any:
    """Mean over ``axis`` (all axes if None)."""
    return _reduce("Mean", input_tensor, axis, keepdims, name, reduction_indices, keep_dims)


# --------------------------------------------------------------------------------------
# Matrix multiplication


def _matmul_kernel(a: Any, b: Any, *, transpose_a: bool = False,
                   transpose_b: bool = False) -> Any:
    if transpose_a:
        a = np.swapaxes(a, -1, -2)
    if transpose_b:
        b = np.swapaxes(b, -1, -2)
    return np.matmul(a, b)


def _matmul_specialize(attrs: dict) -> Any:
    if not attrs.get("transpose_a") and not attrs.get("transpose_b"):
        return np.matmul
    return lambda a, b: _matmul_kernel(a, b, **attrs)


def _matmul_infer(ins: list, attrs: dict) -> tuple:
    a, b = ins[0].shape, ins[1].shape
    if a.rank is None or b.rank is None:
        return ins[0].dtype.base_dtype, TensorShape(None)
    if a.rank < 2 or b.rank < 2:
        raise ValueError("Shape must be rank >= 2 for MatMul, got shapes %s and %s" % (a, b))
    ad, bd = list(a.as_tuple()), list(b.as_tuple())
    if attrs.get("transpose_a"):
        ad[-1], ad[-2] = ad[-2], ad[-1]
    if attrs.get("transpose_b"):
        bd[-1], bd[-2] = bd[-2], bd[-1]
    if ad[-1] is not None and bd[-2] is not None and ad[-1] != bd[-2]:
        raise ValueError("Dimensions must be equal, but are %d and %d for MatMul with input "
                         "shapes %s and %s." % (ad[-1], bd[-2], a, b))
    from flowgrad.framework.tensor_shape import broadcast_shapes
    batch = broadcast_shapes(TensorShape(ad[:-2]), TensorShape(bd[:-2]))
    return ins[0].dtype.base_dtype, batch.concatenate([ad[-2], bd[-1]])


@defop("MatMul", _matmul_kernel, _matmul_infer, specialize=_matmul_specialize,
       same_dtype=True, input_names=("a", "b"))
def _matmul_grad(op: Any, grad: Any) -> Any:
    a, b = op.inputs
    ta, tb = op.get_attr("transpose_a"), op.get_attr("transpose_b")
    if not ta and not tb:
        ga = matmul(grad, b, transpose_b=True)
        gb = matmul(a, grad, transpose_a=True)
    elif not ta and tb:
        ga = matmul(grad, b)
        gb = matmul(grad, a, transpose_a=True)
    elif ta and not tb:
        ga = matmul(b, grad, transpose_b=True)
        gb = matmul(a, grad)
    else:
        ga = matmul(b, grad, transpose_a=True, transpose_b=True)
        gb = matmul(grad, a, transpose_a=True, transpose_b=True)
    return sum_to(ga, a), sum_to(gb, b)


def matmul(a: Any, b: Any, transpose_a: bool = False, transpose_b: bool = False,
           adjoint_a: bool = False, adjoint_b: bool = False, a_is_sparse: bool = False,
           b_is_sparse: bool = False, name: str | None = None) -> Any:
    """Matrix product of the last two axes (batched over leading axes)."""
    a, b = _as_value(a), _as_value(b)
    dt = a.dtype.base_dtype if is_tensor(a) else (b.dtype.base_dtype if is_tensor(b) else None)
    return apply_op("MatMul", (a, b), {"transpose_a": bool(transpose_a or adjoint_a),
                                       "transpose_b": bool(transpose_b or adjoint_b)},
                    name=name, dtype=dt)


# --------------------------------------------------------------------------------------
# AddN


def _add_n_kernel(*xs: Any) -> Any:
    r = xs[0] + xs[1] if len(xs) > 1 else xs[0]
    for x in xs[2:]:
        r += x
    return r


def _add_n_infer(ins: list, attrs: dict) -> tuple:
    s = ins[0].shape
    for x in ins[1:]:
        s = s.merge_with(x.shape)
    return ins[0].dtype.base_dtype, s


@defop("AddN", _add_n_kernel, _add_n_infer, same_dtype=True, view=True, input_names=("inputs",))
def _add_n_grad(op: Any, grad: Any) -> Any:
    return [grad] * len(op.inputs)


def add_n(inputs: list, name: str | None = None) -> Any:
    """The elementwise sum of a list of tensors of one shape."""
    if not inputs:
        raise ValueError("inputs must be a non-empty list of tensors")
    inputs = [_as_value(x) for x in inputs]
    dt = next((x.dtype.base_dtype for x in inputs if is_tensor(x)), None)
    return apply_op("AddN", inputs, name=name, dtype=dt)


__all__ = ["add", "subtract", "multiply", "realdiv", "pow", "negative", "square", "exp",
           "log", "reciprocal", "sign", "greater", "equal", "not_equal", "where", "cast",
           "reduce_sum", "reduce_mean", "matmul", "add_n", "sum_to"]
