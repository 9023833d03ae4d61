"""``tensorflow.python.framework.tensor_util``: ``is_tf_type`` is ``tf.is_tensor`` (composite
tensors count), as in TensorFlow."""
from flowgrad.framework.tensor_util import constant_value  # noqa: F401
from flowgrad.ops.tensor_like import is_tensor as is_tf_type  # noqa: F401

__all__ = ["constant_value", "is_tf_type"]
