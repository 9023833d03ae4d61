"""Global execution state: eager or graph mode, default graph and session stacks, tapes."""
from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Iterator
from typing import Any

from flowgrad.framework import hooks

_PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def _shared(name: str, default: Any) -> property:
    """A setting every thread shares (eager mode, the global default graph, ...)."""
    _SHARED[name] = default

    def get(self: Any) -> Any:
        return _SHARED[name]

    def set_(self: Any, value: Any) -> None:
        _SHARED[name] = value
    return property(get, set_)


_SHARED: dict = {}


class _State(threading.local):
    """The execution state. As in TensorFlow, what a trace or a ``with`` block enters (the
    graph stack, sessions, tapes, name scope) belongs to the thread that entered it, so a
    tf.function traced on one thread never captures ops another thread runs meanwhile;
    the mode and the global default graph are shared."""

    eager = _shared("eager", True)          # global default: TF2 eager (disable_eager_execution)
    default_graph = _shared("default_graph", None)   # the global default graph (made lazily)
    tensor_equality = _shared("tensor_equality", True)   # TF2: == on tensors is elementwise
    resource_variables = _shared("resource_variables", True)    # TF2's flag (v2_compat)
    v2_behavior = _shared("v2_behavior", True)       # TF's tf2.enabled() (v2_compat)
    check_numerics = _shared("check_numerics", False)    # every op's output checked (debug)
    inter_op_threads = _shared("inter_op_threads", 0)    # tf.config.threading's count (0: default)

    def __init__(self) -> None:
        self.graph_stack: list = []     # graphs entered with Graph.as_default()
        self.session_stack: list = []   # sessions entered as default
        self.tapes: list = []           # active GradientTapes, innermost last
        self.autograph: list = []       # AutoGraph status of the functions being traced
        self.eager_name_scope = ""      # the name scope opened in eager mode ('a/b/' or '')


state = _State()


def executing_eagerly() -> bool:
    """True when ops run at once (eager mode) rather than building a graph."""
    return state.eager and not state.graph_stack


def enable_eager_execution(config: Any = None, device_policy: Any = None,
                           execution_mode: Any = None) -> None:
    """Makes eager execution the default (TF2 behaviour).

    Args:
        config: Accepted for TensorFlow's signature.
        device_policy: Accepted for TensorFlow's signature.
        execution_mode: Accepted for TensorFlow's signature.
    """
    state.eager = True


def disable_eager_execution() -> None:
    """Makes graph building the default (TF1 behaviour)."""
    state.eager = False


def get_default_graph() -> Any:
    """The graph that new ops are added to."""
    if state.graph_stack:
        return state.graph_stack[-1]
    if state.default_graph is None:
        state.default_graph = hooks.new_graph()
    return state.default_graph


def reset_default_graph() -> None:
    """Replaces the global default graph with a new empty one."""
    if state.graph_stack:
        raise AssertionError("Do not use tf.reset_default_graph() to clear nested graphs. If you "
                             "need a cleared graph, exit the nesting and create a new graph.")
    state.default_graph = hooks.new_graph()


@contextlib.contextmanager
def graph_scope(graph: Any) -> Iterator[Any]:
    """Makes ``graph`` the default graph (graph mode) inside the block.

    Args:
        graph: The graph to make the default one.
    """
    state.graph_stack.append(graph)
    try:
        yield graph
    finally:
        state.graph_stack.pop()


def get_default_session() -> Any:
    """The innermost session entered with ``with sess:`` / ``as_default()``, or None."""
    return state.session_stack[-1] if state.session_stack else None


def session_for(session: Any, element: Any) -> Any:
    """``session``, else the default session, that ``element.eval()``/``run()`` runs in.

    Args:
        session: The session passed to ``eval``/``run``, or None.
        element: The tensor or op being evaluated (named in the error).

    Raises:
        ValueError: there is no session to run in.
    """
    s = session or get_default_session()
    if s is None:
        raise ValueError("Cannot evaluate tensor using `eval()`: No default session is "
                         "registered. Use `with sess.as_default()` or pass an explicit session "
                         "to `eval(session=sess)` (evaluating %s)" % getattr(element, "name",
                                                                               element))
    return s


def user_frame() -> tuple[str, int, str] | None:
    """(file, line, function) of the innermost caller outside the flowgrad package."""
    f = sys._getframe(1)
    while f is not None:
        fn = f.f_code.co_filename
        if not fn.startswith(_PKG_DIR) and "importlib" not in fn:
            return fn, f.f_lineno, f.f_code.co_name
        f = f.f_back
    return None
