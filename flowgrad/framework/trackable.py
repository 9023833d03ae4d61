"""Object dependencies for checkpointing: ``Trackable``, as TensorFlow's
``tensorflow/python/trackable/base.py`` defines it (``tf.__internal__.tracking``; its
``AutoTrackable`` is in ``autotrackable.py``). Libraries such as Keras build their layers,
variables and optimizers on these classes: an object names its children with
``_track_trackable`` and lists them with ``_trackable_children``.

Restore on creation, as TensorFlow's: a checkpoint restored before a dependency exists
queues what it holds for it in the object's ``_deferred_dependencies`` (name -> objects with a
``restore(trackable)`` method and a ``restore_uid``), and tracking a new dependency of that
name hands it to them (``_handle_deferred_dependencies``)."""
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
            self._handle_deferred_dependencies(name, trackable)
        self._self_unconditional_dependency_names[name] = trackable
        return trackable

    def _handle_deferred_dependencies(self, name: str, trackable: Any) -> None:
        """Restores into ``trackable`` what checkpoints restored before it existed queued
        for the dependency ``name`` (the latest restore last, so its values win).

        Args:
          name: the dependency's name in this object.
          trackable: the object now tracked under ``name``.
        """
        self._maybe_initialize_trackable()
        if isinstance(trackable, Trackable):
            trackable._maybe_initialize_trackable()
        waiting = self._self_unconditional_deferred_dependencies.pop(name, ())
        for position in sorted(waiting, key=lambda p: p.restore_uid):
            position.restore(trackable)

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


__all__ = ["NoDependency", "Trackable", "TrackableReference",
           "no_automatic_dependency_tracking"]
