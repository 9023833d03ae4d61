"""TF1's initialization checks: ``tf.is_variable_initialized`` (the IsVariableInitialized op),
``tf.report_uninitialized_variables`` and ``tf.assert_variables_initialized``, the ready
checks of ``tf.train.SessionManager`` and ``tf.train.Supervisor``."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.graph import GraphKeys, get_default_graph, name_scope
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import _NO_GRADIENT, register_op
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.framework.type_hints import VariableLike
from flowgrad.ops.array_ops import constant
from flowgrad.ops.indexing_ops import boolean_mask
from flowgrad.ops.math_ops import logical_not
from flowgrad.ops.shape_ops import rank, stack

# The Session plan passes the kernel whether the variable holds a value (an op that neither
# reads nor updates its ref input: see flowgrad/runtime/plan/emitter.py), never its value.
register_op("IsVariableInitialized", lambda initialized, **_: np.bool_(initialized),
            lambda ins, attrs: (dtypes.bool, TensorShape([])), input_names=("ref",),
            grad=_NO_GRADIENT, stateful=True, reads_refs=False)


def is_variable_initialized(variable: VariableLike, name: str | None = None) -> Any:
    """Whether ``variable`` holds a value, as TF1's ``tf.is_variable_initialized``.

    Args:
        variable: A variable (of a TF1 graph; an eager variable always holds one).
        name: A name for the operation (optional).

    Returns:
        A scalar bool tensor.
    """
    if executing_eagerly():
        return convert_to_tensor(True)
    ref = variable._ref() if hasattr(variable, "_ref") else variable
    return apply_op("IsVariableInitialized", [ref], {"dtype": ref.dtype.base_dtype},
                    name=name or "IsVariableInitialized")


def _default_var_list() -> list:
    return (get_default_graph().get_collection(GraphKeys.GLOBAL_VARIABLES)
            + get_default_graph().get_collection(GraphKeys.LOCAL_VARIABLES))


def report_uninitialized_variables(var_list: list | None = None,
                                   name: str = "report_uninitialized_variables") -> Any:
    """The names of the variables of ``var_list`` that hold no value, as TF1's
    ``tf.report_uninitialized_variables``.

    Args:
        var_list: The variables to check; the global and local variables when None.
        name: A name for the operation.

    Returns:
        A 1-D string tensor of the uninitialized variables' op names (empty when all are
        initialized, or when there are no variables).
    """
    if var_list is None:
        var_list = _default_var_list()
    with name_scope(name):
        if not var_list:
            return constant([], dtype=dtypes.string)
        init_vars = [is_variable_initialized(v) for v in var_list]
        mask = logical_not(stack(init_vars))
        names = constant([v.op.name for v in var_list])
        return boolean_mask(names, mask)


def assert_variables_initialized(var_list: list | None = None) -> Any:
    """An op that fails with ``FailedPreconditionError`` when run while a variable of
    ``var_list`` holds no value, as TF1's (obsolete) ``tf.assert_variables_initialized``.

    Args:
        var_list: The variables to check; the global and local variables when None.

    Returns:
        A tensor (the variables' ranks), or None when there are no variables.
    """
    if var_list is None:
        var_list = _default_var_list()
    if not var_list:
        return None
    ranks = [rank(v._ref() if hasattr(v, "_ref") else v) for v in var_list]
    return ranks[0] if len(ranks) == 1 else stack(ranks)


__all__ = ["is_variable_initialized", "report_uninitialized_variables",
           "assert_variables_initialized"]
