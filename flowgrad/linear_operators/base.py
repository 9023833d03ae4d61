"""``tf.linalg.LinearOperator``: a matrix (or a batch of them) known by what it does
(``matmul``, ``solve``, ``determinant``, ...) rather than by its entries, as TensorFlow 2.21's
abstract base class. Subclasses say their shape and their product with a matrix; the rest
defaults to the dense matrix (``to_dense``) and is overridden where structure helps. Every
method is written with flowgrad's ops, so results differentiate."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.tensor import TensorBase, convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.module import Module
from flowgrad.ops import linalg_ops, shape_ops
from flowgrad.ops.arithmetic_ops import add
from flowgrad.ops.complex_ops import conj
from flowgrad.ops.elementwise_ops import abs as tf_abs
from flowgrad.ops.matmul_ops import matmul as tf_matmul
from flowgrad.ops.reduction_ops import reduce_max, reduce_min
from flowgrad.ops.sum_ops import reduce_sum
from flowgrad.framework.type_hints import DTypeLike, ShapeLike, TensorLike


#: The operators the base class's defaults build (``A.adjoint()``, ``A.inverse()``,
#: ``A @ B``, ``A.cholesky()``), registered by the modules that define them
#: (flowgrad/linear_operators/__init__.py imports them all).
DERIVED: dict = {}


def adjoint_of(x: Any) -> TensorBase:
    """The conjugate transpose of the last two axes."""
    x = convert_to_tensor(x)
    t = linalg_ops.matrix_transpose(x)
    return conj(t) if x.dtype.is_complex else t


def as_tensor(x: Any, dtype: DTypeLike | None = None, name: str | None = None) -> TensorBase:
    """``x`` as a tensor (of ``dtype`` when given)."""
    if isinstance(x, TensorBase) and (dtype is None or x.dtype.base_dtype == dtype):
        return x
    return convert_to_tensor(x, dtype, name=name)


def eye_of(n: Any, batch_shape: ShapeLike, dtype: DTypeLike) -> TensorBase:
    """An identity matrix of size ``n``, batched to ``batch_shape``."""
    return linalg_ops.eye(n, batch_shape=batch_shape, dtype=dtype)


class LinearOperator(Module):
    """Base class of operators acting like a ``[B1, ..., Bb, M, N]`` matrix, as
    ``tf.linalg.LinearOperator``.

    Subclasses implement ``_shape`` and ``_matmul``; the other methods (determinant, solve,
    ...) fall back on the dense matrix unless a subclass knows better.
    """

    def __init__(self, dtype: DTypeLike, graph_parents: Any = None,
                 is_non_singular: bool | None = None, is_self_adjoint: bool | None = None,
                 is_positive_definite: bool | None = None, is_square: bool | None = None,
                 name: str | None = None, parameters: dict | None = None):
        """Initializes the operator's hints.

        Args:
          dtype: The dtype of the matrix the operator represents.
          graph_parents: Unused (TensorFlow 1's graph parents).
          is_non_singular: Whether the operator is invertible (None: unknown).
          is_self_adjoint: Whether it equals its conjugate transpose.
          is_positive_definite: Whether ``x^H A x`` has positive real part for all ``x``.
          is_square: Whether it is square.
          name: A name for the operator.
          parameters: The constructor's arguments.

        Raises:
          ValueError: Inconsistent hints (positive definite but singular, or not square).
        """
        del graph_parents
        if is_positive_definite:
            if is_non_singular is False:
                raise ValueError("An operator is non-singular if it is positive definite.")
            is_non_singular = True
        if is_non_singular and is_square is False:
            raise ValueError("A non-singular operator is always square.")
        if is_non_singular or is_positive_definite:
            is_square = True
        if is_self_adjoint and is_square is False:
            raise ValueError("A self-adjoint operator is always square.")
        if is_self_adjoint:
            is_square = True
        super().__init__(name=name or type(self).__name__)
        self._dtype = dtypes.as_dtype(dtype) if dtype is not None else None
        self._is_non_singular = is_non_singular
        self._is_self_adjoint = is_self_adjoint
        self._is_positive_definite = is_positive_definite
        self._is_square_set = is_square
        self._parameters = dict(parameters or {})

    # ---- hints and shapes ----

    @property
    def dtype(self) -> Any:
        """The dtype of the matrix."""
        return self._dtype

    @property
    def parameters(self) -> dict:
        """The constructor's arguments."""
        return dict(self._parameters)

    @property
    def graph_parents(self) -> list:
        """TensorFlow 1's graph parents (always empty)."""
        return []

    @property
    def is_non_singular(self) -> bool | None:
        """Whether the operator is invertible (None: unknown)."""
        return self._is_non_singular

    @property
    def is_self_adjoint(self) -> bool | None:
        """Whether the operator equals its adjoint (None: unknown)."""
        return self._is_self_adjoint

    @property
    def is_positive_definite(self) -> bool | None:
        """Whether the operator is positive definite (None: unknown)."""
        return self._is_positive_definite

    @property
    def is_square(self) -> bool | None:
        """Whether the operator is square (known from the shape when static)."""
        dims = self.shape.as_list() if self.shape.rank is not None else None
        if dims and dims[-1] is not None and dims[-2] is not None:
            return dims[-1] == dims[-2]
        return self._is_square_set

    @property
    def shape(self) -> TensorShape:
        """The static shape ``[B1, ..., Bb, M, N]``."""
        return TensorShape(self._shape())

    def _shape(self) -> TensorShape:
        raise NotImplementedError("%s must define _shape" % type(self).__name__)

    def shape_tensor(self, name: str = "shape_tensor") -> TensorBase:
        """The shape as an int32 tensor.

        Args:
          name: A name for the operation.

        Returns:
          A 1-D int32 tensor.
        """
        del name
        return convert_to_tensor(np.asarray(self.shape.as_list(), np.int32))

    @property
    def batch_shape(self) -> TensorShape:
        """The static batch shape ``[B1, ..., Bb]``."""
        return self.shape[:-2]

    def batch_shape_tensor(self, name: str = "batch_shape_tensor") -> TensorBase:
        """The batch shape as an int32 tensor.

        Args:
          name: A name for the operation.

        Returns:
          A 1-D int32 tensor.
        """
        del name
        return convert_to_tensor(np.asarray(self.batch_shape.as_list(), np.int32))

    @property
    def tensor_rank(self) -> int:
        """The rank of the matrix tensor (``b + 2``), as TensorFlow's property."""
        return self.shape.rank

    def tensor_rank_tensor(self, name: str = "tensor_rank_tensor") -> TensorBase:
        """:meth:`tensor_rank` as an int32 tensor.

        Args:
          name: A name for the operation.

        Returns:
          A scalar int32 tensor.
        """
        del name
        return convert_to_tensor(np.int32(self.shape.rank))

    @property
    def domain_dimension(self) -> Any:
        """``N``, the size of the vectors the operator acts on."""
        return self.shape[-1]

    def domain_dimension_tensor(self, name: str = "domain_dimension_tensor") -> TensorBase:
        """``N`` as an int32 tensor.

        Args:
          name: A name for the operation.

        Returns:
          A scalar int32 tensor.
        """
        del name
        return convert_to_tensor(np.int32(self.shape.as_list()[-1]))

    @property
    def range_dimension(self) -> Any:
        """``M``, the size of the vectors the operator returns."""
        return self.shape[-2]

    def range_dimension_tensor(self, name: str = "range_dimension_tensor") -> TensorBase:
        """``M`` as an int32 tensor.

        Args:
          name: A name for the operation.

        Returns:
          A scalar int32 tensor.
        """
        del name
        return convert_to_tensor(np.int32(self.shape.as_list()[-2]))

    def _rows(self) -> int:
        return self.shape.as_list()[-2]

    def _cols(self) -> int:
        return self.shape.as_list()[-1]

    # ---- assertions ----

    def assert_non_singular(self, name: str = "assert_non_singular") -> Any:
        """An assertion that the operator is invertible (its smallest singular value is not
        zero), as an op.

        Args:
          name: A name for the operation.

        Returns:
          The assertion op (None when executing eagerly and it holds).
        """
        from flowgrad.ops.check_ops import assert_less
        s = linalg_ops.svd(self.to_dense(), compute_uv=False)
        smallest = reduce_min(s, axis=-1)
        eps = np.finfo(self.dtype.real_dtype.as_numpy_dtype).eps
        return assert_less(convert_to_tensor(eps * 100, smallest.dtype) * reduce_max(s, -1),
                           smallest, message="Singular operator: %s" % self.name, name=name)

    def assert_positive_definite(self, name: str = "assert_positive_definite") -> Any:
        """An assertion that the operator is positive definite (its Cholesky factorisation
        succeeds), as an op.

        Args:
          name: A name for the operation.

        Returns:
          The assertion op.
        """
        from flowgrad.ops.check_ops import assert_positive
        chol = linalg_ops.cholesky(self.to_dense())
        return assert_positive(linalg_ops.diag_part(chol), name=name,
                               message="Operator %s is not positive definite." % self.name)

    def assert_self_adjoint(self, name: str = "assert_self_adjoint") -> Any:
        """An assertion that the operator equals its adjoint, as an op.

        Args:
          name: A name for the operation.

        Returns:
          The assertion op.
        """
        from flowgrad.ops.check_ops import assert_near
        dense = self.to_dense()
        return assert_near(dense, adjoint_of(dense), name=name,
                           message="Operator %s is not self-adjoint." % self.name)

    # ---- products and solves ----

    def matmul(self, x: Any, adjoint: bool = False, adjoint_arg: bool = False,
               name: str = "matmul") -> Any:
        """``A x`` (``A^H x`` with ``adjoint``; ``x^H`` with ``adjoint_arg``); another
        operator gives their composition.

        Args:
          x: A tensor ``[..., N, R]`` of the operator's dtype, or a LinearOperator.
          adjoint: Whether to use the operator's adjoint.
          adjoint_arg: Whether to use ``x``'s adjoint.
          name: A name for the operation.

        Returns:
          A tensor ``[..., M, R]``, or a LinearOperator.
        """
        del name
        if isinstance(x, LinearOperator):
            compose = DERIVED["compose"]
            left = self.adjoint() if adjoint else self
            right = x.adjoint() if adjoint_arg else x
            return compose(left, right)
        x = as_tensor(x, self.dtype, name="x")
        return self._matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _matmul(self, x: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        raise NotImplementedError("%s must define _matmul" % type(self).__name__)

    def __matmul__(self, other: Any) -> Any:
        return self.matmul(other)

    def matvec(self, x: Any, adjoint: bool = False, name: str = "matvec") -> TensorBase:
        """``A x`` for vectors ``x`` ``[..., N]``.

        Args:
          x: A tensor ``[..., N]``.
          adjoint: Whether to use the operator's adjoint.
          name: A name for the operation.

        Returns:
          A tensor ``[..., M]``.
        """
        del name
        x = as_tensor(x, self.dtype, name="x")
        return shape_ops.squeeze(self._matmul(shape_ops.expand_dims(x, -1), adjoint=adjoint),
                                 [-1])

    def solve(self, rhs: TensorLike, adjoint: bool = False, adjoint_arg: bool = False,
              name: str = "solve") -> Any:
        """``X`` with ``A X = rhs`` (``A^H X = rhs`` with ``adjoint``).

        Args:
          rhs: A tensor ``[..., M, R]``, or a LinearOperator.
          adjoint: Whether to solve with the adjoint.
          adjoint_arg: Whether to use ``rhs``'s adjoint.
          name: A name for the operation.

        Returns:
          A tensor ``[..., N, R]`` (a LinearOperator for an operator ``rhs``).

        Raises:
          NotImplementedError: The operator is known to be singular or not square.
        """
        del name
        if self.is_non_singular is False:
            raise NotImplementedError("Exact solve not implemented for an operator that is "
                                      "expected to be singular.")
        if self.is_square is False:
            raise NotImplementedError("Exact solve not implemented for an operator that is "
                                      "expected to not be square.")
        if isinstance(rhs, LinearOperator):
            compose = DERIVED["compose"]
            left = self.inverse().adjoint() if adjoint else self.inverse()
            return compose(left, rhs.adjoint() if adjoint_arg else rhs)
        rhs = as_tensor(rhs, self.dtype, name="rhs")
        return self._solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _solve(self, rhs: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        if adjoint_arg:
            rhs = adjoint_of(rhs)
        dense = self.to_dense()
        if self.is_self_adjoint and self.is_positive_definite:
            return linalg_ops.cholesky_solve(linalg_ops.cholesky(dense), rhs)
        rhs, dense = broadcast_batch(rhs, dense)
        return linalg_ops.solve(dense, rhs, adjoint=adjoint)

    def solvevec(self, rhs: TensorLike, adjoint: bool = False, name: str = "solve") -> TensorBase:
        """``x`` with ``A x = rhs`` for vectors ``rhs`` ``[..., M]``.

        Args:
          rhs: A tensor ``[..., M]``.
          adjoint: Whether to solve with the adjoint.
          name: A name for the operation.

        Returns:
          A tensor ``[..., N]``.

        Raises:
          ValueError: ``rhs``'s size is not the operator's range (domain with ``adjoint``).
        """
        rhs = as_tensor(rhs, self.dtype, name="rhs")
        want = self.shape.as_list()[-1 if adjoint else -2]
        have = rhs.shape.as_list()[-1] if rhs.shape.rank else None
        if want is not None and have is not None and want != have:
            raise ValueError("Dimensions must be equal, but are %d and %d for the right-hand "
                             "side of %s.solvevec" % (have, want, self.name))
        out = self.solve(shape_ops.expand_dims(rhs, -1), adjoint=adjoint, name=name)
        return shape_ops.squeeze(out, [-1])

    # ---- scalars ----

    def _check_square(self, what: str) -> None:
        if self.is_square is False:
            raise NotImplementedError("%s not implemented for an operator that is expected "
                                      "to not be square." % what)

    def determinant(self, name: str = "det") -> TensorBase:
        """The determinant of each matrix of the batch.

        Args:
          name: A name for the operation.

        Returns:
          A tensor of shape ``[B1, ..., Bb]``.

        Raises:
          NotImplementedError: The operator is not square.
        """
        del name
        self._check_square("Determinant")
        return self._determinant()

    def _determinant(self) -> TensorBase:
        return linalg_ops.det(self.to_dense())

    def log_abs_determinant(self, name: str = "log_abs_det") -> TensorBase:
        """``log |det A|`` of each matrix of the batch.

        Args:
          name: A name for the operation.

        Returns:
          A tensor of shape ``[B1, ..., Bb]``.

        Raises:
          NotImplementedError: The operator is not square.
        """
        del name
        self._check_square("Log abs determinant")
        return self._log_abs_determinant()

    def _log_abs_determinant(self) -> TensorBase:
        return linalg_ops.slogdet(self.to_dense())[1]

    def diag_part(self, name: str = "diag_part") -> TensorBase:
        """The main diagonal of each matrix.

        Args:
          name: A name for the operation.

        Returns:
          A tensor ``[B1, ..., Bb, min(M, N)]``.
        """
        del name
        return self._diag_part()

    def _diag_part(self) -> TensorBase:
        return linalg_ops.diag_part(self.to_dense())

    def trace(self, name: str = "trace") -> TensorBase:
        """The trace of each matrix.

        Args:
          name: A name for the operation.

        Returns:
          A tensor ``[B1, ..., Bb]``.
        """
        del name
        return self._trace()

    def _trace(self) -> TensorBase:
        return reduce_sum(self.diag_part(), axis=-1)

    def eigvals(self, name: str = "eigvals") -> TensorBase:
        """The eigenvalues (of a self-adjoint operator), in ascending order.

        Args:
          name: A name for the operation.

        Returns:
          A tensor ``[B1, ..., Bb, N]``.

        Raises:
          NotImplementedError: The operator is not known to be self-adjoint.
        """
        del name
        if not self.is_self_adjoint:
            raise NotImplementedError("Only self-adjoint matrices are supported.")
        return self._eigvals()

    def _eigvals(self) -> TensorBase:
        return linalg_ops.eigvalsh(self.to_dense())

    def cond(self, name: str = "cond") -> TensorBase:
        """The condition number (largest over smallest singular value).

        Args:
          name: A name for the operation.

        Returns:
          A tensor ``[B1, ..., Bb]``.
        """
        del name
        s = linalg_ops.svd(self.to_dense(), compute_uv=False)
        return reduce_max(s, axis=-1) / reduce_min(s, axis=-1)

    # ---- derived operators ----

    def to_dense(self, name: str = "to_dense") -> TensorBase:
        """The dense matrix ``[B1, ..., Bb, M, N]``.

        Args:
          name: A name for the operation.

        Returns:
          A tensor.
        """
        del name
        return self._to_dense()

    def _to_dense(self) -> TensorBase:
        eye = eye_of(self._cols(), self.batch_shape.as_list(), self.dtype)
        return self._matmul(eye)

    def add_to_tensor(self, x: Any, name: str = "add_to_tensor") -> TensorBase:
        """``A + x``.

        Args:
          x: A tensor of the operator's shape.
          name: A name for the operation.

        Returns:
          A tensor.
        """
        del name
        return add(self.to_dense(), as_tensor(x, self.dtype, name="x"))

    def adjoint(self, name: str = "adjoint") -> LinearOperator:
        """The conjugate transpose ``A^H`` as an operator.

        Args:
          name: A name for the operation.

        Returns:
          A LinearOperator (this one when it is self-adjoint).
        """
        del name
        if self.is_self_adjoint is True:
            return self
        return self._adjoint()

    def _adjoint(self) -> LinearOperator:
        return DERIVED["adjoint"](self)

    H = property(lambda self: self.adjoint(), doc="The adjoint (``A^H``), as an operator.")

    def inverse(self, name: str = "inverse") -> LinearOperator:
        """The inverse ``A^-1`` as an operator.

        Args:
          name: A name for the operation.

        Returns:
          A LinearOperator.

        Raises:
          ValueError: The operator is known to be singular or not square.
        """
        del name
        if self.is_square is False:
            raise ValueError("Cannot take the Inverse: This operator represents a non square "
                             "matrix.")
        if self.is_non_singular is False:
            raise ValueError("Cannot take the Inverse: This operator represents a singular "
                             "matrix.")
        return self._inverse()

    def _inverse(self) -> LinearOperator:
        return DERIVED["inversion"](self)

    def cholesky(self, name: str = "cholesky") -> LinearOperator:
        """The lower Cholesky factor ``L`` (``A = L L^H``) as an operator.

        Args:
          name: A name for the operation.

        Returns:
          A LinearOperator.

        Raises:
          ValueError: The operator is not known to be self-adjoint and positive definite.
        """
        del name
        if not self.is_positive_definite:
            raise ValueError("Cholesky decomposition only exists for positive definite "
                             "matrices.")
        if not self.is_self_adjoint:
            raise ValueError("Cholesky decomposition only exists for self-adjoint matrices.")
        return self._cholesky()

    def _cholesky(self) -> LinearOperator:
        return DERIVED["lower_triangular"](linalg_ops.cholesky(self.to_dense()),
                                           is_non_singular=True, is_square=True)

    def __repr__(self) -> str:
        return "<tf.linalg.%s '%s' is_non_singular=%s is_self_adjoint=%s " \
               "is_positive_definite=%s is_square=%s shape=%s dtype=%s>" % (
                   type(self).__name__, self.name, self.is_non_singular, self.is_self_adjoint,
                   self.is_positive_definite, self.is_square, self.shape,
                   self.dtype.name if self.dtype is not None else None)


def broadcast_batch(a: TensorBase, b: TensorBase) -> tuple:
    """``a`` and ``b`` with their batch axes (all but the last two) broadcast together.

    Args:
      a: A tensor of rank 2 or more.
      b: Another.

    Returns:
      The pair, broadcast.
    """
    sa, sb = a.shape.as_list(), b.shape.as_list()
    if sa[:-2] == sb[:-2]:
        return a, b
    batch = list(np.broadcast_shapes(tuple(sa[:-2]), tuple(sb[:-2])))
    return (shape_ops.broadcast_to(a, batch + sa[-2:]),
            shape_ops.broadcast_to(b, batch + sb[-2:]))


def matmul_dense(a: TensorBase, x: TensorBase, adjoint: bool, adjoint_arg: bool) -> TensorBase:
    """``a @ x`` with adjoints and broadcast batch axes."""
    if adjoint:
        a = adjoint_of(a)
    if adjoint_arg:
        x = adjoint_of(x)
    a, x = broadcast_batch(a, x)
    return tf_matmul(a, x)


def abs_log(x: TensorBase) -> TensorBase:
    """``log |x|``."""
    from flowgrad.ops.elementwise_ops import log
    return log(tf_abs(x))
