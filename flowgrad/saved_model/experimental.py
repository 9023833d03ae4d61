"""``tf.saved_model.experimental``: ``TrackableResource``, the base class of the objects that
own a resource (lookup tables) which SavedModels save and recreate."""
from __future__ import annotations

from flowgrad.framework.trackable_resource import TrackableResource

__all__ = ["TrackableResource"]
