"""``tf.summary.experimental``: the default step of TF2 summaries."""
from __future__ import annotations

from typing import Any

from flowgrad.summary.writer import default


def set_step(step: Any) -> None:
    """Sets the step used by summaries written without an explicit ``step``.

    Args:
        step: An int or an int64 tensor (or variable); None clears it.
    """
    default.step = step


def get_step() -> Any:
    """The default step (None if unset)."""
    return default.step


__all__ = ["set_step", "get_step"]
