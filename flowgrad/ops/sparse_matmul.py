"""``tf.sparse.sparse_dense_matmul``: the SparseTensorDenseMatMul op (a rank-2 SparseTensor
times a dense matrix), with TensorFlow's gradients w.r.t. the sparse values and the dense
matrix (none w.r.t. the indices or the shape)."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import errors
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import defop
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.framework.shape_rules import constant_value
from flowgrad.ops.indexing_ops import gather
from flowgrad.ops.shape_ops import transpose
from flowgrad.ops.sparse_tensor import SparseTensor
from flowgrad.ops.sum_ops import reduce_sum
from flowgrad.framework.type_hints import TensorLike


def _kernel(a_indices: Any, a_values: Any, a_shape: Any, b: Any, *, adjoint_a: bool,
            adjoint_b: bool) -> np.ndarray:
    shape = tuple(int(d) for d in np.asarray(a_shape))
    idx = np.asarray(a_indices, np.int64).reshape(-1, 2)
    if idx.size and (np.any(idx < 0) or np.any(idx >= np.array(shape))):
        bad = int(np.argmax(np.any((idx < 0) | (idx >= np.array(shape)), axis=1)))
        raise errors.InvalidArgumentError(None, None, "k (%d) from index[%d,%d] out of bounds "
                                          "(>=%d)" % (idx[bad, 1], bad, 1, shape[1])
                                          if idx[bad, 0] < shape[0] else
                                          "row (%d) from index[%d,0] out of bounds (>=%d)"
                                          % (idx[bad, 0], bad, shape[0]))
    b = np.asarray(b)
    dense = np.zeros(shape, np.result_type(np.asarray(a_values).dtype, b.dtype))
    np.add.at(dense, (idx[:, 0], idx[:, 1]), np.asarray(a_values))
    a = dense.T if adjoint_a else dense
    bb = b.T if adjoint_b else b
    if a.shape[1] != bb.shape[0]:
        raise errors.InvalidArgumentError(None, None, "Cannot multiply A and B because inner "
                                          "dimension does not match: %d vs. %d.  Did you "
                                          "forget a transpose?  Dimensions of A: [%d, %d]).  "
                                          "Dimensions of B: %s" % (a.shape[1], bb.shape[0],
                                                                   *a.shape, list(b.shape)))
    return (a @ bb).astype(dense.dtype)


def _infer(ins: list, attrs: dict) -> tuple:
    a_shape = constant_value(ins[2])
    rows = None
    if a_shape is not None:
        a_shape = [int(d) for d in np.asarray(a_shape)]
        rows = a_shape[1] if attrs["adjoint_a"] else a_shape[0]
    b = ins[3].shape.as_tuple()
    cols = None if b is None else (b[0] if attrs["adjoint_b"] else b[1])
    return ins[1].dtype.base_dtype, TensorShape([rows, cols])


@defop("SparseTensorDenseMatMul", _kernel, _infer,
       input_names=("a_indices", "a_values", "a_shape", "b"))
def _grad(op: Any, grad: Any) -> list:
    a_indices, a_values, a_shape, b = op.inputs
    adj_a, adj_b = op.get_attr("adjoint_a"), op.get_attr("adjoint_b")
    b_grad = apply_op("SparseTensorDenseMatMul", [a_indices, a_values, a_shape, grad],
                      {"adjoint_a": not adj_a, "adjoint_b": False})
    if adj_b:
        b_grad = transpose(b_grad)
    rows = gather(a_indices, 0, axis=1)
    cols = gather(a_indices, 1, axis=1)
    parts_a = gather(grad, cols if adj_a else rows)
    parts_b = gather(transpose(b) if adj_b else b, rows if adj_a else cols)
    return [None, reduce_sum(parts_a * parts_b, axis=1), None, b_grad]


def sparse_dense_matmul(sp_a: Any, b: TensorLike, adjoint_a: bool = False, adjoint_b: bool = False,
                        name: str | None = None) -> Any:
    """``op(sp_a) @ op(b)`` for a rank-2 SparseTensor ``sp_a`` and a dense matrix ``b``
    (``op`` the adjoint where asked).

    Args:
        sp_a: a rank-2 SparseTensor (or a dense matrix, then ``b`` is the SparseTensor).
        b: a dense matrix of the values' dtype.
        adjoint_a: use the adjoint (transpose) of ``sp_a``.
        adjoint_b: use the adjoint (transpose) of ``b``.
        name: the op's name.

    Returns:
        The dense product.

    Raises:
        InvalidArgumentError: an index is out of bounds or the inner dimensions differ.
    """
    if isinstance(b, SparseTensor) and not isinstance(sp_a, SparseTensor):
        # a @ sp_b == (sp_b^T @ a^T)^T, as TensorFlow computes it
        return transpose(sparse_dense_matmul(b, sp_a, adjoint_a=not adjoint_b,
                                             adjoint_b=not adjoint_a))
    if not isinstance(sp_a, SparseTensor):
        raise TypeError("sparse_dense_matmul: sp_a must be a SparseTensor, got %r" % (sp_a,))
    b = convert_to_tensor(b, sp_a.dtype)
    return apply_op("SparseTensorDenseMatMul", [sp_a.indices, sp_a.values, sp_a.dense_shape, b],
                    {"adjoint_a": bool(adjoint_a), "adjoint_b": bool(adjoint_b)},
                    name=name or "SparseTensorDenseMatMul")
