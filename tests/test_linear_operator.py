"""tf.linalg's LinearOperator family, sqrtm and logm against TensorFlow 2.21
(tools/tf_reference/linear_operator_reference.py recorded
tests/data/linear_operator/reference.json): each operator's shape, hints, dense matrix,
products, solves, determinants, trace, diagonal and the class and matrix of its inverse,
adjoint and square; the matrix functions' values and errors. The MatrixSquareRoot op's
gradient checks are op_db entries (family matrix_functions); the operators, written with ops,
differentiate (checked here against central differences)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as v1

REF = json.loads((Path(__file__).resolve().parent / "data" / "linear_operator"
                  / "reference.json").read_text())


@pytest.fixture(autouse=True)
def eager():
    """These tests run as TF2 programs (the suite starts each test in graph mode)."""
    v1.enable_v2_behavior()
    yield


def _namespace() -> dict:
    ns = {"tf": tf, "np": np}
    exec(REF["setup"], ns)  # noqa: S102 - the recorded set-up
    return ns


def _array(recorded) -> np.ndarray:
    if isinstance(recorded, dict):
        return np.asarray(recorded["re"]) + 1j * np.asarray(recorded["im"])
    return np.asarray(recorded)


def _check(what: str, got, want: dict) -> None:
    if "shape" in want:
        assert got.as_list() == want["shape"], what
    elif "dtype_value" in want:
        assert got.name == want["dtype_value"], what
    elif "python" in want:
        assert got == want["python"], (what, got, want["python"])
    else:
        assert tf.is_tensor(got), (what, got)
        assert got.dtype.name == want["dtype"], (what, got.dtype.name, want["dtype"])
        value, expected = got.numpy(), _array(want["value"])
        assert value.shape == expected.shape, (what, value.shape, expected.shape)
        tol = 1e-4 if want["dtype"] in ("float32", "complex64") else 1e-9
        np.testing.assert_allclose(value, expected, rtol=tol, atol=tol, err_msg=what)


@pytest.mark.parametrize("key", sorted(REF["operators"]))
def test_operator_matches_tensorflow(key):
    entry = REF["operators"][key]
    ns = _namespace()
    op = eval(entry["ctor"], ns)  # noqa: S307 - the recorded constructor
    x = _array(entry["x"])
    local = dict(ns, op=op, x=tf.constant(x, op.dtype),
                 xt=tf.constant(np.swapaxes(x, -1, -2).conj(), op.dtype))
    for name, expr in REF["methods"].items():
        want = entry["results"][name]
        if "error" in want:
            with pytest.raises(Exception) as info:
                eval(expr, local)  # noqa: S307
            assert type(info.value).__name__ in (want["error"], "InvalidArgumentError") \
                if want["error"] == "ValueError" and name.startswith("matmul") \
                else type(info.value).__name__ == want["error"], (key, name, info.value)
            continue
        _check("%s.%s" % (key, name), eval(expr, local), want)  # noqa: S307


@pytest.mark.parametrize("expr", sorted(REF["matrices"]))
def test_matrix_function_matches_tensorflow(expr):
    ns = _namespace()
    want = REF["matrices"][expr]
    if "error" in want:
        with pytest.raises(Exception) as info:
            eval(expr, ns)  # noqa: S307
        assert type(info.value).__name__ == want["error"], (expr, info.value)
        return
    _check(expr, eval(expr, ns), want)  # noqa: S307


def test_logm_has_no_gradient_as_in_tensorflow():
    x = tf.Variable([[4.0, 1.0], [1.0, 3.0]], dtype=tf.complex128)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.math.real(tf.linalg.logm(x)))
    with pytest.raises(LookupError, match="MatrixLogarithm"):
        tape.gradient(y, x)


def _numeric_gradient(f, x, eps=1e-6):
    g = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[idx] = eps
        g[idx] = (f(x + d) - f(x - d)) / (2 * eps)
    return g


@pytest.mark.parametrize("build", [
    lambda p: tf.linalg.LinearOperatorLowRankUpdate(
        tf.linalg.LinearOperatorDiag(tf.constant([1.0, 2.0, 3.0], tf.float64)), p),
    lambda p: tf.linalg.LinearOperatorKronecker([
        tf.linalg.LinearOperatorFullMatrix(tf.constant([[2.0, 0.5], [0.1, 1.0]], tf.float64)),
        tf.linalg.LinearOperatorFullMatrix(p[:2] + 3.0 * np.eye(2))]),
    lambda p: tf.linalg.LinearOperatorBlockDiag([
        tf.linalg.LinearOperatorLowerTriangular(p[:2] + 2.0 * np.eye(2)),
        tf.linalg.LinearOperatorDiag(p[2] + 3.0)]),
], ids=["low_rank_update", "kronecker", "block_diag"])
def test_operator_methods_differentiate(build):
    p0 = np.random.RandomState(3).randn(3, 2) * 0.3
    rhs = tf.constant(np.random.RandomState(4).randn(build(p0).shape[-1], 1))

    def value(p):
        op = build(tf.constant(p))
        return op.log_abs_determinant() + tf.reduce_sum(op.solve(rhs) ** 2) + tf.reduce_sum(
            op.matvec(rhs[:, 0]))

    p = tf.constant(p0)
    with tf.GradientTape() as tape:
        tape.watch(p)
        y = value(p)
    got = tape.gradient(y, p).numpy()
    want = _numeric_gradient(lambda a: value(tf.constant(a)).numpy(), p0)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-8)


def test_operators_in_tf_function():
    @tf.function
    def f(d, m):
        op = tf.linalg.LinearOperatorComposition([
            tf.linalg.LinearOperatorDiag(d), tf.linalg.LinearOperatorFullMatrix(m)])
        return op.solvevec(tf.ones([2], tf.float64)), op.log_abs_determinant()

    d = tf.constant([2.0, 4.0], tf.float64)
    m = tf.constant([[1.0, 2.0], [0.5, 3.0]], tf.float64)
    x, logdet = f(d, m)
    dense = np.diag(d.numpy()) @ m.numpy()
    np.testing.assert_allclose(x.numpy(), np.linalg.solve(dense, np.ones(2)))
    np.testing.assert_allclose(logdet.numpy(), np.log(abs(np.linalg.det(dense))))


def test_bad_hints_and_arguments_raise_tensorflows_errors():
    with pytest.raises(ValueError, match="self adjoint"):
        tf.linalg.LinearOperatorDiag([1.0, 2.0], is_self_adjoint=False)
    with pytest.raises(ValueError, match="non-singular"):
        tf.linalg.LinearOperatorFullMatrix([[1.0]], is_positive_definite=True,
                                           is_non_singular=False)
    with pytest.raises(ValueError, match="non-empty"):
        tf.linalg.LinearOperatorComposition([])
    with pytest.raises(TypeError, match="same dtype"):
        tf.linalg.LinearOperatorComposition([
            tf.linalg.LinearOperatorDiag([1.0]),
            tf.linalg.LinearOperatorDiag(tf.constant([1.0], tf.float64))])
    with pytest.raises(ValueError, match="2 dimensions"):
        tf.linalg.LinearOperatorFullMatrix([1.0, 2.0])
    with pytest.raises(ValueError, match="Cholesky"):
        tf.linalg.LinearOperatorFullMatrix([[1.0, 0.0], [0.0, 1.0]]).cholesky()
    chol = tf.linalg.LinearOperatorFullMatrix(
        [[4.0, 2.0], [2.0, 3.0]], is_self_adjoint=True, is_positive_definite=True).cholesky()
    np.testing.assert_allclose(chol.to_dense().numpy(), np.linalg.cholesky(
        [[4.0, 2.0], [2.0, 3.0]]), rtol=1e-6)
