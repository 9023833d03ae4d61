"""Python operators on tensors and variables (``+``, ``*``, ``@``, ``[]``, comparisons ...)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad.framework import errors, hooks
from flowgrad.framework.tensor import TensorBase
from flowgrad.ops import array_ops, bitwise_ops, math_ops
from flowgrad.ops.scatter_nd_ops import tensor_scatter_nd_update
from flowgrad.ops.state_ops import Variable


def _fn(name: str) -> Callable:
    """The op function behind an operator (math_ops first, then array_ops)."""
    return getattr(math_ops, name, None) or getattr(array_ops, name)


def _binary(fn_name: str, op_name: str) -> tuple[Callable, Callable]:
    fn = _fn(fn_name)

    def f(self: Any, other: Any) -> Any:
        return fn(self, other, name=op_name)

    def r(self: Any, other: Any) -> Any:
        return fn(other, self, name=op_name)
    return f, r


_BINARY = {
    "add": ("add", "add"), "sub": ("subtract", "sub"), "mul": ("multiply", "mul"),
    "truediv": ("truediv", "truediv"), "floordiv": ("floordiv", "floordiv"),
    "mod": ("floormod", "mod"), "pow": ("pow", "pow"), "matmul": ("matmul", "matmul"),
}

#: ``&``, ``|``, ``^``: logical on bool tensors, bitwise on integer ones (TensorFlow's
#: ``and_`` / ``or_`` / ``xor_``); the tensor's own dtype decides, both ways round.
_LOGICAL = {"and": ("logical_and", "bitwise_and"), "or": ("logical_or", "bitwise_or"),
            "xor": ("logical_xor", "bitwise_xor")}


def _logical(logical: str, bitwise: str, op_name: str) -> tuple[Callable, Callable]:
    lfn, bfn = getattr(math_ops, logical), getattr(bitwise_ops, bitwise)

    def pick(t: Any) -> Callable:
        return lfn if t.dtype.base_dtype.is_bool else bfn

    def f(self: Any, other: Any) -> Any:
        return pick(self)(self, other, name=op_name)

    def r(self: Any, other: Any) -> Any:
        return pick(self)(other, self, name=op_name)
    return f, r


def _invert(self: Any) -> Any:
    if self.dtype.base_dtype.is_bool:
        return math_ops.logical_not(self, name="LogicalNot")
    return bitwise_ops.invert(self, name="Invert")

_COMPARE = {"lt": "less", "le": "less_equal", "gt": "greater", "ge": "greater_equal"}


def _install(cls: type) -> None:
    for dunder, (fn_name, op_name) in _BINARY.items():
        f, r = _binary(fn_name, op_name)
        setattr(cls, "__%s__" % dunder, f)
        setattr(cls, "__r%s__" % dunder, r)
    for dunder, (logical, bitwise) in _LOGICAL.items():
        f, r = _logical(logical, bitwise, dunder)
        setattr(cls, "__%s__" % dunder, f)
        setattr(cls, "__r%s__" % dunder, r)
    for dunder, fn_name in _COMPARE.items():
        setattr(cls, "__%s__" % dunder, _binary(fn_name, None)[0])
    cls.__neg__ = lambda self: math_ops.negative(self, name="Neg")
    cls.__abs__ = lambda self: math_ops.abs(self, name="Abs")
    cls.__invert__ = _invert
    cls.__pos__ = lambda self: self
    cls.__getitem__ = lambda self, key: array_ops._slice_helper(self, key)


def _sliced_variable(var: Variable, key: Any) -> Any:
    """``var[key]``: the slice, whose ``assign(value)`` writes ``value`` into that part of
    ``var`` (TensorFlow's ``_SliceHelperVar``: ``v[0, 0].assign(10)``)."""
    sliced = array_ops._slice_helper(var, key)

    def assign(value: Any, name: str | None = None) -> Any:
        value = array_ops.convert_to_tensor(value, var.dtype.base_dtype)
        if sliced.shape.is_fully_defined() and value.shape.is_fully_defined():
            want, have = sliced.shape.as_list(), value.shape.as_list()
            try:
                np.broadcast_shapes(tuple(have), tuple(want))
                fits = len(have) <= len(want) and np.broadcast_shapes(
                    tuple(have), tuple(want)) == tuple(want)
            except ValueError:
                fits = False
            if not fits:
                raise errors.InvalidArgumentError(
                    None, None, "Cannot broadcast input shape %s into final shape %s "
                    "(assigning to a slice of %s)" % (have, want, var.name))
        value = array_ops.broadcast_to(value, array_ops.shape(sliced))
        shape = array_ops.shape(var)
        places = array_ops._slice_helper(
            array_ops.reshape(array_ops.range(array_ops.size(var)), shape), key)
        flat = tensor_scatter_nd_update(
            array_ops.reshape(var, [-1]), array_ops.reshape(places, [-1, 1]),
            array_ops.reshape(value, [-1]))
        return var.assign(array_ops.reshape(flat, shape), name=name)
    sliced.assign = assign
    return sliced


_install(TensorBase)
_install(Variable)
Variable.__getitem__ = _sliced_variable
hooks.register(equal=math_ops.equal, not_equal=math_ops.not_equal, negative=math_ops.negative,
               stack=array_ops.stack, unstack=array_ops.unstack,
               unsorted_segment_sum=array_ops.unsorted_segment_sum)
