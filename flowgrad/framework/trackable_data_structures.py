"""Trackable containers (``tensorflow/python/trackable/data_structures.py``): a list and a
dict whose Trackable elements are dependencies of the container, named by position or key.

``ListWrapper`` is a ``list`` and ``_DictWrapper`` a ``dict`` (equality, ``json``, ``isinstance``
behave as for the plain containers)."""
from __future__ import annotations

from typing import Any

from flowgrad.framework.trackable import Trackable


class ListWrapper(Trackable, list):
    """A list whose Trackable elements are its dependencies, named by index."""

    def __init__(self, wrapped_list: Any = ()):
        list.__init__(self, wrapped_list)

    @property
    def _values(self) -> list:
        return list(self)

    def _trackable_children(self, save_type: str = "checkpoint", **kwargs: Any) -> dict:
        return {str(i): v for i, v in enumerate(self) if isinstance(v, Trackable)}

    def __repr__(self) -> str:
        return "ListWrapper(%s)" % list.__repr__(self)

    __hash__ = None  # a list


class _DictWrapper(Trackable, dict):
    """A dict whose Trackable values are its dependencies, named by key."""

    def __init__(self, wrapped_dict: Any = None):
        dict.__init__(self, wrapped_dict or {})

    def _trackable_children(self, save_type: str = "checkpoint", **kwargs: Any) -> dict:
        return {str(k): v for k, v in self.items() if isinstance(v, Trackable)}

    def __repr__(self) -> str:
        return "DictWrapper(%s)" % dict.__repr__(self)

    __hash__ = None  # a dict


def wrap_or_unwrap(value: Any) -> Any:
    """``value`` as the trackable container of its kind: a plain list -> ListWrapper, a
    plain dict -> _DictWrapper; anything else as it is.

    Args:
      value: any value.

    Returns:
      The wrapped (or unchanged) value.
    """
    if type(value) is list:
        return ListWrapper(value)
    if type(value) is dict:
        return _DictWrapper(value)
    return value


__all__ = ["ListWrapper", "_DictWrapper", "wrap_or_unwrap"]
