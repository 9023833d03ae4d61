"""``check_gradients``: a function's derivatives up to order k against central differences.

flowgrad's counterpart of JAX's ``jax.test_util.check_grads`` and autograd's
``check_grads``: ``check_gradients(f, args, order=2)`` builds ``y = f(*xs)`` on float64
inputs and compares, for orders 1..order, the gradient of a random projection of the
previous order's derivatives with central differences of the same scalar function.
Each order differentiates the symbolic result of the order before, so it also tests
that gradients are themselves differentiable.

In graph mode the inputs are float64 (or complex128) placeholders of a fresh graph and the
derivatives come from ``tf.gradients``; in eager mode one ``GradientTape`` per order, nested, gives
each order's gradient from the innermost tape while the outer tapes record it."""
from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from flowgrad.framework.context import executing_eagerly, state
from flowgrad.framework.graph import Graph
from flowgrad.framework.indexed_slices import IndexedSlices
from flowgrad.framework.tensor import constant, convert_to_tensor
from flowgrad.autodiff.backprop import gradients
from flowgrad.ops.arithmetic_ops import add_n
from flowgrad.ops.complex_ops import imag, real
from flowgrad.ops.constant_ops import placeholder
from flowgrad.ops.sum_ops import reduce_sum
from flowgrad.runtime.session import Session
from flowgrad.autodiff.tape import GradientTape

_MODES = ("graph", "eager")


def check_gradients(f: Callable, args: Sequence[Any], order: int = 2,
                    mode: str | Sequence[str] = _MODES, rtol: float = 1e-5, atol: float = 1e-6,
                    eps: float = 1e-6, seed: int = 0, expect_none: Sequence[int] = ()) -> None:
    """Asserts that the derivatives of ``f`` up to ``order`` match central differences.

    The floating outputs of ``f(*args)`` are reduced to one scalar with random weights; its
    gradient with respect to every argument (order 1) is compared with central differences
    of the scalar, then the gradient of a random projection of that gradient (order 2),
    and so on. Arguments are converted to float64, so the differences are accurate; complex
    arguments to complex128, perturbed in their real and imaginary parts apart: their
    gradient is compared with TensorFlow's convention, ``dL/dRe(z) + i dL/dIm(z)`` (a complex
    output enters the scalar through its real and imaginary parts).

    Example:
        >>> import numpy as np
        >>> import flowgrad as tf
        >>> from flowgrad.testing import check_gradients
        >>> check_gradients(lambda x: tf.sin(x) * x, [np.array([0.5, -1.0])], order=2)

    Args:
        f: A function of ``len(args)`` tensors returning a tensor or a list of tensors
            with static shapes (non-floating outputs are ignored).
        args: The point to check at: arrays (or nested lists of numbers), one per argument.
        order: The highest derivative order to check (1: gradients, 2: also the gradients
            of the gradients, ...).
        mode: "graph", "eager" or a sequence of both: where to compute the derivatives
            (graph mode builds a fresh graph; eager mode runs eagerly, whatever the mode).
        rtol: Relative tolerance of the comparison.
        atol: Absolute tolerance of the comparison.
        eps: The step of the central differences.
        seed: Seed of the random projections.
        expect_none: Indices of arguments whose gradient must be None at every order
            (e.g. integer-like arguments held constant); they are not compared.

    Raises:
        AssertionError: A derivative differs from its central differences (the message
            names the order, the argument and ``f``), or an argument in ``expect_none``
            has a gradient.
        ValueError: ``mode`` or ``order`` is not valid, or an output of ``f`` has a shape
            that is not fully known.
    """
    modes = (mode,) if isinstance(mode, str) else tuple(mode)
    bad = [m for m in modes if m not in _MODES]
    if bad or not modes:
        raise ValueError("check_gradients: mode must be 'graph', 'eager' or a sequence of "
                         "them, got %r" % (mode,))
    if int(order) != order or order < 1:
        raise ValueError("check_gradients: order must be a positive integer, got %r" % (order,))
    vals = [np.array(v, dtype=np.complex128 if np.iscomplexobj(v) else np.float64)
            for v in args]
    tol = {"rtol": rtol, "atol": atol}
    for m in modes:
        if m == "graph":
            _check_graph(f, vals, int(order), tol, eps, seed, tuple(expect_none))
        else:
            with _eager_mode():
                _check_eager(f, vals, int(order), tol, eps, seed, tuple(expect_none))


@contextlib.contextmanager
def _eager_mode() -> Iterator[None]:
    """Eager execution inside the block, whatever the mode and graph outside it."""
    if executing_eagerly():
        yield
        return
    saved = (state.eager, list(state.graph_stack))
    state.eager = True
    state.graph_stack.clear()
    try:
        yield
    finally:
        state.eager = saved[0]
        state.graph_stack[:] = saved[1]


def _dense(grads: list) -> list:
    """Gradients with IndexedSlices (e.g. of gather) converted to dense tensors."""
    return [convert_to_tensor(g) if isinstance(g, IndexedSlices) else g for g in grads]


def _static_shape(t: Any, f: Callable) -> tuple:
    dims = t.shape.as_tuple()
    if dims is None or None in dims:
        raise ValueError("check_gradients needs outputs of static shape; %s returned %s of "
                         "shape %s (reshape it to a static shape)" % (f, t, t.shape))
    return dims


def _weighted_sum(f: Callable, ys: Any, rng: np.random.RandomState) -> Any:
    """sum_k <w_k, y_k> over the floating (and complex) outputs ``ys`` with random weights
    w_k (a complex output's real and imaginary parts each have their own)."""
    ys = [t for t in (ys if isinstance(ys, (list, tuple)) else [ys])
          if t.dtype.is_floating or t.dtype.is_complex]
    if not ys:
        raise ValueError("check_gradients: %s has no floating output" % (f,))
    return add_n([_inner(t, _static_shape(t, f), rng) for t in ys])


def _inner(t: Any, shape: tuple, rng: np.random.RandomState) -> Any:
    """<w, t> with random weights w of ``shape``: Re and Im weighted apart for complex t."""
    if not t.dtype.is_complex:
        return reduce_sum(t * rng.uniform(0.5, 1.5, size=shape))
    return (reduce_sum(real(t) * rng.uniform(0.5, 1.5, size=shape))
            + reduce_sum(imag(t) * rng.uniform(0.5, 1.5, size=shape)))


def _projection(grads: list, xs: list, rng: np.random.RandomState) -> Any:
    """sum_i <v_i, g_i> over the gradients that are not None (None: all are None)."""
    terms = [_inner(g, np.shape(x), rng) for g, x in zip(grads, xs) if g is not None]
    return add_n(terms) if terms else None


def _compare(analytic: list, numeric: Callable, k: int, f: Callable, expect_none: tuple,
             tol: dict, where: str) -> None:
    """Order-k gradients (arrays or None) against ``numeric(i)``, input by input."""
    for i, a in enumerate(analytic):
        if i in expect_none:
            if a is not None:
                raise AssertionError("%sorder %d: the gradient of input %d of %s should be "
                                     "None" % (where, k, i, f))
            continue
        num = numeric(i)
        if a is None:       # a None gradient is only right where the derivative is zero
            a = np.zeros_like(num)
        np.testing.assert_allclose(a, num, err_msg="%sorder %d derivative w.r.t. input %d "
                                   "of %s" % (where, k, i, f), **tol)


def _check_graph(f: Callable, vals: list, order: int, tol: dict, eps: float, seed: int,
                 expect_none: tuple) -> None:
    rng = np.random.RandomState(seed)
    with Graph().as_default():
        xs = [placeholder(v.dtype.name, v.shape, name="x%d" % i) for i, v in enumerate(vals)]
        scalars = [_weighted_sum(f, f(*xs), rng)]
        for _ in range(order - 1):
            s = _projection(_dense(gradients(scalars[-1], xs)), vals, rng)
            if s is None:
                break
            scalars.append(s)
        with Session() as sess:
            for k, s in enumerate(scalars):
                grads = _dense(gradients(s, xs))
                active = [i for i, g in enumerate(grads) if g is not None]
                fetched = dict(zip(active, sess.run([grads[i] for i in active],
                                                    dict(zip(xs, vals)))))
                analytic = [fetched.get(i) for i in range(len(xs))]

                def value(point: list, s: Any = s) -> float:
                    return sess.run(s, dict(zip(xs, point)))
                _compare(analytic, lambda i: _differences(value, vals, i, eps), k + 1, f,
                         expect_none, tol, "")


def _differences(value: Callable, vals: list, i: int, eps: float) -> np.ndarray:
    """Central differences of ``value(point)`` (a scalar, or a vector of n scalars) with
    respect to input i: an array of input i's shape (with a leading axis of n). For a
    complex input, d/dRe + i d/dIm (TensorFlow's gradient of a real function of z)."""
    x = vals[i]
    steps = (eps, 1j * eps) if np.iscomplexobj(x) else (eps,)
    cols = []
    for j in range(x.size):
        col = 0
        for step, unit in zip(steps, (1, 1j)):
            plus = [v.copy() for v in vals]
            minus = [v.copy() for v in vals]
            plus[i].reshape(-1)[j] += step
            minus[i].reshape(-1)[j] -= step
            col = col + unit * (np.asarray(value(plus)) - np.asarray(value(minus))) / (2 * eps)
        cols.append(col)
    d = np.stack(cols, -1) if cols else np.zeros(np.shape(value(vals)) + (0,))
    return d.reshape(d.shape[:-1] + x.shape)


def _eager_derivatives(f: Callable, vals: list, order: int, seed: int) -> list:
    """[(s_k, [d s_k / d x_i as an array, or None])] for k = 1..order, computed eagerly.

    Tape k+1 is nested in tape k; s_{k+1} = sum_i <v_i, d s_k / d x_i> is computed from
    the gradient that the innermost still-recording tape gives, while the outer ones
    record it."""
    rng = np.random.RandomState(seed)
    xs = [constant(v) for v in vals]
    tapes = [GradientTape() for _ in range(order)]
    out = []
    with contextlib.ExitStack() as stack:
        for tape in tapes:
            stack.enter_context(tape)
            tape.watch(xs)
        s = _weighted_sum(f, f(*xs), rng)
        for tape in reversed(tapes):
            tape.__exit__(None, None, None)
            grads = _dense(tape.gradient(s, xs))
            out.append((s.numpy(), [None if g is None else g.numpy() for g in grads]))
            s = _projection(grads, vals, rng)
            if s is None:
                break
    return out[:order]


def _check_eager(f: Callable, vals: list, order: int, tol: dict, eps: float, seed: int,
                 expect_none: tuple) -> None:
    results = _eager_derivatives(f, vals, order, seed)
    n = len(results)
    numeric: dict = {}

    def value(point: list) -> np.ndarray:
        return np.array([s for s, _ in _eager_derivatives(f, point, order, seed)[:n]])

    def differences(i: int) -> np.ndarray:
        if i not in numeric:        # all orders from one pass over the points
            numeric[i] = _differences(value, vals, i, eps)
        return numeric[i]
    for k, (_, grads) in enumerate(results):
        _compare(grads, lambda i, k=k: differences(i)[k], k + 1, f, expect_none, tol, "eager ")
