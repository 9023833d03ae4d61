"""The op tests' numerical gradient check: ``flowgrad.testing.check_gradients`` in one mode.

``check_gradients(fn, inputs, order=2, mode="graph")`` checks graph mode only unless told
``mode="eager"`` (the public function checks both by default)."""
from __future__ import annotations

from typing import Any, Callable

from flowgrad import testing


def check_gradients(fn: Callable, inputs: list, order: int = 2, mode: str = "graph",
                    **kwargs: Any) -> None:
    """``flowgrad.testing.check_gradients`` in the one ``mode`` given (default graph)."""
    testing.check_gradients(fn, inputs, order=order, mode=mode, **kwargs)
