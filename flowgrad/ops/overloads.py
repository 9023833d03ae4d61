"""Python operators on tensors and variables (``+``, ``*``, ``@``, ``[]``, comparisons ...)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flowgrad.framework.tensor import TensorBase
from flowgrad.ops import math_ops
from flowgrad.ops.state_ops import Variable


def _fn(name: str) -> Callable:
    """Looks the op function up at call time so that later op modules can provide it."""
    import flowgrad.ops.array_ops as a
    import flowgrad.ops.math_ops as m
    return getattr(m, name, None) or getattr(a, name)


def _binary(fn_name: str, op_name: str) -> tuple[Callable, Callable]:
    def f(self: Any, other: Any) -> Any:
        return _fn(fn_name)(self, other, name=op_name)

    def r(self: Any, other: Any) -> Any:
        return _fn(fn_name)(other, self, name=op_name)
    return f, r


_BINARY = {
    "add": ("add", "add"), "sub": ("subtract", "sub"), "mul": ("multiply", "mul"),
    "truediv": ("truediv", "truediv"), "floordiv": ("floordiv", "floordiv"),
    "mod": ("floormod", "mod"), "pow": ("pow", "pow"), "matmul": ("matmul", "matmul"),
    "and": ("logical_and", "and"), "or": ("logical_or", "or"), "xor": ("logical_xor", "xor"),
}

_COMPARE = {"lt": "less", "le": "less_equal", "gt": "greater", "ge": "greater_equal"}


def _install(cls: type) -> None:
    for dunder, (fn_name, op_name) in _BINARY.items():
        f, r = _binary(fn_name, op_name)
        setattr(cls, "__%s__" % dunder, f)
        setattr(cls, "__r%s__" % dunder, r)
    for dunder, fn_name in _COMPARE.items():
        setattr(cls, "__%s__" % dunder, _binary(fn_name, None)[0])
    cls.__neg__ = lambda self: math_ops.negative(self, name="Neg")
    cls.__abs__ = lambda self: _fn("abs")(self, name="Abs")
    cls.__invert__ = lambda self: _fn("logical_not")(self, name="LogicalNot")
    cls.__pos__ = lambda self: self
    cls.__getitem__ = lambda self, key: _fn("_slice_helper")(self, key)


_install(TensorBase)
_install(Variable)
