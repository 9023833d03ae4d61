"""More of ``tf.linalg``: the ``Cross`` op (cross products of 3-vectors), the ``Lu`` op (LU
decomposition with partial pivoting, as LAPACK's getrf) and the ``Eig`` op (eigenvalues and
vectors of general matrices) -- flowgrad has no gradient for these two yet, TensorFlow has
(docs/differences.md) -- and ``pinv`` and ``matrix_rank`` made of the singular
value decomposition as TensorFlow makes them (so ``pinv`` differentiates through ``Svd``'s
gradient)."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.errors import InvalidArgumentError
from flowgrad.framework.graph import name_scope
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import defop, register_jvp, register_op
from flowgrad.framework.shape_rules import binary
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.arithmetic_ops import add, multiply, negative, realdiv, subtract
from flowgrad.ops.array_ops import _as_value, expand_dims, shape, sum_tangents, zeros_like
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.comparison_ops import greater, where
from flowgrad.ops.fill_ops import fill
from flowgrad.ops.complex_ops import conj, real
from flowgrad.ops.linalg_ops import (_safe_reciprocal, adjoint, diag, diag_part, norm, set_diag,
                                     solve, svd)
from flowgrad.ops.matmul_ops import matmul
from flowgrad.ops.reduction_ops import reduce_max
from flowgrad.ops.sum_ops import reduce_sum
from flowgrad.ops.op_results import Lu
from flowgrad.framework.type_hints import AxisLike, TensorLike


def _cross_kernel(a: Any, b: Any) -> np.ndarray:
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or not a.shape or a.shape[-1] != 3:
        raise InvalidArgumentError(None, None, "Cross: a and b must have the same shape with "
                                   "an innermost dimension of 3, got %s and %s"
                                   % (list(a.shape), list(b.shape)))
    return np.cross(a, b)


@defop("Cross", _cross_kernel, binary, same_dtype=True, input_names=("a", "b"))
def _cross_grad(op: Any, grad: Any) -> Any:
    a, b = op.inputs
    return cross(b, grad), cross(grad, a)


register_jvp("Cross", lambda op, ta, tb: sum_tangents(op.outputs[0], [
    None if ta is None else cross(ta, op.inputs[1]),
    None if tb is None else cross(op.inputs[0], tb)]))


def cross(a: TensorLike, b: TensorLike, name: str | None = None) -> Any:
    """The cross product of 3-vectors along the innermost axis.

    Args:
      a: A tensor whose innermost dimension is 3.
      b: A tensor of ``a``'s shape and dtype.
      name: A name for the operation.

    Returns:
      ``a x b``, of ``a``'s shape.

    Raises:
      InvalidArgumentError: if the shapes differ or the innermost dimension is not 3.
    """
    x = convert_to_tensor(_as_value(a), name="a")
    y = convert_to_tensor(_as_value(b), x.dtype.base_dtype, name="b")
    return apply_op("Cross", (x, y), name=name)


def _lu_kernel(a: Any, *, output_idx_type: Any) -> tuple:
    a = np.asarray(a)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise InvalidArgumentError(None, None, "Lu: input must be a batch of square matrices, "
                                   "got shape %s" % (list(a.shape),))
    n = a.shape[-1]
    lu = np.array(a.reshape((-1, n, n)), copy=True)
    perm = np.tile(np.arange(n), (lu.shape[0], 1))
    rows = np.arange(lu.shape[0])
    for k in range(n):
        pivot = k + np.argmax(np.abs(lu[:, k:, k]), axis=1)
        swap = lu[rows, pivot].copy()
        lu[rows, pivot] = lu[:, k]
        lu[:, k] = swap
        pk = perm[rows, pivot].copy()
        perm[rows, pivot] = perm[:, k]
        perm[:, k] = pk
        diag = lu[:, k, k][:, None]
        if np.any(diag == 0):
            raise InvalidArgumentError(None, None, "Lu: Input is not invertible.")
        lu[:, k + 1:, k] = lu[:, k + 1:, k] / diag
        lu[:, k + 1:, k + 1:] -= lu[:, k + 1:, k:k + 1] * lu[:, k:k + 1, k + 1:]
    return lu.reshape(a.shape), perm.reshape(a.shape[:-1]).astype(output_idx_type.np)


def _lu_infer(ins: list, attrs: dict) -> list:
    s = ins[0].shape
    p = TensorShape(None) if s.rank is None else TensorShape(s.as_list()[:-1])
    return [(ins[0].dtype.base_dtype, s), (attrs["output_idx_type"], p)]


register_op("Lu", _lu_kernel, _lu_infer, num_outputs=2, input_names=("input",))


def lu(input: TensorLike, output_idx_type: Any = dtypes.int32,  # noqa: A002 - TensorFlow's name
       name: str | None = None) -> tuple:
    """The LU decomposition with partial pivoting of the innermost square matrices.

    Args:
      input: A float tensor ``[..., M, M]``.
      output_idx_type: int32 or int64.
      name: A name for the operation.

    Returns:
      ``Lu(lu, p)``: ``L`` (unit diagonal, below) and ``U`` (on and above) packed in one
      matrix, and the row permutation with ``input[..., p, :] == L @ U``.

    Raises:
      InvalidArgumentError: if the matrices are not square, or one is singular (as
        TensorFlow).
    """
    x = convert_to_tensor(_as_value(input), name="input")
    return Lu(*apply_op("Lu", (x,), {"output_idx_type": dtypes.as_dtype(output_idx_type)},
                        name=name))


_COMPLEX_OF = {dtypes.float32: dtypes.complex64, dtypes.float64: dtypes.complex128,
               dtypes.complex64: dtypes.complex64, dtypes.complex128: dtypes.complex128}


def _eig_kernel(a: Any, *, compute_v: bool, Tout: Any) -> tuple:  # noqa: N803 - TF's attr
    a = np.asarray(a)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise InvalidArgumentError(None, None, "Eig: input must be a batch of square "
                                   "matrices, got shape %s" % (list(a.shape),))
    e, v = np.linalg.eig(a)
    v = v / np.linalg.norm(v, axis=-2, keepdims=True)
    if not compute_v:
        v = np.zeros([0], Tout.np)
    return e.astype(Tout.np), v.astype(Tout.np)


def _eig_infer(ins: list, attrs: dict) -> list:
    s, t = ins[0].shape, attrs["Tout"]
    e = TensorShape(None) if s.rank is None else TensorShape(s.as_list()[:-1])
    return [(t, e), (t, s if attrs["compute_v"] else TensorShape([0]))]


@defop("Eig", _eig_kernel, _eig_infer, num_outputs=2, input_names=("input",))
def _eig_grad(op: Any, grad_e: Any, grad_v: Any) -> Any:
    """TensorFlow's formula: ``inv(V^H) (diag(grad_e) + conj(F) * (V^H grad_v - V^H V
    diag(Re(diag(V^H grad_v))))) V^H`` with ``F_ij = 1 / (e_j - e_i)`` off the diagonal (the
    real part for a real input); from the values only, ``inv(V^H) diag(grad_e) V^H``."""
    e = op.outputs[0]
    grad_e = zeros_like(e) if grad_e is None else grad_e
    if op.get_attr("compute_v"):
        v = op.outputs[1]
        grad_v = zeros_like(v) if grad_v is None else grad_v
        vt = adjoint(v)
        f = conj(set_diag(_safe_reciprocal(subtract(expand_dims(e, -2), expand_dims(e, -1))),
                          zeros_like(e)))
        vgv = matmul(vt, grad_v)
        diag_grad_part = diag(diag_part(cast(real(vgv), vgv.dtype)))
        mid = add(diag(grad_e),
                  multiply(f, subtract(vgv, matmul(matmul(vt, v), diag_grad_part))))
    else:
        vt = adjoint(apply_op("Eig", (op.inputs[0],), {"compute_v": True,
                                                       "Tout": e.dtype.base_dtype})[1])
        mid = diag(grad_e)
    return cast(solve(vt, matmul(mid, vt)), op.inputs[0].dtype.base_dtype)


def _eig_jvp(op: Any, tangent: Any) -> Any:
    """``de = diag(P)``, ``dV = V C`` with ``P = inv(V) dA V``, ``C_ij = P_ij / (e_j - e_i)``
    off the diagonal and ``C_jj = -Re((V^H V C)_jj)`` (unit-norm vectors, the phase the
    gradient assumes)."""
    if tangent is None:
        return None, None
    e = op.outputs[0]
    compute_v = op.get_attr("compute_v")
    v = op.outputs[1] if compute_v else apply_op(
        "Eig", (op.inputs[0],), {"compute_v": True, "Tout": e.dtype.base_dtype})[1]
    p = solve(v, matmul(cast(tangent, e.dtype), v))
    if not compute_v:
        return diag_part(p), None
    f = set_diag(_safe_reciprocal(subtract(expand_dims(e, -2), expand_dims(e, -1))),
                 zeros_like(e))
    c = multiply(f, p)
    c = set_diag(c, cast(negative(real(diag_part(matmul(matmul(v, v, adjoint_a=True), c)))),
                         e.dtype))
    return diag_part(p), matmul(v, c)


register_jvp("Eig", _eig_jvp)


def eig(tensor: TensorLike, name: str | None = None) -> tuple:
    """The eigenvalues and unit-norm eigenvectors of the innermost square matrices (complex;
    in LAPACK's order, which may differ from TensorFlow's, as may each vector's phase).

    Args:
      tensor: A float or complex tensor ``[..., N, N]``.
      name: A name for the operation.

    Returns:
      ``(e, v)`` with ``tensor @ v == v * e[..., None, :]``.
    """
    x = convert_to_tensor(_as_value(tensor), name="tensor")
    return tuple(apply_op("Eig", (x,), {"compute_v": True,
                                        "Tout": _COMPLEX_OF[x.dtype.base_dtype]}, name=name))


def eigvals(tensor: TensorLike, name: str | None = None) -> Any:
    """The eigenvalues of the innermost square matrices (complex); see :func:`eig`.

    Args:
        tensor: A tensor of [..., M, M] matrices.
        name: A name for the operation (optional).
    """
    x = convert_to_tensor(_as_value(tensor), name="tensor")
    return apply_op("Eig", (x,), {"compute_v": False,
                                  "Tout": _COMPLEX_OF[x.dtype.base_dtype]}, name=name)[0]


def _default_tolerance(x: Any) -> float:
    dims = x.shape.as_list()[-2:] if x.shape.rank else [None, None]
    if None in dims:
        raise ValueError("the default tolerance needs the matrix dimensions to be known")
    return float(max(dims)) * float(np.finfo(x.dtype.base_dtype.np).eps)


def pinv(a: TensorLike, rcond: Any = None, validate_args: bool = False,
         name: str | None = None) -> Any:
    """The Moore-Penrose pseudo-inverse of the innermost matrices (from their SVD; singular
    values at most ``rcond`` times the largest are treated as zero).

    Args:
      a: A float tensor ``[..., M, N]``.
      rcond: The cutoff; ``10 * max(M, N) * eps`` by default.
      validate_args: Accepted for TensorFlow's signature.
      name: A name for the operation.

    Returns:
      A tensor ``[..., N, M]``.
    """
    del validate_args
    with name_scope(name, "pinv", [a, rcond]) as scope:
        x = convert_to_tensor(_as_value(a), name="a")
        dt = x.dtype.base_dtype
        if not dt.is_floating:
            raise TypeError("Input `a` must have `float`-like `dtype` (saw %s)." % dt.name)
        cut = 10.0 * _default_tolerance(x) if rcond is None else rcond
        s, u, v = svd(x, full_matrices=False, compute_uv=True)
        cutoff = multiply(convert_to_tensor(_as_value(cut), dt), reduce_max(s, axis=-1))
        s = where(greater(s, expand_dims(cutoff, -1)), s, fill(shape(s), np.array(np.inf,
                                                                                 dt.np)))
        return matmul(realdiv(v, expand_dims(s, -2)), u, transpose_b=True, name=scope)


def matrix_rank(a: TensorLike, tol: Any = None, validate_args: bool = False,
                name: str | None = None) -> Any:
    """The number of singular values above ``tol`` of the innermost matrices (int32).

    Args:
      a: A float tensor ``[..., M, N]``.
      tol: The threshold; ``max(M, N) * eps * max(singular values)`` by default.
      validate_args: Accepted for TensorFlow's signature.
      name: A name for the operation.

    Returns:
      An int32 tensor ``[...]``.
    """
    del validate_args
    with name_scope(name, "matrix_rank", [a, tol]) as scope:
        x = convert_to_tensor(_as_value(a), name="a")
        s = svd(x, compute_uv=False)
        if tol is None:
            threshold = multiply(_default_tolerance(x), reduce_max(s, axis=-1, keepdims=True))
        else:
            threshold = convert_to_tensor(_as_value(tol), x.dtype.base_dtype)
        return reduce_sum(cast(greater(s, threshold), dtypes.int32), axis=-1, name=scope)


def normalize(tensor: TensorLike, ord: TensorLike = "euclidean", axis: AxisLike = None,  # noqa: A002
              name: str | None = None) -> tuple:
    """``tensor`` divided by its norm, and the norm (kept dimensions), as TensorFlow's.

    Args:
        tensor: A floating or complex tensor.
        ord: The norm's order, as ``tf.norm``'s (``'euclidean'``, ``'fro'``, 1, 2, ``np.inf``
            or a positive number).
        axis: None (the whole tensor as a vector), an axis, or a pair of axes (a matrix norm).
        name: A name for the operation (optional).

    Returns:
        ``(normalized, norm)``: ``tensor / norm`` and the norm, of ``tensor``'s dtype, with
        the normed axes kept as size 1.

    Raises:
        ValueError: ``ord`` or ``axis`` is not one ``tf.norm`` takes.
    """
    with name_scope(name, "normalize", [tensor]):
        tensor = convert_to_tensor(_as_value(tensor))
        n = cast(norm(tensor, ord, axis, keepdims=True), tensor.dtype.base_dtype)
        return realdiv(tensor, n), n
