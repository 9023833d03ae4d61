"""Numerical gradient checks for users' own gradients (TensorFlow's gradient checkers).

``compute_gradient`` returns the theoretical Jacobian (from the registered gradient
functions: built-in ops, RegisterGradient, gradient_override_map, custom_gradient,
py_func gradients) and a numerical one (central differences); ``max_error`` and
``compute_gradient_error`` give the largest gap between them."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.context import executing_eagerly, get_default_session
from flowgrad.framework.indexed_slices import IndexedSlices
from flowgrad.framework.tensor import Tensor, convert_to_tensor, to_numpy

_FLOATS = ("float16", "bfloat16", "float32", "float64", "complex64", "complex128")


def _check_dtype(dt: Any, what: str) -> None:
    if dt.base_dtype.name not in _FLOATS:
        raise TypeError("Cannot compute gradient for unsupported type %s of %s"
                        % (dt.base_dtype.name, what))


def _dense(g: Any, shape: tuple, dtype: Any) -> np.ndarray:
    """A fetched gradient value as a dense array (None -> zeros)."""
    if g is None:
        return np.zeros(shape, dtype)
    if isinstance(g, tuple) and len(g) == 3:      # IndexedSlicesValue
        values, indices, _ = g
        out = np.zeros(shape, dtype)
        np.add.at(out, np.asarray(indices), np.asarray(values))
        return out
    return np.asarray(g)


def _feeds(extra: dict, new: dict) -> dict:
    out = dict(extra)
    out.update(new)
    return out


def _as_array(v: Any) -> np.ndarray:
    """A value (NumPy, Python, eager tensor or variable) as a NumPy array of its own dtype."""
    if hasattr(v, "numpy"):
        return np.asarray(v.numpy())
    if isinstance(v, Tensor):         # a graph tensor: its value in the default session,
        return np.asarray(_session().run(v))      # as TensorFlow's gradient_checker_v2
    return to_numpy(v)


def _session() -> Any:
    sess = get_default_session()
    if sess is None:
        raise ValueError("compute_gradient in graph mode needs a default session: call it "
                         "inside `with tf.Session():` (or `sess.as_default()`)")
    return sess


def max_error(grad1: list, grad2: list) -> float:
    """The largest elementwise gap between two lists of Jacobians.

    Args:
        grad1: Jacobians, as ``compute_gradient`` returns.
        grad2: Jacobians of the same shapes.
    """
    error = 0.0
    for a, b in zip(grad1, grad2):
        if a.size or b.size:
            error = max(error, float(np.fabs(a - b).max()))
    return error


# --------------------------------------------------------------------------------------
# TF2: compute_gradient(f, x, delta)


def compute_gradient(f: Callable, x: list | tuple, delta: float | None = None) -> tuple:
    """Theoretical and numerical Jacobians of ``f`` at the arguments ``x``.

    Returns (theoretical, numerical): tuples with one 2-D array per argument, of
    shape (size of f(x), size of that argument). Works eagerly (GradientTape) and in
    graph mode (placeholders, tf.gradients and the default session).

    Args:
        f: A function of the tensors ``x``, returning a tensor.
        x: The points to check at: a list of tensors or arrays.
        delta: The step of the central differences; 1/1024 when None.
    """
    if not isinstance(x, (list, tuple)):
        raise ValueError("`x` must be a list or tuple of values convertible to a Tensor "
                         "(arguments to `f`), not a %s" % type(x))
    delta = 1.0 / 1024 if delta is None else delta
    # C order: the perturbations write through reshape(-1), a copy of a Fortran-ordered array
    xs = [np.array(_as_array(v), copy=True, order="C") for v in x]
    dts = [dtypes.from_numpy(v.dtype) for v in xs]
    for i, dt in enumerate(dts):
        _check_dtype(dt, "argument %d" % i)
    run, grad = (_eager_fns if executing_eagerly() else _graph_fns)(f, xs, dts)
    y0 = np.asarray(run(xs))
    theoretical, numerical = [], []
    for i, xi in enumerate(xs):
        jt = np.zeros((y0.size, xi.size), dtype=xi.real.dtype)
        dy = np.zeros(y0.shape, y0.dtype)
        for row in range(y0.size):
            dy.reshape(-1)[row] = 1
            jt[row, :] = _dense(grad(xs, i, dy), xi.shape, xi.dtype).ravel()
            dy.reshape(-1)[row] = 0
        jn = np.zeros_like(jt)
        for col in range(xi.size):
            orig = xi.reshape(-1)[col]
            xi.reshape(-1)[col] = orig + delta
            y_pos = np.asarray(run(xs), np.float64)
            xi.reshape(-1)[col] = orig - delta
            y_neg = np.asarray(run(xs), np.float64)
            xi.reshape(-1)[col] = orig
            jn[:, col] = ((y_pos - y_neg) / (2 * delta)).ravel()
        theoretical.append(jt)
        numerical.append(jn)
    return tuple(theoretical), tuple(numerical)


def _eager_fns(f: Callable, xs: list, dts: list) -> tuple:
    from flowgrad.framework.tensor import constant
    from flowgrad.autodiff.tape import GradientTape

    def run(vals: list) -> Any:
        return _as_array(f(*[constant(v, dt) for v, dt in zip(vals, dts)]))

    def grad(vals: list, i: int, dy: np.ndarray) -> Any:
        args = [constant(v, dt) for v, dt in zip(vals, dts)]
        with GradientTape() as tape:
            tape.watch(args[i])
            y = f(*args)
        g = tape.gradient(y, args[i], output_gradients=constant(dy, y.dtype))
        if isinstance(g, IndexedSlices):
            return (_as_array(g.values), _as_array(g.indices), None)
        return None if g is None else _as_array(g)
    return run, grad


def _graph_fns(f: Callable, xs: list, dts: list) -> tuple:
    from flowgrad.autodiff.backprop import gradients
    from flowgrad.ops.array_ops import placeholder
    sess = _session()
    phs = [placeholder(dt, v.shape) for v, dt in zip(xs, dts)]
    y = convert_to_tensor(f(*phs))
    _check_dtype(y.dtype, "y")
    dy = placeholder(y.dtype, y.shape)
    grads = gradients(y, phs, grad_ys=dy)

    def run(vals: list) -> Any:
        return sess.run(y, dict(zip(phs, vals)))

    def grad(vals: list, i: int, dy_val: np.ndarray) -> Any:
        if grads[i] is None:
            return None
        feed = dict(zip(phs, vals))
        feed[dy] = dy_val
        return sess.run(grads[i], feed)
    return run, grad


# --------------------------------------------------------------------------------------
# TF1: compute_gradient(x, x_shape, y, y_shape, ...)


def compute_gradient_v1(x: Any, x_shape: Any, y: Any, y_shape: Any, x_init_value: Any = None,
                        delta: float = 1e-3, init_targets: Any = None,
                        extra_feed_dict: dict | None = None) -> Any:
    """TF1's compute_gradient: Jacobians of graph tensor ``y`` w.r.t. tensor(s) ``x``.

    Returns (theoretical, numerical), each of shape (size of x, size of y); a list
    of such pairs if ``x`` is a list. Uses the default session; ``x`` is fed.

    Args:
        x: The input tensor (or a list of them).
        x_shape: ``x``'s shape (a list of shapes for a list of ``x``).
        y: The output tensor.
        y_shape: ``y``'s shape.
        x_init_value: The point to check at (a NumPy array); random when None.
        delta: The step of the central differences; 1/1024 when None.
        init_targets: Ops to run first (for example variable initializers).
        extra_feed_dict: More feeds for the session runs.
    """
    from flowgrad.autodiff.backprop import gradients
    from flowgrad.ops.array_ops import placeholder
    sess = _session()
    for init in init_targets or ():
        sess.run(init)
    extra = dict(extra_feed_dict or {})
    y = convert_to_tensor(y)
    _check_dtype(y.dtype, "y")
    y_shape = tuple(y_shape)
    if isinstance(x, list):
        inits = x_init_value if x_init_value is not None else [None] * len(x)
        return [_one_v1(sess, xi, tuple(si), y, y_shape, vi, delta, extra, gradients,
                        placeholder) for xi, si, vi in zip(x, x_shape, inits)]
    return _one_v1(sess, x, tuple(x_shape), y, y_shape, x_init_value, delta, extra, gradients,
                   placeholder)


def _one_v1(sess: Any, x: Any, x_shape: tuple, y: Any, y_shape: tuple, init: Any, delta: float,
            extra: dict, gradients: Callable, placeholder: Callable) -> tuple:
    """TensorFlow's TF1 Jacobians: a complex ``x`` or ``y`` counts as its real and imaginary
    parts (twice the rows or columns, real-typed), the numerical one in ``y``'s precision."""
    x = convert_to_tensor(x)
    _check_dtype(x.dtype, "x")
    xdt, ydt = x.dtype.base_dtype, y.dtype.base_dtype
    if init is not None:
        if tuple(np.shape(init)) != x_shape:
            raise ValueError("x_shape = %s, init_data shape = %s" % (list(x_shape),
                                                                     list(np.shape(init))))
        x_data = np.array(init, dtype=xdt.np, order="C")
    else:
        x_data = np.random.random_sample(x_shape).astype(xdt.np)
        if xdt.is_complex:
            x_data.imag = np.random.random_sample(x_shape)
    x_real = xdt.real_dtype.np if xdt.is_complex else xdt.np
    y_real = ydt.real_dtype.np if ydt.is_complex else ydt.np
    x_size = int(np.prod(x_shape)) * (2 if xdt.is_complex else 1)
    y_size = int(np.prod(y_shape)) * (2 if ydt.is_complex else 1)
    dy = placeholder(y.dtype, y_shape)
    (dx,) = gradients(y, [x], grad_ys=dy)
    jt = np.zeros((x_size, y_size), dtype=x_real)
    dy_data = np.zeros(y_shape, ydt.np)
    dy_flat = dy_data.reshape(-1).view(y_real)
    if dx is not None:
        fetch = (dx.values, dx.indices, dx.dense_shape) if isinstance(dx, IndexedSlices) else dx
        for col in range(y_size):
            dy_flat[col] = 1
            g = sess.run(fetch, _feeds(extra, {x: x_data, dy: dy_data}))
            g = _dense(tuple(g) if isinstance(g, (list, tuple)) else g, x_shape, xdt.np)
            jt[:, col] = np.ascontiguousarray(g, dtype=xdt.np).reshape(-1).view(x_real)
            dy_flat[col] = 0
    jn = np.zeros((x_size, y_size), dtype=x_real)
    scale = np.asarray(2 * delta, dtype=y_real)[()]
    for row in range(x_size):
        pos, neg = x_data.copy(), x_data.copy()
        pos.reshape(-1).view(x_real)[row] += delta
        neg.reshape(-1).view(x_real)[row] -= delta
        y_pos = np.asarray(sess.run(y, _feeds(extra, {x: pos})), ydt.np)
        y_neg = np.asarray(sess.run(y, _feeds(extra, {x: neg})), ydt.np)
        jn[row, :] = np.ascontiguousarray((y_pos - y_neg) / scale, ydt.np).reshape(-1) \
            .view(y_real)
    return jt, jn


def compute_gradient_error_v1(x: Any, x_shape: Any, y: Any, y_shape: Any,
                              x_init_value: Any = None, delta: float = 1e-3,
                              init_targets: Any = None,
                              extra_feed_dict: dict | None = None) -> float:
    """TF1's compute_gradient_error: the largest gap between the two Jacobians.

    Args:
        x: The input tensor (or a list of them).
        x_shape: ``x``'s shape (a list of shapes for a list of ``x``).
        y: The output tensor.
        y_shape: ``y``'s shape.
        x_init_value: The point to check at (a NumPy array); random when None.
        delta: The step of the central differences.
        init_targets: Ops to run first (for example variable initializers).
        extra_feed_dict: More feeds for the session runs.
    """
    grad = compute_gradient_v1(x, x_shape, y, y_shape, x_init_value, delta, init_targets,
                               extra_feed_dict)
    pairs = [grad] if isinstance(grad, tuple) else grad
    return max_error([t for t, _ in pairs], [n for _, n in pairs])


def compute_gradient_error(f: Callable, x: list | tuple, delta: float | None = None) -> float:
    """The largest gap between ``compute_gradient(f, x)``'s two Jacobians (flowgrad helper).

    Args:
        f: A function of the tensors ``x``, returning a tensor.
        x: The points to check at: a list of tensors or arrays.
        delta: The step of the central differences.
    """
    return max_error(*compute_gradient(f, x, delta))
