"""``tensorflow.python.lib.io.tf_record``: reading and writing TFRecord files (flowgrad's
``tf.io`` implementation)."""
from flowgrad.ops.tf_record import tf_record_iterator

__all__ = ["tf_record_iterator"]
