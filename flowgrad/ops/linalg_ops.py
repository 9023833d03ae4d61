"""Linear algebra on the last two axes (batched over leading ones): inverse, determinant,
log-determinant, Cholesky, (triangular) solves, diagonals, band parts, trace, eye, QR,
SVD, eigh, expm; and ``norm``/``safe_norm`` (vector and matrix norms, the spectral one by SVD).

Each op is TensorFlow's op type with a NumPy kernel, a shape rule and a gradient
written with ops of this module and matmul, so every derivative can be differentiated
again. Real dtypes, and complex ones where TensorFlow's kernels take them (``_COMPLEX_OK``;
``adjoint`` conjugates). A singular or non-positive-
definite input is an InvalidArgumentError naming the op, as in TensorFlow."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.errors import InvalidArgumentError, ShapeRuleError
from flowgrad.framework.graph import name_scope
from flowgrad.framework.op_call import apply_op, argument_error
from flowgrad.framework.registry import defop
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.framework.shape_rules import normalize_axis
from flowgrad.ops.arithmetic_ops import add, conj_if_complex, multiply, negative, subtract
from flowgrad.ops.array_ops import (_as_value, concat, expand_dims, identity, ones_like, squeeze,
                                    transpose, zeros_like)
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.comparison_ops import greater, where
from flowgrad.ops.complex_ops import real
from flowgrad.ops.elementwise_ops import abs, log, pow, reciprocal, sqrt
from flowgrad.ops.fill_ops import range as tf_range
from flowgrad.ops.matmul_ops import matmul
from flowgrad.ops.shape_ops import rank
from flowgrad.ops.reduction_ops import reduce_euclidean_norm, reduce_max
from flowgrad.ops.sum_ops import reduce_sum
from flowgrad.ops.op_results import Qr
from flowgrad.framework.type_hints import AxisLike, DTypeLike, ShapeLike, TensorLike
from flowgrad.framework import dispatch

_FLOATS = "half, float, double"


# The ops whose TensorFlow kernels take complex64/complex128 too
_COMPLEX_OK = frozenset({"MatrixInverse", "MatrixDeterminant", "LogMatrixDeterminant",
                         "Cholesky", "MatrixSolve", "MatrixTriangularSolve",
                         "SelfAdjointEigV2", "MatrixExponential", "Qr", "Svd"})


def _float_input(x: Any, op_type: str, arg: str = "input", dtype: Any = None) -> Any:
    t = convert_to_tensor(_as_value(x), dtype)
    complex_ok = op_type in _COMPLEX_OK
    if not (t.dtype.base_dtype.is_floating or complex_ok and t.dtype.base_dtype.is_complex):
        allowed = _FLOATS + (", complex64, complex128" if complex_ok else "")
        raise argument_error("Value for attr 'T' of %s is not in the list of allowed values: %s "
                             "(%s of %s)" % (t.dtype.name, allowed, arg, op_type), TypeError)
    return t


def _adjoint_array(x: Any) -> Any:
    """The conjugate transpose of each innermost matrix of an array (the transpose if real)."""
    x = np.swapaxes(x, -1, -2)
    return np.conj(x) if np.iscomplexobj(x) else x


def _matrices(s: TensorShape, op_type: str, square: bool = True) -> TensorShape:
    """Checks that ``s`` is a batch of (square) matrices; returns it."""
    if s.rank is None:
        return s
    if s.rank < 2:
        raise ValueError("%s: input must have rank >= 2 (a batch of matrices), got shape %s"
                         % (op_type, s))
    m, n = s.as_list()[-2:]
    if square and m is not None and n is not None and m != n:
        raise ShapeRuleError("%s: input must be a batch of square matrices, got shape %s"
                             % (op_type, s), "Input matrix must be square.")
    return s


def _batch_of(s: TensorShape, drop: int) -> TensorShape:
    return TensorShape(None) if s.rank is None else TensorShape(s.as_list()[:-drop])


def _linalg_error(message: str) -> InvalidArgumentError:
    return InvalidArgumentError(None, None, message)   # TensorFlow's kernel message


def matrix_transpose(a: TensorLike, name: str = "matrix_transpose", conjugate: bool = False) -> Any:
    """``a`` with its last two axes swapped.

    Args:
        a: A tensor of rank 2 or more.
        name: A name for the operation (optional).
        conjugate: Whether to conjugate as well (complex tensors).
    """
    with name_scope(name, "matrix_transpose", [a]):
        a = convert_to_tensor(_as_value(a))
        r = a.shape.rank
        if r is None:       # the permutation is computed at run time, as in TensorFlow
            n = rank(a)
            return transpose(a, concat([tf_range(n - 2), [n - 1, n - 2]], 0),
                             conjugate=conjugate)
        if r < 2:
            raise ValueError("Argument `a` should be a (batch) matrix with rank >= 2.  "
                             "Received `a` = %s with shape: %s" % (a, a.shape))
        return transpose(a, list(range(r - 2)) + [r - 1, r - 2], conjugate=conjugate)


def adjoint(matrix: TensorLike, name: str | None = None) -> Any:
    """The conjugate transpose of the innermost matrices of ``matrix``
    (``tf.linalg.adjoint``).

    Args:
        matrix: A tensor of rank 2 or more.
        name: A name for the operation (optional).

    Returns:
        ``matrix`` with its last two axes swapped and, if complex, conjugated.
    """
    with name_scope(name, "adjoint", [matrix]):
        return matrix_transpose(matrix, conjugate=True)


# --------------------------------------------------------------------------------------
# Inverse, determinant, log-determinant


def _inverse_kernel(x: Any, *, adjoint: bool = False) -> Any:
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError("not square")      # the shape rule words the error
    try:
        inv = np.linalg.inv(x)
    except np.linalg.LinAlgError:
        raise _linalg_error("Input is not invertible.") from None
    return _adjoint_array(inv) if adjoint else inv


@defop("MatrixInverse", _inverse_kernel,
       lambda ins, attrs: (ins[0].dtype.base_dtype, _matrices(ins[0].shape, "MatrixInverse")),
       input_names=("input",), batching="matrix")
def _inverse_grad(op: Any, grad: Any) -> Any:
    ainv = op.outputs[0]
    if op.get_attr("adjoint"):      # output B = A^-H: dA = -B G^H B
        return negative(matmul(matmul(ainv, grad, adjoint_b=True), ainv))
    return negative(matmul(ainv, matmul(grad, ainv, adjoint_b=True), adjoint_a=True))


def inv(input: TensorLike, adjoint: bool = False, name: str | None = None) -> Any:  # noqa: A002
    """The inverse of each matrix (of its transpose with ``adjoint``).

    Args:
        input: A tensor of invertible [..., M, M] matrices.
        adjoint: Whether to use the matrices' adjoints (conjugate transposes).
        name: A name for the operation (optional).
    """
    x = _float_input(input, "MatrixInverse")
    return apply_op("MatrixInverse", [x], {"adjoint": bool(adjoint)}, name=name)


@defop("MatrixDeterminant", lambda x: np.asarray(np.linalg.det(x), np.asarray(x).dtype),
       lambda ins, attrs: (ins[0].dtype.base_dtype,
                           _batch_of(_matrices(ins[0].shape, "MatrixDeterminant"), 2)),
       input_names=("input",), batching="matrix")
def _det_grad(op: Any, grad: Any) -> Any:
    a, c = op.inputs[0], op.outputs[0]
    scale = expand_dims(expand_dims(multiply(grad, c), -1), -1)
    return multiply(scale, inv(a, adjoint=True))


def det(input: TensorLike, name: str | None = None) -> Any:  # noqa: A002
    """The determinant of each matrix.

    Args:
        input: A tensor of [..., M, M] matrices.
        name: A name for the operation (optional).
    """
    return apply_op("MatrixDeterminant", [_float_input(input, "MatrixDeterminant")], name=name)


def _slogdet_kernel(x: Any) -> tuple:
    sign, logdet = np.linalg.slogdet(x)     # complex: a unit phase and a real log|det|
    dt = np.asarray(x).dtype
    return np.asarray(sign, dt), np.asarray(logdet, dt)


def _slogdet_infer(ins: list, attrs: dict) -> list:
    dt = ins[0].dtype.base_dtype
    s = _batch_of(_matrices(ins[0].shape, "LogMatrixDeterminant"), 2)
    return [(dt, s), (dt, s)]


@defop("LogMatrixDeterminant", _slogdet_kernel, _slogdet_infer, num_outputs=2,
       input_names=("input",))
def _slogdet_grad(op: Any, grad_sign: Any, grad_logdet: Any) -> Any:
    scale = expand_dims(expand_dims(grad_logdet, -1), -1)
    return multiply(scale, inv(op.inputs[0], adjoint=True))


def slogdet(input: TensorLike, name: str | None = None) -> tuple:  # noqa: A002
    """(sign, log|det|) of each matrix, without overflow.

    Args:
        input: A tensor of [..., M, M] matrices.
        name: A name for the operation (optional).
    """
    out = apply_op("LogMatrixDeterminant", [_float_input(input, "LogMatrixDeterminant")],
                   name=name)
    return out[0], out[1]


def logdet(matrix: TensorLike, name: str | None = None) -> Any:
    """log det of each Hermitian positive-definite matrix: 2 * sum(log(diag(cholesky))).

    Args:
        matrix: A tensor of Hermitian positive-definite [..., M, M] matrices.
        name: A name for the operation (optional).
    """
    with name_scope(name, "logdet", [matrix]):
        chol = cholesky(matrix)
        diagonal = diag_part(chol)
        if diagonal.dtype.is_complex:       # TensorFlow's: the real part, a real logdet
            diagonal = apply_op("Real", (diagonal,))
        return multiply(2.0, reduce_sum(log(diagonal), -1))


# --------------------------------------------------------------------------------------
# Cholesky and solves


def _cholesky_kernel(x: Any) -> Any:
    # TensorFlow's kernel does not fail on a matrix that is not positive definite: that
    # matrix's factor is NaN on and below the diagonal (the rest of the batch is exact).
    try:
        return np.linalg.cholesky(x)
    except np.linalg.LinAlgError:
        pass
    x = np.asarray(x)
    flat = x.reshape((-1,) + x.shape[-2:])
    out = np.zeros_like(flat)
    failed = np.tril(np.full(x.shape[-2:], np.nan, x.dtype))
    for i, m in enumerate(flat):
        try:
            out[i] = np.linalg.cholesky(m)
        except np.linalg.LinAlgError:
            out[i] = failed
    return out.reshape(x.shape)


@defop("Cholesky", _cholesky_kernel,
       lambda ins, attrs: (ins[0].dtype.base_dtype, _matrices(ins[0].shape, "Cholesky")),
       input_names=("input",), batching="matrix")
def _cholesky_grad(op: Any, grad: Any) -> Any:
    chol = op.outputs[0]
    chol_inv = triangular_solve(chol, eye_like(chol), lower=True)
    middle = matmul(chol, grad, adjoint_a=True)
    middle = set_diag(middle, multiply(0.5, diag_part(middle)))
    middle = band_part(middle, -1, 0)
    grad_a = matmul(matmul(chol_inv, middle, adjoint_a=True), chol_inv)
    return multiply(0.5, add(grad_a, adjoint(grad_a)))


def cholesky(input: TensorLike, name: str | None = None) -> Any:  # noqa: A002
    """The lower-triangular Cholesky factor L (L @ L^T = input) of each matrix.

    Args:
        input: A tensor of symmetric (Hermitian) positive-definite [..., M, M] matrices.
        name: A name for the operation (optional).
    """
    return apply_op("Cholesky", [_float_input(input, "Cholesky")], name=name)


def _solve_infer(op_type: str) -> Any:
    def infer(ins: list, attrs: dict) -> tuple:
        a = _matrices(ins[0].shape, op_type)
        b = _matrices(ins[1].shape, op_type, square=False)
        if a.rank is not None and b.rank is not None:
            if a.rank != b.rank or not TensorShape(a.as_list()[:-1]).is_compatible_with(
                    TensorShape(b.as_list()[:-1])):
                raise ValueError("%s: matrix and rhs must have the same batch shape and "
                                 "number of rows, got %s and %s" % (op_type, a, b))
        return ins[1].dtype.base_dtype, b
    return infer


def _solve_kernel(a: Any, b: Any) -> Any:
    try:
        return np.linalg.solve(a, b)
    except np.linalg.LinAlgError:
        raise _linalg_error("Input matrix is not invertible.") from None


def _matrix_solve_kernel(a: Any, b: Any, *, adjoint: bool = False) -> Any:
    return _solve_kernel(_adjoint_array(a) if adjoint else a, b)


@defop("MatrixSolve", _matrix_solve_kernel, _solve_infer("MatrixSolve"), same_dtype=True,
       input_names=("matrix", "rhs"), batching="matrix")
def _matrix_solve_grad(op: Any, grad: Any) -> Any:
    a, c = op.inputs[0], op.outputs[0]
    adjoint = op.get_attr("adjoint")
    grad_b = solve(a, grad, adjoint=not adjoint)
    grad_a = matmul(c, grad_b, adjoint_b=True) if adjoint else \
        matmul(grad_b, c, adjoint_b=True)
    return negative(grad_a), grad_b


def solve(matrix: TensorLike, rhs: TensorLike, adjoint: bool = False,
          name: str | None = None) -> Any:
    """X with matrix @ X = rhs (matrix^T @ X = rhs with ``adjoint``).

    Args:
        matrix: A tensor of invertible [..., M, M] matrices.
        rhs: The right-hand sides: a tensor of [..., M, K] matrices.
        adjoint: Whether to use the matrices' adjoints (conjugate transposes).
        name: A name for the operation (optional).
    """
    a = _float_input(matrix, "MatrixSolve", "matrix")
    b = _float_input(rhs, "MatrixSolve", "rhs", a.dtype.base_dtype)
    return apply_op("MatrixSolve", [a, b], {"adjoint": bool(adjoint)}, name=name)


def _triangular_solve_kernel(a: Any, b: Any, *, lower: bool = True,
                             adjoint: bool = False) -> Any:
    tri = np.tril(a) if lower else np.triu(a)
    return _solve_kernel(_adjoint_array(tri) if adjoint else tri, b)


@defop("MatrixTriangularSolve", _triangular_solve_kernel, _solve_infer("MatrixTriangularSolve"),
       same_dtype=True, input_names=("matrix", "rhs"), batching="matrix")
def _triangular_solve_grad(op: Any, grad: Any) -> Any:
    a, c = op.inputs[0], op.outputs[0]
    lower, adjoint = op.get_attr("lower"), op.get_attr("adjoint")
    grad_b = triangular_solve(a, grad, lower=lower, adjoint=not adjoint)
    grad_a = matmul(c, grad_b, adjoint_b=True) if adjoint else \
        matmul(grad_b, c, adjoint_b=True)
    grad_a = band_part(negative(grad_a), -1, 0) if lower else band_part(negative(grad_a), 0, -1)
    return grad_a, grad_b


def triangular_solve(matrix: TensorLike, rhs: TensorLike, lower: bool = True, adjoint: bool = False,
                     name: str | None = None) -> Any:
    """X with T @ X = rhs, T the lower (or upper) triangle of ``matrix`` (the rest unread).

    Args:
        matrix: A tensor of triangular [..., M, M] matrices.
        rhs: The right-hand sides: a tensor of [..., M, K] matrices.
        lower: Whether the matrices are lower (True) or upper triangular.
        adjoint: Whether to use the matrices' adjoints (conjugate transposes).
        name: A name for the operation (optional).
    """
    a = _float_input(matrix, "MatrixTriangularSolve", "matrix")
    b = _float_input(rhs, "MatrixTriangularSolve", "rhs", a.dtype.base_dtype)
    return apply_op("MatrixTriangularSolve", [a, b],
                    {"lower": bool(lower), "adjoint": bool(adjoint)}, name=name)


# --------------------------------------------------------------------------------------
# Diagonals, band parts, trace, eye


def _diag_kernel(d: Any) -> Any:
    d = np.asarray(d)
    out = np.zeros(d.shape + d.shape[-1:], d.dtype)
    idx = np.arange(d.shape[-1])
    out[..., idx, idx] = d
    return out


def _diag_infer(ins: list, attrs: dict) -> tuple:
    s = ins[0].shape
    if s.rank == 0:
        raise ValueError("MatrixDiag: diagonal must have rank >= 1, got a scalar")
    return ins[0].dtype.base_dtype, TensorShape(None) if s.rank is None else \
        TensorShape(s.as_list() + s.as_list()[-1:])


@defop("MatrixDiag", _diag_kernel, _diag_infer, input_names=("diagonal",), batching="matrix")
def _diag_grad(op: Any, grad: Any) -> Any:
    return diag_part(grad)


def diag(diagonal: TensorLike, name: str = "diag", k: Any = 0, num_rows: Any = -1,
         num_cols: Any = -1, padding_value: Any = 0, align: str = "RIGHT_LEFT") -> Any:
    """Matrices with ``diagonal`` (last axis) on their main diagonal, or on diagonal ``k``.

    Args:
        diagonal: The diagonals: a tensor of [..., M] vectors ([..., num_diags, M] for a
            band ``k``).
        name: A name for the operation (optional).
        k: The diagonal (0 the main one, positive above it), or a pair ``(lower, upper)``
            for a band of them.
        num_rows: The matrices' rows (-1: the fewest that fit).
        num_cols: The matrices' columns (-1: the fewest that fit).
        padding_value: The value off the diagonals.
        align: Where shorter diagonals of a band sit: ``"RIGHT_LEFT"`` (superdiagonals to
            the right, subdiagonals to the left), ``"LEFT_RIGHT"``, ``"LEFT_LEFT"`` or
            ``"RIGHT_RIGHT"``.
    """
    if not _default_band(k, num_rows, num_cols, padding_value, align):
        from flowgrad.ops.matrix_diag_ops import matrix_diag
        return matrix_diag(diagonal, k, num_rows, num_cols, padding_value, align, name=name)
    return apply_op("MatrixDiag", [convert_to_tensor(_as_value(diagonal))], name=name)


def _default_band(k: Any, num_rows: Any = -1, num_cols: Any = -1, padding_value: Any = 0,
                  align: str = "RIGHT_LEFT") -> bool:
    """Whether the arguments are the main diagonal's defaults (TensorFlow 1's ops serve)."""
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) and v == want
               for v, want in ((k, 0), (num_rows, -1), (num_cols, -1), (padding_value, 0))) \
        and align == "RIGHT_LEFT"


def _diag_part_kernel(x: Any) -> Any:
    return np.array(np.diagonal(x, axis1=-2, axis2=-1))


def _diag_part_infer(ins: list, attrs: dict) -> tuple:
    s = _matrices(ins[0].shape, "MatrixDiagPart", square=False)
    if s.rank is None:
        return ins[0].dtype.base_dtype, s
    m, n = s.as_list()[-2:]
    k = None if m is None or n is None else min(m, n)
    return ins[0].dtype.base_dtype, TensorShape(s.as_list()[:-2] + [k])


@defop("MatrixDiagPart", _diag_part_kernel, _diag_part_infer, input_names=("input",),
       batching="matrix")
def _diag_part_grad(op: Any, grad: Any) -> Any:
    return set_diag(zeros_like(op.inputs[0]), grad)


def diag_part(input: TensorLike, name: str = "diag_part", k: Any = 0,  # noqa: A002
              padding_value: Any = 0, align: str = "RIGHT_LEFT") -> Any:
    """The main diagonal of each matrix (length min(rows, columns)), or diagonal ``k``.

    Args:
        input: A tensor of matrices: the last two axes, any batch axes before them.
        name: A name for the operation (optional).
        k: The diagonal (0 the main one, positive above it), or a pair ``(lower, upper)``
            for a band of them ([..., num_diags, max_len], shorter ones padded).
        padding_value: The value that pads shorter diagonals of a band.
        align: Where shorter diagonals of a band sit (see ``tf.linalg.diag``).
    """
    if not _default_band(k, padding_value=padding_value, align=align):
        from flowgrad.ops.matrix_diag_ops import matrix_diag_part
        return matrix_diag_part(input, k, padding_value, align, name=name)
    return apply_op("MatrixDiagPart", [convert_to_tensor(_as_value(input))], name=name)


def _set_diag_kernel(x: Any, d: Any) -> Any:
    out = np.array(x, copy=True)
    k = min(out.shape[-2:])
    if np.shape(d)[-1:] != (k,):
        raise _linalg_error("MatrixSetDiag: diagonal must have %d elements on its last axis, "
                            "got shape %s" % (k, list(np.shape(d))))
    idx = np.arange(k)
    out[..., idx, idx] = d
    return out


@defop("MatrixSetDiag", _set_diag_kernel,
       lambda ins, attrs: (ins[0].dtype.base_dtype,
                           _matrices(ins[0].shape, "MatrixSetDiag", square=False)),
       same_dtype=True, input_names=("input", "diagonal"), batching="matrix")
def _set_diag_grad(op: Any, grad: Any) -> Any:
    return set_diag(grad, zeros_like(op.inputs[1])), diag_part(grad)


def set_diag(input: TensorLike, diagonal: TensorLike, name: str = "set_diag",  # noqa: A002
             k: Any = 0, align: str = "RIGHT_LEFT") -> Any:
    """``input`` with the main diagonal of each matrix replaced by ``diagonal``, or
    diagonal ``k``.

    Args:
        input: A tensor of matrices: the last two axes, any batch axes before them.
        diagonal: The new diagonals: a tensor of [..., min(M, N)] vectors (of diagonal
            ``k``'s length; [..., num_diags, max_len] for a band).
        name: A name for the operation (optional).
        k: The diagonal (0 the main one, positive above it), or a pair ``(lower, upper)``
            for a band of them.
        align: Where shorter diagonals of a band sit (see ``tf.linalg.diag``).
    """
    if not _default_band(k, align=align):
        from flowgrad.ops.matrix_diag_ops import matrix_set_diag
        return matrix_set_diag(input, diagonal, k, align, name=name)
    x = convert_to_tensor(_as_value(input))
    d = convert_to_tensor(_as_value(diagonal), x.dtype.base_dtype)
    return apply_op("MatrixSetDiag", [x, d], name=name)


def _band_mask(m: int, n: int, lower: int, upper: int) -> np.ndarray:
    i, j = np.arange(m)[:, None], np.arange(n)[None, :]
    return ((lower < 0) | (i - j <= lower)) & ((upper < 0) | (j - i <= upper))


def _band_part_kernel(x: Any, *, num_lower: int, num_upper: int) -> Any:
    x = np.asarray(x)
    return np.where(_band_mask(x.shape[-2], x.shape[-1], num_lower, num_upper), x,
                    np.zeros((), x.dtype))


@defop("MatrixBandPart", _band_part_kernel,
       lambda ins, attrs: (ins[0].dtype.base_dtype,
                           _matrices(ins[0].shape, "MatrixBandPart", square=False)),
       input_names=("input",), batching="matrix")
def _band_part_grad(op: Any, grad: Any) -> Any:
    return band_part(grad, op.get_attr("num_lower"), op.get_attr("num_upper"))


def band_part(input: TensorLike, num_lower: int, num_upper: int,  # noqa: A002
              name: str | None = None) -> Any:
    """Each matrix with everything outside the band (``num_lower`` subdiagonals,
    ``num_upper`` superdiagonals; negative: all) set to zero.

    Args:
        input: A tensor of matrices: the last two axes, any batch axes before them.
        num_lower: How many subdiagonals to keep; negative keeps all.
        num_upper: How many superdiagonals to keep; negative keeps all.
        name: A name for the operation (optional).
    """
    return apply_op("MatrixBandPart", [convert_to_tensor(_as_value(input))],
                    {"num_lower": int(num_lower), "num_upper": int(num_upper)}, name=name)


def trace(x: TensorLike, name: str | None = None) -> Any:
    """The sum of the main diagonal of each matrix.

    Args:
        x: A tensor of matrices: the last two axes, any batch axes before them.
        name: A name for the operation (optional).
    """
    with name_scope(name, "Trace", [x]) as scope:
        return reduce_sum(diag_part(x), [-1], name=scope)


def eye(num_rows: int, num_columns: int | None = None,
        batch_shape: ShapeLike | TensorLike | None = None, dtype: DTypeLike = dtypes.float32,
        name: str | None = None) -> Any:
    """Identity matrices [*batch_shape, num_rows, num_columns].

    Args:
        num_rows: The number of rows.
        num_columns: The number of columns; ``num_rows`` when None.
        batch_shape: Leading batch dimensions of the result (a list of ints).
        dtype: The result's dtype.
        name: A name for the operation (optional).
    """
    dt = dtypes.as_dtype(dtype)
    cols = num_rows if num_columns is None else num_columns
    known = [_static(v) for v in (num_rows, cols)]
    batch = None if batch_shape is None else _static(batch_shape)
    if None in known or (batch_shape is not None and batch is None):
        return _dynamic_eye(num_rows, cols, batch_shape, dt, name)
    m = np.eye(int(known[0]), int(known[1]), dtype=dt.as_numpy_dtype)
    if batch_shape is not None:
        m = np.broadcast_to(m, tuple(int(d) for d in np.reshape(batch, -1)) + m.shape).copy()
    return convert_to_tensor(m, dt, name=name or "eye")


def _static(value: Any) -> Any:
    """``value`` as NumPy when it is known while the graph is built, else None."""
    from flowgrad.framework.shape_rules import constant_value
    from flowgrad.framework.tensor import TensorBase
    if isinstance(value, TensorBase):
        return constant_value(value)
    if isinstance(value, (list, tuple)) and any(isinstance(d, TensorBase) for d in value):
        parts = [_static(d) for d in value]
        return None if any(p is None for p in parts) else np.asarray(parts)
    return np.asarray(value)


def _dynamic_eye(rows: Any, cols: Any, batch_shape: Any, dt: dtypes.DType,
                 name: str | None) -> Any:
    """Identity matrices whose size is known only when the graph runs (a tensor
    ``num_rows``, as ``tf.shape(x)[0]`` inside a tf.function)."""
    from flowgrad.ops.cast_ops import cast
    from flowgrad.ops.comparison_ops import equal
    from flowgrad.ops.shape_ops import broadcast_to
    with name_scope(name, "eye"):
        r = tf_range(convert_to_tensor(rows, dtypes.int32))
        c = tf_range(convert_to_tensor(cols, dtypes.int32))
        m = cast(equal(expand_dims(r, 1), expand_dims(c, 0)), dt)
        if batch_shape is not None:
            lead = convert_to_tensor(batch_shape, dtypes.int32)
            m = broadcast_to(m, concat([lead, [convert_to_tensor(rows, dtypes.int32),
                                               convert_to_tensor(cols, dtypes.int32)]], 0))
        known = [_static(v) for v in (rows, cols)]
        m.set_shape(m.shape.merge_with(
            m.shape[:-2].concatenate([None if k is None else int(k) for k in known]))
            if m.shape.rank is not None else m.shape)
        return m


def eye_like(x: TensorLike) -> Any:
    """Identity matrices shaped and typed like the batch of square matrices ``x``."""
    return diag(ones_like(diag_part(x)))


# --------------------------------------------------------------------------------------
# Composites: matvec, cholesky_solve, lstsq


@dispatch.add_dispatch_support
def matvec(a: TensorLike, b: TensorLike, transpose_a: bool = False, adjoint_a: bool = False,
           a_is_sparse: bool = False, b_is_sparse: bool = False,
           name: str | None = None) -> Any:
    """The matrix-vector product a @ b over the last axes (batched).

    Args:
        a: A tensor of [..., M, N] matrices.
        b: A tensor of [..., N] vectors.
        transpose_a: Whether to transpose ``a`` first.
        adjoint_a: Whether to take ``a``'s adjoint first.
        a_is_sparse: Accepted for TensorFlow's signature.
        b_is_sparse: Accepted for TensorFlow's signature.
        name: A name for the operation (optional).
    """
    with name_scope(name, "MatVec", [a, b]):
        b = convert_to_tensor(_as_value(b))
        return squeeze(matmul(a, expand_dims(b, -1), transpose_a=transpose_a or adjoint_a), [-1])


def cholesky_solve(chol: Any, rhs: TensorLike, name: str | None = None) -> Any:
    """X with A @ X = rhs, given A's Cholesky factor ``chol``.

    Args:
        chol: The lower Cholesky factors of the [..., M, M] matrices, as ``cholesky`` returns.
        rhs: The right-hand sides: a tensor of [..., M, K] matrices.
        name: A name for the operation (optional).
    """
    with name_scope(name, "cholesky_solve", [chol, rhs]):
        y = triangular_solve(chol, rhs, lower=True, adjoint=False)
        return triangular_solve(chol, y, lower=True, adjoint=True)


def _solve_ls_robust_infer(ins: list, attrs: dict) -> list:
    a = _matrices(ins[0].shape, "MatrixSolveLs", square=False)
    b = _matrices(ins[1].shape, "MatrixSolveLs", square=False)
    if a.rank is None or b.rank is None:
        return [(ins[0].dtype.base_dtype, TensorShape(None))]
    return [(ins[0].dtype.base_dtype, TensorShape(a.as_list()[:-2] + a.as_list()[-1:]
                                                  + b.as_list()[-1:]))]


@defop("MatrixSolveLs", lambda a, b: np.linalg.pinv(a) @ b, _solve_ls_robust_infer,
       same_dtype=True, input_names=("matrix", "rhs"))
def _solve_ls_robust_grad(op: Any, grad: Any) -> Any:
    raise ValueError("Gradient not defined for fast=False (op '%s'); use lstsq(..., "
                     "fast=True)" % op.name)


def lstsq(matrix: TensorLike, rhs: TensorLike, l2_regularizer: float = 0.0, fast: bool = True,
          name: str | None = None) -> Any:
    """The least-squares solution of matrix @ X = rhs. ``fast=True``: ridge-regularised by
    ``l2_regularizer``, through the normal equations and a Cholesky factorisation.
    ``fast=False``: the minimum-norm solution even for rank-deficient matrices (from the SVD;
    ``l2_regularizer`` is ignored and, as in TensorFlow, it has no gradient).

    Args:
        matrix: A tensor of matrices: the last two axes, any batch axes before them.
        rhs: The right-hand sides: a tensor of [..., M, K] matrices.
        l2_regularizer: The L2 regularization weight (non-negative).
        fast: Whether to solve the normal equations (True) or use a complete orthogonal
            decomposition.
        name: A name for the operation (optional).
    """
    with name_scope(name, "matrix_solve_ls", [matrix, rhs]):
        a = _float_input(matrix, "MatrixSolveLs", "matrix")
        b = _float_input(rhs, "MatrixSolveLs", "rhs", a.dtype.base_dtype)
        if not fast:
            return apply_op("MatrixSolveLs", [a, b])
        m, n = _matrices(a.shape, "MatrixSolveLs", square=False).as_list()[-2:]
        if m is None or n is None:
            raise ValueError("lstsq needs the matrix dimensions to be known statically")
        if m >= n:
            gram = matmul(a, a, transpose_a=True)
            if l2_regularizer:
                gram = add(gram, multiply(float(l2_regularizer), eye_like(gram)))
            return cholesky_solve(cholesky(gram), matmul(a, b, transpose_a=True))
        gram = matmul(a, a, transpose_b=True)
        if l2_regularizer:
            gram = add(gram, multiply(float(l2_regularizer), eye_like(gram)))
        return matmul(a, cholesky_solve(cholesky(gram), b), transpose_a=True)


# --------------------------------------------------------------------------------------
# Symmetric eigendecomposition


def _eigh_kernel(x: Any) -> tuple:
    e, v = np.linalg.eigh(x)            # reads the lower triangle, as TensorFlow
    return e.astype(np.asarray(x).dtype, copy=False), v.astype(np.asarray(x).dtype, copy=False)


def _eigh_infer(ins: list, attrs: dict) -> list:
    s = _matrices(ins[0].shape, "SelfAdjointEigV2")
    dt = ins[0].dtype.base_dtype
    return [(dt, _batch_of(s, 1)), (dt, s)]


@defop("SelfAdjointEigV2", _eigh_kernel, _eigh_infer, num_outputs=2, input_names=("input",))
def _eigh_grad(op: Any, grad_e: Any, grad_v: Any) -> Any:
    """The published formula (Giles 2008); infinite where two eigenvalues coincide."""
    e, v = op.outputs
    ident = eye_like(v)
    diff = add(subtract(expand_dims(e, -2), expand_dims(e, -1)), ident)   # 1 on the diagonal
    f = multiply(reciprocal(diff), subtract(1.0, ident))
    inner = multiply(f, matmul(v, grad_v, adjoint_a=True)) if grad_v is not None else None
    if grad_e is not None:
        inner = diag(grad_e) if inner is None else add(diag(grad_e), inner)
    grad_a = matmul(v, matmul(inner, v, adjoint_b=True))
    grad_a = band_part(add(grad_a, adjoint(grad_a)), -1, 0)
    return set_diag(grad_a, multiply(0.5, diag_part(grad_a)))


def eigh(tensor: TensorLike, name: str | None = None) -> tuple:
    """(eigenvalues ascending, eigenvectors as columns) of each symmetric matrix (its lower
    triangle is read).

    Args:
        tensor: A tensor of symmetric (Hermitian) [..., M, M] matrices.
        name: A name for the operation (optional).
    """
    out = apply_op("SelfAdjointEigV2", [_float_input(tensor, "SelfAdjointEigV2")], name=name)
    return out[0], out[1]


def eigvalsh(tensor: TensorLike, name: str | None = None) -> Any:
    """The eigenvalues (ascending) of each symmetric matrix.

    Args:
        tensor: A tensor of symmetric (Hermitian) [..., M, M] matrices.
        name: A name for the operation (optional).
    """
    return eigh(tensor, name)[0]


# --------------------------------------------------------------------------------------
# QR and SVD


def _qr_kernel(x: Any, *, full_matrices: bool = False) -> tuple:
    q, r = np.linalg.qr(x, mode="complete" if full_matrices else "reduced")
    return q, r


def _qr_infer(ins: list, attrs: dict) -> list:
    s = _matrices(ins[0].shape, "Qr", square=False)
    dt = ins[0].dtype.base_dtype
    if s.rank is None:
        return [(dt, s), (dt, s)]
    batch, (m, n) = s.as_list()[:-2], s.as_list()[-2:]
    k = m if attrs["full_matrices"] else (None if m is None or n is None else min(m, n))
    return [(dt, TensorShape(batch + [m, k])), (dt, TensorShape(batch + [k, n]))]


def _upper_solve_right(x: Any, r: Any) -> Any:
    """x @ inv(r)^H for upper-triangular r."""
    return adjoint(triangular_solve(r, adjoint(x), lower=False))


def _qr_grad_square_or_tall(q: Any, r: Any, dq: Any, dr: Any) -> Any:
    """TensorFlow's formula for A = QR with A square or tall (reduced), with its correction
    of the diagonal's imaginary part for complex A."""
    qdq = matmul(q, dq, adjoint_a=True)
    rdr = matmul(r, dr, adjoint_b=True)
    tril = band_part(add(subtract(qdq, adjoint(qdq)), subtract(rdr, adjoint(rdr))), -1, 0)
    grad_a = add(matmul(q, add(dr, _upper_solve_right(tril, r))),
                 _upper_solve_right(subtract(dq, matmul(q, qdq)), r))
    if q.dtype.is_complex:
        m = subtract(rdr, adjoint(qdq))
        eyem = set_diag(zeros_like(m), diag_part(m))
        correction = subtract(eyem, cast(real(eyem), q.dtype))
        grad_a = add(grad_a, _upper_solve_right(matmul(q, adjoint(correction)), r))
    return grad_a


@defop("Qr", _qr_kernel, _qr_infer, num_outputs=2, input_names=("input",))
def _qr_grad(op: Any, dq: Any, dr: Any) -> Any:
    """As TensorFlow's: the square/tall formula (reduced mode); a wide A = [X | Y] with
    R = [U | V] is X = QU (square) and Y = QV. Tall inputs in complete mode (Q square, R
    padded with zero rows) have no gradient, as in TensorFlow."""
    q, r = op.outputs
    m, n = op.inputs[0].shape.as_list()[-2:]
    if m is None or n is None or op.get_attr("full_matrices") and m > n:
        raise NotImplementedError("Qr gradient needs static matrix dimensions and is not "
                                  "defined for tall matrices with full_matrices=True, got "
                                  "shape %s" % op.inputs[0].shape)
    dq = zeros_like(q) if dq is None else dq
    dr = zeros_like(r) if dr is None else dr
    if m >= n:
        return _qr_grad_square_or_tall(q, r, dq, dr)
    y, u = op.inputs[0][..., m:], r[..., :m]
    dv = dr[..., m:]
    dx = _qr_grad_square_or_tall(q, u, add(dq, matmul(y, dv, adjoint_b=True)), dr[..., :m])
    return concat([dx, matmul(q, dv)], -1)


def qr(input: TensorLike, full_matrices: bool = False, name: str | None = None) -> tuple:  # noqa: A002
    """``Qr(q, r)`` with input = q @ r, q orthonormal columns and r upper triangular.

    Args:
        input: A tensor of matrices: the last two axes, any batch axes before them.
        full_matrices: Whether to return the full (square) factors rather than the reduced ones.
        name: A name for the operation (optional).
    """
    out = apply_op("Qr", [_float_input(input, "Qr")], {"full_matrices": bool(full_matrices)},
                   name=name)
    return Qr(out[0], out[1])


def _svd_kernel(x: Any, *, compute_uv: bool = True, full_matrices: bool = False) -> tuple:
    """s in the input's dtype (complex for complex input, as TensorFlow's op; ``svd`` takes
    its real part), u and v."""
    x = np.asarray(x)
    if not compute_uv:
        s = np.linalg.svd(x, compute_uv=False).astype(x.dtype)
        k = min(x.shape[-2:])
        return s, np.zeros(x.shape[:-2] + (x.shape[-2], k), x.dtype), \
            np.zeros(x.shape[:-2] + (x.shape[-1], k), x.dtype)
    u, s, vh = np.linalg.svd(x, full_matrices=full_matrices)
    return s.astype(x.dtype), u, np.conj(np.swapaxes(vh, -1, -2))


def _svd_infer(ins: list, attrs: dict) -> list:
    s = _matrices(ins[0].shape, "Svd", square=False)
    dt = ins[0].dtype.base_dtype
    if s.rank is None:
        return [(dt, TensorShape(None))] * 3
    batch, (m, n) = s.as_list()[:-2], s.as_list()[-2:]
    k = None if m is None or n is None else min(m, n)
    ku, kv = (m, n) if attrs["full_matrices"] else (k, k)
    return [(dt, TensorShape(batch + [k])), (dt, TensorShape(batch + [m, ku])),
            (dt, TensorShape(batch + [n, kv]))]


def _safe_reciprocal(x: Any, epsilon: float = 1e-20) -> Any:
    return multiply(x, reciprocal(add(multiply(x, x), epsilon)))


@defop("Svd", _svd_kernel, _svd_infer, num_outputs=3, input_names=("input",))
def _svd_grad(op: Any, grad_s: Any, grad_u: Any, grad_v: Any) -> Any:
    """TensorFlow's formula (Townsend 2016, with its term for complex inputs); reduced mode,
    or full matrices of at most one more row or column than columns or rows; infinite where
    two singular values coincide (smoothed by a 1e-20 epsilon)."""
    a = op.inputs[0]
    m, n = a.shape.as_list()[-2:]
    if m is None or n is None:
        raise NotImplementedError("SVD gradient has not been implemented for input with "
                                  "unknown inner matrix shape.")
    s, u, v = op.outputs
    grad_s = zeros_like(s) if grad_s is None else cast(grad_s, a.dtype)
    grad_s_mat = diag(grad_s)
    if not op.get_attr("compute_uv"):
        _, u2, v2 = apply_op("Svd", [a], {"compute_uv": True, "full_matrices": False})
        return matmul(u2, matmul(grad_s_mat, v2, adjoint_b=True))
    full_matrices = op.get_attr("full_matrices")
    if a.dtype.is_complex:
        # s is real: through Real, a second derivative drops what would reach its zero
        # imaginary part (the same numbers as TensorFlow's at first order)
        s = cast(real(s), a.dtype)
    grad_u = zeros_like(u) if grad_u is None else grad_u
    grad_v = zeros_like(v) if grad_v is None else grad_v
    use_adjoint = m > n
    if use_adjoint:
        m, n, u, v, grad_u, grad_v = n, m, v, u, grad_v, grad_u
    if full_matrices and n - m > 1:
        raise NotImplementedError("svd gradient is not implemented for abs(m - n) > 1 when "
                                  "full_matrices is True. Received shape %s" % a.shape)
    s_mat = diag(s)
    s2 = multiply(s, s)
    f = set_diag(_safe_reciprocal(subtract(expand_dims(s2, -2), expand_dims(s2, -1))),
                 zeros_like(s))
    s_inv_mat = diag(_safe_reciprocal(s))
    v1, grad_v1 = v[..., :m], grad_v[..., :m]
    f_u = multiply(f, matmul(u, grad_u, adjoint_a=True))
    v_gv = matmul(v1, grad_v1, adjoint_a=True)
    f_v = multiply(f, v_gv)
    inner = add(add(grad_s_mat, matmul(add(f_u, adjoint(f_u)), s_mat)),
                matmul(s_mat, add(f_v, adjoint(f_v))))
    grad_a = matmul(u, matmul(inner, v1, adjoint_b=True))
    if m != n:
        gv1t = adjoint(grad_v1)
        term2 = subtract(gv1t, matmul(matmul(gv1t, v1), v1, adjoint_b=True))
        if full_matrices:
            v2, grad_v2 = v[..., m:n], grad_v[..., m:n]
            term2 = subtract(term2, matmul(matmul(v1, grad_v2, adjoint_a=True), v2,
                                           adjoint_b=True))
        grad_a = add(grad_a, matmul(matmul(u, s_inv_mat), term2))
    if a.dtype.is_complex:
        diag_v_gv = multiply(eye_like(v_gv), v_gv)
        term3 = matmul(s_inv_mat, subtract(adjoint(diag_v_gv), diag_v_gv))
        grad_a = add(grad_a, multiply(0.5, matmul(u, matmul(term3, v1, adjoint_b=True))))
    return adjoint(grad_a) if use_adjoint else grad_a


def svd(tensor: TensorLike, full_matrices: bool = False, compute_uv: bool = True,
        name: str | None = None) -> Any:
    """Singular values (descending, real), and with ``compute_uv`` (s, u, v) with
    tensor = u @ diag(s) @ adjoint(v).

    Args:
        tensor: A tensor of matrices: the last two axes, any batch axes before them.
        full_matrices: Whether to return the full (square) factors rather than the reduced ones.
        compute_uv: Whether to return the singular vectors too (else only the values).
        name: A name for the operation (optional).
    """
    out = apply_op("Svd", [_float_input(tensor, "Svd")],
                   {"compute_uv": bool(compute_uv), "full_matrices": bool(full_matrices)},
                   name=name)
    values = real(out[0])
    return (values, out[1], out[2]) if compute_uv else values


# --------------------------------------------------------------------------------------
# Matrix exponential

_PADE13 = (64764752532480000.0, 32382376266240000.0, 7771770303897600.0,
           1187353796428800.0, 129060195264000.0, 10559470521600.0, 670442572800.0,
           33522128640.0, 1323241920.0, 40840800.0, 960960.0, 16380.0, 182.0, 1.0)
_THETA13 = 5.371920351148152


def _expm_one(a: np.ndarray) -> np.ndarray:
    """Scaling and squaring with the [13/13] Pade approximant (Higham 2005)."""
    norm1 = np.abs(a).sum(axis=0).max() if a.size else 0.0
    s = max(0, int(np.ceil(np.log2(norm1 / _THETA13)))) if norm1 > _THETA13 else 0
    a = a / 2.0 ** s
    b, ident = _PADE13, np.eye(a.shape[0], dtype=a.dtype)
    a2 = a @ a
    a4 = a2 @ a2
    a6 = a4 @ a2
    u = a @ (a6 @ (b[13] * a6 + b[11] * a4 + b[9] * a2) + b[7] * a6 + b[5] * a4 + b[3] * a2
             + b[1] * ident)
    v = a6 @ (b[12] * a6 + b[10] * a4 + b[8] * a2) + b[6] * a6 + b[4] * a4 + b[2] * a2 + \
        b[0] * ident
    r = np.linalg.solve(v - u, v + u)
    for _ in range(s):
        r = r @ r
    return r


def _expm_kernel(x: Any) -> Any:
    x = np.asarray(x)
    flat = x.reshape((int(np.prod(x.shape[:-2])),) + x.shape[-2:])
    out = np.stack([_expm_one(m) for m in flat]) if len(flat) else flat.copy()
    return out.reshape(x.shape).astype(x.dtype, copy=False)


@defop("MatrixExponential", _expm_kernel,
       lambda ins, attrs: (ins[0].dtype.base_dtype,
                           _matrices(ins[0].shape, "MatrixExponential")),
       input_names=("input",))
def _expm_grad(op: Any, grad: Any) -> Any:
    """The upper-right block of expm([[A^H, G], [0, A^H]]) (Najfeld and Havel 1995), itself
    an expm, so differentiable again."""
    a = op.inputs[0]
    n = a.shape.as_list()[-1]
    if n is None:
        raise NotImplementedError("expm gradient needs the matrix size statically")
    at = adjoint(a)
    top = concat([at, grad], -1)
    bottom = concat([zeros_like(at), at], -1)
    big = expm(concat([top, bottom], -2))
    return big[..., :n, n:]


def expm(input: TensorLike, name: str | None = None) -> Any:  # noqa: A002
    """The matrix exponential of each square matrix.

    Args:
        input: A tensor of [..., M, M] matrices.
        name: A name for the operation (optional).
    """
    return apply_op("MatrixExponential", [_float_input(input, "MatrixExponential")], name=name)


# --------------------------------------------------------------------------------------
# norm, safe_norm


def _is_int(a: Any) -> bool:
    return isinstance(a, (int, np.integer)) and not isinstance(a, bool)


def _norm_axes(axis: Any, ord: Any) -> tuple:
    """(axes or None, is a matrix norm), checking ``axis`` and ``ord`` as TensorFlow does."""
    if isinstance(axis, (tuple, list)) and len(axis) == 2:
        axis = tuple(int(a) if _is_int(a) else a for a in axis)
        if not all(_is_int(a) for a in axis) or axis[0] == axis[1]:
            raise ValueError("'axis' must be None, an integer, or a tuple of 2 unique integers, "
                             "got %s" % (axis,))
        if not any(ord == o for o in ("euclidean", "fro", 1, 2, np.inf)):
            raise ValueError("'ord' must be a supported matrix norm in ['euclidean', 'fro', 1, "
                             "2, inf], got %s" % (ord,))
        return axis, True
    if not (axis is None or _is_int(axis)):
        raise ValueError("'axis' must be None, an integer, or a tuple of 2 unique integers, "
                         "got %s" % (axis,))
    positive = isinstance(ord, (int, float, np.integer, np.floating)) and \
        not isinstance(ord, bool) and ord > 0
    if not (ord == "euclidean" or positive):
        raise ValueError("'ord' must be a supported vector norm, got %s" % (ord,))
    return (None if axis is None else (int(axis),)), False


def norm(tensor: TensorLike, ord: TensorLike = "euclidean", axis: AxisLike = None,
         keepdims: bool | None = None, name: str | None = None,
         keep_dims: bool | None = None) -> Any:
    """The vector norm (``ord``: 'euclidean', 1, 2, inf or any p > 0) over ``axis`` (all
    axes if None), or the matrix norm ('euclidean'/'fro', 1, 2, inf) over a pair of axes.

    As in TensorFlow, the gradient of the euclidean (and p-) norm at the zero vector is NaN;
    ``safe_norm`` is the same norm with a zero gradient there.

    Args:
        tensor: The tensor whose norm to take.
        ord: The norm: ``"euclidean"``, ``"fro"``, 1, 2, ``np.inf`` or a positive number.
        axis: None (the whole tensor as a vector), an int (vector norms) or a pair of ints (matrix
            norms).
        keepdims: Whether to keep the reduced axes with length 1.
        name: A name for the operation (optional).
        keep_dims: TF1's name for ``keepdims``.
    """
    if keep_dims is not None:
        if keepdims is not None:
            raise ValueError("Cannot specify both 'keep_dims' and 'keepdims'.")
        keepdims = keep_dims
    keepdims = bool(keepdims)
    axes, is_matrix = _norm_axes(axis, ord)
    with name_scope(name, "norm", [tensor]) as scope:
        x = convert_to_tensor(_as_value(tensor))
        if ord in ("euclidean", "fro") or ord == 2 and not is_matrix:
            if x.dtype.is_complex:      # TensorFlow's: sqrt(sum(x conj(x))), complex
                r = sqrt(reduce_sum(x * conj_if_complex(x), axes, keepdims=True))
                return identity(r, name=scope) if keepdims else squeeze(r, axes, name=scope)
            return reduce_euclidean_norm(x, axes, keepdims, name=scope)
        if is_matrix and ord == 2:
            return _spectral_norm(x, axes, keepdims, scope)
        a = abs(x)
        if is_matrix:
            # ord=1: the largest column sum; ord=inf: the largest row sum.
            a0, a1 = (normalize_axis(ax, x.shape.rank)[0] for ax in axes)
            sum_axis, max_axis = (a0, a1) if ord == 1 else (a1, a0)
            s = reduce_sum(a, sum_axis, keepdims=keepdims)
            if not keepdims and max_axis > sum_axis:
                max_axis -= 1
            return reduce_max(s, max_axis, keepdims=keepdims, name=scope)
        if ord == 1:
            return reduce_sum(a, axes, keepdims=keepdims, name=scope)
        if ord == np.inf:
            return reduce_max(a, axes, keepdims=keepdims, name=scope)
        return pow(reduce_sum(pow(a, ord), axes, keepdims=keepdims), 1.0 / ord, name=scope)


def _spectral_norm(x: Any, axes: tuple, keepdims: bool, name: str) -> Any:
    """The matrix 2-norm: the largest singular value over the two ``axes``."""
    r = x.shape.rank
    if r is None:
        raise ValueError("norm: the matrix 2-norm needs a tensor of known rank")
    a0, a1 = (normalize_axis(ax, r)[0] for ax in axes)
    perm = [d for d in range(r) if d not in (a0, a1)] + [a0, a1]
    moved = x if perm == list(range(r)) else transpose(x, perm)
    top = reduce_max(svd(moved, compute_uv=False), -1)
    if not keepdims:
        return identity(top, name=name)
    for d in sorted((a0, a1)):
        top = expand_dims(top, d)
    return identity(top, name=name)


def safe_norm(tensor: TensorLike, ord: TensorLike = "euclidean", axis: AxisLike = None,
              keepdims: bool | None = None, name: str | None = None) -> Any:
    """``norm`` whose gradient (of any order) at the zero vector is 0 instead of TensorFlow's
    NaN, for the euclidean/Frobenius and p-norms; other ords are ``norm`` itself (a flowgrad
    extension, not a TensorFlow name).

    Args:
        tensor: The tensor whose norm to take.
        ord: The norm: ``"euclidean"``, ``"fro"``, 1, 2, ``np.inf`` or a positive number.
        axis: None (the whole tensor as a vector), an int (vector norms) or a pair of ints (matrix
            norms).
        keepdims: Whether to keep the reduced axes with length 1.
        name: A name for the operation (optional).
    """
    axes, is_matrix = _norm_axes(axis, ord)
    euclidean = ord in ("euclidean", "fro") or ord == 2 and not is_matrix
    p_norm = not is_matrix and isinstance(ord, (int, float)) and ord not in (1, 2, np.inf)
    if not (euclidean or p_norm):
        return norm(tensor, ord, axis, keepdims, name)
    with name_scope(name, "safe_norm", [tensor]) as scope:
        x = convert_to_tensor(_as_value(tensor))
        powered = multiply(x, x) if euclidean else pow(abs(x), ord)
        s = reduce_sum(powered, axes, keepdims=bool(keepdims))
        positive = greater(s, 0)
        s_safe = where(positive, s, ones_like(s))
        root = sqrt(s_safe) if euclidean else pow(s_safe, 1.0 / ord)
        return where(positive, root, zeros_like(s), name=scope)


__all__ = ["band_part", "cholesky", "cholesky_solve", "det", "diag", "diag_part", "eigh",
           "eigvalsh", "expm", "eye", "inv", "logdet", "lstsq", "matrix_transpose", "matvec",
           "norm", "qr", "safe_norm", "set_diag", "slogdet", "solve", "svd", "trace",
           "triangular_solve"]
