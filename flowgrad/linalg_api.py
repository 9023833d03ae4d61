"""``tf.linalg`` (both faces): matrix functions on the last two axes, batched."""
from flowgrad.ops.einsum_ops import einsum, tensordot
from flowgrad.ops.linalg_ops import (band_part, cholesky, cholesky_solve, det, diag, diag_part,
                                     eigh, eigvalsh, expm, eye, inv, logdet, lstsq,
                                     matrix_transpose, matvec, norm, qr, set_diag, slogdet, solve,
                                     svd, trace, triangular_solve)
from flowgrad.ops.matmul_ops import matmul
from flowgrad.ops.clip_ops import global_norm
from flowgrad.ops.nn_impl import l2_normalize
from flowgrad.ops.linalg_extra_ops import cross, eig, eigvals, lu, matrix_rank, pinv

adjoint = matrix_transpose      # real dtypes: the adjoint is the transpose

__all__ = ["adjoint", "band_part", "cholesky", "cholesky_solve", "det", "diag", "diag_part",
           "eigh", "eigvalsh", "einsum", "expm", "eye", "global_norm", "inv", "l2_normalize",
           "logdet", "lstsq", "matmul", "matrix_transpose", "matvec", "norm", "qr", "set_diag",
           "slogdet", "solve", "svd", "tensordot", "trace", "triangular_solve", "cross",
           "eig", "eigvals", "lu", "matrix_rank", "pinv"]
