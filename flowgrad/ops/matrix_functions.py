"""Matrix functions: ``tf.linalg.sqrtm`` (TensorFlow's MatrixSquareRoot, with its Sylvester
gradient) and ``tf.linalg.logm`` (MatrixLogarithm, complex only and without a gradient, as in
TensorFlow). The kernels are SciPy's Schur-method ``sqrtm``/``logm`` (TensorFlow's Eigen
kernels use the same method): ``pip install flowgrad[linalg]``."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework.errors import InvalidArgumentError
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import defop, register_jvp, register_op
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops.array_ops import _as_value
from flowgrad.ops.linalg_ops import _matrices, matrix_transpose, solve
from flowgrad.ops.shape_ops import reshape, shape
from flowgrad.framework.type_hints import TensorLike

_REAL = ("float16", "float32", "float64")
_COMPLEX = ("complex64", "complex128")


def _scipy_linalg() -> Any:
    try:
        import scipy.linalg
    except ImportError:
        raise ImportError("tf.linalg.sqrtm and logm need SciPy: pip install flowgrad[linalg]"
                          ) from None
    return scipy.linalg


def _each_matrix(x: np.ndarray, fn: Any) -> np.ndarray:
    if x.size == 0:
        return x.copy()
    out = np.empty_like(x)
    flat_in = x.reshape((-1,) + x.shape[-2:])
    flat_out = out.reshape(flat_in.shape)
    for i, m in enumerate(flat_in):
        flat_out[i] = fn(m)
    return out


def _sqrtm_one(m: np.ndarray) -> np.ndarray:
    if m.shape[-1] == 0:
        return m
    with np.errstate(all="ignore"):
        r = _scipy_linalg().sqrtm(m.astype(np.promote_types(m.dtype, np.float64)))
    if m.dtype.kind != "c" and np.iscomplexobj(r):
        if np.abs(r.imag).max() > 1e-10 * max(1.0, np.abs(r.real).max()):
            return np.full(m.shape, np.nan, m.dtype)    # no real square root: TF gives NaN
        r = r.real
    return r.astype(m.dtype)


def _square_check(x: Any, op_type: str) -> None:
    if x.ndim < 2:
        raise InvalidArgumentError(None, None, "Input must have rank >= 2, got %d" % x.ndim)
    if x.shape[-1] != x.shape[-2]:
        raise InvalidArgumentError(None, None, "Input matrix must be square.")


def _sqrtm_kernel(x: np.ndarray) -> np.ndarray:
    _square_check(x, "MatrixSquareRoot")
    return _each_matrix(x, _sqrtm_one)


def _kronecker_sum(r: Any) -> Any:
    """``I (x) R^T + R (x) I`` per matrix of the batch ``R`` (the Sylvester operator
    ``X -> R X + X R`` on row-major vectorisations)."""
    from flowgrad.ops.linalg_ops import eye_like
    eye = eye_like(r)
    return _kron(eye, matrix_transpose(r)) + _kron(r, eye)


def _kron(a: Any, b: Any) -> Any:
    from flowgrad.ops.shape_ops import expand_dims
    n = a.shape.as_list()[-1] if a.shape.rank is not None else None
    prod = expand_dims(expand_dims(a, -1), -3) * expand_dims(expand_dims(b, -2), -4)
    s = shape(a)
    if n is not None and a.shape.is_fully_defined():
        return reshape(prod, a.shape.as_list()[:-2] + [n * n, n * n])
    from flowgrad.ops.concat_ops import concat
    return reshape(prod, concat([s[:-2], [s[-1] * s[-1], s[-1] * s[-1]]], 0))


def _sylvester_solve(r: Any, rhs: Any) -> Any:
    """``X`` with ``R X + X R = rhs``, per matrix of the batch."""
    from flowgrad.ops.shape_ops import expand_dims
    s = shape(rhs)
    from flowgrad.ops.concat_ops import concat
    vec = expand_dims(reshape(rhs, concat([s[:-2], [-1]], 0)), -1)
    x = solve(_kronecker_sum(r), vec)
    return reshape(x, s)


@defop("MatrixSquareRoot", _sqrtm_kernel,
       lambda ins, attrs: (ins[0].dtype.base_dtype, _matrices(ins[0].shape, "MatrixSquareRoot")),
       input_names=("input",), batching="matrix")
def _sqrtm_grad(op: Any, grad: Any) -> Any:
    # R R = A, so R dR + dR R = dA; the gradient solves the adjoint (transposed) equation
    # R^T G_A + G_A R^T = G_R (TensorFlow's _MatrixSquareRootGrad).
    r = op.outputs[0]
    return _sylvester_solve(matrix_transpose(r), grad)


def _sqrtm_jvp(op: Any, t: Any) -> Any:
    if t is None:
        return None
    return _sylvester_solve(op.outputs[0], t)


register_jvp("MatrixSquareRoot", _sqrtm_jvp)


def sqrtm(input: TensorLike, name: str | None = None) -> Any:  # noqa: A002 - TensorFlow's name
    """The principal square root of each square matrix, as ``tf.linalg.sqrtm``: ``R`` with
    ``R R = A`` whose eigenvalues have non-negative real parts. A real matrix with a negative
    real eigenvalue has no real square root: its result is NaN, as TensorFlow's.

    Args:
      input: A float or complex tensor ``[..., M, M]``.
      name: A name for the operation.

    Returns:
      A tensor of ``input``'s shape and dtype.

    Raises:
      InvalidArgumentError: The matrices are not square.
    """
    x = convert_to_tensor(_as_value(input), name="input")
    if x.dtype.base_dtype.name not in _REAL + _COMPLEX:
        raise InvalidArgumentError(None, None, "Value for attr 'T' of %s is not in the list of "
                                   "allowed values: double, float, half, complex64, complex128"
                                   % x.dtype.base_dtype.name)
    return apply_op("MatrixSquareRoot", [x], name=name)


def _logm_kernel(x: np.ndarray) -> np.ndarray:
    _square_check(x, "MatrixLogarithm")

    def one(m: np.ndarray) -> np.ndarray:
        if m.shape[-1] == 0:
            return m
        with np.errstate(all="ignore"):
            return np.asarray(_scipy_linalg().logm(m.astype(np.complex128)), m.dtype)
    return _each_matrix(x, one)


register_op("MatrixLogarithm", _logm_kernel,
            lambda ins, attrs: (ins[0].dtype.base_dtype,
                                _matrices(ins[0].shape, "MatrixLogarithm")),
            input_names=("input",), batching="matrix")


def logm(input: TensorLike, name: str | None = None) -> Any:  # noqa: A002 - TensorFlow's name
    """The principal logarithm of each square complex matrix, as ``tf.linalg.logm`` (which,
    like TensorFlow's, has no gradient).

    Args:
      input: A complex64 or complex128 tensor ``[..., M, M]``.
      name: A name for the operation.

    Returns:
      A tensor of ``input``'s shape and dtype.

    Raises:
      InvalidArgumentError: A real dtype, or matrices that are not square.
    """
    x = convert_to_tensor(_as_value(input), name="input")
    if x.dtype.base_dtype.name not in _COMPLEX:
        raise InvalidArgumentError(None, None, "Value for attr 'T' of %s is not in the list of "
                                   "allowed values: complex64, complex128"
                                   % _tf_name(x.dtype.base_dtype.name))
    return apply_op("MatrixLogarithm", [x], name=name)


def _tf_name(name: str) -> str:
    return {"float64": "double", "float32": "float", "float16": "half"}.get(name, name)
