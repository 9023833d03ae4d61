"""The ``tf.linalg`` operators built from other operators: Adjoint, Inversion, Composition,
BlockDiag, BlockLowerTriangular, Kronecker and LowRankUpdate, as TensorFlow 2.21's, each
using its parts (a composition's determinant is the product of theirs, a low-rank update
solves with Woodbury's identity)."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework.tensor import TensorBase
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.linear_operators.base import (DERIVED, LinearOperator, abs_log, adjoint_of, as_tensor,
                                            broadcast_batch, matmul_dense)
from flowgrad.linear_operators.structured import (LinearOperatorCirculant, LinearOperatorDiag,
                                                  LinearOperatorFullMatrix,
                                                  LinearOperatorIdentity,
                                                  LinearOperatorScaledIdentity,
                                                  LinearOperatorZeros)
from flowgrad.ops import linalg_ops, shape_ops
from flowgrad.ops.complex_ops import conj
from flowgrad.ops.concat_ops import concat, split
from flowgrad.ops.fill_ops import zeros
from flowgrad.ops.reduction_ops import reduce_prod
from flowgrad.ops.sum_ops import reduce_sum


def _batch_of(operators: list) -> list:
    return list(np.broadcast_shapes(*(tuple(op.batch_shape.as_list()) for op in operators)))


def _wrap(self: LinearOperator, operator: LinearOperator, hints: tuple, name: str | None,
          suffix: str) -> None:
    """Initializes an operator made of one other: each hint not given is ``operator``'s."""
    self._operator = operator
    own = ("is_non_singular", "is_self_adjoint", "is_positive_definite", "is_square")
    LinearOperator.__init__(
        self, operator.dtype, **{k: getattr(operator, k) if h is None else h
                                 for k, h in zip(own, hints)},
        name=name or operator.name + suffix, parameters=dict(operator=operator, name=name))


class LinearOperatorAdjoint(LinearOperator):
    """The adjoint ``A^H`` of an operator, as ``tf.linalg.LinearOperatorAdjoint``."""

    def __init__(self, operator: LinearOperator, is_non_singular: bool | None = None,
                 is_self_adjoint: bool | None = None, is_positive_definite: bool | None = None,
                 is_square: bool | None = None, name: str | None = None):
        """Wraps ``operator``.

        Args:
          operator: A LinearOperator.
          is_non_singular: Hint (the operator's by default).
          is_self_adjoint: Hint.
          is_positive_definite: Hint.
          is_square: Hint.
          name: A name (``operator``'s name + ``"_adjoint"`` by default).
        """
        _wrap(self, operator, (is_non_singular, is_self_adjoint, is_positive_definite,
                               is_square), name, "_adjoint")

    @property
    def operator(self) -> LinearOperator:
        """The operator whose adjoint this is."""
        return self._operator

    def _shape(self) -> TensorShape:
        s = self._operator.shape
        return s[:-2].concatenate([s[-1], s[-2]])

    def _matmul(self, x: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        return self._operator.matmul(x, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _solve(self, rhs: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        return self._operator.solve(rhs, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _determinant(self) -> TensorBase:
        det = self._operator.determinant()
        return conj(det) if det.dtype.is_complex else det

    def _log_abs_determinant(self) -> TensorBase:
        return self._operator.log_abs_determinant()

    def _to_dense(self) -> TensorBase:
        return adjoint_of(self._operator.to_dense())

    def _adjoint(self) -> LinearOperator:
        return self._operator


class LinearOperatorInversion(LinearOperator):
    """The inverse ``A^-1`` of an operator, as ``tf.linalg.LinearOperatorInversion``: its
    products are the operator's solves and its solves the operator's products."""

    def __init__(self, operator: LinearOperator, is_non_singular: bool | None = None,
                 is_self_adjoint: bool | None = None, is_positive_definite: bool | None = None,
                 is_square: bool | None = None, name: str | None = None):
        """Wraps ``operator``.

        Args:
          operator: A non-singular LinearOperator.
          is_non_singular: Hint (must not be False).
          is_self_adjoint: Hint.
          is_positive_definite: Hint.
          is_square: Hint.
          name: A name (``operator``'s name + ``"_inv"`` by default).

        Raises:
          ValueError: The operator is known to be singular.
        """
        if operator.is_non_singular is False or is_non_singular is False:
            raise ValueError("operator and supplied hints must be non-singular. Found "
                             "operator.is_non_singular = %s" % operator.is_non_singular)
        _wrap(self, operator, (is_non_singular, is_self_adjoint, is_positive_definite,
                               is_square), name, "_inv")

    @property
    def operator(self) -> LinearOperator:
        """The operator whose inverse this is."""
        return self._operator

    def _shape(self) -> TensorShape:
        return self._operator.shape

    def _matmul(self, x: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        return self._operator.solve(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _solve(self, rhs: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        return self._operator.matmul(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _determinant(self) -> TensorBase:
        return 1.0 / self._operator.determinant()

    def _log_abs_determinant(self) -> TensorBase:
        return -self._operator.log_abs_determinant()

    def _inverse(self) -> LinearOperator:
        return self._operator


class LinearOperatorComposition(LinearOperator):
    """The product ``A1 A2 ... An`` of operators, as ``tf.linalg.LinearOperatorComposition``.
    """

    def __init__(self, operators: list, is_non_singular: bool | None = None,
                 is_self_adjoint: bool | None = None, is_positive_definite: bool | None = None,
                 is_square: bool | None = None, name: str | None = None):
        """Composes ``operators`` (the last acts first).

        Args:
          operators: A non-empty list of LinearOperators of one dtype, of compatible shapes.
          is_non_singular: Hint.
          is_self_adjoint: Hint.
          is_positive_definite: Hint.
          is_square: Hint.
          name: A name (the operators' names joined by ``"_o_"`` by default).

        Raises:
          ValueError: An empty list, or operators whose dimensions do not chain.
          TypeError: Operators of different dtypes.
        """
        operators = list(operators)
        if not operators:
            raise ValueError("Expected a non-empty list of operators. Found: %s" % operators)
        dtypes_ = {op.dtype for op in operators}
        if len(dtypes_) > 1:
            raise TypeError("Expected all operators to have the same dtype.  Found %s" % (
                "   ".join("%s: %s" % (op.name, op.dtype) for op in operators)))
        for left, right in zip(operators[:-1], operators[1:]):
            a, b = left.shape.as_list()[-1], right.shape.as_list()[-2]
            if a is not None and b is not None and a != b:
                raise ValueError("Operators are incompatible. Expected `x` to have dimension "
                                 "%d but got %d." % (a, b))
        if all(op.is_non_singular for op in operators):
            is_non_singular = True if is_non_singular is None else is_non_singular
        self._operators = operators
        super().__init__(operators[0].dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name or "_o_".join(op.name for op in operators),
                         parameters=dict(operators=operators, name=name))

    @property
    def operators(self) -> list:
        """The composed operators."""
        return list(self._operators)

    def _shape(self) -> TensorShape:
        rows = self._operators[0].shape.as_list()[-2]
        cols = self._operators[-1].shape.as_list()[-1]
        return TensorShape(_batch_of(self._operators) + [rows, cols])

    def _matmul(self, x: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        order = self._operators if adjoint else self._operators[::-1]
        out = order[0].matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)
        for op in order[1:]:
            out = op.matmul(out, adjoint=adjoint)
        return out

    def _solve(self, rhs: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        order = self._operators[::-1] if adjoint else self._operators
        out = order[0].solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)
        for op in order[1:]:
            out = op.solve(out, adjoint=adjoint)
        return out

    def _determinant(self) -> TensorBase:
        if all(op.is_square for op in self._operators):
            det = self._operators[0].determinant()
            for op in self._operators[1:]:
                det = det * op.determinant()
            return det
        return super()._determinant()

    def _log_abs_determinant(self) -> TensorBase:
        if all(op.is_square for op in self._operators):
            total = self._operators[0].log_abs_determinant()
            for op in self._operators[1:]:
                total = total + op.log_abs_determinant()
            return total
        return super()._log_abs_determinant()


def compose(left: LinearOperator, right: LinearOperator) -> LinearOperator:
    """``left @ right`` for two operators, simplified as TensorFlow's operator algebra does
    (an identity drops out, two diagonals multiply), else a LinearOperatorComposition.

    Args:
      left: A LinearOperator.
      right: Another.

    Returns:
      A LinearOperator.
    """
    if isinstance(left, LinearOperatorZeros) or isinstance(right, LinearOperatorZeros):
        batch = list(np.broadcast_shapes(tuple(left.batch_shape.as_list()),
                                         tuple(right.batch_shape.as_list())))
        rows, cols = left.shape.as_list()[-2], right.shape.as_list()[-1]
        return LinearOperatorZeros(rows, cols, batch or None, left.dtype,
                                   is_self_adjoint=rows == cols)
    if isinstance(left, LinearOperatorIdentity):
        return right
    if isinstance(right, LinearOperatorIdentity):
        return left
    if isinstance(left, LinearOperatorDiag) and isinstance(right, LinearOperatorDiag):
        return LinearOperatorDiag(left.diag * right.diag, is_non_singular=_both(
            left.is_non_singular, right.is_non_singular), is_self_adjoint=_both(
            left.is_self_adjoint, right.is_self_adjoint), is_positive_definite=_both(
            left.is_positive_definite, right.is_positive_definite))
    if isinstance(left, LinearOperatorBlockDiag) and isinstance(right, LinearOperatorBlockDiag) \
            and [op.shape.as_list()[-1] for op in left.operators] == [
                op.shape.as_list()[-2] for op in right.operators]:
        return LinearOperatorBlockDiag([compose(a, b) for a, b in zip(left.operators,
                                                                       right.operators)])
    if isinstance(left, LinearOperatorCirculant) and isinstance(right, LinearOperatorCirculant):
        return LinearOperatorCirculant(left.spectrum * right.spectrum, left.dtype)
    if isinstance(left, LinearOperatorScaledIdentity) and isinstance(
            right, LinearOperatorScaledIdentity):
        return LinearOperatorScaledIdentity(left.shape.as_list()[-1],
                                            left.multiplier * right.multiplier)
    return LinearOperatorComposition([left, right], is_non_singular=_both(
        left.is_non_singular, right.is_non_singular))


def _both(a: bool | None, b: bool | None) -> bool | None:
    return True if a and b else None


def _concat_rows(blocks: list) -> TensorBase:
    """Blocks ``[..., r_i, R]`` (batch axes broadcast) stacked along the rows."""
    batch = list(np.broadcast_shapes(*(tuple(o.shape.as_list()[:-2]) for o in blocks)))
    return concat([shape_ops.broadcast_to(o, batch + o.shape.as_list()[-2:]) for o in blocks],
                  axis=-2)


class LinearOperatorBlockDiag(LinearOperator):
    """The block-diagonal operator ``diag(A1, ..., An)``, as
    ``tf.linalg.LinearOperatorBlockDiag``."""

    def __init__(self, operators: list, is_non_singular: bool | None = None,
                 is_self_adjoint: bool | None = None, is_positive_definite: bool | None = None,
                 is_square: bool = True, name: str | None = None):
        """Puts ``operators`` on the diagonal.

        Args:
          operators: A non-empty list of square LinearOperators of one dtype.
          is_non_singular: Hint.
          is_self_adjoint: Hint.
          is_positive_definite: Hint.
          is_square: Hint.
          name: A name (the operators' names joined by ``"_ds_"`` by default).

        Raises:
          ValueError: An empty list.
          TypeError: Operators of different dtypes.
        """
        operators = list(operators)
        if not operators:
            raise ValueError("Expected a non-empty list of operators. Found: %s" % operators)
        if len({op.dtype for op in operators}) > 1:
            raise TypeError("Expected all operators to have the same dtype.")
        if all(op.is_non_singular for op in operators):
            is_non_singular = True if is_non_singular is None else is_non_singular
        if all(op.is_self_adjoint for op in operators):
            is_self_adjoint = True if is_self_adjoint is None else is_self_adjoint
        if all(op.is_positive_definite for op in operators):
            is_positive_definite = True if is_positive_definite is None else \
                is_positive_definite
        self._operators = operators
        super().__init__(operators[0].dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name or "_ds_".join(op.name for op in operators),
                         parameters=dict(operators=operators, name=name))

    @property
    def operators(self) -> list:
        """The diagonal blocks."""
        return list(self._operators)

    def _shape(self) -> TensorShape:
        rows = sum(op.shape.as_list()[-2] for op in self._operators)
        cols = sum(op.shape.as_list()[-1] for op in self._operators)
        return TensorShape(_batch_of(self._operators) + [rows, cols])

    def _matmul(self, x: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        x = adjoint_of(x) if adjoint_arg else x
        axis = -2 if adjoint else -1
        sizes = [op.shape.as_list()[axis] for op in self._operators]
        parts = split(x, sizes, axis=x.shape.rank - 2)
        outs = [op.matmul(p, adjoint=adjoint) for op, p in zip(self._operators, parts)]
        return _concat_rows(outs)

    def _solve(self, rhs: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        rhs = adjoint_of(rhs) if adjoint_arg else rhs
        sizes = [op.shape.as_list()[-2] for op in self._operators]
        parts = split(rhs, sizes, axis=rhs.shape.rank - 2)
        outs = [op.solve(p, adjoint=adjoint) for op, p in zip(self._operators, parts)]
        return _concat_rows(outs)

    def _determinant(self) -> TensorBase:
        det = self._operators[0].determinant()
        for op in self._operators[1:]:
            det = det * op.determinant()
        return det

    def _log_abs_determinant(self) -> TensorBase:
        total = self._operators[0].log_abs_determinant()
        for op in self._operators[1:]:
            total = total + op.log_abs_determinant()
        return total

    def _diag_part(self) -> TensorBase:
        parts = [op.diag_part() for op in self._operators]
        batch = list(np.broadcast_shapes(*(tuple(p.shape.as_list()[:-1]) for p in parts)))
        return concat([shape_ops.broadcast_to(p, batch + p.shape.as_list()[-1:])
                       for p in parts], axis=-1)

    def _trace(self) -> TensorBase:
        total = self._operators[0].trace()
        for op in self._operators[1:]:
            total = total + op.trace()
        return total

    def _to_dense(self) -> TensorBase:
        batch = _batch_of(self._operators)
        cols = self.shape.as_list()[-1]
        rows_out, start = [], 0
        for op in self._operators:
            dense = op.to_dense()
            r, c = dense.shape.as_list()[-2:]
            dense = shape_ops.broadcast_to(dense, batch + [r, c])
            pieces = []
            if start:
                pieces.append(zeros(batch + [r, start], self.dtype))
            pieces.append(dense)
            if cols - start - c:
                pieces.append(zeros(batch + [r, cols - start - c], self.dtype))
            rows_out.append(concat(pieces, axis=-1))
            start += c
        return concat(rows_out, axis=-2)

    def _adjoint(self) -> LinearOperator:
        return LinearOperatorBlockDiag([op.adjoint() for op in self._operators],
                                       is_non_singular=self.is_non_singular,
                                       is_self_adjoint=self.is_self_adjoint,
                                       is_positive_definite=self.is_positive_definite)

    def _inverse(self) -> LinearOperator:
        return LinearOperatorBlockDiag([op.inverse() for op in self._operators],
                                       is_non_singular=self.is_non_singular,
                                       is_self_adjoint=self.is_self_adjoint,
                                       is_positive_definite=self.is_positive_definite)

    def _cholesky(self) -> LinearOperator:
        return LinearOperatorBlockDiag([op.cholesky() for op in self._operators],
                                       is_non_singular=True)

    def _eigvals(self) -> TensorBase:
        return concat([op.eigvals() for op in self._operators], axis=-1)


class LinearOperatorBlockLowerTriangular(LinearOperator):
    """A block lower-triangular operator from rows of blocks (row ``i`` holds ``i + 1``
    operators, the last on the diagonal), as ``tf.linalg.LinearOperatorBlockLowerTriangular``.
    """

    def __init__(self, operators: list, is_non_singular: bool | None = None,
                 is_self_adjoint: bool | None = None, is_positive_definite: bool | None = None,
                 is_square: bool | None = None, name: str = "LinearOperatorBlockLowerTriangular"):
        """Builds the operator.

        Args:
          operators: A list of lists of LinearOperators (row ``i`` of length ``i + 1``).
          is_non_singular: Hint.
          is_self_adjoint: Hint.
          is_positive_definite: Hint.
          is_square: Hint.
          name: A name for the operator.

        Raises:
          ValueError: Rows of the wrong lengths.
        """
        operators = [list(row) for row in operators]
        for i, row in enumerate(operators):
            if len(row) != i + 1:
                raise ValueError("Argument `operators[%d]` must contain `%d` blocks, but "
                                 "contains %d blocks." % (i, i + 1, len(row)))
        if all(row[-1].is_non_singular for row in operators):
            is_non_singular = True if is_non_singular is None else is_non_singular
        self._operators = operators
        super().__init__(operators[0][0].dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters=dict(operators=operators, name=name))

    @property
    def operators(self) -> list:
        """The rows of blocks."""
        return [list(row) for row in self._operators]

    def _diagonal(self) -> list:
        return [row[-1] for row in self._operators]

    def _shape(self) -> TensorShape:
        n = sum(op.shape.as_list()[-1] for op in self._diagonal())
        flat = [op for row in self._operators for op in row]
        return TensorShape(_batch_of(flat) + [n, n])

    def _to_dense(self) -> TensorBase:
        flat = [op for row in self._operators for op in row]
        batch = _batch_of(flat)
        widths = [op.shape.as_list()[-1] for op in self._diagonal()]
        rows = []
        for i, row in enumerate(self._operators):
            r = row[-1].shape.as_list()[-2]
            pieces = [shape_ops.broadcast_to(op.to_dense(), batch + [r, widths[j]])
                      for j, op in enumerate(row)]
            rest = sum(widths[i + 1:])
            if rest:
                pieces.append(zeros(batch + [r, rest], self.dtype))
            rows.append(concat(pieces, axis=-1))
        return concat(rows, axis=-2)

    def _matmul(self, x: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        return matmul_dense(self._to_dense(), x, adjoint, adjoint_arg)

    def _solve(self, rhs: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        rhs = adjoint_of(rhs) if adjoint_arg else rhs
        if adjoint:
            return linalg_ops.solve(self._to_dense(), rhs, adjoint=True)
        sizes = [op.shape.as_list()[-2] for op in self._diagonal()]
        parts = split(rhs, sizes, axis=rhs.shape.rank - 2)
        xs = []
        for i, row in enumerate(self._operators):
            acc = parts[i]
            for j in range(i):
                acc = acc - row[j].matmul(xs[j])
            xs.append(row[-1].solve(acc))
        return concat(xs, axis=-2)

    def _inverse(self) -> LinearOperator:
        dense = linalg_ops.inv(self._to_dense())
        sizes = [op.shape.as_list()[-1] for op in self._diagonal()]
        rows = split(dense, sizes, axis=dense.shape.rank - 2)
        blocks = [split(r, sizes, axis=r.shape.rank - 1) for r in rows]
        return LinearOperatorBlockLowerTriangular(
            [[LinearOperatorFullMatrix(blocks[i][j]) for j in range(i + 1)]
             for i in range(len(sizes))], is_non_singular=True)

    def _determinant(self) -> TensorBase:
        det = self._diagonal()[0].determinant()
        for op in self._diagonal()[1:]:
            det = det * op.determinant()
        return det

    def _log_abs_determinant(self) -> TensorBase:
        total = self._diagonal()[0].log_abs_determinant()
        for op in self._diagonal()[1:]:
            total = total + op.log_abs_determinant()
        return total


def _kron_dense(a: TensorBase, b: TensorBase) -> TensorBase:
    """The Kronecker product of two batches of matrices."""
    ra, ca = a.shape.as_list()[-2:]
    rb, cb = b.shape.as_list()[-2:]
    a4 = shape_ops.expand_dims(shape_ops.expand_dims(a, -1), -3)       # [..., ra, 1, ca, 1]
    b4 = shape_ops.expand_dims(shape_ops.expand_dims(b, -2), -4)       # [..., 1, rb, 1, cb]
    prod = a4 * b4
    batch = prod.shape.as_list()[:-4]
    return shape_ops.reshape(prod, batch + [ra * rb, ca * cb])


class LinearOperatorKronecker(LinearOperator):
    """The Kronecker product ``A1 (x) A2 (x) ... (x) An``, as
    ``tf.linalg.LinearOperatorKronecker``."""

    def __init__(self, operators: list, is_non_singular: bool | None = None,
                 is_self_adjoint: bool | None = None, is_positive_definite: bool | None = None,
                 is_square: bool | None = None, name: str | None = None):
        """Builds the product.

        Args:
          operators: A non-empty list of LinearOperators of one dtype.
          is_non_singular: Hint.
          is_self_adjoint: Hint.
          is_positive_definite: Hint.
          is_square: Hint.
          name: A name (the operators' names joined by ``"_x_"`` by default).

        Raises:
          ValueError: An empty list.
          TypeError: Operators of different dtypes.
        """
        operators = list(operators)
        if not operators:
            raise ValueError("Expected a list of >=1 operators. Found: %s" % operators)
        if len({op.dtype for op in operators}) > 1:
            raise TypeError("Expected all operators to have the same dtype.")
        if all(op.is_non_singular for op in operators):
            is_non_singular = True if is_non_singular is None else is_non_singular
        if all(op.is_self_adjoint for op in operators):
            is_self_adjoint = True if is_self_adjoint is None else is_self_adjoint
        self._operators = operators
        super().__init__(operators[0].dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name or "_x_".join(op.name for op in operators),
                         parameters=dict(operators=operators, name=name))

    @property
    def operators(self) -> list:
        """The factors."""
        return list(self._operators)

    def _shape(self) -> TensorShape:
        rows = int(np.prod([op.shape.as_list()[-2] for op in self._operators]))
        cols = int(np.prod([op.shape.as_list()[-1] for op in self._operators]))
        return TensorShape(_batch_of(self._operators) + [rows, cols])

    def _to_dense(self) -> TensorBase:
        out = self._operators[0].to_dense()
        for op in self._operators[1:]:
            out = _kron_dense(out, op.to_dense())
        return out

    def _matmul(self, x: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        return matmul_dense(self._to_dense(), x, adjoint, adjoint_arg)

    def _solve(self, rhs: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        return self._inverse().matmul(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _determinant(self) -> TensorBase:
        total = int(self.shape.as_list()[-1])
        det = None
        for op in self._operators:
            n = op.shape.as_list()[-1]
            d = op.determinant() ** (total // n)
            det = d if det is None else det * d
        return det

    def _log_abs_determinant(self) -> TensorBase:
        total = int(self.shape.as_list()[-1])
        out = None
        for op in self._operators:
            n = op.shape.as_list()[-1]
            d = op.log_abs_determinant() * float(total // n)
            out = d if out is None else out + d
        return out

    def _diag_part(self) -> TensorBase:
        out = self._operators[0].diag_part()
        for op in self._operators[1:]:
            out = _outer_flat(out, op.diag_part())
        return out

    def _trace(self) -> TensorBase:
        tr = self._operators[0].trace()
        for op in self._operators[1:]:
            tr = tr * op.trace()
        return tr

    def _eigvals(self) -> TensorBase:
        out = self._operators[0].eigvals()
        for op in self._operators[1:]:
            out = _outer_flat(out, op.eigvals())
        return out

    def _adjoint(self) -> LinearOperator:
        return LinearOperatorKronecker([op.adjoint() for op in self._operators],
                                       is_non_singular=self.is_non_singular,
                                       is_self_adjoint=self.is_self_adjoint,
                                       is_positive_definite=self.is_positive_definite)

    def _inverse(self) -> LinearOperator:
        return LinearOperatorKronecker([op.inverse() for op in self._operators],
                                       is_non_singular=self.is_non_singular,
                                       is_self_adjoint=self.is_self_adjoint,
                                       is_positive_definite=self.is_positive_definite)

    def _cholesky(self) -> LinearOperator:
        return LinearOperatorKronecker([op.cholesky() for op in self._operators],
                                       is_non_singular=True)


def _outer_flat(a: TensorBase, b: TensorBase) -> TensorBase:
    """``[..., n] x [..., m] -> [..., n * m]``: every product, ``a``'s index major."""
    prod = shape_ops.expand_dims(a, -1) * shape_ops.expand_dims(b, -2)
    dims = prod.shape.as_list()
    return shape_ops.reshape(prod, dims[:-2] + [dims[-2] * dims[-1]])


class LinearOperatorLowRankUpdate(LinearOperator):
    """``L + U D V^H``: a base operator plus a low-rank update, as
    ``tf.linalg.LinearOperatorLowRankUpdate`` (solves and determinants by Woodbury's identity
    and the matrix determinant lemma)."""

    def __init__(self, base_operator: LinearOperator, u: Any, diag_update: Any = None,
                 v: Any = None, is_diag_update_positive: bool | None = None,
                 is_non_singular: bool | None = None, is_self_adjoint: bool | None = None,
                 is_positive_definite: bool | None = None, is_square: bool | None = None,
                 name: str = "LinearOperatorLowRankUpdate"):
        """Builds the update.

        Args:
          base_operator: ``L``, a LinearOperator ``[..., M, N]``.
          u: ``U``, a tensor ``[..., M, K]``.
          diag_update: The diagonal of ``D`` ``[..., K]`` (None: the identity).
          v: ``V`` ``[..., N, K]`` (None: ``U``).
          is_diag_update_positive: Hint: ``D`` is positive.
          is_non_singular: Hint.
          is_self_adjoint: Hint.
          is_positive_definite: Hint.
          is_square: Hint.
          name: A name for the operator.

        Raises:
          ValueError: A self-adjoint or positive-definite hint with ``v`` given.
        """
        dtype = base_operator.dtype
        self._base = base_operator
        self._u = as_tensor(u, dtype, name="u")
        self._v = self._u if v is None else as_tensor(v, dtype, name="v")
        self._diag = None if diag_update is None else as_tensor(diag_update, dtype,
                                                                name="diag_update")
        self._is_diag_update_positive = is_diag_update_positive
        if v is None and base_operator.is_self_adjoint and is_self_adjoint is None:
            is_self_adjoint = True
        if (v is None and base_operator.is_positive_definite and is_positive_definite is None
                and (diag_update is None or is_diag_update_positive)):
            is_positive_definite = True
        super().__init__(dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name, parameters=dict(base_operator=base_operator, u=u,
                                                    diag_update=diag_update, v=v, name=name))

    @property
    def base_operator(self) -> LinearOperator:
        """``L``."""
        return self._base

    @property
    def u(self) -> TensorBase:
        """``U``."""
        return self._u

    @property
    def v(self) -> TensorBase:
        """``V``."""
        return self._v

    @property
    def diag_update(self) -> TensorBase | None:
        """The diagonal of ``D`` (None: the identity)."""
        return self._diag

    @property
    def diag_operator(self) -> LinearOperator:
        """``D`` as an operator."""
        k = self._u.shape.as_list()[-1]
        if self._diag is None:
            return LinearOperatorIdentity(k, dtype=self.dtype)
        return LinearOperatorDiag(self._diag, is_positive_definite=self._is_diag_update_positive)

    @property
    def is_diag_update_positive(self) -> bool | None:
        """Hint: ``D`` is positive."""
        return self._is_diag_update_positive

    def _shape(self) -> TensorShape:
        batch = np.broadcast_shapes(tuple(self._base.batch_shape.as_list()),
                                    tuple(self._u.shape.as_list()[:-2]))
        return TensorShape(list(batch) + self._base.shape.as_list()[-2:])

    def _scaled(self, x: TensorBase) -> TensorBase:
        return x if self._diag is None else shape_ops.expand_dims(self._diag, -1) * x

    def _matmul(self, x: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        x = adjoint_of(x) if adjoint_arg else x
        left, right = (self._v, self._u) if adjoint else (self._u, self._v)
        diag = self._diag
        vh_x = matmul_dense(right, x, True, False)
        if diag is not None:
            d = conj(diag) if adjoint and diag.dtype.is_complex else diag
            vh_x = shape_ops.expand_dims(d, -1) * vh_x
        return self._base.matmul(x, adjoint=adjoint) + matmul_dense(left, vh_x, False, False)

    def _capacitance(self) -> TensorBase:
        """``C = D^-1 + V^H L^-1 U``."""
        linv_u = self._base.solve(self._u)
        vh_linv_u = matmul_dense(self._v, linv_u, True, False)
        k = self._u.shape.as_list()[-1]
        if self._diag is None:
            dinv = linalg_ops.eye(k, dtype=self.dtype)
        else:
            dinv = linalg_ops.diag(1.0 / self._diag)
        return vh_linv_u + dinv

    def _solve(self, rhs: TensorBase, adjoint: bool = False, adjoint_arg: bool = False) -> Any:
        rhs = adjoint_of(rhs) if adjoint_arg else rhs
        u, v = (self._v, self._u) if adjoint else (self._u, self._v)
        diag = self._diag
        linv_rhs = self._base.solve(rhs, adjoint=adjoint)
        linv_u = self._base.solve(u, adjoint=adjoint)
        k = u.shape.as_list()[-1]
        if diag is None:
            dinv = linalg_ops.eye(k, dtype=self.dtype)
        else:
            d = conj(diag) if adjoint and diag.dtype.is_complex else diag
            dinv = linalg_ops.diag(1.0 / d)
        cap = matmul_dense(v, linv_u, True, False) + dinv
        vh_linv_rhs = matmul_dense(v, linv_rhs, True, False)
        cap, vh_linv_rhs = broadcast_batch(cap, vh_linv_rhs)
        return linv_rhs - matmul_dense(linv_u, linalg_ops.solve(cap, vh_linv_rhs), False, False)

    def _determinant(self) -> TensorBase:
        det = self._base.determinant() * linalg_ops.det(self._capacitance())
        if self._diag is not None:
            det = det * reduce_prod(self._diag, axis=-1)
        return det

    def _log_abs_determinant(self) -> TensorBase:
        out = self._base.log_abs_determinant() + linalg_ops.slogdet(self._capacitance())[1]
        if self._diag is not None:
            out = out + reduce_sum(abs_log(self._diag), axis=-1)
        return out

    def _to_dense(self) -> TensorBase:
        return self._base.to_dense() + matmul_dense(self._u, self._scaled(adjoint_of(self._v)),
                                                    False, False)


DERIVED.update(adjoint=LinearOperatorAdjoint, inversion=LinearOperatorInversion, compose=compose)

__all__ = ["LinearOperatorAdjoint", "LinearOperatorInversion", "LinearOperatorComposition",
           "LinearOperatorBlockDiag", "LinearOperatorBlockLowerTriangular",
           "LinearOperatorKronecker", "LinearOperatorLowRankUpdate"]
