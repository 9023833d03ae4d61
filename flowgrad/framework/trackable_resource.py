"""``TrackableResource``: the base class of the objects that own a resource (lookup tables),
which SavedModels save and recreate (``tf.saved_model.experimental.TrackableResource``)."""
from __future__ import annotations

from typing import Any

from flowgrad.framework.autotrackable import AutoTrackable


class TrackableResource(AutoTrackable):
    """An object owning a resource (TensorFlow's ``tf.saved_model.experimental
    .TrackableResource``): ``_create_resource`` makes it, ``_initialize`` fills it, and
    ``resource_handle`` is the resource (made on first use).

    Args:
      device: where the resource lives (accepted for TensorFlow's signature).
    """

    def __init__(self, device: str = ""):
        self._resource_device = device
        self._resource_handle_value: Any = None

    def _create_resource(self) -> Any:
        """Makes the resource (subclasses override it)."""
        raise NotImplementedError("TrackableResource subclasses must define _create_resource")

    def _initialize(self) -> Any:
        """Fills the resource (subclasses may override it)."""
        return None

    @property
    def resource_handle(self) -> Any:
        """The resource, made by ``_create_resource`` on first use."""
        if self._resource_handle_value is None:
            self._resource_handle_value = self._create_resource()
        return self._resource_handle_value


__all__ = ["TrackableResource"]
