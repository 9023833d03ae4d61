"""Object dependencies for checkpointing: ``Trackable`` and ``AutoTrackable``, as
TensorFlow's ``tensorflow/python/trackable/{base,autotrackable}.py`` define them
(``tf.__internal__.tracking``). Libraries such as Keras build their layers, variables and
optimizers on these classes: an object names its children with ``_track_trackable`` and
lists them with ``_trackable_children``; ``AutoTrackable`` does it on attribute assignment."""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, NamedTuple


class TrackableReference(NamedTuple):
    """A named dependency: ``name`` and the trackable object ``ref``."""
    name: str
    ref: Any


class NoDependency:
    """Wraps a value assigned to an attribute of an ``AutoTrackable`` that must not become
    a dependency; the attribute holds the unwrapped value."""

    __slots__ = ["value"]

    def __init__(self, value: Any):
        self.value = value


def no_automatic_dependency_tracking(method: Callable) -> Callable:
    """Disables attribute-assignment tracking on ``self`` while ``method`` runs.

    Args:
      method: a method of a Trackable.

    Returns:
      The wrapped method.
    """
    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        previous = getattr(self, "_self_setattr_tracking", True)
        self._self_setattr_tracking = False
        try:
            return method(self, *args, **kwargs)
        finally:
            self._self_setattr_tracking = previous
    return wrapper


class Trackable:
    """Base class of the objects a checkpoint saves: they list named dependencies."""

    @property
    def _setattr_tracking(self) -> bool:
        return getattr(self, "_self_setattr_tracking", True)

    @_setattr_tracking.setter
    def _setattr_tracking(self, value: bool) -> None:
        self._self_setattr_tracking = value

    @no_automatic_dependency_tracking
    def _maybe_initialize_trackable(self) -> None:
        if hasattr(self, "_self_unconditional_checkpoint_dependencies"):
            return
        self._self_unconditional_checkpoint_dependencies = []
        self._self_unconditional_dependency_names = {}
        self._self_unconditional_deferred_dependencies = {}
        self._self_update_uid = -1
        self._self_name_based_restores = set()
        self._self_saveable_object_factories = {}

    @property
    def _object_identifier(self) -> str:
        return "_generic_user_object"

    @property
    def _unconditional_checkpoint_dependencies(self) -> list:
        self._maybe_initialize_trackable()
        return self._self_unconditional_checkpoint_dependencies

    @property
    def _unconditional_dependency_names(self) -> dict:
        self._maybe_initialize_trackable()
        return self._self_unconditional_dependency_names

    @property
    def _checkpoint_dependencies(self) -> list:
        return self._unconditional_checkpoint_dependencies

    @property
    def _deferred_dependencies(self) -> dict:
        self._maybe_initialize_trackable()
        return self._self_unconditional_deferred_dependencies

    def _lookup_dependency(self, name: str, cached_dependencies: dict | None = None) -> Any:
        if cached_dependencies:
            return cached_dependencies.get(name)
        return self._unconditional_dependency_names.get(name)

    def _track_trackable(self, trackable: Any, name: str, overwrite: bool = False) -> Any:
        """Makes ``trackable`` the dependency ``name`` of this object.

        Args:
          trackable: a Trackable.
          name: the dependency's name, unique among this object's dependencies.
          overwrite: whether a different object already named ``name`` is replaced.

        Returns:
          ``trackable``.

        Raises:
          TypeError: ``trackable`` is not a Trackable.
          ValueError: ``name`` names another dependency and ``overwrite`` is False.
        """
        self._maybe_initialize_trackable()
        if not isinstance(trackable, Trackable):
            raise TypeError("Trackable._track_trackable() can only be used to track objects of "
                            "type Trackable. Got type %s." % type(trackable))
        if not getattr(self, "_manual_tracking", True):
            return trackable
        reference = TrackableReference(name=name, ref=trackable)
        current = self._lookup_dependency(name)
        deps = self._self_unconditional_checkpoint_dependencies
        if current is not None and current is not trackable:
            if not overwrite:
                raise ValueError("Called Trackable._track_trackable() with name='%s', but a "
                                 "Trackable with this name is already declared as a dependency. "
                                 "Names must be unique (or overwrite=True)." % name)
            for i, (old_name, _) in enumerate(deps):
                if old_name == name:
                    deps[i] = reference
        elif current is None:
            deps.append(reference)
        self._self_unconditional_dependency_names[name] = trackable
        return trackable

    def _delete_tracking(self, name: str) -> None:
        """Removes the dependency ``name`` (if any)."""
        self._maybe_initialize_trackable()
        if name in self._self_unconditional_dependency_names:
            del self._self_unconditional_dependency_names[name]
            deps = self._self_unconditional_checkpoint_dependencies
            deps[:] = [r for r in deps if r.name != name]

    def _trackable_children(self, save_type: str = "checkpoint", **kwargs: Any) -> dict:
        """The named dependencies: name -> Trackable."""
        return {name: ref for name, ref in self._checkpoint_dependencies}

    def _serialize_to_tensors(self) -> dict:
        raise NotImplementedError

    def _restore_from_tensors(self, restored_tensors: dict) -> Any:
        raise NotImplementedError

    def _gather_saveables_for_checkpoint(self) -> dict:
        self._maybe_initialize_trackable()
        return self._self_saveable_object_factories

    def _deserialization_dependencies(self, children: dict) -> dict:
        return {}

    def _export_to_saved_model_graph(self, object_map: Any = None, tensor_map: Any = None,
                                     options: Any = None, **kwargs: Any) -> list:
        return []

    def _no_dependency(self, value: Any) -> Any:
        return value


class AutoTrackable(Trackable):
    """A Trackable whose attributes holding Trackables become its dependencies."""

    def __setattr__(self, name: str, value: Any) -> None:
        try:
            if getattr(self, name) is value:
                return
        except AttributeError:
            pass
        if getattr(self, "_self_setattr_tracking", True):
            value = sticky_attribute_assignment(self, name, value)
        super().__setattr__(name, value)

    def __delattr__(self, name: str) -> None:
        self._delete_tracking(name)
        super().__delattr__(name)


def sticky_attribute_assignment(trackable: Trackable, name: str, value: Any) -> Any:
    """What ``trackable.name = value`` stores: ``value`` (unwrapped from NoDependency),
    tracked as the dependency ``name`` when it is a Trackable.

    Args:
      trackable: the object whose attribute is assigned.
      name: the attribute.
      value: the value assigned.

    Returns:
      The value to store.
    """
    if isinstance(value, NoDependency):
        return value.value
    if isinstance(value, Trackable):
        trackable._track_trackable(value, name=name, overwrite=True)
    return value


__all__ = ["AutoTrackable", "NoDependency", "Trackable", "TrackableReference",
           "no_automatic_dependency_tracking", "sticky_attribute_assignment"]
