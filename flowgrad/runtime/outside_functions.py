"""``tf.compat.v1.executing_eagerly_outside_functions``: whether the program runs eagerly
once outside the tf.functions being traced."""
from __future__ import annotations

from flowgrad.framework.context import state


def executing_eagerly_outside_functions() -> bool:
    """True when the code outside every tf.function being traced runs eagerly: eager mode and
    no graph made default (``with tf.Graph().as_default()``) around the traces.

    Returns:
      Whether ops outside functions run eagerly.
    """
    if not state.eager:
        return False
    return all(getattr(g, "building_function", False) for g in state.graph_stack)
