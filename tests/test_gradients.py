"""tf.gradients semantics: grad_ys, None for unconnected / integer / stopped paths, overrides."""
import numpy as np
import pytest

import flowgrad.compat.v1 as tf


def _run(fetches, feed=None):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(fetches, feed)


def test_sum_over_ys_with_grad_ys():
    w = [tf.Variable(np.full(3, float(i), np.float32)) for i in range(4)]
    z1 = w[0] + w[1] + w[2]
    z2 = w[2] + w[3]
    grads = tf.gradients([z1, z2], w, grad_ys=[tf.convert_to_tensor([2., 2., 3.]),
                                               tf.convert_to_tensor([3., 2., 4.])])
    out = _run(grads)
    np.testing.assert_array_equal(np.array(out), [[2, 2, 3], [2, 2, 3], [5, 4, 7], [3, 2, 4]])


def test_unconnected_gives_none_or_zeros():
    x = tf.Variable(1.0)
    y = tf.Variable([1.0, 2.0])
    z = x * 2.0
    assert tf.gradients(z, [y]) == [None]
    (g,) = tf.gradients(z, [y], unconnected_gradients="zero")
    np.testing.assert_array_equal(_run(g), [0.0, 0.0])


def test_integer_tensors_get_no_gradient():
    w1 = tf.Variable([[1, 2]])
    res = tf.matmul(w1, [[2], [1]])
    assert tf.gradients(res, [w1]) == [None]
    x = tf.Variable(2.0)
    through_int = tf.cast(tf.cast(x, tf.int32), tf.float32) * x
    (g,) = tf.gradients(through_int, [x])
    assert _run(g) == 2.0          # only the direct float path contributes


def test_stop_gradient_blocks_and_partial_paths_add_up():
    a, b = tf.Variable(1.0), tf.Variable(1.0)
    c = tf.stop_gradient(tf.add(a, b))
    e = tf.add(c, tf.add(a, b))
    assert _run(tf.gradients(e, [a, b])) == [1.0, 1.0]
    w1, w2 = tf.Variable(2.0), tf.Variable(2.0)
    prod = tf.multiply(tf.stop_gradient(tf.multiply(w1, 3.0)), w2)
    grads = tf.gradients(prod, [w1, w2])
    assert grads[0] is None and grads[1].name.startswith("gradients_1/Mul_1_grad/")


def test_stop_gradients_argument():
    a = tf.constant(0.0)
    b = 2 * a
    g = tf.gradients(a + b, [a, b], stop_gradients=[a, b])
    assert _run(g) == [1.0, 1.0]


def test_each_call_opens_its_own_gradients_scope():
    x = tf.constant(1.0)
    g1 = tf.gradients(x * x, x)[0]
    g2 = tf.gradients(x * x, x)[0]
    assert g1.name.startswith("gradients/") and g2.name.startswith("gradients_1/")


def test_higher_order_of_pow():
    a = tf.constant(1.)
    b = tf.pow(a, 2)
    g1 = tf.gradients(ys=b, xs=a)
    g2 = tf.gradients(ys=g1[0], xs=a)
    g3 = tf.gradients(ys=g2[0], xs=a)
    assert g3[0].name.startswith("gradients_2/")
    assert _run([g1[0], g2[0], g3[0]]) == [2.0, 2.0, 0.0]


def test_second_derivative_of_linear_function_is_none():
    x = tf.placeholder(tf.float32, [3])
    (g,) = tf.gradients(3.0 * x, x)
    assert tf.gradients(g, x) == [None]


def test_hessians():
    x = tf.Variable([1.0, 2.0])
    y = tf.reduce_sum(x * x * x)
    (h,) = tf.hessians(y, x)
    np.testing.assert_allclose(_run(h), np.diag([6.0, 12.0]))


def test_gradient_override_map_and_register_gradient():
    x = tf.constant([2.0, -3.0])
    with tf.get_default_graph().gradient_override_map({"Sign": "Identity"}):
        y = tf.sign(x)
    np.testing.assert_array_equal(_run(tf.gradients(y, x)[0]), [1.0, 1.0])

    @tf.RegisterGradient("TimesTen_test_gradients")
    def _times_ten(op, grad):
        return grad * 10.0

    with tf.get_default_graph().gradient_override_map({"Identity": "TimesTen_test_gradients"}):
        z = tf.identity(x)
    np.testing.assert_array_equal(_run(tf.gradients(z, x)[0]), [10.0, 10.0])
    with pytest.raises(KeyError, match="Registering two gradient with name "
                                       "'TimesTen_test_gradients'"):
        tf.RegisterGradient("TimesTen_test_gradients")(_times_ten)


def test_missing_gradient_is_lookup_error_naming_op_and_type():
    from flowgrad.framework.registry import register_op
    from flowgrad.framework.shape_rules import unary
    register_op("NoGradTestOp", lambda x: x, unary)
    from flowgrad.framework.op_call import apply_op
    x = tf.constant(1.0)
    y = apply_op("NoGradTestOp", [x], name="mystery")
    with pytest.raises(LookupError, match=r"No gradient defined for operation 'mystery' "
                                          r"\(op type: NoGradTestOp\)"):
        tf.gradients(y, x)


def test_not_differentiable_gives_none():
    from flowgrad.framework.op_call import apply_op
    from flowgrad.framework.registry import register_op
    from flowgrad.framework.shape_rules import unary
    register_op("NotDiffTestOp", lambda x: x, unary)
    tf.NotDifferentiable("NotDiffTestOp")
    x = tf.constant(1.0)
    assert tf.gradients(apply_op("NotDiffTestOp", [x]) * x, x)[0] is not None
    assert tf.gradients(apply_op("NotDiffTestOp", [x]), x) == [None]


def test_grad_ys_dtype_mismatch_is_an_error():
    x = tf.constant([1.0])
    with pytest.raises(TypeError, match="grad_ys"):
        tf.gradients(x * 2.0, x, grad_ys=[tf.constant([1.0], dtype=tf.float64)])


def test_gradients_in_eager_mode_is_an_error():
    tf.enable_eager_execution()
    with pytest.raises(RuntimeError, match="GradientTape"):
        tf.gradients(1.0, 1.0)


def test_tf2_face_has_hessians_and_tuple_with_tensorflow_2_signatures():
    import flowgrad
    tf.enable_v2_behavior()
    try:
        @flowgrad.function
        def h(x):
            return flowgrad.hessians(flowgrad.reduce_sum(x ** 3), x)[0]

        np.testing.assert_allclose(h(flowgrad.constant([1.0, 2.0])).numpy(),
                                   [[6.0, 0.0], [0.0, 12.0]])
        (t,) = flowgrad.tuple([flowgrad.constant(1.0)], None, "t")
        assert t.numpy() == 1.0
    finally:
        tf.disable_v2_behavior()
