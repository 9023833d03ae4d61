"""``tf.io`` of the TF1 face: TF2's names plus ``tf_record_iterator`` and
``TFRecordCompressionType``."""
from flowgrad.io_api import *  # noqa: F403
from flowgrad.io_api import __all__ as _tf2_names
from flowgrad.ops.tf_record import TFRecordCompressionType, tf_record_iterator

__all__ = _tf2_names + ["TFRecordCompressionType", "tf_record_iterator"]


def __dir__() -> list:
    return sorted(__all__)
