"""TensorFlow 1's stacks (``StackV2``, ``StackPushV2``, ``StackPopV2``, ``StackCloseV2``): what
the gradient of a control-flow-v1 while loop keeps its forward values in.

TensorFlow 1 differentiates a ``tf.while_loop`` by pushing, at every iteration of the forward
loop, each value the gradient needs onto a stack, and popping them, last first, in the
gradient loop. flowgrad imports such graphs (``flowgrad.saved_model.control_flow_v1_import``)
and runs these ops as TensorFlow does: ``StackV2`` makes a new, empty stack each time it runs
(its output is a handle, a scalar holding the stack), a push appends and returns its value,
a pop removes the last value. The data and control edges TensorFlow wrote order them. None
of these ops has a gradient (TensorFlow's neither)."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.errors import InvalidArgumentError
from flowgrad.framework.registry import _NO_GRADIENT, register_op
from flowgrad.framework.tensor_shape import TensorShape, unknown_shape

_SCALAR = TensorShape([])


class Stack:
    """One stack's values (what a ``StackV2`` handle holds)."""

    def __init__(self, name: str, max_size: int, elem_type: dtypes.DType) -> None:
        self.name, self.max_size, self.elem_type = name, max_size, elem_type
        self.values: list = []
        self.closed = False

    def __repr__(self) -> str:
        return "<Stack %s: %d values>" % (self.name, len(self.values))


def handle_value(obj: Any) -> np.ndarray:
    """A scalar object array holding ``obj`` (the value of a handle tensor)."""
    h = np.empty((), object)
    h[()] = obj
    return h


def _stack(handle: Any, op: str) -> Stack:
    s = np.asarray(handle, object).reshape(())[()]
    if not isinstance(s, Stack):
        raise InvalidArgumentError(None, None, "%s: the handle does not hold a stack" % op)
    if s.closed:
        raise InvalidArgumentError(None, None, "Stack[%s] has already been closed." % s.name)
    return s


def _new_kernel(max_size: Any, *, elem_type: dtypes.DType, stack_name: str = "") -> np.ndarray:
    return handle_value(Stack(stack_name, int(max_size), elem_type))


def _push_kernel(handle: Any, elem: Any, *, swap_memory: bool = False) -> Any:
    s = _stack(handle, "StackPushV2")
    if 0 <= s.max_size <= len(s.values):
        raise InvalidArgumentError(None, None, "Stack[%s] overflowed its max_size (%d)"
                                   % (s.name, s.max_size))
    s.values.append(elem)
    return elem


def _pop_kernel(handle: Any, *, elem_type: dtypes.DType) -> Any:
    s = _stack(handle, "StackPopV2")
    if not s.values:
        raise InvalidArgumentError(None, None, "Stack[%s] is empty when calling Pop()." % s.name)
    return s.values.pop()


def _close_kernel(handle: Any) -> None:
    _stack(handle, "StackCloseV2").closed = True


register_op("StackV2", _new_kernel, lambda ins, a: (dtypes.string, _SCALAR), grad=_NO_GRADIENT,
            stateful=True, input_names=("max_size",))
register_op("StackPushV2", _push_kernel, lambda ins, a: (ins[1].dtype.base_dtype, ins[1].shape),
            grad=_NO_GRADIENT, stateful=True, input_names=("handle", "elem"))
register_op("StackPopV2", _pop_kernel, lambda ins, a: (a["elem_type"], unknown_shape()),
            grad=_NO_GRADIENT, stateful=True, input_names=("handle",))
register_op("StackCloseV2", _close_kernel, lambda ins, a: [], num_outputs=0, grad=_NO_GRADIENT,
            stateful=True, input_names=("handle",))
