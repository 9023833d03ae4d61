"""Numerical gradient checks: analytic (symbolic) derivatives against central differences.

``check_gradients(fn, inputs, order=2)`` builds ``y = fn(*xs)`` on float64
placeholders and compares, for orders 1..order, the gradient of a random
projection of the previous order's derivatives with central differences of the
same scalar function. Each order differentiates the symbolic result of the
order before, so it tests that gradients are themselves differentiable.

``mode="eager"`` runs the same check eagerly (the caller switches to eager mode):
one GradientTape per order, nested, so that each order's gradient is computed by
the innermost tape while the outer tapes record it (the tapes replay the same
registered gradient functions)."""
from __future__ import annotations

import contextlib
from typing import Any, Callable

import numpy as np

import flowgrad
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
        gs = _dense(tf.gradients(out[-1], xs))
        terms = [tf.reduce_sum(g * rng.uniform(0.5, 1.5, size=x.shape.as_list()))
                 for g, x in zip(gs, xs) if g is not None]
        if not terms:
            break
        out.append(tf.add_n(terms))
    return out


def _dense(grads: list) -> list:
    """Gradients with IndexedSlices (e.g. of gather) converted to dense tensors."""
    return [tf.convert_to_tensor(g) if isinstance(g, tf.IndexedSlices) else g for g in grads]


def _shape(t: Any) -> tuple:
    dims = t.shape.as_tuple()
    assert dims is not None and None not in dims, "check_gradients needs static output shapes"
    return dims


def check_gradients(fn: Callable, inputs: list, order: int = 2, rtol: float = 1e-5,
                    atol: float = 1e-6, seed: int = 0, expect_none: tuple = (),
                    mode: str = "graph") -> None:
    """Asserts that derivatives of ``fn`` up to ``order`` match central differences.

    ``inputs`` are NumPy arrays (converted to float64 placeholders, or eager
    constants); indices in ``expect_none`` are inputs whose gradient must be None
    (e.g. integer-like inputs held constant). ``mode`` is "graph" (the test fixture
    provides graph mode) or "eager" (the test switches to eager mode)."""
    vals = [np.asarray(v, dtype=np.float64) for v in inputs]
    if mode == "eager":
        _check_eager(fn, vals, order, rtol, atol, seed, expect_none)
        return
    if mode != "graph":
        raise ValueError("mode must be 'graph' or 'eager', got %r" % (mode,))
    rng = np.random.RandomState(seed)
    with tf.Graph().as_default():
        xs = [tf.placeholder(tf.float64, v.shape, name="x%d" % i) for i, v in enumerate(vals)]
        scalars = _scalar_graph(fn, xs, order, rng)
        sess = tf.Session()
        for k, s in enumerate(scalars):
            grads = _dense(tf.gradients(s, xs))
            for i in expect_none:
                assert grads[i] is None, "order %d: gradient of input %d should be None" % (k + 1,
                                                                                              i)
            active = [i for i, g in enumerate(grads) if g is not None]
            analytic = dict(zip(active, sess.run([grads[i] for i in active], dict(zip(xs, vals)))))
            for i in range(len(xs)):
                if i in expect_none:
                    continue
                num = _numeric(sess, s, xs, vals, i)
                # a None gradient is only right where the derivative is identically zero
                a = analytic.get(i, np.zeros_like(num))
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


def _eager_derivatives(fn: Callable, vals: list, order: int, seed: int) -> list:
    """[(s_k, [d s_k / d x_i as an array, or None])] for k = 1..order, computed eagerly.

    Tape k+1 is nested in tape k; s_{k+1} = sum_i <v_i, d s_k / d x_i> is computed from
    the gradient that the innermost still-recording tape gives, while the outer ones
    record it."""
    rng = np.random.RandomState(seed)
    xs = [flowgrad.constant(v) for v in vals]
    tapes = [flowgrad.GradientTape() for _ in range(order)]
    out = []
    with contextlib.ExitStack() as stack:
        for tape in tapes:
            stack.enter_context(tape)
            tape.watch(xs)
        y = fn(*xs)
        ys = [t for t in (y if isinstance(y, (list, tuple)) else [y]) if t.dtype.is_floating]
        s = tf.add_n([tf.reduce_sum(t * rng.uniform(0.5, 1.5, size=_shape(t))) for t in ys])
        for tape in reversed(tapes):
            tape.__exit__(None, None, None)
            grads = _dense(tape.gradient(s, xs))
            out.append((s.numpy(), [None if g is None else g.numpy() for g in grads]))
            terms = [tf.reduce_sum(g * rng.uniform(0.5, 1.5, size=x.shape.as_list()))
                     for g, x in zip(grads, xs) if g is not None]
            if not terms:
                break
            s = tf.add_n(terms)
    return out[:order]


def _check_eager(fn: Callable, vals: list, order: int, rtol: float, atol: float, seed: int,
                 expect_none: tuple) -> None:
    assert flowgrad.executing_eagerly(), "check_gradients(mode='eager') needs eager mode"
    results = _eager_derivatives(fn, vals, order, seed)
    numeric: dict = {}
    for k, (_, grads) in enumerate(results):
        for i in expect_none:
            assert grads[i] is None, "order %d: gradient of input %d should be None" % (k + 1, i)
        for i, a in enumerate(grads):
            if i in expect_none:
                continue
            if i not in numeric:
                numeric[i] = _numeric_eager(fn, vals, order, seed, i, len(results))
            if a is None:       # only right where the derivative is identically zero
                a = np.zeros_like(numeric[i][k])
            np.testing.assert_allclose(
                a, numeric[i][k], rtol=rtol, atol=atol,
                err_msg="eager order %d derivative w.r.t. input %d of %s" % (k + 1, i, fn))


def _numeric_eager(fn: Callable, vals: list, order: int, seed: int, i: int, n: int) -> list:
    """Central differences of s_1..s_n with respect to input i (one array per order)."""
    x = vals[i]
    out = [np.zeros_like(x) for _ in range(n)]
    for j in range(x.size):
        plus = [v.copy() for v in vals]
        minus = [v.copy() for v in vals]
        plus[i].reshape(-1)[j] += EPS
        minus[i].reshape(-1)[j] -= EPS
        fp = _eager_derivatives(fn, plus, order, seed)
        fm = _eager_derivatives(fn, minus, order, seed)
        for k in range(n):
            out[k].reshape(-1)[j] = (fp[k][0] - fm[k][0]) / (2 * EPS)
    return out
