"""Buffer forwarding in Session plans (TensorFlow's ``forward_input``): an op with a
``forward`` kernel writes its output into an input's array where that array is a
temporary of this plan that nothing else reads (a bias add and a ReLU after a
convolution or a GEMM write no new arrays). Pinned here: where the plan forwards, where it
must not (the value is fetched, read by another op or a view, or shared through common
subexpressions), that the values are bitwise those of plans that never forward, and that each
forward kernel computes bitwise what its op's kernel computes."""
import contextlib

import numpy as np
import pytest

import flowgrad.compat.v1 as tf
from flowgrad.framework.registry import get_op_def
from flowgrad.ops import conv_ops
from flowgrad.runtime.plan.emitter import Emitter

R = np.random.RandomState(5)


def _plan_source(sess: tf.Session) -> str:
    return "\n".join(p.source for p in sess._plans.values())


def _run(fetches, feed=None):
    """(values, plan source) of a fresh Session, and the values of one whose plans never
    forward (the kernels that allocate), from the same initial variables."""
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        state = sess.run(tf.global_variables())
        out = sess.run(fetches, feed)
        src = _plan_source(sess)
    with tf.Session() as sess, _no_forwarding():
        for v, value in zip(tf.global_variables(), state):
            v.load(value, sess)
        want = sess.run(fetches, feed)
    for a, b in zip(out, want):
        np.testing.assert_array_equal(a, b)
    return out, src


@contextlib.contextmanager
def _no_forwarding():
    saved = Emitter.forwarded_input
    Emitter.forwarded_input = lambda self, op, args: None
    try:
        yield
    finally:
        Emitter.forwarded_input = saved


def _conv_bias_relu():
    x = tf.placeholder(tf.float32, [None, 6, 6, 2])
    w = tf.Variable(R.normal(size=(3, 3, 2, 4)).astype(np.float32))
    b = tf.Variable(R.normal(size=4).astype(np.float32))
    pre = tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME") + b
    return x, w, b, pre


def test_bias_add_and_relu_after_a_convolution_write_into_its_output():
    xv = R.normal(size=(3, 6, 6, 2)).astype(np.float32)
    with tf.Graph().as_default():
        x, w, b, pre = _conv_bias_relu()
        y = tf.nn.relu(pre)
        (out, wv, bv), src = _run([y, w, b], {x: xv})
    assert "(AddV2) into" in src and "(Relu) into" in src
    attrs = dict(strides=[1, 1, 1, 1], padding="SAME", data_format="NHWC",
                 dilations=[1, 1, 1, 1], explicit_paddings=[])
    np.testing.assert_array_equal(out, np.maximum(conv_ops._conv2d_kernel(xv, wv, **attrs) + bv,
                                                  0))


def test_no_forwarding_into_a_fetched_value():
    xv = R.normal(size=(2, 6, 6, 2)).astype(np.float32)
    with tf.Graph().as_default():
        x, w, b, pre = _conv_bias_relu()
        y = tf.nn.relu(pre)
        (pv, out), src = _run([pre, y], {x: xv})
    assert "(Relu) into" not in src
    np.testing.assert_array_equal(out, np.maximum(pv, 0))


@pytest.mark.parametrize("second", ["mul", "reshape", "same_relu"])
def test_no_forwarding_into_a_value_another_op_reads(second):
    xv = R.normal(size=(2, 6, 6, 2)).astype(np.float32)
    with tf.Graph().as_default():
        x, w, b, pre = _conv_bias_relu()
        y = tf.nn.relu(pre)
        if second == "mul":             # a second reader, after the ReLU
            z = pre * 2.0
        elif second == "reshape":       # a view of the value, read after the ReLU
            z = tf.reshape(pre, [-1]) * 2.0
        else:                           # the same ReLU again: one kernel call, two tensors
            z = tf.nn.relu(pre) * 2.0
        (out, zv), src = _run([y, z], {x: xv})
    # (_run checks the values against plans that never forward)
    if second == "same_relu":
        np.testing.assert_array_equal(zv, out * 2)
    else:
        assert "(Relu) into" not in src
        np.testing.assert_array_equal(np.maximum(zv.reshape(out.shape) / 2, 0), out)


def test_a_repeat_built_after_forwarding_does_not_read_the_overwritten_array():
    # The second x - y repeats the first, whose array the Mul wrote into before the repeat
    # came in the plan's order: the repeat must compute anew (it once read 2 * (x - y),
    # silently, wherever gradients of gradients repeat ops).
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float64, [3])
        y = tf.placeholder(tf.float64, [3])
        b = tf.multiply(tf.subtract(x, y), 2.0)
        d = tf.add(tf.multiply(tf.subtract(x, y), 3.0), b)
        (out,), src = _run([d], {x: [1.0, 2.0, 3.0], y: [0.5, 0.5, 0.5]})
    assert "into" in src
    np.testing.assert_array_equal(out, [2.5, 7.5, 12.5])


def test_forwarding_needs_shapes_proven_equal():
    # the second operand may broadcast the first (static shape unknown): no forwarding
    with tf.Graph().as_default():
        a = tf.placeholder(tf.float32, [None, 3])
        c = tf.placeholder(tf.float32, [None, None])
        s = tf.exp(a) + c
        (out,), src = _run([s], {a: np.ones((1, 3), np.float32),
                                 c: np.ones((4, 3), np.float32)})
    assert "into" not in src
    np.testing.assert_allclose(out, np.full((4, 3), np.e + 1, np.float32))


@pytest.mark.parametrize("op_type", ["ReluGrad", "TanhGrad", "SigmoidGrad"])
def test_ops_whose_inputs_share_one_shape_forward_with_an_unknown_batch(op_type):
    # the fused activation gradients require one shape (same_shape): after a max-pool
    # gradient of unknown batch size ReLU's gradient writes into its array
    xv = R.normal(size=(3, 4, 4, 2)).astype(np.float32)
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 4, 4, 2])
        act = {"ReluGrad": tf.nn.relu, "TanhGrad": tf.tanh, "SigmoidGrad": tf.sigmoid}[op_type]
        h = act(tf.exp(x))
        loss = tf.reduce_sum(tf.nn.max_pool(h, [1, 2, 2, 1], [1, 2, 2, 1], "VALID") * 2.0)
        (g,), src = _run(tf.gradients(loss, [x]), {x: xv})    # bitwise as without forwarding
    assert "(%s) into" % op_type in src
    assert g.shape == xv.shape


def test_a_forwarded_relu_grad_of_mismatched_shapes_fails():
    with tf.Graph().as_default():
        g = tf.placeholder(tf.float32, [None, 3])
        f = tf.placeholder(tf.float32, [None, 3])
        dx = tf.raw_ops.ReluGrad(gradients=tf.exp(g), features=f)
        with tf.Session() as sess:
            assert sess.run(dx, {g: np.zeros((2, 3)), f: np.ones((2, 3))}).shape == (2, 3)
            with pytest.raises(tf.errors.InvalidArgumentError, match="ReluGrad"):
                sess.run(dx, {g: np.zeros((1, 3)), f: np.ones((2, 3))})


def test_gradients_of_a_small_cnn_are_bitwise_unchanged_by_forwarding():
    xv = R.normal(size=(2, 6, 6, 2)).astype(np.float32)
    with tf.Graph().as_default():
        x, w, b, pre = _conv_bias_relu()
        loss = tf.reduce_sum(tf.nn.sigmoid(tf.nn.relu(pre)) * tf.tanh(pre + 1.0))
        grads = tf.gradients(loss, [w, b])
        _, src = _run(grads, {x: xv})       # bitwise the gradients without forwarding
    assert "into" in src


@pytest.mark.parametrize("op_type", ["AddV2", "Sub", "Mul", "Tanh", "Sigmoid", "TanhGrad",
                                     "SigmoidGrad", "Relu", "ReluGrad", "BiasAdd"])
def test_forward_kernels_compute_what_the_kernels_compute(op_type):
    d = get_op_def(op_type)
    x = np.concatenate([R.normal(size=(4, 5)) * 3, [[-100, 100, 0, -0.0, np.nan]]]).astype(
        np.float32)
    second = {"BiasAdd": R.normal(size=5).astype(np.float32)}.get(
        op_type, R.uniform(-1, 1, size=(5, 5)).astype(np.float32))
    args = [x] if d.kernel.__class__ is np.ufunc and d.kernel.nin == 1 or op_type in (
        "Sigmoid", "Relu") else [x, second]
    with np.errstate(all="ignore"):
        want = d.kernel(*args)
        for k in d.forward:
            given = [a.copy() for a in args]
            got = d.forward[k](*given)
            assert got is given[k]
            np.testing.assert_array_equal(got, want)
