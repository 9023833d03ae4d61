"""``tf.linalg.tridiagonal_matmul``: a tridiagonal matrix, given by its three diagonals in one
of TensorFlow's formats, times a right-hand side. A composite of shifts, products and sums
(TensorFlow's TridiagonalMatMul, whose gradient is the same shifts), so its gradients of any
order come from those ops."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework.errors import InvalidArgumentError
from flowgrad.framework.graph import name_scope
from flowgrad.framework.op_call import apply_op, argument_error
from flowgrad.framework.registry import defop
from flowgrad.framework.tensor import TensorBase, convert_to_tensor
from flowgrad.framework.type_hints import TensorLike
from flowgrad.ops.array_ops import _as_value
from flowgrad.ops.arithmetic_ops import add, multiply, negative
from flowgrad.ops.complex_ops import conj
from flowgrad.ops.concat_ops import concat
from flowgrad.ops.fill_ops import zeros_like
from flowgrad.ops.linalg_ops import diag_part, matrix_transpose
from flowgrad.ops.shape_ops import expand_dims, squeeze, stack
from flowgrad.ops.sum_ops import reduce_sum


def _rows_up(v: Any) -> Any:
    """Row i holds ``v``'s row i + 1 (the last row zero)."""
    return concat([v[..., 1:, :], zeros_like(v[..., :1, :])], axis=-2)


def _rows_down(v: Any) -> Any:
    """Row i holds ``v``'s row i - 1 (the first row zero)."""
    return concat([zeros_like(v[..., :1, :]), v[..., :-1, :]], axis=-2)


def _three_diagonals(diagonals: Any, diagonals_format: str) -> tuple:
    """(superdiag, maindiag, subdiag), each ``[..., M]``, from any of TensorFlow's formats."""
    if diagonals_format == "compact":
        d = convert_to_tensor(_as_value(diagonals), name="diagonals")
        return d[..., 0, :], d[..., 1, :], d[..., 2, :]
    if diagonals_format == "sequence":
        superdiag, maindiag, subdiag = diagonals
        maindiag = convert_to_tensor(_as_value(maindiag), name="maindiag")
        return (convert_to_tensor(_as_value(superdiag), maindiag.dtype), maindiag,
                convert_to_tensor(_as_value(subdiag), maindiag.dtype))
    if diagonals_format == "matrix":
        m = convert_to_tensor(_as_value(diagonals), name="diagonals")
        m1, m2 = (m.shape[-1], m.shape[-2]) if m.shape.rank else (None, None)
        if m1 and m2 and m1 != m2:
            raise ValueError("Expected last two dimensions of diagonals to be same, got %d and "
                             "%d" % (m1, m2))
        main = diag_part(m)
        return (concat([diag_part(m[..., :-1, 1:]), zeros_like(main[..., :1])], axis=-1), main,
                concat([zeros_like(main[..., :1]), diag_part(m[..., 1:, :-1])], axis=-1))
    raise ValueError("Unrecognized diagonals_format: %s" % diagonals_format)


def tridiagonal_matmul(diagonals: TensorLike, rhs: TensorLike, diagonals_format: str = "compact",
                       name: str | None = None) -> TensorBase:
    """The product of a tridiagonal matrix and ``rhs``.

    Row ``i`` of the result is ``superdiag[i] * rhs[i + 1] + maindiag[i] * rhs[i] +
    subdiag[i] * rhs[i - 1]`` (the last superdiagonal and first subdiagonal entries are
    not used).

    Args:
        diagonals: The matrix: with ``diagonals_format='compact'`` a ``[..., 3, M]`` tensor
            (superdiagonal, main diagonal, subdiagonal); ``'sequence'`` a tuple of the three
            ``[..., M]`` tensors; ``'matrix'`` the ``[..., M, M]`` matrix itself (only its three
            diagonals are read).
        rhs: A ``[..., M, N]`` tensor of the diagonals' dtype.
        diagonals_format: ``'compact'``, ``'sequence'`` or ``'matrix'``.
        name: A name for the operation (optional).

    Returns:
        A ``[..., M, N]`` tensor.

    Raises:
        ValueError: an unknown ``diagonals_format``, or a ``'matrix'`` that is not square.
    """
    with name_scope(name, "tridiagonal_matmul", [rhs]):
        superdiag, maindiag, subdiag = _three_diagonals(diagonals, diagonals_format)
        rhs = convert_to_tensor(_as_value(rhs), maindiag.dtype, name="rhs")
        return add(add(multiply(expand_dims(superdiag, -1), _rows_up(rhs)),
                       multiply(expand_dims(maindiag, -1), rhs)),
                   multiply(expand_dims(subdiag, -1), _rows_down(rhs)))


# --------------------------------------------------------------------------------------
# TridiagonalSolve: LAPACK's gtsv (Gaussian elimination, rows swapped for the larger pivot)


def _gtsv(du: Any, d: Any, dl: Any, b: Any, pivoting: bool, perturb: bool) -> Any:
    """One system: ``du``/``d``/``dl`` the super-, main and subdiagonal (``dl[i]`` is
    A[i + 1, i]), ``b`` the ``[M, K]`` right-hand sides; NaN where the matrix is singular,
    tiny pivots set to eps * max|A| with ``perturb``."""
    n = d.shape[0]
    du, d, dl, b = du.copy(), d.copy(), dl.copy(), b.copy()
    du2 = np.zeros_like(d)
    tiny = np.finfo(d.dtype).eps * max(np.abs(du[:-1]).max(initial=0), np.abs(d).max(),
                                       np.abs(dl).max(initial=0))
    for i in range(n - 1):
        if not pivoting or abs(d[i]) >= abs(dl[i]):
            if d[i] == 0:
                if not perturb:
                    return np.full_like(b, np.nan)
                d[i] = tiny
            fact = dl[i] / d[i]
            d[i + 1] -= fact * du[i]
            b[i + 1] -= fact * b[i]
        else:
            fact = d[i] / dl[i]
            d[i], temp = dl[i], d[i + 1]
            d[i + 1] = du[i] - fact * temp
            if i < n - 2:
                du2[i] = du[i + 1]
                du[i + 1] = -fact * du2[i]
            du[i] = temp
            b[i], b[i + 1] = b[i + 1].copy(), b[i] - fact * b[i + 1]
    if d[n - 1] == 0:
        if not perturb:
            return np.full_like(b, np.nan)
        d[n - 1] = tiny
    b[n - 1] /= d[n - 1]
    if n > 1:
        b[n - 2] = (b[n - 2] - du[n - 2] * b[n - 1]) / d[n - 2]
    for i in range(n - 3, -1, -1):
        b[i] = (b[i] - du[i] * b[i + 1] - du2[i] * b[i + 2]) / d[i]
    return b


def _solve_kernel(diags: Any, rhs: Any, *, partial_pivoting: bool = True,
                  perturb_singular: bool = False) -> Any:
    diags, rhs = np.asarray(diags), np.asarray(rhs)
    m = diags.shape[-1]
    if rhs.shape[-2] != m:
        raise InvalidArgumentError(None, None, "Expected number of rows of rhs to be %d, got %d."
                                   % (m, rhs.shape[-2]))
    batch = diags.shape[:-2]
    flat_d = diags.reshape((-1, 3, m))
    flat_b = rhs.reshape((-1,) + rhs.shape[-2:])
    out = np.empty_like(flat_b)
    for k in range(flat_d.shape[0]):
        du, d, sub = flat_d[k]
        out[k] = _gtsv(du, d, sub[1:], flat_b[k], partial_pivoting, perturb_singular)
    return out.reshape(batch + rhs.shape[-2:])


def _solve_infer(ins: list, attrs: dict) -> tuple:
    d, r = ins[0].shape, ins[1].shape
    if d.rank is not None and (d.rank < 2 or (d[-2] is not None and d[-2] != 3)):
        raise argument_error("Expected diagonals to have shape [..., 3, M], got %s" % d)
    if r.rank is not None and r.rank < 2:
        raise argument_error("Expected rhs to be at least rank 2, got %s" % r)
    return ins[0].dtype.base_dtype, r


def _extract_three_diagonals(a: Any, b: Any) -> Any:
    """The three diagonals (compact form) of ``a @ b^H``: TensorFlow's
    _MatmulExtractingThreeDiagonals."""
    main = reduce_sum(multiply(a, b), axis=-1)
    superdiag = reduce_sum(multiply(a, _rows_up(b)), axis=-1)
    subdiag = reduce_sum(multiply(a, _rows_down(b)), axis=-1)
    return stack([superdiag, main, subdiag], axis=-2)


@defop("TridiagonalSolve", _solve_kernel, _solve_infer, same_dtype=True,
       input_names=("diagonals", "rhs"))
def _tridiagonal_solve_grad(op: Any, grad: Any) -> Any:
    diags, x = op.inputs[0], op.outputs[0]
    superdiag, maindiag, subdiag = diags[..., 0, :], diags[..., 1, :], diags[..., 2, :]
    zero = zeros_like(maindiag[..., :1])
    transposed = stack([concat([subdiag[..., 1:], zero], axis=-1), maindiag,
                        concat([zero, superdiag[..., :-1]], axis=-1)], axis=-2)
    grad_rhs = apply_op("TridiagonalSolve", [transposed, grad],
                        {"partial_pivoting": op.get_attr("partial_pivoting"),
                         "perturb_singular": op.get_attr("perturb_singular")})
    return negative(_extract_three_diagonals(grad_rhs, x)), grad_rhs


def tridiagonal_solve(diagonals: TensorLike, rhs: TensorLike, diagonals_format: str = "compact",
                      transpose_rhs: bool = False, conjugate_rhs: bool = False,
                      name: str | None = None, partial_pivoting: bool = True,
                      perturb_singular: bool = False) -> TensorBase:
    """Solves ``A x = rhs`` for a tridiagonal ``A`` (Gaussian elimination as LAPACK's gtsv).

    A singular system gives NaN (TensorFlow's CPU result); with ``perturb_singular`` its zero
    pivots become eps * max|A| and the result is finite.

    Args:
        diagonals: ``A`` in ``diagonals_format``: ``'compact'`` ``[..., 3, M]``
            (superdiagonal, main diagonal, subdiagonal), ``'sequence'`` the three ``[..., M]``
            tensors, ``'matrix'`` ``[..., M, M]``.
        rhs: ``[..., M, K]`` right-hand sides, or ``[..., M]`` (one, for the compact format).
        diagonals_format: ``'compact'``, ``'sequence'`` or ``'matrix'``.
        transpose_rhs: ``rhs`` is ``[..., K, M]``: solve for its transpose.
        conjugate_rhs: conjugate ``rhs`` first.
        name: A name for the operation (optional).
        partial_pivoting: swap rows for the larger pivot (more stable).
        perturb_singular: perturb zero pivots instead of returning NaN (needs
            ``partial_pivoting``).

    Returns:
        x, of ``rhs``'s shape (``[..., M, K]`` with ``transpose_rhs``).

    Raises:
        ValueError: ``perturb_singular`` without ``partial_pivoting``, an unknown format, or
            shapes TensorFlow rejects.
    """
    if perturb_singular and not partial_pivoting:
        raise ValueError("partial_pivoting must be True if perturb_singular is.")
    with name_scope(name, "tridiagonal_solve", [rhs]):
        superdiag, maindiag, subdiag = _three_diagonals(diagonals, diagonals_format)
        diags = stack([superdiag, maindiag, subdiag], axis=-2)
        rhs = convert_to_tensor(_as_value(rhs), maindiag.dtype, name="rhs")
        vector = rhs.shape.rank is not None and rhs.shape.rank == diags.shape.rank - 1
        if vector:
            rhs = expand_dims(rhs, -1)
        elif transpose_rhs:
            rhs = matrix_transpose(rhs)
        if conjugate_rhs:
            rhs = conj(rhs)
        x = apply_op("TridiagonalSolve", [diags, rhs], {"partial_pivoting": partial_pivoting,
                                                         "perturb_singular": perturb_singular})
        return squeeze(x, -1) if vector else x
