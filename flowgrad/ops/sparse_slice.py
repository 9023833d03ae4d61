"""``tf.sparse.slice`` (the SparseSlice op, with TensorFlow's gradient w.r.t. the values) and
``tf.sparse.map_values``."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad import nest
from flowgrad.framework import dtypes
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import defop
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.array_ops import expand_dims
from flowgrad.ops.check_ops import assert_equal
from flowgrad.ops.control_flow_ops import control_dependencies
from flowgrad.ops.fill_ops import range as range_op
from flowgrad.ops.indexing_ops import gather
from flowgrad.ops.scatter_nd_ops import scatter_nd
from flowgrad.ops.shape_ops import shape as shape_of
from flowgrad.ops.sparse_tensor import SparseTensor
from flowgrad.framework.type_hints import TensorLike


def _kernel(indices: Any, values: Any, shape: Any, start: Any, size: Any) -> tuple:
    idx = np.asarray(indices, np.int64).reshape(len(indices), -1)
    shape = np.asarray(shape, np.int64)
    start = np.asarray(start, np.int64)
    end = np.minimum(start + np.asarray(size, np.int64), shape)
    keep = np.all((idx >= start) & (idx < end), axis=1)
    return (idx[keep] - start, np.asarray(values)[keep],
            np.maximum(end - start, 0).astype(np.int64))


def _infer(ins: list, attrs: dict) -> list:
    rank = ins[0].shape.as_tuple()[1] if ins[0].shape.rank == 2 else None
    return [(dtypes.int64, TensorShape([None, rank])),
            (ins[1].dtype.base_dtype, TensorShape([None])), (dtypes.int64, TensorShape([rank]))]


@defop("SparseSlice", _kernel, _infer, num_outputs=3,
       input_names=("indices", "values", "shape", "start", "size"))
def _grad(op: Any, unused_indices_grad: Any, values_grad: Any, unused_shape_grad: Any) -> list:
    """TensorFlow's: each kept value gets the gradient of its place in the slice, the others
    zero."""
    indices, _, shape, start, size = op.inputs
    entries = gather(shape_of(indices, out_type=dtypes.int64), 0)
    kept = apply_op("SparseSlice", [indices, range_op(entries, dtype=dtypes.int64), shape,
                                    start, size])[1]
    return [None, scatter_nd(expand_dims(kept, 1), values_grad, expand_dims(entries, 0)),
            None, None, None]


def sparse_slice(sp_input: SparseTensor, start: Any, size: TensorLike,
                 name: str | None = None) -> SparseTensor:
    """The part of ``sp_input`` in the box ``[start, start + size)``, re-indexed from
    ``start``; its dense shape is clipped to ``sp_input``'s.

    Args:
        sp_input: the SparseTensor.
        start: 1-D int64: where the slice starts in each dimension.
        size: 1-D int64: the slice's size in each dimension.
        name: the op's name.

    Returns:
        The sliced SparseTensor.

    Raises:
        TypeError: ``sp_input`` is not a SparseTensor.
    """
    if not isinstance(sp_input, SparseTensor):
        raise TypeError("Input must be a SparseTensor.")
    indices, values, shape = apply_op(
        "SparseSlice", [sp_input.indices, sp_input.values, sp_input.dense_shape,
                        convert_to_tensor(start, dtypes.int64),
                        convert_to_tensor(size, dtypes.int64)], name=name or "SparseSlice")
    return SparseTensor(indices, values, shape)


def map_values(op: Any, *args: Any, **kwargs: Any) -> SparseTensor:
    """``op`` applied to the values of the SparseTensors among ``args``/``kwargs`` (all of the
    same indices and dense shape); implicit zeros stay zeros.

    Args:
        op: An element-wise operation (any that keeps the values' shape).
        *args: Its arguments, SparseTensors replaced by their values.
        **kwargs: Its keyword arguments, likewise.

    Returns:
        A SparseTensor with the first SparseTensor's indices and dense shape.

    Raises:
        ValueError: there is no SparseTensor among the arguments.
    """
    found: list = []

    def values_of(x: Any) -> Any:
        if isinstance(x, SparseTensor):
            found.append(x)
            return x.values
        return x
    inner_args = nest.map_structure(values_of, list(args))
    inner_kwargs = nest.map_structure(values_of, kwargs)
    if not found:
        raise ValueError("No SparseTensor in argument list of map_values")
    checks = []
    for other in found[1:]:
        checks.append(assert_equal(other.indices, found[0].indices,
                                   message="SparseTensors to map_values have different indices"))
        checks.append(assert_equal(other.dense_shape, found[0].dense_shape,
                                   message="SparseTensors to map_values have different "
                                           "dense_shapes"))
    with control_dependencies(checks):
        return SparseTensor(found[0].indices, op(*inner_args, **inner_kwargs),
                            found[0].dense_shape)


__all__ = ["sparse_slice", "map_values"]
