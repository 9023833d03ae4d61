"""TF1's ``tf.python_io``: TFRecord writing and reading."""
from flowgrad.ops.tf_record import (TFRecordCompressionType, TFRecordOptions, TFRecordWriter,
                                    tf_record_iterator)

__all__ = ["TFRecordCompressionType", "TFRecordOptions", "TFRecordWriter", "tf_record_iterator"]


def __dir__() -> list:
    return sorted(__all__)
