"""Array ops: constants, placeholders, shapes, reshaping, joining, slicing, indexing."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import _NO_GRADIENT, defop, register_op
from flowgrad.framework.shape_rules import constant_value, shape_from_value, unary
from flowgrad.framework.tensor import Tensor, constant, convert_to_tensor, is_tensor
from flowgrad.framework.tensor_shape import TensorShape, as_shape, broadcast_shapes

# --------------------------------------------------------------------------------------
# Helpers used by gradient functions across op families


def static_shape(x: Any) -> tuple | None:
    """The fully known shape of ``x`` as a tuple, else None."""
    s = x.shape.as_tuple()
    return s if s is not None and None not in s else None


def shape_of(x: Any) -> Any:
    """``x``'s shape: a tuple when statically known, else a Shape tensor."""
    s = static_shape(x)
    return s if s is not None else shape(x)


# --------------------------------------------------------------------------------------
# Constants, placeholders, identity


def _const_infer(ins: list, attrs: dict) -> tuple:
    v = attrs["value"]
    return attrs["dtype"], TensorShape(v.shape)


register_op("Const", lambda *, value, dtype: value, _const_infer, grad=_NO_GRADIENT)


def _placeholder_infer(ins: list, attrs: dict) -> tuple:
    return attrs["dtype"], attrs["shape"]


register_op("Placeholder", None, _placeholder_infer, grad=_NO_GRADIENT, stateful=True)


def placeholder(dtype: Any, shape: Any = None, name: str | None = None) -> Tensor:
    """A graph input that must be fed in ``Session.run`` (graph mode only)."""
    if executing_eagerly():
        raise RuntimeError("tf.placeholder() is not compatible with eager execution.")
    return apply_op("Placeholder", [], {"dtype": dtypes.as_dtype(dtype),
                                        "shape": as_shape(shape)}, name=name)


@defop("PlaceholderWithDefault", lambda x, **_: x,
       lambda ins, attrs: (ins[0].dtype.base_dtype, attrs["shape"]), view=True, stateful=True,
       input_names=("input",))
def _placeholder_with_default_grad(op: Any, grad: Any) -> Any:
    return grad


def placeholder_with_default(input: Any, shape: Any, name: str | None = None) -> Tensor:
    """A placeholder that yields ``input`` when it is not fed."""
    x = convert_to_tensor(input)
    shape = as_shape(shape)
    if not shape.is_compatible_with(x.shape):
        raise ValueError("Shape %s of the default is not compatible with %s" % (x.shape, shape))
    return apply_op("PlaceholderWithDefault", [x], {"shape": shape}, name=name)


@defop("Identity", lambda x: x, unary, view=True, input_names=("input",))
def _identity_grad(op: Any, grad: Any) -> Any:
    return grad


def identity(input: Any, name: str | None = None) -> Any:
    """Returns a tensor with the same value as ``input``."""
    return apply_op("Identity", [_as_value(input)], name=name)


register_op("StopGradient", lambda x: x, unary, grad=_NO_GRADIENT, view=True,
            input_names=("input",))


def stop_gradient(input: Any, name: str | None = None) -> Any:
    """The identity forward; blocks every gradient flowing back through it."""
    return apply_op("StopGradient", [_as_value(input)], name=name)


def _as_value(x: Any) -> Any:
    """Variables and IndexedSlices as plain tensors; other values unchanged."""
    if hasattr(x, "_as_tensor") or type(x).__name__ == "IndexedSlices":
        return convert_to_tensor(x)
    return x


# --------------------------------------------------------------------------------------
# Shapes


def _int_out(ins: list, attrs: dict) -> dtypes.DType:
    return dtypes.as_dtype(attrs.get("out_type", dtypes.int32))


register_op("Shape", lambda x, out_type=dtypes.int32: np.array(np.shape(x), out_type.np),
            lambda ins, attrs: (_int_out(ins, attrs), TensorShape([ins[0].shape.rank])),
            grad=_NO_GRADIENT, input_names=("input",))
register_op("Size", lambda x, out_type=dtypes.int32: out_type.np.type(np.size(x)),
            lambda ins, attrs: (_int_out(ins, attrs), TensorShape(())), grad=_NO_GRADIENT,
            input_names=("input",))
register_op("Rank", lambda x: np.int32(np.ndim(x)),
            lambda ins, attrs: (dtypes.int32, TensorShape(())), grad=_NO_GRADIENT,
            input_names=("input",))


def shape(input: Any, name: str | None = None, out_type: Any = dtypes.int32) -> Any:
    """The shape of ``input`` as a 1-D integer tensor."""
    return apply_op("Shape", [_as_value(input)], {"out_type": dtypes.as_dtype(out_type)},
                    name=name)


def size(input: Any, name: str | None = None, out_type: Any = dtypes.int32) -> Any:
    """The number of elements of ``input``."""
    return apply_op("Size", [_as_value(input)], {"out_type": dtypes.as_dtype(out_type)},
                    name=name)


def rank(input: Any, name: str | None = None) -> Any:
    """The number of dimensions of ``input``."""
    return apply_op("Rank", [_as_value(input)], name=name)


def _broadcast_gradient_args(s0: Any, s1: Any) -> tuple:
    n = max(len(s0), len(s1))
    a = [1] * (n - len(s0)) + list(s0)
    b = [1] * (n - len(s1)) + list(s1)
    r0 = [i for i in range(n) if a[i] == 1 and b[i] != 1 or i < n - len(s0)]
    r1 = [i for i in range(n) if b[i] == 1 and a[i] != 1 or i < n - len(s1)]
    return np.array(r0, np.int32), np.array(r1, np.int32)


register_op("BroadcastGradientArgs", _broadcast_gradient_args,
            lambda ins, attrs: [(dtypes.int32, TensorShape([None]))] * 2, num_outputs=2,
            grad=_NO_GRADIENT, input_names=("s0", "s1"))


def broadcast_gradient_args(s0: Any, s1: Any, name: str | None = None) -> list:
    """The axes to reduce the gradient over for each of two broadcast shapes."""
    return apply_op("BroadcastGradientArgs", [s0, s1], name=name, dtype=dtypes.int32)


# --------------------------------------------------------------------------------------
# Reshape, fill, broadcast


def _reshape_kernel(x: Any, shape_in: Any = None, *, shape: Any = None) -> Any:
    return np.reshape(x, shape if shape_in is None else tuple(shape_in))


def _reshape_infer(ins: list, attrs: dict) -> tuple:
    x = ins[0]
    target = TensorShape(attrs["shape"]) if "shape" in attrs else shape_from_value(ins[1])
    if "shape" in attrs:
        dims = list(attrs["shape"])
        n = x.shape.num_elements()
        if -1 in dims:
            known = int(np.prod([d for d in dims if d != -1]))
            if n is not None:
                if known == 0 or n % known:
                    raise ValueError("Cannot reshape a tensor with %d elements to shape %s"
                                     % (n, dims))
                dims[dims.index(-1)] = n // known
            else:
                dims[dims.index(-1)] = None
        elif n is not None and n != int(np.prod(dims)):
            raise ValueError("Cannot reshape a tensor with %d elements to shape %s (%d elements)"
                             % (n, dims, int(np.prod(dims))))
        target = TensorShape(dims)
    return x.dtype.base_dtype, target


@defop("Reshape", _reshape_kernel, _reshape_infer, view=True, input_names=("tensor", "shape"))
def _reshape_grad(op: Any, grad: Any) -> Any:
    return [reshape(grad, shape_of(op.inputs[0])), None][:len(op.inputs)]


def reshape(tensor: Any, shape: Any, name: str | None = None) -> Any:
    """``tensor`` with the same elements in a new shape (-1 infers one dimension)."""
    tensor = _as_value(tensor)
    static = _static_int_list(shape)
    if static is not None:
        return apply_op("Reshape", [tensor], {"shape": tuple(static)}, name=name)
    return apply_op("Reshape", [tensor, shape], name=name, dtype=dtypes.int32)


def _static_int_list(v: Any) -> list | None:
    """A Python list of ints for a static shape-like value, else None."""
    if isinstance(v, TensorShape):
        return v.as_list() if v.is_fully_defined() else None
    if is_tensor(v):
        c = constant_value(v)
        return None if c is None else [int(d) for d in np.ravel(c)]
    if isinstance(v, (list, tuple)):
        if any(is_tensor(d) for d in v):
            vals = [constant_value(d) if is_tensor(d) else d for d in v]
            if any(d is None for d in vals):
                return None
            return [int(np.asarray(d)) for d in vals]
        return [int(d) for d in v]
    return [int(d) for d in np.ravel(v)]


def _fill_kernel(value: Any, dims: Any = None, *, shape: Any = None) -> Any:
    return np.full(shape if dims is None else tuple(dims), value)


def _fill_infer(ins: list, attrs: dict) -> tuple:
    if "shape" in attrs:
        return ins[0].dtype.base_dtype, TensorShape(attrs["shape"])
    return ins[0].dtype.base_dtype, shape_from_value(ins[1])


@defop("Fill", _fill_kernel, _fill_infer, input_names=("value", "dims"))
def _fill_grad(op: Any, grad: Any) -> Any:
    from flowgrad.ops.math_ops import reduce_sum
    return [reduce_sum(grad), None][:len(op.inputs)]


def fill(dims: Any, value: Any, name: str | None = None) -> Any:
    """A tensor of shape ``dims`` filled with the scalar ``value``."""
    static = _static_int_list(dims)
    if static is not None:
        return apply_op("Fill", [value], {"shape": tuple(static)}, name=name)
    return apply_op("Fill", [value, convert_to_tensor(dims, dtypes.int32)], name=name)


def zeros(shape: Any, dtype: Any = dtypes.float32, name: str | None = None) -> Any:
    """A tensor of zeros."""
    dtype = dtypes.as_dtype(dtype)
    static = _static_int_list(shape)
    if static is not None:
        return constant(np.zeros(static, dtype.np), name=name or "zeros")
    return fill(shape, np.zeros((), dtype.np), name=name or "zeros")


def ones(shape: Any, dtype: Any = dtypes.float32, name: str | None = None) -> Any:
    """A tensor of ones."""
    dtype = dtypes.as_dtype(dtype)
    static = _static_int_list(shape)
    if static is not None:
        return constant(np.ones(static, dtype.np), name=name or "ones")
    return fill(shape, np.ones((), dtype.np), name=name or "ones")


register_op("ZerosLike", lambda x: np.zeros_like(x), unary, grad=_NO_GRADIENT,
            input_names=("x",))
register_op("OnesLike", lambda x: np.ones_like(x), unary, grad=_NO_GRADIENT,
            input_names=("x",))


def zeros_like(tensor: Any, dtype: Any = None, name: str | None = None,
               optimize: bool = True) -> Any:
    """Zeros with the shape (and dtype, unless given) of ``tensor``."""
    tensor = _as_value(tensor)
    t = convert_to_tensor(tensor)
    s = static_shape(t)
    dt = dtypes.as_dtype(dtype) if dtype is not None else t.dtype.base_dtype
    if s is not None and optimize:
        return constant(np.zeros(s, dt.np), name=name or "zeros_like")
    out = apply_op("ZerosLike", [t], name=name or "zeros_like")
    return out if dt is t.dtype.base_dtype else _cast(out, dt)


def ones_like(tensor: Any, dtype: Any = None, name: str | None = None,
              optimize: bool = True) -> Any:
    """Ones with the shape (and dtype, unless given) of ``tensor``."""
    tensor = _as_value(tensor)
    t = convert_to_tensor(tensor)
    s = static_shape(t)
    dt = dtypes.as_dtype(dtype) if dtype is not None else t.dtype.base_dtype
    if s is not None and optimize:
        return constant(np.ones(s, dt.np), name=name or "ones_like")
    out = apply_op("OnesLike", [t], name=name or "ones_like")
    return out if dt is t.dtype.base_dtype else _cast(out, dt)


def _cast(x: Any, dt: Any) -> Any:
    from flowgrad.ops.math_ops import cast
    return cast(x, dt)


def _broadcast_to_kernel(x: Any, shape_in: Any = None, *, shape: Any = None) -> Any:
    return np.broadcast_to(x, shape if shape_in is None else tuple(shape_in))


def _broadcast_to_infer(ins: list, attrs: dict) -> tuple:
    target = TensorShape(attrs["shape"]) if "shape" in attrs else shape_from_value(ins[1])
    broadcast_shapes(ins[0].shape, target)
    return ins[0].dtype.base_dtype, target


@defop("BroadcastTo", _broadcast_to_kernel, _broadcast_to_infer, view=True,
       input_names=("input", "shape"))
def _broadcast_to_grad(op: Any, grad: Any) -> Any:
    from flowgrad.ops.math_ops import sum_to
    return [sum_to(grad, op.inputs[0]), None][:len(op.inputs)]


def broadcast_to(input: Any, shape: Any, name: str | None = None) -> Any:
    """``input`` broadcast to ``shape`` (NumPy rules)."""
    input = _as_value(input)
    static = _static_int_list(shape)
    if static is not None:
        return apply_op("BroadcastTo", [input], {"shape": tuple(static)}, name=name)
    return apply_op("BroadcastTo", [input, shape], name=name, dtype=dtypes.int32)


# --------------------------------------------------------------------------------------
# Stacking (used by convert_to_tensor for lists of tensors)


def _pack_infer(ins: list, attrs: dict) -> tuple:
    axis = attrs["axis"]
    s = ins[0].shape
    for x in ins[1:]:
        s = s.merge_with(x.shape)
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


def stack(values: list, axis: int = 0, name: str = "stack") -> Any:
    """Stacks tensors of one shape along a new axis."""
    values = [_as_value(v) for v in values]
    dt = next((v.dtype.base_dtype for v in values if is_tensor(v)), None)
    return apply_op("Pack", values, {"axis": int(axis)}, name=name, dtype=dt)


def _unpack_infer(ins: list, attrs: dict) -> list:
    s = ins[0].shape
    axis = attrs["axis"]
    dt = ins[0].dtype.base_dtype
    if s.rank is None:
        return [(dt, TensorShape(None))] * attrs["num"]
    dims = s.as_list()
    del dims[axis]
    return [(dt, TensorShape(dims))] * attrs["num"]


def _unpack_kernel(x: Any, *, num: int, axis: int) -> Any:
    parts = tuple(np.moveaxis(np.asarray(x), axis, 0))
    return parts[0] if num == 1 else parts


@defop("Unpack", _unpack_kernel, _unpack_infer, num_outputs=lambda attrs: attrs["num"],
       input_names=("value",))
def _unpack_grad(op: Any, *grads: Any) -> Any:
    grads = [g if g is not None else zeros_like(o) for g, o in zip(grads, op.outputs)]
    return stack(grads, axis=op.get_attr("axis"))


def unstack(value: Any, num: int | None = None, axis: int = 0, name: str = "unstack") -> list:
    """Splits ``value`` along ``axis`` into a list of tensors."""
    value = convert_to_tensor(_as_value(value))
    r = value.shape.rank
    if r is None:
        raise ValueError("Cannot infer argument `num` from shape <unknown>")
    a = axis % r if r else 0
    if num is None:
        num = value.shape.as_tuple()[a]
        if num is None:
            raise ValueError("Cannot infer argument `num` from shape %s" % value.shape)
    out = apply_op("Unpack", [value], {"num": int(num), "axis": a}, name=name)
    return [out] if num == 1 else list(out)


__all__ = ["placeholder", "placeholder_with_default", "identity", "stop_gradient", "shape",
           "size", "rank", "reshape", "fill", "zeros", "ones", "zeros_like", "ones_like",
           "broadcast_to", "stack", "unstack", "constant", "convert_to_tensor",
           "broadcast_gradient_args"]
