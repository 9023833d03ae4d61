"""``tf.linalg.tridiagonal_matmul``: a tridiagonal matrix, given by its three diagonals in one
of TensorFlow's formats, times a right-hand side. A composite of shifts, products and sums
(TensorFlow's TridiagonalMatMul, whose gradient is the same shifts), so its gradients of any
order come from those ops."""
from __future__ import annotations

from typing import Any

from flowgrad.framework.graph import name_scope
from flowgrad.framework.tensor import TensorBase, convert_to_tensor
from flowgrad.framework.type_hints import TensorLike
from flowgrad.ops.array_ops import _as_value
from flowgrad.ops.arithmetic_ops import add, multiply
from flowgrad.ops.concat_ops import concat
from flowgrad.ops.fill_ops import zeros_like
from flowgrad.ops.linalg_ops import diag_part
from flowgrad.ops.shape_ops import expand_dims


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


def tridiagonal_matmul(diagonals: Any, rhs: TensorLike, diagonals_format: str = "compact",
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
