"""``tensorflow.python.eager.context``: the eager context object and mode switches."""
from __future__ import annotations

import contextlib
from collections.abc import Iterator

from flowgrad.framework.context import executing_eagerly, state
from flowgrad.framework.graph import Graph


class Context:
    """The eager runtime's context (``context()``): flowgrad runs every op at once, on the
    calling thread, so there are no kernels to clear or pending ops to wait for."""

    def executing_eagerly(self) -> bool:
        return executing_eagerly()

    def clear_kernel_cache(self) -> None:
        """Clears cached kernels (flowgrad caches none)."""

    def async_wait(self) -> None:
        """Waits for pending asynchronous ops (flowgrad has none)."""

    def ensure_initialized(self) -> None:
        """Initializes the context (nothing to do)."""


_context = Context()


def context() -> Context:
    """The eager context."""
    return _context


def _reset_context() -> None:
    """A new eager context, as TensorFlow's test helper makes: the device configuration
    (logical devices, memory growth, soft placement, JIT and optimizer options) back to its
    defaults and not yet initialized, so logical devices can be set again."""
    from flowgrad import config
    config._reset()


def async_wait() -> None:
    """Waits for pending asynchronous ops (flowgrad runs ops synchronously)."""


@contextlib.contextmanager
def eager_mode() -> Iterator[None]:
    """Ops run eagerly inside the block."""
    graphs = list(state.graph_stack)
    eager = state.eager
    state.graph_stack.clear()
    state.eager = True
    try:
        yield
    finally:
        state.graph_stack[:] = graphs
        state.eager = eager


@contextlib.contextmanager
def graph_mode() -> Iterator[None]:
    """Ops build a new graph inside the block."""
    with Graph().as_default():
        yield


__all__ = ["Context", "async_wait", "context", "eager_mode", "executing_eagerly", "graph_mode"]
