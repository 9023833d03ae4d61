"""``tensorflow.python.ops.linalg.sparse.sparse_csr_matrix_ops``: CSR sparse matrices are
not supported by flowgrad; the functions exist (Keras imports the module) and raise
``NotImplementedError`` when called."""
from __future__ import annotations

from typing import Any


def _unsupported(name: str) -> Any:
    def fail(*args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("%s: CSR sparse matrices are not supported by flowgrad; use "
                                  "tf.sparse.sparse_dense_matmul or dense tensors." % name)
    fail.__name__ = fail.__qualname__ = name
    return fail


csr_sparse_matrix_to_sparse_tensor = _unsupported("csr_sparse_matrix_to_sparse_tensor")
sparse_matrix_sparse_mat_mul = _unsupported("sparse_matrix_sparse_mat_mul")
sparse_tensor_to_csr_sparse_matrix = _unsupported("sparse_tensor_to_csr_sparse_matrix")

__all__ = ["csr_sparse_matrix_to_sparse_tensor", "sparse_matrix_sparse_mat_mul",
           "sparse_tensor_to_csr_sparse_matrix"]
