"""Switching between TensorFlow 1's and 2's behaviour (``tf.compat.v1.disable_v2_behavior``
& co.), and TensorFlow 2's one-argument ``tf.name_scope``."""
from __future__ import annotations

from typing import Any

from flowgrad.framework.context import disable_eager_execution, enable_eager_execution, state
from flowgrad.framework.graph import name_scope
from flowgrad.framework.tensor_shape import disable_v2_tensorshape, enable_v2_tensorshape


def disable_v2_behavior() -> None:
    """TF1 behaviour: graph mode, TF1 shapes (Dimension) and identity-based tensor ==."""
    disable_eager_execution()
    disable_v2_tensorshape()
    state.tensor_equality = False


def enable_v2_behavior() -> None:
    """TF2 behaviour: eager mode, int shapes and elementwise tensor ==."""
    enable_eager_execution()
    enable_v2_tensorshape()
    state.tensor_equality = True


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
           "enable_tensor_equality", "name_scope_v2"]
