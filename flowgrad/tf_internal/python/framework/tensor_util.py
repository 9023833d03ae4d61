"""``tensorflow.python.framework.tensor_util``."""
from flowgrad.framework.tensor_util import constant_value, is_tf_type  # noqa: F401

__all__ = ["constant_value", "is_tf_type"]
