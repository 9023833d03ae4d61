"""tf.math's inverse trigonometric, hyperbolic, Bessel, complex, nextafter, log_sigmoid and
segment-product functions: numerical gradient checks (orders 1 and 2, graph and eager), the
faces that show them, and the errors and edge cases TensorFlow has. Their values against
TensorFlow 2.21 are in tests/test_kerasops_reference.py.

The numerical gradient checks of the kerasops_math cases are entries of tests/op_db.py."""
import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as tf
from flowgrad.framework import errors

def test_bessel_i1_slopes_at_zero_are_one_half():
    tf.enable_v2_behavior()
    x = flowgrad.constant([0.0, 0.0], dtype=flowgrad.float64)
    with flowgrad.GradientTape() as tape:
        tape.watch(x)
        y = tf.math.bessel_i1(x[:1]) + tf.math.bessel_i1e(x[1:])
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [0.5, 0.5])


def test_segment_products_with_zeros_follow_tensorflows_gradient():
    tf.enable_v2_behavior()
    d = flowgrad.constant([2.0, 0.0, 3.0, 0.0, 0.0, 5.0], dtype=flowgrad.float64)
    with flowgrad.GradientTape() as tape:
        tape.watch(d)
        y = tf.math.segment_prod(d, [0, 0, 0, 1, 1, 2])
    # one zero: only the zero gets the product of the others; two zeros: all 0
    np.testing.assert_allclose(tape.gradient(y, d).numpy(), [0, 6, 0, 0, 0, 1])
    np.testing.assert_allclose(y.numpy(), [0.0, 0.0, 5.0])


def test_segment_product_errors_name_the_op():
    tf.enable_v2_behavior()
    with pytest.raises(errors.InvalidArgumentError, match="SegmentProd"):
        tf.math.segment_prod([1.0, 2.0], [1, 0])
    with pytest.raises(errors.InvalidArgumentError, match="UnsortedSegmentProd"):
        tf.math.unsorted_segment_prod([1.0, 2.0], [0, 3], 2)
    np.testing.assert_allclose(tf.math.unsorted_segment_prod([2.0, 3.0], [0, 0], 2).numpy(),
                               [6.0, 1.0])


def test_dtype_errors_are_tensorflows():
    tf.enable_v2_behavior()
    with pytest.raises(TypeError, match="Asin"):
        tf.math.asin(flowgrad.constant([1, 2]))
    with pytest.raises(TypeError, match="BesselI0"):
        tf.math.bessel_i0(flowgrad.constant([1, 2]))
    with pytest.raises(TypeError, match="Complex"):
        tf.complex(flowgrad.constant([1.0]), flowgrad.constant([1.0], flowgrad.float64))
    z = tf.complex(flowgrad.constant([1.0]), flowgrad.constant([2.0]))
    assert z.dtype == flowgrad.complex64 and tf.math.real(z).dtype == flowgrad.float32


FACE_NAMES = {
    "math": "acos acosh asin asinh atan atan2 atanh cosh sinh conj real imag angle nextafter "
            "log_sigmoid bessel_i0 bessel_i0e bessel_i1 bessel_i1e segment_prod "
            "unsorted_segment_prod",
    "tf2": "acos acosh asin asinh atan atan2 atanh cosh sinh complex",
    "tf1": "acos acosh asin asinh atan atan2 atanh cosh sinh complex conj real imag angle "
           "log_sigmoid segment_prod unsorted_segment_prod",
}


def test_faces_show_the_names_where_tensorflow_does():
    for name in FACE_NAMES["math"].split():
        assert getattr(flowgrad.math, name) is getattr(tf.math, name), name
    for name in FACE_NAMES["tf2"].split()[:-1]:
        assert getattr(flowgrad, name) is getattr(flowgrad.math, name), name
    assert flowgrad.complex is tf.complex
    for name in FACE_NAMES["tf1"].split():
        assert callable(getattr(tf, name)), name
    assert not hasattr(flowgrad, "real") and not hasattr(flowgrad, "log_sigmoid")
