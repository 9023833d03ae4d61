"""Behaviour of the core math ops.

The numerical gradient checks of the core_math cases are entries of tests/op_db.py."""
import pytest

import flowgrad.compat.v1 as tf

def test_mixed_dtype_binary_op_is_a_clear_error():
    x = tf.constant([1.0, 2.0])
    y = tf.constant([1.0, 2.0], dtype=tf.float64)
    with pytest.raises(TypeError, match="Input 'y' of 'Mul' Op has type float64 that does not "
                                        "match type float32 of argument 'x'"):
        tf.multiply(x, y)
