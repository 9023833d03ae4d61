"""``tf.test.experimental``."""
from __future__ import annotations

from flowgrad.testing.markers import sync_devices

__all__ = ["sync_devices"]
