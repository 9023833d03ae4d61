"""``tensorflow.python.trackable.base``."""
from flowgrad.framework.trackable import (NoDependency, Trackable,  # noqa: F401
                                          TrackableReference, no_automatic_dependency_tracking)

__all__ = ["NoDependency", "Trackable", "TrackableReference", "no_automatic_dependency_tracking"]
