"""``tf.summary.experimental``: the default step of TF2 summaries, and the scope summary ops
name their tags in."""
from __future__ import annotations

import contextlib
import re
from typing import Any, Iterator

from flowgrad.framework import context as _context
from flowgrad.framework.graph import get_default_graph, name_scope
from flowgrad.summary.writer import default

#: What TensorFlow strips from a summary's scope name (its tag keeps it).
_INVALID_SCOPE_CHARACTERS = re.compile(r"[^-_/.A-Za-z0-9]")


def set_step(step: Any) -> None:
    """Sets the step used by summaries written without an explicit ``step``.

    Args:
        step: An int or an int64 tensor (or variable); None clears it.
    """
    default.step = step


def get_step() -> Any:
    """The default step (None if unset)."""
    return default.step


@contextlib.contextmanager
def summary_scope(name: str, default_name: str | None = None,
                  values: Any = None) -> Iterator[tuple]:
    """A name scope for a summary op, yielding ``(tag, scope)`` as TensorFlow's: the tag is
    ``name`` under the current name scope, the scope ``name`` without the characters a
    scope cannot hold (``default_name`` if none is left).

    Args:
        name: The summary's name.
        default_name: The scope's name when ``name`` is empty or all invalid characters.
        values: Accepted for TensorFlow's signature.

    Yields:
        ``(tag, scope)``.
    """
    name = name or default_name
    if _context.executing_eagerly():
        current = _context.state.eager_name_scope.rstrip("/")
    else:
        current = get_default_graph().get_name_scope()
    tag = current + "/" + name if current else name
    with name_scope(_INVALID_SCOPE_CHARACTERS.sub("", name) or None, default_name,
                    values) as scope:
        yield tag, scope


__all__ = ["set_step", "get_step", "summary_scope"]
