"""``tensorflow.python.trackable.autotrackable``."""
from flowgrad.framework.trackable import AutoTrackable  # noqa: F401

__all__ = ["AutoTrackable"]
