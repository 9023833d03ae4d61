"""The structured ``tf.linalg`` operators: FullMatrix, Diag, Identity, ScaledIdentity,
LowerTriangular, Zeros, Toeplitz, Circulant, Householder, Permutation and Tridiag, as
TensorFlow 2.21's, each using its structure (a diagonal solve divides, a triangular one
substitutes, a circulant one goes through the FFT)."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.tensor import TensorBase, constant
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.linear_operators.base import (DERIVED, LinearOperator, abs_log, adjoint_of, as_tensor,
                                            eye_of, matmul_dense)
from flowgrad.ops import fft_ops, linalg_ops, shape_ops
from flowgrad.ops.arithmetic_ops import multiply
from flowgrad.ops.cast_ops import cast
from flowgrad.ops.concat_ops import concat
from flowgrad.ops.complex_ops import conj, real
from flowgrad.ops.elementwise_ops import sqrt
from flowgrad.ops.fill_ops import ones, zeros
from flowgrad.ops.indexing_ops import gather_v2
from flowgrad.ops.reduction_ops import reduce_prod
from flowgrad.ops.sum_ops import reduce_sum
from flowgrad.ops.tridiagonal_ops import tridiagonal_matmul, tridiagonal_solve
from flowgrad.framework.type_hints import DTypeLike, ShapeLike, TensorLike


def _static(x: TensorBase) -> list:
    return x.shape.as_list()


class LinearOperatorFullMatrix(LinearOperator):
    """A dense ``[..., M, N]`` matrix as an operator, as ``tf.linalg.LinearOperatorFullMatrix``.
    """

    def __init__(self, matrix: TensorLike, is_non_singular: bool | None = None,
                 is_self_adjoint: bool | None = None, is_positive_definite: bool | None = None,
                 is_square: bool | None = None, name: str = "LinearOperatorFullMatrix"):
        """Wraps ``matrix``.

        Args:
          matrix: A tensor ``[..., M, N]`` (float or complex).
          is_non_singular: Hint: invertible.
          is_self_adjoint: Hint: equal to its adjoint.
          is_positive_definite: Hint: positive definite.
          is_square: Hint: square.
          name: A name for the operator.

        Raises:
          ValueError: ``matrix`` has rank below 2.
        """
        self._matrix = as_tensor(matrix, name="matrix")
        if self._matrix.shape.rank is not None and self._matrix.shape.rank < 2:
            raise ValueError("Argument matrix must have at least 2 dimensions.  Found: %s"
                             % self._matrix)
        super().__init__(self._matrix.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name, parameters=dict(matrix=matrix, name=name))

    def _shape(self) -> TensorShape:
        return self._matrix.shape

    def _matmul(self, x: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        return matmul_dense(self._matrix, x, adjoint, adjoint_arg)

    def _to_dense(self) -> TensorBase:
        return self._matrix


class LinearOperatorDiag(LinearOperator):
    """A diagonal matrix from its diagonal ``[..., N]``, as ``tf.linalg.LinearOperatorDiag``.
    """

    def __init__(self, diag: Any, is_non_singular: bool | None = None,
                 is_self_adjoint: bool | None = None, is_positive_definite: bool | None = None,
                 is_square: bool = True, name: str = "LinearOperatorDiag"):
        """Wraps the diagonal ``diag``.

        Args:
          diag: A tensor ``[..., N]``.
          is_non_singular: Hint: no zero on the diagonal.
          is_self_adjoint: Hint (always true for real dtypes).
          is_positive_definite: Hint: positive diagonal.
          is_square: Must be True.
          name: A name for the operator.

        Raises:
          ValueError: ``is_square`` is False, or a real diagonal is said not self-adjoint.
        """
        self._diag = as_tensor(diag, name="diag")
        if self._diag.shape.rank is not None and self._diag.shape.rank < 1:
            raise ValueError("Argument diag must have at least 1 dimension.  Found: %s"
                             % self._diag)
        if not self._diag.dtype.is_complex:
            if is_self_adjoint is False:
                raise ValueError("A real diagonal operator is always self adjoint.")
            is_self_adjoint = True
        if is_square is False:
            raise ValueError("Only square diagonal operators currently supported.")
        super().__init__(self._diag.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters=dict(diag=diag, name=name))

    @property
    def diag(self) -> TensorBase:
        """The diagonal."""
        return self._diag

    def _shape(self) -> TensorShape:
        d = self._diag.shape
        return d.concatenate(d[-1:])

    def _d(self, adjoint: bool) -> TensorBase:
        return conj(self._diag) if adjoint and self._diag.dtype.is_complex else self._diag

    def _matmul(self, x: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        x = adjoint_of(x) if adjoint_arg else x
        return multiply(shape_ops.expand_dims(self._d(adjoint), -1), x)

    def _solve(self, rhs: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        rhs = adjoint_of(rhs) if adjoint_arg else rhs
        return rhs / shape_ops.expand_dims(self._d(adjoint), -1)

    def _determinant(self) -> TensorBase:
        return reduce_prod(self._diag, axis=-1)

    def _log_abs_determinant(self) -> TensorBase:
        return reduce_sum(abs_log(self._diag), axis=-1)

    def _diag_part(self) -> TensorBase:
        return self._diag

    def _trace(self) -> TensorBase:
        return reduce_sum(self._diag, axis=-1)

    def _to_dense(self) -> TensorBase:
        return linalg_ops.diag(self._diag)

    def _eigvals(self) -> TensorBase:
        return self._diag

    def _adjoint(self) -> LinearOperator:
        return LinearOperatorDiag(conj(self._diag), is_non_singular=self.is_non_singular,
                                  is_self_adjoint=self.is_self_adjoint,
                                  is_positive_definite=self.is_positive_definite)

    def _inverse(self) -> LinearOperator:
        return LinearOperatorDiag(1.0 / self._diag, is_non_singular=self.is_non_singular,
                                  is_self_adjoint=self.is_self_adjoint,
                                  is_positive_definite=self.is_positive_definite)

    def _cholesky(self) -> LinearOperator:
        return LinearOperatorDiag(sqrt(self._diag), is_non_singular=True,
                                  is_self_adjoint=True, is_positive_definite=True)


def _batch(batch_shape: Any) -> list:
    if batch_shape is None:
        return []
    if isinstance(batch_shape, TensorBase):
        return [int(v) for v in np.asarray(batch_shape)]
    return [int(v) for v in batch_shape]


def _check_rows(num_rows: Any) -> int:
    n = int(np.asarray(num_rows))
    if n < 0:
        raise ValueError("Argument num_rows must be non-negative.  Found: %d" % n)
    return n


class LinearOperatorIdentity(LinearOperator):
    """The identity matrix (of ``num_rows``, batched by ``batch_shape``), as
    ``tf.linalg.LinearOperatorIdentity``."""

    def __init__(self, num_rows: Any, batch_shape: ShapeLike = None, dtype: DTypeLike | None = None,
                 is_non_singular: bool = True, is_self_adjoint: bool = True,
                 is_positive_definite: bool = True, is_square: bool = True,
                 assert_proper_shapes: bool = False, name: str = "LinearOperatorIdentity"):
        """Builds the identity.

        Args:
          num_rows: Its size ``N``.
          batch_shape: The batch shape (None: no batch).
          dtype: The dtype (float32 by default).
          is_non_singular: Must be True.
          is_self_adjoint: Must be True.
          is_positive_definite: Must be True.
          is_square: Must be True.
          assert_proper_shapes: Accepted (shapes are checked statically).
          name: A name for the operator.

        Raises:
          ValueError: A hint is False, or ``num_rows`` is negative.
        """
        del assert_proper_shapes
        for hint, what in ((is_non_singular, "non-singular"),
                           (is_self_adjoint, "self-adjoint"),
                           (is_positive_definite, "positive definite"),
                           (is_square, "square")):
            if not hint:
                raise ValueError("An identity operator is always %s." % what)
        self._num_rows = _check_rows(num_rows)
        self._batch_shape = _batch(batch_shape)
        super().__init__(dtypes.as_dtype(dtype or dtypes.float32), is_non_singular=True,
                         is_self_adjoint=True, is_positive_definite=True, is_square=True,
                         name=name, parameters=dict(num_rows=num_rows, batch_shape=batch_shape,
                                                    dtype=dtype, name=name))

    def _shape(self) -> TensorShape:
        return TensorShape(self._batch_shape + [self._num_rows, self._num_rows])

    def _broadcast(self, x: TensorBase) -> TensorBase:
        if not self._batch_shape:
            return x
        dims = x.shape.as_list()
        batch = list(np.broadcast_shapes(tuple(dims[:-2]), tuple(self._batch_shape)))
        return shape_ops.broadcast_to(x, batch + dims[-2:])

    def _matmul(self, x: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        return self._broadcast(adjoint_of(x) if adjoint_arg else x)

    def _solve(self, rhs: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        return self._matmul(rhs, adjoint_arg=adjoint_arg)

    def _determinant(self) -> TensorBase:
        return ones(self._batch_shape, self.dtype)

    def _log_abs_determinant(self) -> TensorBase:
        return zeros(self._batch_shape, self.dtype)

    def _diag_part(self) -> TensorBase:
        return ones(self._batch_shape + [self._num_rows], self.dtype)

    def _trace(self) -> TensorBase:
        return cast(constant(self._num_rows), self.dtype) * ones(self._batch_shape, self.dtype)

    def _to_dense(self) -> TensorBase:
        return eye_of(self._num_rows, self._batch_shape or None, self.dtype)

    def _eigvals(self) -> TensorBase:
        return self._diag_part()

    def _adjoint(self) -> LinearOperator:
        return self

    def _inverse(self) -> LinearOperator:
        return self

    def _cholesky(self) -> LinearOperator:
        return self

    def add_to_tensor(self, mat: Any, name: str = "add_to_tensor") -> TensorBase:
        """``I + mat``.

        Args:
          mat: A tensor of the operator's shape.
          name: A name for the operation.

        Returns:
          A tensor.
        """
        del name
        mat = as_tensor(mat, self.dtype, name="mat")
        return linalg_ops.set_diag(mat, linalg_ops.diag_part(mat) + 1)


class LinearOperatorScaledIdentity(LinearOperator):
    """``multiplier`` times the identity, as ``tf.linalg.LinearOperatorScaledIdentity`` (the
    batch shape is the multiplier's)."""

    def __init__(self, num_rows: Any, multiplier: Any, is_non_singular: bool | None = None,
                 is_self_adjoint: bool | None = None, is_positive_definite: bool | None = None,
                 is_square: bool = True, assert_proper_shapes: bool = False,
                 name: str = "LinearOperatorScaledIdentity"):
        """Builds ``multiplier * I``.

        Args:
          num_rows: The size ``N``.
          multiplier: A tensor of the batch shape.
          is_non_singular: Hint: the multiplier is not zero.
          is_self_adjoint: Hint: the multiplier is real.
          is_positive_definite: Hint: the multiplier is positive.
          is_square: Must be True.
          assert_proper_shapes: Accepted (shapes are checked statically).
          name: A name for the operator.

        Raises:
          ValueError: ``is_square`` is False.
        """
        del assert_proper_shapes
        if not is_square:
            raise ValueError("A ScaledIdentity operator is always square.")
        self._num_rows = _check_rows(num_rows)
        self._multiplier = as_tensor(multiplier, name="multiplier")
        if not self._multiplier.dtype.is_complex and is_self_adjoint is None:
            is_self_adjoint = True
        super().__init__(self._multiplier.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters=dict(num_rows=num_rows, multiplier=multiplier, name=name))

    @property
    def multiplier(self) -> TensorBase:
        """The scale."""
        return self._multiplier

    def _shape(self) -> TensorShape:
        return self._multiplier.shape.concatenate([self._num_rows, self._num_rows])

    def _m(self, adjoint: bool) -> TensorBase:
        m = self._multiplier
        m = conj(m) if adjoint and m.dtype.is_complex else m
        return shape_ops.expand_dims(shape_ops.expand_dims(m, -1), -1)

    def _matmul(self, x: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        return (adjoint_of(x) if adjoint_arg else x) * self._m(adjoint)

    def _solve(self, rhs: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        return (adjoint_of(rhs) if adjoint_arg else rhs) / self._m(adjoint)

    def _determinant(self) -> TensorBase:
        return self._multiplier ** self._num_rows

    def _log_abs_determinant(self) -> TensorBase:
        return cast(constant(self._num_rows), abs_log(self._multiplier).dtype) * abs_log(
            self._multiplier)

    def _diag_part(self) -> TensorBase:
        return shape_ops.expand_dims(self._multiplier, -1) * ones([self._num_rows], self.dtype)

    def _trace(self) -> TensorBase:
        return self._multiplier * cast(constant(self._num_rows), self.dtype)

    def _to_dense(self) -> TensorBase:
        return self._m(False) * eye_of(self._num_rows, None, self.dtype)

    def _eigvals(self) -> TensorBase:
        return self._diag_part()

    def _adjoint(self) -> LinearOperator:
        return LinearOperatorScaledIdentity(self._num_rows, conj(self._multiplier),
                                            is_non_singular=self.is_non_singular,
                                            is_self_adjoint=self.is_self_adjoint,
                                            is_positive_definite=self.is_positive_definite)

    def _inverse(self) -> LinearOperator:
        return LinearOperatorScaledIdentity(self._num_rows, 1.0 / self._multiplier,
                                            is_non_singular=self.is_non_singular,
                                            is_self_adjoint=self.is_self_adjoint,
                                            is_positive_definite=self.is_positive_definite)

    def _cholesky(self) -> LinearOperator:
        return LinearOperatorScaledIdentity(self._num_rows, sqrt(self._multiplier),
                                            is_non_singular=True, is_self_adjoint=True,
                                            is_positive_definite=True)


class LinearOperatorLowerTriangular(LinearOperator):
    """The lower triangle of a ``[..., N, N]`` matrix (entries above the diagonal are
    ignored), as ``tf.linalg.LinearOperatorLowerTriangular``."""

    def __init__(self, tril: Any, is_non_singular: bool | None = None,
                 is_self_adjoint: bool | None = None, is_positive_definite: bool | None = None,
                 is_square: bool | None = None, name: str = "LinearOperatorLowerTriangular"):
        """Wraps the lower triangle of ``tril``.

        Args:
          tril: A tensor ``[..., N, N]``.
          is_non_singular: Hint: no zero on the diagonal.
          is_self_adjoint: Hint.
          is_positive_definite: Hint.
          is_square: Must not be False.
          name: A name for the operator.

        Raises:
          ValueError: ``is_square`` is False or ``tril`` has rank below 2.
        """
        if is_square is False:
            raise ValueError("Only square lower triangular operators supported at this time.")
        self._tril_arg = as_tensor(tril, name="tril")
        if self._tril_arg.shape.rank is not None and self._tril_arg.shape.rank < 2:
            raise ValueError("Argument tril must have at least 2 dimensions.  Found: %s"
                             % self._tril_arg)
        self._tril = linalg_ops.band_part(self._tril_arg, -1, 0)
        super().__init__(self._tril.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters=dict(tril=tril, name=name))

    def _shape(self) -> TensorShape:
        return self._tril.shape

    def _matmul(self, x: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        return matmul_dense(self._tril, x, adjoint, adjoint_arg)

    def _solve(self, rhs: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        rhs = adjoint_of(rhs) if adjoint_arg else rhs
        return linalg_ops.triangular_solve(self._tril, rhs, lower=True, adjoint=adjoint)

    def _determinant(self) -> TensorBase:
        return reduce_prod(linalg_ops.diag_part(self._tril), axis=-1)

    def _log_abs_determinant(self) -> TensorBase:
        return reduce_sum(abs_log(linalg_ops.diag_part(self._tril)), axis=-1)

    def _to_dense(self) -> TensorBase:
        return self._tril

    def _eigvals(self) -> TensorBase:
        return linalg_ops.diag_part(self._tril)


class LinearOperatorZeros(LinearOperator):
    """The zero matrix, as ``tf.linalg.LinearOperatorZeros``."""

    def __init__(self, num_rows: Any, num_columns: Any = None, batch_shape: ShapeLike = None,
                 dtype: DTypeLike | None = None, is_non_singular: bool = False,
                 is_self_adjoint: bool = True, is_positive_definite: bool = False,
                 is_square: bool = True, assert_proper_shapes: bool = False,
                 name: str = "LinearOperatorZeros"):
        """Builds the zero operator.

        Args:
          num_rows: ``M``.
          num_columns: ``N`` (``M`` when None).
          batch_shape: The batch shape.
          dtype: The dtype (float32 by default).
          is_non_singular: Must be False.
          is_self_adjoint: Must be True for a square operator.
          is_positive_definite: Must be False.
          is_square: Whether square.
          assert_proper_shapes: Accepted (shapes are checked statically).
          name: A name for the operator.

        Raises:
          ValueError: An impossible hint.
        """
        del assert_proper_shapes
        if is_non_singular:
            raise ValueError("A Zeros operator is always singular.")
        if is_positive_definite:
            raise ValueError("A Zeros operator is always not positive definite.")
        self._num_rows = _check_rows(num_rows)
        self._num_columns = self._num_rows if num_columns is None else _check_rows(num_columns)
        self._batch_shape = _batch(batch_shape)
        square = self._num_rows == self._num_columns
        super().__init__(dtypes.as_dtype(dtype or dtypes.float32), is_non_singular=False,
                         is_self_adjoint=bool(is_self_adjoint and square),
                         is_positive_definite=False, is_square=square, name=name,
                         parameters=dict(num_rows=num_rows, num_columns=num_columns,
                                         batch_shape=batch_shape, dtype=dtype, name=name))

    def _shape(self) -> TensorShape:
        return TensorShape(self._batch_shape + [self._num_rows, self._num_columns])

    def _matmul(self, x: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        x = adjoint_of(x) if adjoint_arg else x
        rows = self._num_columns if adjoint else self._num_rows
        dims = x.shape.as_list()
        batch = list(np.broadcast_shapes(tuple(dims[:-2]), tuple(self._batch_shape)))
        return zeros(batch + [rows, dims[-1]], self.dtype)

    def _determinant(self) -> TensorBase:
        return zeros(self._batch_shape, self.dtype)

    def _log_abs_determinant(self) -> TensorBase:
        return constant(-np.inf, self.dtype) * ones(self._batch_shape, self.dtype)

    def _to_dense(self) -> TensorBase:
        return zeros(self._batch_shape + [self._num_rows, self._num_columns], self.dtype)

    def _diag_part(self) -> TensorBase:
        return zeros(self._batch_shape + [min(self._num_rows, self._num_columns)], self.dtype)

    def _adjoint(self) -> LinearOperator:
        return LinearOperatorZeros(self._num_columns, self._num_rows,
                                   self._batch_shape or None, self.dtype,
                                   is_self_adjoint=self.is_self_adjoint or False)

    def add_to_tensor(self, mat: Any, name: str = "add_to_tensor") -> TensorBase:
        """``0 + mat``.

        Args:
          mat: A tensor of the operator's shape.
          name: A name for the operation.

        Returns:
          A tensor.
        """
        del name
        return as_tensor(mat, self.dtype, name="mat")


class LinearOperatorToeplitz(LinearOperator):
    """The Toeplitz matrix with first column ``col`` and first row ``row`` (``row[0]`` is
    ignored: the diagonal is ``col[0]``), as ``tf.linalg.LinearOperatorToeplitz``."""

    def __init__(self, col: Any, row: Any, is_non_singular: bool | None = None,
                 is_self_adjoint: bool | None = None, is_positive_definite: bool | None = None,
                 is_square: bool | None = None, name: str = "LinearOperatorToeplitz"):
        """Builds the operator.

        Args:
          col: The first column ``[..., N]``.
          row: The first row ``[..., N]``.
          is_non_singular: Hint.
          is_self_adjoint: Hint.
          is_positive_definite: Hint.
          is_square: Hint.
          name: A name for the operator.
        """
        self._col = as_tensor(col, name="col")
        self._row = as_tensor(row, self._col.dtype, name="row")
        super().__init__(self._col.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters=dict(col=col, row=row, name=name))

    @property
    def col(self) -> TensorBase:
        """The first column."""
        return self._col

    @property
    def row(self) -> TensorBase:
        """The first row."""
        return self._row

    def _shape(self) -> TensorShape:
        batch = np.broadcast_shapes(tuple(_static(self._col)[:-1]),
                                    tuple(_static(self._row)[:-1]))
        n = _static(self._col)[-1]
        return TensorShape(list(batch) + [n, n])

    def _to_dense(self) -> TensorBase:
        n = _static(self._col)[-1]
        # values = [row[n-1], ..., row[1], col[0], ..., col[n-1]]; entry (i, j) is
        # values[n - 1 + i - j].
        values = concat([shape_ops.reverse(self._row[..., 1:], [-1]), self._col], -1)
        idx = (n - 1) + np.arange(n)[:, None] - np.arange(n)[None, :]
        return gather_v2(values, constant(idx.astype(np.int32)), axis=values.shape.rank - 1)

    def _matmul(self, x: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        return matmul_dense(self._to_dense(), x, adjoint, adjoint_arg)


class LinearOperatorCirculant(LinearOperator):
    """The circulant matrix whose eigenvalues (in FFT order) are ``spectrum``, as
    ``tf.linalg.LinearOperatorCirculant``: ``A = F^H diag(spectrum) F``, applied with the
    FFT."""

    def __init__(self, spectrum: Any, input_output_dtype: Any = dtypes.complex64,
                 is_non_singular: bool | None = None, is_self_adjoint: bool | None = None,
                 is_positive_definite: bool | None = None, is_square: bool = True,
                 name: str = "LinearOperatorCirculant"):
        """Builds the operator.

        Args:
          spectrum: The eigenvalues ``[..., N]`` (real or complex).
          input_output_dtype: The dtype of the vectors it acts on and of the matrix.
          is_non_singular: Hint.
          is_self_adjoint: Hint.
          is_positive_definite: Hint.
          is_square: Must be True.
          name: A name for the operator.
        """
        spectrum = as_tensor(spectrum, name="spectrum")
        if not spectrum.dtype.is_complex:
            spectrum = cast(spectrum, dtypes.complex64 if spectrum.dtype == dtypes.float32
                            else dtypes.complex128)
        self._spectrum = spectrum
        super().__init__(dtypes.as_dtype(input_output_dtype), is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters=dict(spectrum=spectrum,
                                         input_output_dtype=input_output_dtype, name=name))

    @property
    def spectrum(self) -> TensorBase:
        """The eigenvalues, in FFT order."""
        return self._spectrum

    def _shape(self) -> TensorShape:
        s = self._spectrum.shape
        return s.concatenate(s[-1:])

    def _apply(self, x: TensorBase, spectrum: TensorBase) -> TensorBase:
        xc = x if x.dtype.is_complex else cast(x, spectrum.dtype)
        xc = cast(xc, spectrum.dtype)
        # The columns of x are transformed along the row axis: move it last.
        xt = linalg_ops.matrix_transpose(xc)
        y = fft_ops.ifft(fft_ops.fft(xt) * shape_ops.expand_dims(spectrum, -2))
        y = linalg_ops.matrix_transpose(y)
        if self.dtype.is_complex:
            return cast(y, self.dtype)
        return cast(real(y), self.dtype)

    def _matmul(self, x: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        x = adjoint_of(x) if adjoint_arg else x
        return self._apply(x, conj(self._spectrum) if adjoint else self._spectrum)

    def _solve(self, rhs: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        rhs = adjoint_of(rhs) if adjoint_arg else rhs
        spectrum = conj(self._spectrum) if adjoint else self._spectrum
        return self._apply(rhs, 1.0 / spectrum)

    def _determinant(self) -> TensorBase:
        det = reduce_prod(self._spectrum, axis=-1)
        return det if self.dtype.is_complex else cast(real(det), self.dtype)

    def _log_abs_determinant(self) -> TensorBase:
        from flowgrad.ops.elementwise_ops import abs as tf_abs, log
        return cast(reduce_sum(log(tf_abs(self._spectrum)), axis=-1), self.dtype)

    def _trace(self) -> TensorBase:
        tr = reduce_sum(self._spectrum, axis=-1)
        return tr if self.dtype.is_complex else cast(real(tr), self.dtype)

    def _eigvals(self) -> TensorBase:
        return cast(self._spectrum, self.dtype) if self.dtype.is_complex else cast(
            real(self._spectrum), self.dtype)

    def convolution_kernel(self, name: str = "convolution_kernel") -> TensorBase:
        """The first column of the matrix (the kernel the operator convolves with).

        Args:
          name: A name for the operation.

        Returns:
          A tensor ``[..., N]``.
        """
        del name
        h = fft_ops.ifft(self._spectrum)
        return h if self.dtype.is_complex else cast(real(h), self.dtype)

    def _adjoint(self) -> LinearOperator:
        # TensorFlow's adjoint keeps the default input_output_dtype (complex64).
        return LinearOperatorCirculant(conj(self._spectrum),
                                       is_non_singular=self.is_non_singular,
                                       is_self_adjoint=self.is_self_adjoint,
                                       is_positive_definite=self.is_positive_definite)

    def _inverse(self) -> LinearOperator:
        return LinearOperatorCirculant(1.0 / self._spectrum, self.dtype,
                                       is_non_singular=self.is_non_singular,
                                       is_self_adjoint=self.is_self_adjoint,
                                       is_positive_definite=self.is_positive_definite)


class LinearOperatorHouseholder(LinearOperator):
    """The reflection ``I - 2 v v^H / |v|^2`` across the hyperplane normal to
    ``reflection_axis``, as ``tf.linalg.LinearOperatorHouseholder``."""

    def __init__(self, reflection_axis: Any, is_non_singular: bool | None = None,
                 is_self_adjoint: bool | None = None, is_positive_definite: bool | None = None,
                 is_square: bool | None = None, name: str = "LinearOperatorHouseholder"):
        """Builds the reflection.

        Args:
          reflection_axis: The normal ``v`` ``[..., N]``.
          is_non_singular: Hint (always true).
          is_self_adjoint: Hint (always true).
          is_positive_definite: Must not be True.
          is_square: Hint (always true).
          name: A name for the operator.

        Raises:
          ValueError: ``is_positive_definite`` or ``is_self_adjoint=False``.
        """
        if is_self_adjoint is False:
            raise ValueError("A Householder operator is always self adjoint.")
        if is_positive_definite is True:
            raise ValueError("A Householder operator is always non-positive definite.")
        self._v = as_tensor(reflection_axis, name="reflection_axis")
        super().__init__(self._v.dtype, is_non_singular=is_non_singular, is_self_adjoint=True,
                         is_positive_definite=False, is_square=True, name=name,
                         parameters=dict(reflection_axis=reflection_axis, name=name))

    @property
    def reflection_axis(self) -> TensorBase:
        """The normal of the reflecting hyperplane."""
        return self._v

    def _shape(self) -> TensorShape:
        s = self._v.shape
        return s.concatenate(s[-1:])

    def _matmul(self, x: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        x = adjoint_of(x) if adjoint_arg else x
        v = shape_ops.expand_dims(self._v, -1)
        vh = adjoint_of(v)
        norm2 = reduce_sum(multiply(conj(self._v) if self._v.dtype.is_complex else self._v,
                                    self._v), axis=-1)
        norm2 = shape_ops.expand_dims(shape_ops.expand_dims(norm2, -1), -1)
        return x - 2.0 * matmul_dense(v, matmul_dense(vh, x, False, False), False, False) / norm2

    def _solve(self, rhs: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        return self._matmul(rhs, adjoint_arg=adjoint_arg)

    def _determinant(self) -> TensorBase:
        return -ones(self.batch_shape.as_list(), self.dtype)

    def _log_abs_determinant(self) -> TensorBase:
        return zeros(self.batch_shape.as_list(), self.dtype)

    def _trace(self) -> TensorBase:
        n = self.shape.as_list()[-1]
        return cast(constant(n - 2), self.dtype) * ones(self.batch_shape.as_list(), self.dtype)

    def _inverse(self) -> LinearOperator:
        return self


class LinearOperatorPermutation(LinearOperator):
    """The permutation matrix of ``perm`` (row ``i`` has its one in column ``perm[i]``), as
    ``tf.linalg.LinearOperatorPermutation``."""

    def __init__(self, perm: TensorLike, dtype: DTypeLike = dtypes.float32,
                 is_non_singular: bool | None = None, is_self_adjoint: bool | None = None,
                 is_positive_definite: bool | None = None, is_square: bool | None = None,
                 name: str = "LinearOperatorPermutation"):
        """Builds the permutation.

        Args:
          perm: An integer tensor ``[..., N]``, a permutation of ``0..N-1``.
          dtype: The matrix's dtype.
          is_non_singular: Hint (always true).
          is_self_adjoint: Hint.
          is_positive_definite: Hint.
          is_square: Hint (always true).
          name: A name for the operator.

        Raises:
          ValueError: ``perm`` is not integer.
        """
        self._perm = as_tensor(perm, name="perm")
        if not self._perm.dtype.is_integer:
            raise TypeError("Argument perm must be integer dtype. Found: %s" % self._perm)
        super().__init__(dtypes.as_dtype(dtype), is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters=dict(perm=perm, dtype=dtype, name=name))

    @property
    def perm(self) -> TensorBase:
        """The permutation."""
        return self._perm

    def _shape(self) -> TensorShape:
        s = self._perm.shape
        return s.concatenate(s[-1:])

    def _to_dense(self) -> TensorBase:
        from flowgrad.ops.fill_ops import one_hot
        return one_hot(self._perm, self.shape.as_list()[-1], dtype=self.dtype)

    def _matmul(self, x: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        return matmul_dense(self._to_dense(), x, adjoint, adjoint_arg)

    def _solve(self, rhs: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        return self._matmul(rhs, adjoint=not adjoint, adjoint_arg=adjoint_arg)



class LinearOperatorTridiag(LinearOperator):
    """A tridiagonal matrix given by its diagonals in one of TensorFlow's formats
    (``compact``, ``sequence``, ``matrix``), as ``tf.linalg.LinearOperatorTridiag``."""

    def __init__(self, diagonals: TensorLike, diagonals_format: str = "compact",
                 is_non_singular: bool | None = None, is_self_adjoint: bool | None = None,
                 is_positive_definite: bool | None = None, is_square: bool | None = None,
                 name: str = "LinearOperatorTridiag"):
        """Builds the operator.

        Args:
          diagonals: The diagonals, as ``tf.linalg.tridiagonal_matmul`` takes them.
          diagonals_format: ``"compact"``, ``"sequence"`` or ``"matrix"``.
          is_non_singular: Hint.
          is_self_adjoint: Hint.
          is_positive_definite: Hint.
          is_square: Hint (always true).
          name: A name for the operator.

        Raises:
          ValueError: An unknown format.
        """
        if diagonals_format not in ("compact", "sequence", "matrix"):
            raise ValueError("Diagonals Format must be one of compact, matrix, sequence, got "
                             ": %s" % diagonals_format)
        if diagonals_format == "sequence":
            diagonals = [as_tensor(d) for d in diagonals]
            dtype = diagonals[0].dtype
        else:
            diagonals = as_tensor(diagonals, name="diagonals")
            dtype = diagonals.dtype
        self._diagonals = diagonals
        self._format = diagonals_format
        super().__init__(dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters=dict(diagonals=diagonals, diagonals_format=diagonals_format,
                                         name=name))

    @property
    def diagonals(self) -> Any:
        """The diagonals, in :attr:`diagonals_format`."""
        return self._diagonals

    @property
    def diagonals_format(self) -> str:
        """The diagonals' format."""
        return self._format

    def _shape(self) -> TensorShape:
        if self._format == "sequence":
            s = self._diagonals[1].shape
            return s.concatenate(s[-1:])
        if self._format == "compact":
            s = self._diagonals.shape
            return s[:-2].concatenate([s[-1], s[-1]])
        return self._diagonals.shape

    def _to_dense(self) -> TensorBase:
        n = self.shape.as_list()[-1]
        eye = eye_of(n, self.batch_shape.as_list() or None, self.dtype)
        return tridiagonal_matmul(self._diagonals, eye, diagonals_format=self._format)

    def _matmul(self, x: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        x = adjoint_of(x) if adjoint_arg else x
        if adjoint:
            return matmul_dense(self._to_dense(), x, True, False)
        return tridiagonal_matmul(self._diagonals, x, diagonals_format=self._format)

    def _solve(self, rhs: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        rhs = adjoint_of(rhs) if adjoint_arg else rhs
        return tridiagonal_solve(self._diagonals, rhs, diagonals_format=self._format,
                                 transpose_rhs=False, conjugate_rhs=False) if not adjoint \
            else linalg_ops.solve(self._to_dense(), rhs, adjoint=True)


DERIVED["lower_triangular"] = LinearOperatorLowerTriangular

__all__ = ["LinearOperatorFullMatrix", "LinearOperatorDiag", "LinearOperatorIdentity",
           "LinearOperatorScaledIdentity", "LinearOperatorLowerTriangular",
           "LinearOperatorZeros", "LinearOperatorToeplitz", "LinearOperatorCirculant",
           "LinearOperatorHouseholder", "LinearOperatorPermutation", "LinearOperatorTridiag"]
