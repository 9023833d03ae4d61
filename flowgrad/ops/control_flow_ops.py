"""Grouping and ordering ops: no_op, group, tuple, with_dependencies."""
from __future__ import annotations

import builtins
from typing import Any

from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.graph import Operation, control_dependencies
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import _NO_GRADIENT, register_op
from flowgrad.framework.tensor import TensorBase
from flowgrad.ops.array_ops import identity

register_op("NoOp", None, lambda ins, attrs: [], num_outputs=0, grad=_NO_GRADIENT,
            stateful=True)


def no_op(name: str | None = None) -> Any:
    """An op that does nothing (useful as a control-dependency anchor).

    Args:
        name: A name for the operation (optional).
    """
    if executing_eagerly():
        return None
    return apply_op("NoOp", [], name=name)


def _as_op(x: Any) -> Operation:
    if hasattr(x, "_as_graph_element"):
        x = x._as_graph_element()
    if isinstance(x, TensorBase):
        return x.op
    if isinstance(x, Operation):
        return x
    raise TypeError("Expected a Tensor or Operation, got %r" % (x,))


def group(*inputs: Any, name: str | None = None) -> Any:
    """An op that runs all ``inputs`` (tensors or ops, or lists of them).

    Args:
        *inputs: The ops (or tensors) to run.
        name: A name for the operation (optional).
    """
    if executing_eagerly():
        return None
    flat: list = []
    for x in inputs:
        if isinstance(x, (list, builtins.tuple)):
            flat.extend(x)
        elif x is not None:
            flat.append(x)
    ops = [_as_op(x) for x in flat if x is not None]
    with control_dependencies(ops):
        return no_op(name=name or "group_deps")


def tuple(tensors: list, name: str | None = None, control_inputs: Any = None) -> list:  # noqa: A001
    """Identities of ``tensors`` that are available only once all of them are computed.

    Args:
        tensors: A list of tensors (or IndexedSlices, or None).
        name: A name for the operation (optional).
        control_inputs: More ops to finish before the tensors are returned.
    """
    if executing_eagerly():
        return list(tensors)
    deps = [t for t in tensors if t is not None] + list(control_inputs or [])
    gate = group(*deps, name=(name or "tuple") + "/group_deps" if name else None)
    out = []
    with control_dependencies([gate]):
        for t in tensors:
            out.append(None if t is None else identity(t, name="control_dependency"))
    return out


def tuple_v2(tensors: list, control_inputs: Any = None, name: str | None = None) -> list:
    """``tf.tuple`` of TensorFlow 2 (``control_inputs`` before ``name``): identities of
    ``tensors`` available only once all of them (and ``control_inputs``) are computed.

    Args:
        tensors: A list of tensors (or IndexedSlices, or None).
        control_inputs: More ops to finish before the tensors are returned.
        name: A name for the operation (optional).
    """
    return tuple(tensors, name, control_inputs)


def with_dependencies(dependencies: list, output_tensor: Any, name: str | None = None) -> Any:
    """``output_tensor`` computed after ``dependencies``."""
    if executing_eagerly():
        return output_tensor
    with control_dependencies(dependencies):
        return identity(output_tensor, name=name)


from flowgrad.ops.cond_v2 import case, cond_v1 as cond, switch_case  # noqa: E402
from flowgrad.ops.functional_ops import foldl, foldr, map_fn, scan  # noqa: E402
from flowgrad.ops.logging_ops import Print, print_v2 as print  # noqa: E402,A004
from flowgrad.ops.while_v2 import while_loop_v1 as while_loop  # noqa: E402

__all__ = ["no_op", "group", "tuple", "with_dependencies", "cond", "case", "switch_case",
           "while_loop", "map_fn", "scan", "foldl", "foldr", "print", "Print"]
