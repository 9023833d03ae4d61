"""Trackable containers (``tensorflow/python/trackable/data_structures.py``): a list and a
dict whose Trackable elements are dependencies of the container, named by position or key.

As in TensorFlow, an ``AutoTrackable`` wraps a plain list or dict assigned to an attribute in
these (``sticky_attribute_assignment``), and each element added later is tracked as it comes:
a checkpoint restored before the element existed gives it its saved value then (an
optimizer's slot variables appended to its ``_variables`` list). ``ListWrapper`` is a
``list`` and ``_DictWrapper`` a ``dict`` (equality, ``json``, ``isinstance`` behave as for
the plain containers)."""
from __future__ import annotations

from typing import Any

from flowgrad.framework.trackable import NoDependency, Trackable


class ListWrapper(Trackable, list):
    """A list whose Trackable elements are its dependencies, named by index.

    Args:
      wrapped_list: the initial elements.
    """

    def __init__(self, wrapped_list: Any = ()):
        list.__init__(self, wrapped_list)
        self._track_elements()

    def _track_elements(self) -> None:
        for i, value in enumerate(list(self)):
            list.__setitem__(self, i, self._track_value(value, str(i)))

    def _track_value(self, value: Any, name: str) -> Any:
        return _track_element(self, name, value)

    @property
    def _values(self) -> list:
        return list(self)

    def _trackable_children(self, save_type: str = "checkpoint", **kwargs: Any) -> dict:
        return {str(i): v for i, v in enumerate(self) if isinstance(v, Trackable)}

    def append(self, value: Any) -> None:
        list.append(self, self._track_value(value, str(len(self))))

    def extend(self, values: Any) -> None:
        for value in list(values):
            self.append(value)

    def __iadd__(self, values: Any) -> ListWrapper:
        self.extend(values)
        return self

    def insert(self, index: Any, value: Any) -> None:
        list.insert(self, index, value)
        self._track_elements()

    def __setitem__(self, key: Any, value: Any) -> None:
        list.__setitem__(self, key, value)
        self._track_elements()

    def __reduce_ex__(self, protocol: Any) -> tuple:
        return (self.__class__, (list(self),))

    def __repr__(self) -> str:
        return "ListWrapper(%s)" % list.__repr__(self)

    __hash__ = None  # a list


class _DictWrapper(Trackable, dict):
    """A dict whose Trackable values are its dependencies, named by key.

    Args:
      wrapped_dict: the initial items.
    """

    def __init__(self, wrapped_dict: Any = None):
        dict.__init__(self, wrapped_dict or {})
        for key, value in list(self.items()):
            dict.__setitem__(self, key, self._track_value(value, key))

    def _track_value(self, value: Any, key: Any) -> Any:
        if isinstance(key, str):
            return _track_element(self, key, value)
        return wrap_or_unwrap(value)

    def _trackable_children(self, save_type: str = "checkpoint", **kwargs: Any) -> dict:
        return {str(k): v for k, v in self.items() if isinstance(v, Trackable)}

    def __setitem__(self, key: Any, value: Any) -> None:
        dict.__setitem__(self, key, self._track_value(value, key))

    def update(self, *args: Any, **kwargs: Any) -> None:
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def setdefault(self, key: Any, default: Any = None) -> Any:
        if key not in self:
            self[key] = default
        return self[key]

    def __reduce_ex__(self, protocol: Any) -> tuple:
        return (self.__class__, (dict(self),))

    def __repr__(self) -> str:
        return "DictWrapper(%s)" % dict.__repr__(self)

    __hash__ = None  # a dict


def _track_element(container: Trackable, name: str, value: Any) -> Any:
    """``value`` stored as the element ``name`` of a container: tracked if a Trackable; any
    other value a restore waits for under that name (a variable) is handed to it too."""
    value = sticky_attribute_assignment(container, name, value)
    waiting = getattr(container, "_self_unconditional_deferred_dependencies", None)
    if waiting and name in waiting and not isinstance(value, Trackable):
        container._handle_deferred_dependencies(name, value)
    return value


def wrap_or_unwrap(value: Any) -> Any:
    """``value`` as the trackable container of its kind: a plain list -> ListWrapper, a
    plain dict -> _DictWrapper, a NoDependency -> the value it wraps; anything else as it is.

    Args:
      value: any value.

    Returns:
      The wrapped (or unchanged) value.
    """
    if isinstance(value, NoDependency):
        return value.value
    if type(value) is list:
        return ListWrapper(value)
    if type(value) is dict:
        return _DictWrapper(value)
    return value


def sticky_attribute_assignment(trackable: Trackable, name: str, value: Any) -> Any:
    """What ``trackable.name = value`` stores, as TensorFlow's: ``value`` wrapped (a plain list
    or dict as a trackable container; a ``NoDependency`` unwrapped and not tracked), and
    tracked as the dependency ``name`` when it is a Trackable (so a restore waiting for that
    name gives it its values).

    Args:
      trackable: the object whose attribute (or element) is assigned.
      name: the attribute's (or element's) name.
      value: the value assigned.

    Returns:
      The value to store.
    """
    add_dependency = not isinstance(value, NoDependency)
    value = wrap_or_unwrap(value)
    if add_dependency and isinstance(value, Trackable):
        trackable._track_trackable(value, name=name, overwrite=True)
    return value


__all__ = ["ListWrapper", "_DictWrapper", "sticky_attribute_assignment", "wrap_or_unwrap"]
