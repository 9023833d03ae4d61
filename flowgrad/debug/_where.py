"""Formatting of the user line that created an op (``op.traceback``) for diagnostics."""
from __future__ import annotations

import linecache
import os
from typing import Any


def short_path(path: str) -> str:
    """``path`` relative to the working directory when it lies inside it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel


def where(frame: Any) -> str:
    """'file:line in func' for a (file, line, function) triple, or 'an unknown place'.

    Args:
        frame: A (file, line, function) triple, or None.

    Returns:
        The place as text.
    """
    if not frame:
        return "an unknown place"
    fn, line, func = frame
    return "%s:%d in %s" % (short_path(fn), line, func)


def source_line(frame: Any) -> str:
    """The stripped source text of a (file, line, function) triple, '' if unavailable.

    Args:
        frame: A (file, line, function) triple.

    Returns:
        The line's text, stripped.
    """
    if not frame:
        return ""
    return linecache.getline(frame[0], frame[1]).strip()


def created_at(op: Any) -> str:
    """'created at file:line in func:  <code>' for an op (graph op or tape record).

    Args:
        op: A graph Operation or an eager tape record.

    Returns:
        The text, or 'creation line not recorded'.
    """
    tb = getattr(op, "traceback", None)
    if not tb:
        return "creation line not recorded"
    code = source_line(tb)
    return "created at %s%s" % (where(tb), ":  " + code if code else "")
