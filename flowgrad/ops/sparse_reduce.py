"""``tf.sparse.reduce_sum``: the SparseReduceSum op (the dense sum of a SparseTensor over
some axes) with TensorFlow's gradient w.r.t. the values; ``tf.sparse.reduce_max``: the
SparseReduceMax op (the maximum of the values present, 0 where none is; no gradient, as in
TensorFlow)."""
from __future__ import annotations

import functools
from typing import Any

import numpy as np

from flowgrad.framework import errors
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import NotDifferentiable, defop, register_op
from flowgrad.framework.shape_rules import constant_value
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape, unknown_shape
from flowgrad.framework import dtypes
from flowgrad.ops.array_ops import reshape
from flowgrad.ops.scatter_nd_ops import gather_nd
from flowgrad.ops.sparse_tensor import SparseTensor
from flowgrad.framework.type_hints import AxisLike


def _axes(axes: Any, rank: int) -> tuple:
    flat = [int(a) for a in np.asarray(axes).reshape(-1)]
    for a in flat:
        if not -rank <= a < rank:
            raise errors.InvalidArgumentError(None, None, "Invalid reduction dimension %d, for "
                                              "input with %d dimensions." % (a, rank))
    return tuple(sorted({a % rank for a in flat}))


def _kernel(indices: Any, values: Any, shape: Any, axes: Any, *, keep_dims: bool) -> np.ndarray:
    dims = tuple(int(d) for d in np.asarray(shape))
    values = np.asarray(values)
    dense = np.zeros(dims, values.dtype)
    idx = np.asarray(indices, np.int64).reshape(-1, len(dims))
    if idx.size and (np.any(idx < 0) or np.any(idx >= np.array(dims))):
        raise errors.InvalidArgumentError(None, None, "SparseReduceSum: an index is out of "
                                          "bounds of the dense shape %s" % list(dims))
    np.add.at(dense, tuple(idx.T), values)
    return np.asarray(dense.sum(axis=_axes(axes, len(dims)), keepdims=keep_dims),
                      values.dtype)


def _infer(ins: list, attrs: dict) -> tuple:
    shape, axes = constant_value(ins[2]), constant_value(ins[3])
    if shape is None or axes is None:
        return ins[1].dtype.base_dtype, unknown_shape()
    dims = [int(d) for d in np.asarray(shape)]
    red = _axes(axes, len(dims))
    out = [1 if i in red else d for i, d in enumerate(dims)] if attrs["keep_dims"] else \
        [d for i, d in enumerate(dims) if i not in red]
    return ins[1].dtype.base_dtype, TensorShape(out)


@defop("SparseReduceSum", _kernel, _infer,
       input_names=("input_indices", "input_values", "input_shape", "reduction_axes"))
def _grad(op: Any, out_grad: Any) -> list:
    """TensorFlow's: the gradient, kept-dims shaped, gathered at ``indices // scale``."""
    indices, _, sp_shape, axes = op.inputs
    axes_value = constant_value(axes)
    rank = indices.shape.as_tuple()[1] if indices.shape.rank == 2 else None
    if axes_value is None or rank is None:
        raise errors.UnimplementedError(None, op, "The gradient of SparseReduceSum needs "
                                        "constant reduction axes and a known rank.")
    mask = np.zeros([rank], np.int64)
    mask[list(_axes(axes_value, rank))] = 1
    kept = sp_shape * (1 - mask) + mask
    scale = sp_shape // kept
    return [None, gather_nd(reshape(out_grad, kept), indices // scale), None, None]


def _sparse_out_kernel(indices: Any, values: Any, shape: Any, axes: Any, *, keep_dims: bool,
                       reduce: str) -> tuple:
    """SparseReduceSumSparse / SparseReduceMaxSparse: the reduction of the entries present,
    one output entry per reduced coordinate that has some (sorted)."""
    dims = tuple(int(d) for d in np.asarray(shape))
    values = np.asarray(values)
    idx = np.asarray(indices, np.int64).reshape(-1, len(dims))
    if idx.size and (np.any(idx < 0) or np.any(idx >= np.array(dims))):
        raise errors.InvalidArgumentError(None, None, "SparseReduce: an index is out of "
                                          "bounds of the dense shape %s" % list(dims))
    red = _axes(axes, len(dims))
    kept = [i for i in range(len(dims)) if i not in red]
    out_dims = [1 if i in red else d for i, d in enumerate(dims)] if keep_dims else \
        [dims[i] for i in kept]
    coords = idx[:, kept]
    uniq, inverse = np.unique(coords, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    if reduce == "sum":
        out = np.zeros(len(uniq), values.dtype)
        np.add.at(out, inverse, values)
    else:
        lowest = -np.inf if values.dtype.kind == "f" else np.iinfo(values.dtype).min
        out = np.full(len(uniq), lowest, values.dtype)
        np.maximum.at(out, inverse, values)
    if keep_dims:
        full = np.zeros((len(uniq), len(dims)), np.int64)
        full[:, kept] = uniq
        uniq = full
    return (uniq.astype(np.int64).reshape(len(out), len(out_dims)), out,
            np.asarray(out_dims, np.int64))


def _sparse_out_infer(ins: list, attrs: dict) -> list:
    dense = _infer(ins, attrs)[1]
    rank = dense.rank
    return [(dtypes.int64, TensorShape([None, rank])), (ins[1].dtype.base_dtype,
                                                        TensorShape([None])),
            (dtypes.int64, TensorShape([rank]))]


for _t, _r in (("SparseReduceSumSparse", "sum"), ("SparseReduceMaxSparse", "max")):
    register_op(_t, functools.partial(_sparse_out_kernel, reduce=_r), _sparse_out_infer,
                num_outputs=3,
                input_names=("input_indices", "input_values", "input_shape",
                             "reduction_axes"))
    NotDifferentiable(_t)


def _reduce(op_type: str, what: str, sp_input: Any, axis: Any, keepdims: Any,
            output_is_sparse: bool, name: str | None) -> Any:
    """The reduction ``op_type`` of ``sp_input`` over ``axis`` (all when None): dense, or
    a SparseTensor (``op_type + "Sparse"``) with ``output_is_sparse``."""
    if not isinstance(sp_input, SparseTensor):
        raise TypeError("Input must be a SparseTensor.")
    if axis is None:
        rank = sp_input.indices.shape.as_tuple()[1] if sp_input.indices.shape.rank == 2 \
            else None
        if rank is None:
            raise ValueError("tf.sparse.%s with axis=None needs a known rank" % what)
        axis = list(range(rank))
    inputs = [sp_input.indices, sp_input.values, sp_input.dense_shape,
              convert_to_tensor(np.asarray(axis, np.int32), dtypes.int32)]
    if output_is_sparse:
        return SparseTensor(*apply_op(op_type + "Sparse", inputs, {"keep_dims": bool(keepdims)},
                                      name=name or op_type + "Sparse"))
    return apply_op(op_type, inputs, {"keep_dims": bool(keepdims)}, name=name or op_type)


def reduce_sum(sp_input: SparseTensor, axis: AxisLike = None, keepdims: bool | None = None,
               output_is_sparse: bool = False, name: str | None = None) -> Any:
    """The sum of ``sp_input``'s elements over ``axis`` (all when None), a dense tensor.

    Args:
        sp_input: the SparseTensor.
        axis: the axes to reduce (ints in [-rank, rank)), or None for all.
        keepdims: keep the reduced axes with length 1.
        output_is_sparse: a SparseTensor result (SparseReduceSumSparse: the sums of the
            reduced coordinates that have entries; not differentiable, as in TensorFlow).
        name: the op's name.

    Returns:
        The sum: dense, or a SparseTensor.

    Raises:
        InvalidArgumentError: an axis is out of range.
    """
    return _reduce("SparseReduceSum", "reduce_sum", sp_input, axis, keepdims, output_is_sparse,
                   name)


def _max_kernel(indices: Any, values: Any, shape: Any, axes: Any, *,
                keep_dims: bool) -> np.ndarray:
    dims = tuple(int(d) for d in np.asarray(shape))
    values = np.asarray(values)
    idx = np.asarray(indices, np.int64).reshape(-1, len(dims))
    if idx.size and (np.any(idx < 0) or np.any(idx >= np.array(dims))):
        raise errors.InvalidArgumentError(None, None, "SparseReduceMax: an index is out of "
                                          "bounds of the dense shape %s" % list(dims))
    red = _axes(axes, len(dims))
    out_dims = tuple(1 if i in red else d for i, d in enumerate(dims))
    lowest = -np.inf if values.dtype.kind == "f" else np.iinfo(values.dtype).min
    out = np.full(out_dims, lowest, values.dtype)
    seen = np.zeros(out_dims, bool)
    place = tuple(np.zeros(len(idx), np.int64) if i in red else idx[:, i]
                  for i in range(len(dims)))
    np.maximum.at(out, place, values)
    seen[place] = True
    out[~seen] = 0
    return out if keep_dims else out.reshape([d for i, d in enumerate(dims) if i not in red])


register_op("SparseReduceMax", _max_kernel, _infer,
            input_names=("input_indices", "input_values", "input_shape", "reduction_axes"))
NotDifferentiable("SparseReduceMax")


def reduce_max(sp_input: SparseTensor, axis: AxisLike = None, keepdims: bool | None = None,
               output_is_sparse: bool = False, name: str | None = None) -> Any:
    """The maximum of ``sp_input``'s values over ``axis`` (all when None), a dense tensor:
    the values not present take no part, and a slice without values gives 0.

    Args:
        sp_input: the SparseTensor.
        axis: the axes to reduce (ints in [-rank, rank)), or None for all.
        keepdims: keep the reduced axes with length 1.
        output_is_sparse: a SparseTensor result (SparseReduceMaxSparse: the maxima of the
            reduced coordinates that have entries).
        name: the op's name.

    Returns:
        The dense maximum.

    Raises:
        InvalidArgumentError: an axis is out of range.
    """
    return _reduce("SparseReduceMax", "reduce_max", sp_input, axis, keepdims, output_is_sparse,
                   name)
