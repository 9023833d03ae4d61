"""A While in a plan computes only the loop variables and per-iteration values the plan reads.

The plan tells the While kernel which of its outputs it reads (``live_outputs``); the body
then skips what only the others need: a loop variable whose final value nobody fetches and
no live value depends on, the gradient loop's gradients of inputs nobody differentiates
(a ``dynamic_rnn``'s inputs, a Keras RNN's input TensorArray). Values are the same as with
every output computed."""
import numpy as np

import flowgrad.compat.v1 as tf
from flowgrad.ops.while_v2 import _live_body
from flowgrad.runtime.plan.graph_order import prune

R = np.random.RandomState(5)
XS = R.uniform(-1, 1, size=(6, 3))
W0 = R.uniform(-0.5, 0.5, size=(3, 3))


def _loop():
    x = tf.placeholder(tf.float64, [6, 3])
    w = tf.Variable(W0)

    def body(i, a, b, c):
        a = tf.tanh(tf.matmul(a[None], w)[0] + tf.gather(x, i))
        return i + 1, a, b + a, c * 2.0
    out = tf.while_loop(lambda i, *_: i < 6, body,
                        [tf.constant(0), tf.zeros([3], tf.float64),
                         tf.zeros([3], tf.float64), tf.ones([3], tf.float64)])
    return x, w, out


def _while_ops(graph):
    return [op for op in graph.get_operations() if op.type == "While"]


def test_a_loop_variable_nobody_reads_is_not_computed():
    tf.reset_default_graph()
    _, _, (_, _, b, _) = _loop()
    op, = _while_ops(tf.get_default_graph())
    n = len(op._attrs["shapes"])
    body, computed, _ = _live_body(op._attrs, frozenset([2]))    # only b's final value
    assert computed == {0, 1, 2}        # the counter, a (b reads it) and b; not c
    assert n == 4


def test_fetching_part_of_the_outputs_gives_the_same_values():
    tf.reset_default_graph()
    x, _, (i, a, b, c) = _loop()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        b_only = sess.run(b, {x: XS})
        all_of_them = sess.run([i, a, b, c], {x: XS})
    np.testing.assert_array_equal(b_only, all_of_them[2])
    np.testing.assert_array_equal(all_of_them[3], np.full(3, 64.0))


def _live(op, fetches):
    """The outputs of ``op`` a plan fetching ``fetches`` reads (as the emitter finds them)."""
    needed = prune(fetches, {})
    return frozenset(i for i, t in enumerate(op.outputs)
                     if any(t is f for f in fetches) or any(c in needed for c in t._consumers))


def _numeric_dw():
    def f(wv):
        a, b = np.zeros(3), np.zeros(3)
        for t in range(6):
            a = np.tanh(a @ wv + XS[t])
            b = b + a
        return b.sum()
    num = np.zeros_like(W0)
    for idx in np.ndindex(*W0.shape):
        d = np.zeros_like(W0)
        d[idx] = 1e-6
        num[idx] = (f(W0 + d) - f(W0 - d)) / 2e-6
    return num


def test_the_gradient_loop_skips_the_gradient_of_an_input_nobody_asked_for():
    tf.reset_default_graph()
    x, w, (_, _, b, _) = _loop()
    gw, gx = tf.gradients(tf.reduce_sum(b), [w, x])
    grad_op, = [op for op in _while_ops(tf.get_default_graph()) if "grad" in op.name]
    n = len(grad_op._attrs["shapes"])
    _, computed, _ = _live_body(grad_op._attrs, _live(grad_op, [gw]))
    assert 0 < len(computed) < n        # the accumulated gradient of x is not computed
    both = _live_body(grad_op._attrs, _live(grad_op, [gw, gx]))
    assert both is None or both[1] > computed   # asked for, x's gradient is computed
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        w_only = sess.run(gw, {x: XS})
        w_and_x = sess.run([gw, gx], {x: XS})
    np.testing.assert_array_equal(w_only, w_and_x[0])
    np.testing.assert_allclose(w_only, _numeric_dw(), rtol=1e-6, atol=1e-8)
