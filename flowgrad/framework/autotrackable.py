"""``AutoTrackable`` (TensorFlow's ``tensorflow/python/trackable/autotrackable.py``): a
Trackable whose attribute assignments track their values, plain lists and dicts wrapped as
trackable containers (``trackable_data_structures``)."""
from __future__ import annotations

from typing import Any

from flowgrad.framework.trackable import NoDependency, Trackable
from flowgrad.framework.trackable_data_structures import sticky_attribute_assignment


class AutoTrackable(Trackable):
    """A Trackable whose attributes holding Trackables (and lists and dicts, wrapped) become
    its dependencies, named by the attribute."""

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

    def _no_dependency(self, value: Any) -> Any:
        return NoDependency(value)


__all__ = ["AutoTrackable"]
