"""Numerical gradient checks: analytic (symbolic) derivatives against central differences.

``check_gradients(fn, inputs, order=2)`` builds ``y = fn(*xs)`` on float64
placeholders and compares, for orders 1..order, the gradient of a random
projection of the previous order's derivatives with central differences of the
same scalar function. Each order differentiates the symbolic result of the
order before, so it tests that gradients are themselves differentiable."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

import flowgrad.compat.v1 as tf

EPS = 1e-6


def _scalar_graph(fn: Callable, xs: list, order: int, rng: np.random.RandomState) -> list:
    """Scalar tensors s_1..s_order with s_{k+1} = sum_i <v_i, d s_k / d x_i>."""
    y = fn(*xs)
    ys = y if isinstance(y, (list, tuple)) else [y]
    ys = [t for t in ys if t.dtype.is_floating]
    s = tf.add_n([tf.reduce_sum(t * rng.uniform(0.5, 1.5, size=_shape(t)).astype(np.float64))
                  for t in ys])
    out = [s]
    for _ in range(order - 1):
        gs = tf.gradients(out[-1], xs)
        terms = [tf.reduce_sum(g * rng.uniform(0.5, 1.5, size=x.shape.as_list()))
                 for g, x in zip(gs, xs) if g is not None]
        if not terms:
            break
        out.append(tf.add_n(terms))
    return out


def _shape(t: Any) -> tuple:
    dims = t.shape.as_tuple()
    assert dims is not None and None not in dims, "check_gradients needs static output shapes"
    return dims


def check_gradients(fn: Callable, inputs: list, order: int = 2, rtol: float = 1e-5,
                    atol: float = 1e-6, seed: int = 0, expect_none: tuple = ()) -> None:
    """Asserts that derivatives of ``fn`` up to ``order`` match central differences.

    ``inputs`` are NumPy arrays (converted to float64 placeholders); indices in
    ``expect_none`` are inputs whose gradient must be None (e.g. integer-like inputs
    held constant). Run in graph mode (the test fixture provides it)."""
    rng = np.random.RandomState(seed)
    vals = [np.asarray(v, dtype=np.float64) for v in inputs]
    with tf.Graph().as_default():
        xs = [tf.placeholder(tf.float64, v.shape, name="x%d" % i) for i, v in enumerate(vals)]
        scalars = _scalar_graph(fn, xs, order, rng)
        sess = tf.Session()
        for k, s in enumerate(scalars):
            grads = tf.gradients(s, xs)
            for i in expect_none:
                assert grads[i] is None, "order %d: gradient of input %d should be None" % (k + 1,
                                                                                              i)
            active = [i for i, g in enumerate(grads) if g is not None]
            analytic = sess.run([grads[i] for i in active], dict(zip(xs, vals)))
            for i, a in zip(active, analytic):
                num = _numeric(sess, s, xs, vals, i)
                np.testing.assert_allclose(
                    a, num, rtol=rtol, atol=atol,
                    err_msg="order %d derivative w.r.t. input %d of %s" % (k + 1, i, fn))


def _numeric(sess: Any, s: Any, xs: list, vals: list, i: int) -> np.ndarray:
    x = vals[i]
    g = np.zeros_like(x)
    flat = g.reshape(-1)
    for j in range(x.size):
        plus = [v.copy() for v in vals]
        minus = [v.copy() for v in vals]
        plus[i].reshape(-1)[j] += EPS
        minus[i].reshape(-1)[j] -= EPS
        fp = sess.run(s, dict(zip(xs, plus)))
        fm = sess.run(s, dict(zip(xs, minus)))
        flat[j] = (fp - fm) / (2 * EPS)
    return g
