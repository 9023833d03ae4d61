"""``tf.bitwise`` of both faces: TensorFlow's names for the ops of ``flowgrad.ops.bitwise_ops``."""
from flowgrad.ops.bitwise_ops import (bitwise_and, bitwise_or, bitwise_xor, invert, left_shift,
                                      right_shift)

__all__ = ["bitwise_and", "bitwise_or", "bitwise_xor", "invert", "left_shift", "right_shift"]
