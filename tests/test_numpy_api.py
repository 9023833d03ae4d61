"""tf.experimental.numpy against TensorFlow 2.21: every expression of
tools/tf_reference/numpy_api_reference.py, recorded in tests/data/numpy_api/tnp_reference.json,
gives TensorFlow's dtype, shape and values (or its error class) on flowgrad, and so do tensor
operators, methods and indexing after ``experimental_enable_numpy_behavior``."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as v1
from flowgrad.experimental_numpy import numpy_behavior

tnp = tf.experimental.numpy
REF = json.loads((Path(__file__).resolve().parent / "data" / "numpy_api"
                  / "tnp_reference.json").read_text())

#: Cases where TensorFlow 2.21's tnp fails on NumPy-valid input (``pad`` without ``mode``,
#: ``var`` with ``ddof``, ``linspace`` of lists, ``size`` with an axis, ``cumsum`` of bools,
#: ``concatenate(axis=None)``, ``isinf`` of a list, reflect/symmetric ``pad`` of a 1-D array):
#: flowgrad answers as NumPy does; the expected value is NumPy's.
NUMPY_WHERE_TF_FAILS = {
    "tnp.isinf([np.inf, 1.0])": "np.isinf([np.inf, 1.0])",
    "tnp.pad([1, 2], 1)": "np.pad([1, 2], 1)",
    "tnp.pad(x, ((1, 0), (0, 2)), constant_values=9)":
        "np.pad(x.numpy(), ((1, 0), (0, 2)), constant_values=9)",
    "tnp.pad([1, 2, 3], 2, mode='reflect')": "np.pad([1, 2, 3], 2, mode='reflect')",
    "tnp.pad([1, 2, 3], 2, mode='symmetric')": "np.pad([1, 2, 3], 2, mode='symmetric')",
    "tnp.linspace([0, 1], [2, 3], 3, axis=1)": "np.linspace([0, 1], [2, 3], 3, axis=1)",
    "tnp.size(x, 1)": "np.size(x.numpy(), 1)",
    "tnp.var(x, ddof=1)": "np.var(x.numpy().astype(np.float32), ddof=1)",
    "tnp.concatenate([x, x], axis=None)": "np.concatenate([x.numpy(), x.numpy()], axis=None)",
    "tnp.cumsum(b)": "np.cumsum(b.numpy())",
}


@pytest.fixture(autouse=True)
def eager():
    """These tests run as TF2 programs (the suite starts each test in graph mode)."""
    v1.enable_v2_behavior()
    yield


@pytest.fixture
def numpy_mode():
    """NumPy behaviour on for one test (flowgrad can turn it off again; TensorFlow cannot)."""
    tnp.experimental_enable_numpy_behavior()
    yield
    numpy_behavior.disable_numpy_behavior()


def _namespace() -> dict:
    ns = {"tf": tf, "tnp": tnp, "np": np}
    exec(REF["setup"], ns)  # noqa: S102 - the recorded set-up
    return ns


def _plain(arr: np.ndarray) -> list:
    arr = np.asarray(arr)
    if arr.dtype.kind == "c":
        return [np.real(arr).tolist(), np.imag(arr).tolist()]
    return arr.tolist()


def _check(expr: str, got: object, want: dict) -> None:
    if "seq" in want:
        assert isinstance(got, (list, tuple)), (expr, got)
        assert len(got) == len(want["seq"]), expr
        for g, w in zip(got, want["seq"]):
            _check(expr, g, w)
    elif "dtype_value" in want:
        assert np.dtype(tf.as_dtype(got).as_numpy_dtype).name == want["dtype_value"], (expr, got)
    elif "shape_value" in want:
        assert got.as_list() == want["shape_value"], (expr, got)
    elif "python" in want:
        assert not tf.is_tensor(got), (expr, got)
        np.testing.assert_allclose(np.asarray(got), want["value"], rtol=1e-6, err_msg=expr)
    elif "dtype" in want and "shape" in want:
        assert tf.is_tensor(got), (expr, got)
        assert got.dtype.name == want["dtype"], (expr, got.dtype.name, want["dtype"])
        assert got.shape.as_list() == want["shape"], (expr, got.shape, want["shape"])
        _values(expr, got.numpy(), want["value"], got.dtype.name)
    else:
        assert repr(got) == want["repr"], (expr, got, want)


def _values(expr: str, got: np.ndarray, want: list, dtype: str) -> None:
    got = _plain(got)
    if dtype in ("string",):
        assert got == want, expr
        return
    tol = 1e-6 if dtype in ("float32", "complex64") else 2e-3 if dtype == "float16" else 1e-12
    np.testing.assert_allclose(np.asarray(got, dtype=float), np.asarray(want, dtype=float),
                               rtol=tol, atol=tol, equal_nan=True, err_msg=expr)


def _expected(expr: str) -> dict:
    want = REF["functions"][expr]
    if want.get("error") == "AttributeError" and "error" not in \
            REF["functions_numpy_behaviour"][expr]:
        # TF's tnp casts with ``Tensor.astype``, which exists only with NumPy behaviour on.
        want = REF["functions_numpy_behaviour"][expr]
    return want


@pytest.mark.parametrize("expr", sorted(REF["functions"]))
def test_function_matches_tensorflow(expr):
    ns = _namespace()
    if expr in NUMPY_WHERE_TF_FAILS:
        want = np.asarray(eval(NUMPY_WHERE_TF_FAILS[expr], ns))  # noqa: S307
        got = eval(expr, ns)  # noqa: S307
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6, err_msg=expr)
        assert np.asarray(got).dtype == want.dtype or tf.is_tensor(got), expr
        return
    want = _expected(expr)
    if "error" in want:
        with pytest.raises(Exception) as info:
            eval(expr, ns)  # noqa: S307
        assert type(info.value).__name__ == want["error"], (expr, info.value)
        return
    _check(expr, eval(expr, ns), want)  # noqa: S307


@pytest.mark.parametrize("expr", sorted(REF["behaviour"]))
def test_numpy_behaviour_matches_tensorflow(expr, numpy_mode):
    ns = _namespace()
    want = REF["behaviour"][expr]
    if "error" in want:
        with pytest.raises(Exception) as info:
            eval(expr, ns)  # noqa: S307
        assert type(info.value).__name__ == want["error"], (expr, info.value)
        return
    _check(expr, eval(expr, ns), want)  # noqa: S307


def test_numpy_behaviour_is_off_by_default_and_can_be_undone():
    x = tf.constant([1, 2])
    assert not hasattr(x, "T")
    with pytest.raises(tf.errors.InvalidArgumentError):
        _ = x + 1.5
    tnp.experimental_enable_numpy_behavior()
    try:
        assert (x + 1.5).dtype == tf.float64
        assert x.T.shape == (2,)
    finally:
        numpy_behavior.disable_numpy_behavior()
    assert not hasattr(x, "T")


def test_prefer_float32():
    tnp.experimental_enable_numpy_behavior(prefer_float32=True)
    try:
        assert tnp.array(1.5).dtype == tf.float32
        assert tnp.arange(3.0).dtype == tf.float32
        assert tnp.ones(2).dtype == tf.float64          # the type float stays float64 (as TF)
        assert (tf.constant([1, 2]) + 1.5).dtype == tf.float64      # int32 with float32
        assert (tf.constant([1.0, 2.0]) + 1.5).dtype == tf.float32
    finally:
        numpy_behavior.disable_numpy_behavior()
    assert tnp.array(1.5).dtype == tf.float64


def test_functions_differentiate():
    x = tf.constant([[0.5, -1.0], [2.0, 0.25]], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tnp.sum(tnp.sin(x) * tnp.exp(x)) + tnp.mean(tnp.square(tnp.matmul(x, x.numpy())))
    g = tape.gradient(y, x).numpy()
    xv = x.numpy()
    eps = 1e-6
    numeric = np.zeros_like(xv)
    f = (lambda a: np.sum(np.sin(a) * np.exp(a)) + np.mean(np.square(a @ xv)))
    for idx in np.ndindex(xv.shape):
        d = np.zeros_like(xv)
        d[idx] = eps
        numeric[idx] = (f(xv + d) - f(xv - d)) / (2 * eps)
    np.testing.assert_allclose(g, numeric, rtol=1e-6)


def test_functions_in_tf_function_and_graph():
    @tf.function
    def f(a):
        return tnp.cumsum(tnp.where(a > 0, a, 0.0) * 2, axis=0), tnp.take(a, [1, 0], axis=1)

    a = tnp.array([[1.0, -2.0], [3.0, 4.0]])
    s, t = f(a)
    np.testing.assert_array_equal(s.numpy(), [[2.0, 0.0], [8.0, 8.0]])
    np.testing.assert_array_equal(t.numpy(), [[-2.0, 1.0], [4.0, 3.0]])


def test_random_uses_the_global_seed():
    tnp.random.seed(7)
    a = tnp.random.randn(3, 2)
    tnp.random.seed(7)
    b = tnp.random.randn(3, 2)
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert a.dtype == tf.float64 and a.shape == (3, 2)
    r = tnp.random.randint(2, 5, size=100)
    assert r.dtype == tf.int64 and 2 <= r.numpy().min() and r.numpy().max() < 5
    u = tnp.random.uniform(1.0, 2.0, size=(4,)).numpy()
    assert ((u >= 1) & (u < 2)).all()
    assert tnp.random.poisson(3.0, size=5).dtype == tf.int64
    with pytest.raises(ValueError, match="int32"):
        tnp.random.randint(3, dtype=tnp.float32)


def test_namespace_is_tensorflows():
    assert set(dir(tnp)) == set(REF["names"])
    assert tnp.ndarray is tf.Tensor
