"""``tf.linalg.lu_solve``, ``lu_reconstruct`` and ``lu_matrix_inverse``: TensorFlow's
composites over the packed LU factors of ``tf.linalg.lu`` (a row gather by the permutation,
then two triangular solves or a product), so their gradients come from those ops."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.graph import name_scope
from flowgrad.framework.tensor import TensorBase, convert_to_tensor
from flowgrad.framework.type_hints import TensorLike
from flowgrad.ops.array_ops import _as_value
from flowgrad.ops.concat_ops import concat
from flowgrad.ops.fill_ops import ones, zeros_like
from flowgrad.ops.indexing_ops import gather
from flowgrad.ops.linalg_ops import band_part, set_diag, triangular_solve
from flowgrad.ops.manip_ops import broadcast_dynamic_shape
from flowgrad.ops.matmul_ops import matmul
from flowgrad.ops.shape_ops import broadcast_to, invert_permutation, shape
from flowgrad.ops.sort_ops import argsort


def _factors(lower_upper: Any, perm: Any) -> tuple:
    """The inputs as tensors, with TensorFlow's static checks of their shapes."""
    lower_upper = convert_to_tensor(_as_value(lower_upper), name="lower_upper")
    if lower_upper.dtype.base_dtype.is_integer:
        lower_upper = convert_to_tensor(_as_value(lower_upper), dtypes.float32)
    perm = convert_to_tensor(_as_value(perm), name="perm")
    s = lower_upper.shape
    if s.rank is not None and s.rank < 2:
        raise ValueError("Input `lower_upper` must have at least 2 dimensions.")
    if s.rank is not None and s[-2] is not None and s[-1] is not None and s[-2] != s[-1]:
        raise ValueError("`lower_upper.shape[-2]` must equal `lower_upper.shape[-1]`.")
    return lower_upper, perm


def _lower(lower_upper: Any) -> Any:
    """L: the strictly lower part with a unit diagonal."""
    return set_diag(band_part(lower_upper, -1, 0),
                    ones(shape(lower_upper)[:-1], dtype=lower_upper.dtype))


def _broadcast_batch(rhs: Any, perm: Any) -> tuple:
    """``rhs`` and ``perm`` broadcast to their common batch shape (static where known)."""
    rs, ps = rhs.shape.as_list(), perm.shape.as_list()
    if None not in rs[:-2] and None not in ps[:-1] and None not in rs[-2:]:
        batch = list(np.broadcast_shapes(tuple(rs[:-2]), tuple(ps[:-1])))
        return broadcast_to(rhs, batch + rs[-2:]), broadcast_to(perm, batch + rs[-2:-1])
    rhs_shape = shape(rhs)
    full = concat([broadcast_dynamic_shape(rhs_shape[:-2], shape(perm)[:-1]), rhs_shape[-2:]],
                  axis=0)
    rank = max(len(rs), len(ps) + 1)
    rhs_b, perm_b = broadcast_to(rhs, full), broadcast_to(perm, full[:-1])
    rhs_b.set_shape([None] * rank)          # the ranks are known statically
    perm_b.set_shape([None] * (rank - 1))
    return rhs_b, perm_b


def lu_solve(lower_upper: TensorLike, perm: TensorLike, rhs: TensorLike,
             validate_args: bool = False, name: str | None = None) -> TensorBase:
    """Solves ``A X = rhs`` given A's LU factors from ``tf.linalg.lu``.

    Example:

        >>> a = tf.constant([[2.0, 1.0], [4.0, 4.0]])
        >>> lu, p = tf.linalg.lu(a)
        >>> print(tf.linalg.lu_solve(lu, p, tf.constant([[4.0], [12.0]])).numpy())
        [[1.]
         [2.]]

    Args:
        lower_upper: The packed factors ``[..., M, M]`` (``tf.linalg.lu``'s first output).
        perm: The row permutations ``[..., M]`` (its second output).
        rhs: The right-hand sides ``[..., M, N]``; batch axes broadcast with ``perm``'s.
        validate_args: TensorFlow's switch for run-time checks; the checks that can be made
            from the static shapes are always made.
        name: A name for the operation (optional).

    Returns:
        X, of ``rhs``'s dtype, ``[..., M, N]``.

    Raises:
        ValueError: ``lower_upper`` or ``rhs`` has fewer than 2 dimensions, or their inner
            sizes differ.
    """
    del validate_args
    with name_scope(name, "lu_solve", [lower_upper, perm, rhs]):
        lower_upper, perm = _factors(lower_upper, perm)
        rhs = convert_to_tensor(_as_value(rhs), lower_upper.dtype, name="rhs")
        if rhs.shape.rank is not None and rhs.shape.rank < 2:
            raise ValueError("Input `rhs` must have at least 2 dimensions.")
        n_lu, n_rhs = lower_upper.shape[-1], rhs.shape[-2] if rhs.shape.rank else None
        if n_lu is not None and n_rhs is not None and n_lu != n_rhs:
            raise ValueError("`lower_upper.shape[-1]` must equal `rhs.shape[-1]`.")
        if rhs.shape.rank == 2 and perm.shape.rank == 1:
            permuted = gather(rhs, perm, axis=-2)
        else:
            batch_dims = max(rhs.shape.rank, perm.shape.rank + 1) - 2
            rhs_b, perm_b = _broadcast_batch(rhs, perm)
            permuted = gather(rhs_b, perm_b, axis=batch_dims, batch_dims=batch_dims)
        return triangular_solve(lower_upper, triangular_solve(_lower(lower_upper), permuted),
                                lower=False)


def lu_matrix_inverse(lower_upper: TensorLike, perm: TensorLike, validate_args: bool = False,
                      name: str | None = None) -> TensorBase:
    """The inverse of A from its LU factors (``lu_solve`` of the identity).

    Args:
        lower_upper: The packed factors ``[..., M, M]`` of ``tf.linalg.lu``.
        perm: The row permutations ``[..., M]``.
        validate_args: TensorFlow's switch for run-time checks (static checks always run).
        name: A name for the operation (optional).

    Returns:
        inv(A), ``[..., M, M]``.

    Raises:
        ValueError: ``lower_upper`` has fewer than 2 dimensions or is not square.
    """
    with name_scope(name, "lu_matrix_inverse", [lower_upper, perm]):
        lower_upper, perm = _factors(lower_upper, perm)
        identity = set_diag(zeros_like(lower_upper),       # eye of the (dynamic) batch shape
                            ones(shape(lower_upper)[:-1], dtype=lower_upper.dtype))
        return lu_solve(lower_upper, perm, identity, validate_args=validate_args)


def lu_reconstruct(lower_upper: TensorLike, perm: TensorLike, validate_args: bool = False,
                   name: str | None = None) -> TensorBase:
    """A from its LU factors: ``L @ U`` with the rows put back by ``perm``.

    Args:
        lower_upper: The packed factors ``[..., M, M]`` of ``tf.linalg.lu``.
        perm: The row permutations ``[..., M]``.
        validate_args: TensorFlow's switch for run-time checks (static checks always run).
        name: A name for the operation (optional).

    Returns:
        A, ``[..., M, M]``.

    Raises:
        ValueError: ``lower_upper`` has fewer than 2 dimensions or is not square.
    """
    del validate_args
    with name_scope(name, "lu_reconstruct", [lower_upper, perm]):
        lower_upper, perm = _factors(lower_upper, perm)
        x = matmul(_lower(lower_upper), band_part(lower_upper, 0, -1))
        if lower_upper.shape.rank == 2:
            return gather(x, invert_permutation(perm))
        rank = lower_upper.shape.rank
        inverse = argsort(perm, axis=-1)
        return gather(x, inverse, axis=rank - 2, batch_dims=rank - 2)
