"""The named tuples that TensorFlow's generated op wrappers return for multi-output ops
(``tf.unique(x)`` is ``Unique(y=..., idx=...)``), so results unpack, index and print as
TensorFlow's do."""
from __future__ import annotations

import collections

Unique = collections.namedtuple("Unique", ["y", "idx"])
UniqueWithCounts = collections.namedtuple("UniqueWithCounts", ["y", "idx", "count"])
Qr = collections.namedtuple("Qr", ["q", "r"])
Lu = collections.namedtuple("Lu", ["lu", "p"])
MaxPoolWithArgmax = collections.namedtuple("MaxPoolWithArgmax", ["output", "argmax"])
