"""Records ``tf.linalg``'s LinearOperator family, ``sqrtm`` and ``logm`` on TensorFlow 2.21:
for each operator of OPERATORS, its shape, hints, dense matrix, products, solves,
determinants, trace, diagonal and the class and matrix of its inverse and adjoint; and the
matrix functions of MATRIX_CASES. Saved to tests/data/linear_operator/reference.json, which
tests/test_linear_operator.py replays on flowgrad.

Run with the TensorFlow venv:
``/work/venv-tf/bin/python tools/tf_reference/linear_operator_reference.py``.
"""
from __future__ import annotations

import json
import pathlib

import numpy as np

SETUP = """
rng = np.random.RandomState(0)
m3 = tf.constant(rng.randn(3, 3) + 3 * np.eye(3))
m2 = tf.constant(rng.randn(2, 2) + 2 * np.eye(2))
b23 = tf.constant(rng.randn(2, 3, 3) + 3 * np.eye(3))
spd = tf.constant([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
u = tf.constant(rng.randn(3, 2))
v = tf.constant(rng.randn(3, 2))
"""

OPERATORS = {
    "full": "tf.linalg.LinearOperatorFullMatrix(m3)",
    "full_spd": "tf.linalg.LinearOperatorFullMatrix(spd, is_self_adjoint=True, "
                "is_positive_definite=True)",
    "full_batch": "tf.linalg.LinearOperatorFullMatrix(b23)",
    "full_rect": "tf.linalg.LinearOperatorFullMatrix(u)",
    "diag": "tf.linalg.LinearOperatorDiag(tf.constant([1.5, -2.0, 4.0], tf.float64))",
    "diag_batch": "tf.linalg.LinearOperatorDiag(tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], "
                  "tf.float64), is_positive_definite=True)",
    "identity": "tf.linalg.LinearOperatorIdentity(3, dtype=tf.float64)",
    "identity_batch": "tf.linalg.LinearOperatorIdentity(3, batch_shape=[2], dtype=tf.float64)",
    "scaled": "tf.linalg.LinearOperatorScaledIdentity(3, tf.constant(2.5, tf.float64))",
    "scaled_batch": "tf.linalg.LinearOperatorScaledIdentity(3, tf.constant([2.0, -0.5], "
                    "tf.float64))",
    "tril": "tf.linalg.LinearOperatorLowerTriangular(m3)",
    "zeros": "tf.linalg.LinearOperatorZeros(3, dtype=tf.float64)",
    "composition": "tf.linalg.LinearOperatorComposition([tf.linalg.LinearOperatorFullMatrix(m3),"
                   " tf.linalg.LinearOperatorDiag(tf.constant([1.0, 2.0, 3.0], tf.float64))])",
    "block_diag": "tf.linalg.LinearOperatorBlockDiag([tf.linalg.LinearOperatorFullMatrix(m2), "
                  "tf.linalg.LinearOperatorFullMatrix(m3)])",
    "kronecker": "tf.linalg.LinearOperatorKronecker([tf.linalg.LinearOperatorFullMatrix(m2), "
                 "tf.linalg.LinearOperatorFullMatrix(m3)])",
    "low_rank": "tf.linalg.LinearOperatorLowRankUpdate(tf.linalg.LinearOperatorDiag("
                "tf.constant([1.0, 2.0, 3.0], tf.float64)), u)",
    "low_rank_uv": "tf.linalg.LinearOperatorLowRankUpdate(tf.linalg.LinearOperatorFullMatrix(m3),"
                   " u, diag_update=tf.constant([2.0, 0.5], tf.float64), v=v)",
    "toeplitz": "tf.linalg.LinearOperatorToeplitz(col=tf.constant([3.0, 1.0, 0.5], tf.float64), "
                "row=tf.constant([3.0, -1.0, 2.0], tf.float64))",
    "circulant": "tf.linalg.LinearOperatorCirculant(tf.constant([6.0, 1 + 2j, 1 - 2j], "
                 "tf.complex128), input_output_dtype=tf.complex128)",
    "householder": "tf.linalg.LinearOperatorHouseholder(tf.constant([1.0, 2.0, 2.0], tf.float64))",
    "permutation": "tf.linalg.LinearOperatorPermutation(tf.constant([2, 0, 1]), "
                   "dtype=tf.float64)",
    "tridiag": "tf.linalg.LinearOperatorTridiag(tf.constant([[1.0, 2.0, 0.0], [4.0, 5.0, 6.0], "
               "[0.0, 7.0, 8.0]], tf.float64))",
    "adjoint": "tf.linalg.LinearOperatorAdjoint(tf.linalg.LinearOperatorFullMatrix(m3))",
    "inversion": "tf.linalg.LinearOperatorInversion(tf.linalg.LinearOperatorFullMatrix(m3))",
    "block_lower": "tf.linalg.LinearOperatorBlockLowerTriangular([[tf.linalg."
                   "LinearOperatorFullMatrix(m2)], [tf.linalg.LinearOperatorFullMatrix("
                   "tf.ones([3, 2], tf.float64)), tf.linalg.LinearOperatorFullMatrix(m3)]])",
}

METHODS = {
    "shape": "op.shape", "batch_shape": "op.batch_shape", "domain": "op.domain_dimension",
    "range": "op.range_dimension", "rank": "op.tensor_rank", "dtype": "op.dtype",
    "is_square": "op.is_square", "is_self_adjoint": "op.is_self_adjoint",
    "is_non_singular": "op.is_non_singular", "is_positive_definite": "op.is_positive_definite",
    "to_dense": "op.to_dense()", "matmul": "op.matmul(x)",
    "matmul_adj": "op.matmul(x, adjoint=True)",
    "matmul_adj_arg": "op.matmul(xt, adjoint_arg=True)", "matvec": "op.matvec(x[..., 0])",
    "solve": "op.solve(x)", "solve_adj": "op.solve(x, adjoint=True)",
    "solvevec": "op.solvevec(x[..., 0])", "det": "op.determinant()",
    "logdet": "op.log_abs_determinant()", "trace": "op.trace()", "diag_part": "op.diag_part()",
    "inverse_class": "type(op.inverse()).__name__", "inverse": "op.inverse().to_dense()",
    "adjoint_class": "type(op.adjoint()).__name__", "adjoint": "op.adjoint().to_dense()",
    "add_to_tensor": "op.add_to_tensor(op.to_dense())",
    "matmul_op_class": "type(op @ op).__name__",
}

MATRIX_CASES = [
    "tf.linalg.sqrtm(tf.constant([[4.0, 1.0], [1.0, 3.0]], tf.float64))",
    "tf.linalg.sqrtm(tf.constant([[4.0, 1.0], [1.0, 3.0]], tf.float32))",
    "tf.linalg.sqrtm(tf.constant([[-1.0, 0.0], [0.0, 4.0]], tf.float64))",
    "tf.linalg.sqrtm(tf.constant([[0.0, 1.0], [-1.0, 0.0]], tf.float64))",
    "tf.linalg.sqrtm(tf.constant([[1 + 1j, 2], [0, 3]], tf.complex128))",
    "tf.linalg.sqrtm(b23)",
    "tf.linalg.sqrtm(tf.ones([2, 3], tf.float64))",
    "tf.linalg.logm(tf.constant([[4.0, 1.0], [1.0, 3.0]], tf.complex128))",
    "tf.linalg.logm(tf.cast(b23, tf.complex64))",
    "tf.linalg.logm(tf.constant([[0.0, 1.0], [-1.0, 0.0]], tf.complex128))",
    "tf.linalg.logm(tf.constant([[4.0, 1.0], [1.0, 3.0]], tf.float64))",
]


def _plain(x):
    arr = np.asarray(x)
    if arr.dtype.kind == "c":
        return {"re": arr.real.tolist(), "im": arr.imag.tolist()}
    return arr.tolist()


def _record(value):
    if hasattr(value, "as_list"):
        return {"shape": value.as_list()}
    if hasattr(value, "numpy"):
        return {"dtype": value.dtype.name, "value": _plain(value.numpy())}
    if hasattr(value, "as_numpy_dtype"):
        return {"dtype_value": value.name}
    if type(value).__name__ == "Dimension":      # domain_dimension: compares as its value
        return {"python": value.value}
    return {"python": value}


def _try(expr, ns):
    try:
        return _record(eval(expr, ns))  # noqa: S307 - our own expressions
    except Exception as exc:  # noqa: BLE001 - the class is what is recorded
        return {"error": type(exc).__name__}


def main() -> None:
    import tensorflow as tf
    ns = {"tf": tf, "np": np}
    exec(SETUP, ns)  # noqa: S102 - our own set-up
    record = {"setup": SETUP, "methods": METHODS, "operators": {}, "matrices": {}}
    for key, ctor in OPERATORS.items():
        op = eval(ctor, ns)  # noqa: S307
        rng = np.random.RandomState(1)
        x = rng.randn(*(op.batch_shape.as_list() + [op.shape[-1], 2]))
        if op.dtype.is_complex:
            x = x + 1j * rng.randn(*x.shape)
        xt = np.swapaxes(x, -1, -2).conj()
        local = dict(ns, op=op, x=tf.constant(x, op.dtype), xt=tf.constant(xt, op.dtype))
        record["operators"][key] = {
            "ctor": ctor, "x": _plain(x),
            "results": {name: _try(expr, local) for name, expr in METHODS.items()}}
    for expr in MATRIX_CASES:
        record["matrices"][expr] = _try(expr, ns)
    path = pathlib.Path(__file__).resolve().parents[2] / "tests/data/linear_operator/reference.json"
    path.write_text(json.dumps(record, indent=0, sort_keys=True) + "\n")
    print("wrote", path)


if __name__ == "__main__":
    main()
