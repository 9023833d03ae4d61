"""``tensorflow.python.trackable.autotrackable``."""
from flowgrad.framework.autotrackable import AutoTrackable  # noqa: F401

__all__ = ["AutoTrackable"]
