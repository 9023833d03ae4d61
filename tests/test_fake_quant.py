"""tf.quantization's fake quantization (FakeQuantWithMinMaxArgs / Vars / VarsPerChannel and
their *Gradient ops) gives TensorFlow 2.21's outputs, gradients and error classes, recorded
by tools/tf_reference/fake_quant_reference.py: bit for bit, but for the min/max gradients,
sums whose order TensorFlow's Eigen reduction picks (within 2 float32 ulps). The gradient
ops' own gradients are checked in tests/op_db.py."""
import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1

from tf_reference_program import load

PROGRAM, REF = load("fake_quant_reference.py", "fake_quant/tf_2_21.json")
#: Cases whose second and third parts are the sums for min and max.
_SUMS = ("vars_grad_", "channel_grad_", "channel_gradient_op_", "vars_gradient_op")


@pytest.fixture(autouse=True)
def eager_mode():
    tf1.enable_v2_behavior()            # conftest starts every test in graph mode


@pytest.fixture(scope="module")
def got():
    tf1.enable_v2_behavior()
    return PROGRAM.program(tf)


@pytest.mark.parametrize("case", sorted(REF))
def test_results_are_tensorflows(got, case):
    want, have = REF[case], got[case]
    if isinstance(want, str) or isinstance(have, str):      # an error class
        assert have == want
    elif case.startswith(_SUMS):
        np.testing.assert_array_equal(have[0], want[0])
        for h, w in zip(have[1:], want[1:]):
            np.testing.assert_allclose(h, w, rtol=3e-7, atol=3e-7)
    else:
        np.testing.assert_array_equal(np.asarray(have), np.asarray(want))


def test_a_tf1_graph_gives_the_eager_values():
    x, up = PROGRAM.inputs()
    with tf.Graph().as_default():
        xt = tf1.placeholder(tf.float32, [None, 6, 3])
        lo = tf1.placeholder(tf.float32, [])
        y = tf1.quantization.fake_quant_with_min_max_vars(xt, lo, 1.5, num_bits=4,
                                                          narrow_range=True)
        gx, gmin = tf1.gradients(y, [xt, lo], up)
        with tf1.Session() as sess:
            out = sess.run([y, gx, gmin], {xt: x, lo: -1.0})
    want = REF["vars_grad_-1_1.5_4_True"]
    np.testing.assert_array_equal(out[0], REF["vars_-1_1.5_4_True"])
    np.testing.assert_array_equal(out[1], want[0])
    np.testing.assert_allclose(out[2], want[1], rtol=3e-7)


def test_gradient_op_results_are_named():
    g = tf.ones([2, 2])
    r = tf.quantization.fake_quant_with_min_max_vars_gradient(g, g * 3.0, -1.0, 1.0)
    assert type(r).__name__ == "FakeQuantWithMinMaxVarsGradient"
    assert r.backprop_wrt_max.numpy() == 4.0 and r.backprop_wrt_min.numpy() == 0.0


def test_graph_mode_errors_are_value_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="min has to be smaller than max"):
            tf1.fake_quant_with_min_max_args(tf.ones([2]), 1.0, 0.5)
        with pytest.raises(ValueError, match="rank 0"):
            tf1.fake_quant_with_min_max_vars(tf.ones([2]), [0.0, 0.0], 1.0)
        with pytest.raises(ValueError, match="num_bits must be between 2 and 16"):
            tf1.fake_quant_with_min_max_vars_per_channel(tf.ones([2]), [0.0, 0.0], [1.0, 1.0],
                                                         num_bits=17)
