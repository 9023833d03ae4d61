"""Switching between TensorFlow 1's and 2's behaviour (``tf.compat.v1.disable_v2_behavior``
& co.), and TensorFlow 2's one-argument ``tf.name_scope``."""
from __future__ import annotations

from typing import Any

from flowgrad.framework.context import disable_eager_execution, enable_eager_execution, state
from flowgrad.framework.graph import name_scope
from flowgrad.framework.tensor_shape import disable_v2_tensorshape, enable_v2_tensorshape


def disable_v2_behavior() -> None:
    """TF1 behaviour: graph mode, TF1 shapes (Dimension), identity-based tensor == and
    resource variables off."""
    disable_eager_execution()
    disable_v2_tensorshape()
    state.tensor_equality = False
    state.resource_variables = False
    state.v2_behavior = False


def enable_v2_behavior() -> None:
    """TF2 behaviour: eager mode, int shapes, elementwise tensor == and resource variables
    on."""
    enable_eager_execution()
    enable_v2_tensorshape()
    state.tensor_equality = True
    state.resource_variables = True
    state.v2_behavior = True


def v2_behavior_enabled() -> bool:
    """Whether TensorFlow 2's behaviour is on (TensorFlow's ``tf2.enabled()``): true unless
    ``disable_v2_behavior`` ran (or flowgrad serves TensorFlow 1, ``--tf1``).

    Returns:
        The flag.
    """
    return state.v2_behavior


def enable_resource_variables() -> None:
    """Turns TensorFlow's resource-variables flag on (``tf.compat.v1``); TensorFlow 2 starts
    with it on and ``disable_v2_behavior`` turns it off.

    flowgrad reports the flag (``resource_variables_enabled``); its graph variables are
    VariableV2 ops either way (docs/differences.md), with TensorFlow's values and
    checkpoint keys.
    """
    state.resource_variables = True


def disable_resource_variables() -> None:
    """Turns TensorFlow's resource-variables flag off (``tf.compat.v1``); see
    ``enable_resource_variables``."""
    state.resource_variables = False


def resource_variables_enabled() -> bool:
    """Whether TensorFlow's resource-variables flag is on (``tf.compat.v1``): True in
    TensorFlow 2 until ``disable_v2_behavior`` or ``disable_resource_variables``.

    Returns:
        The flag.
    """
    return state.resource_variables


def disable_tensor_equality() -> None:
    """Tensors compare by identity (``==``) and are hashable, as in TensorFlow 1."""
    state.tensor_equality = False


def enable_tensor_equality() -> None:
    """Tensors compare elementwise (``==``), as in TensorFlow 2."""
    state.tensor_equality = True


def name_scope_v2(name: str) -> Any:
    """Opens a name scope (TensorFlow 2's ``tf.name_scope``: the name only).

    Args:
      name: The scope's name.

    Returns:
      A context manager that yields the scope's full name.
    """
    return name_scope(name)


__all__ = ["disable_v2_behavior", "enable_v2_behavior", "disable_tensor_equality",
           "enable_tensor_equality", "name_scope_v2", "enable_resource_variables",
           "disable_resource_variables", "resource_variables_enabled"]
