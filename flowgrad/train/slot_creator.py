"""Slot variables: per-variable optimizer state (Adam's m and v, Momentum's accumulator ...).

A slot of variable ``Variable`` made by optimizer ``Adam`` is a non-trainable
global variable named like TensorFlow names it: ``Variable/Adam:0``, then
``Variable/Adam_1:0`` for the second slot of the same optimizer, prefixed with
the current variable scope (not the name scope), as TensorFlow's slot creator
does: inside ``variable_scope('train')`` the slot of ``eval_net/w`` is
``train/eval_net/w/Adam:0``."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.graph import GraphKeys, control_dependencies, get_default_graph
from flowgrad.ops.array_ops import fill, shape
from flowgrad.ops.state_ops import Variable
from flowgrad.ops.variable_scope import get_variable_scope


def _primary_name(primary: Any) -> str:
    """The variable's name without the output index ('eval_net/w')."""
    if executing_eagerly():
        return primary.name.rpartition(":")[0] or primary.name
    return primary.op.name


def create_slot_with_value(primary: Any, value: float, name: str) -> Any:
    """A slot of ``primary``'s shape and dtype filled with ``value``."""
    dtype = primary.dtype.base_dtype
    dims = primary.shape.as_tuple()
    known = dims is not None and None not in dims
    if executing_eagerly():
        return Variable(np.full(dims, value, dtype.np), trainable=False,
                        name=_primary_name(primary) + "/" + name)
    scope = get_variable_scope().name
    full_name = (scope + "/" if scope else "") + _primary_name(primary) + "/" + name
    with control_dependencies(None), get_default_graph().name_scope(""):
        if known:
            initial: Any = np.full(dims, value, dtype.np)
        else:
            initial = fill(shape(primary.initialized_value()), np.asarray(value, dtype.np))
        return Variable(initial, trainable=False, name=full_name, dtype=dtype,
                        collections=[GraphKeys.GLOBAL_VARIABLES], validate_shape=known)


def create_slot(primary: Any, value: Any, name: str) -> Any:
    """A slot of ``primary`` starting at ``value`` (a tensor of ``primary``'s shape).

    Args:
        primary: The variable the slot belongs to.
        value: The slot's initial value.
        name: The slot's name under the primary's (``w/ExponentialMovingAverage``).
    """
    if executing_eagerly():
        return Variable(value, trainable=False, name=_primary_name(primary) + "/" + name)
    scope = get_variable_scope().name
    full_name = (scope + "/" if scope else "") + _primary_name(primary) + "/" + name
    dims = primary.shape.as_tuple()
    with control_dependencies(None), get_default_graph().name_scope(""):
        return Variable(value, trainable=False, name=full_name,
                        dtype=primary.dtype.base_dtype, collections=[GraphKeys.GLOBAL_VARIABLES],
                        validate_shape=dims is not None and None not in dims)


def create_zeros_slot(primary: Any, name: str) -> Any:
    """A slot of zeros of ``primary``'s shape and dtype."""
    return create_slot_with_value(primary, 0.0, name)
